import { describe, expect, it } from "vitest";
import { routes } from "@/lib/api/routes";
import { buildOpenApi } from "@/lib/api/openapi";
import { compilePath, matchPath } from "@/lib/api/define-route";
import { checkAnswer } from "@/tests/helpers/response-check";
import { makePdf } from "@/tests/helpers/pdf-fixtures";

describe("route table (lib/api/routes.ts)", () => {
  it("ids are unique and no two entries share a method and path", () => {
    expect(new Set(routes.map((r) => r.id)).size).toBe(routes.length);
    const pairs = routes.flatMap((r) => r.methods.map((m) => `${m} ${r.path.toLowerCase()}`));
    expect(new Set(pairs).size).toBe(pairs.length);
  });

  it("every entry's handler loads", async () => {
    for (const r of routes) expect(typeof (await r.handler()), r.id).toBe("function");
  });

  it("the OpenAPI document lists every entry under its path and methods", () => {
    const doc = buildOpenApi();
    const paths = doc.paths as Record<string, Record<string, { operationId: string }>>;
    for (const r of routes) {
      for (const m of r.methods.filter((x) => x !== "HEAD")) {
        expect(paths[r.path]?.[m.toLowerCase()]?.operationId, `${m} ${r.path}`).toMatch(new RegExp(`^${r.id}`));
      }
    }
    const ids = Object.values(paths).flatMap((p) => Object.values(p).map((o) => o.operationId));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("paths match with their parameters decoded, any letter case, nothing more", () => {
    const p = compilePath("/v1/jobs/{jobId}/rerun");
    expect(matchPath(p, "/v1/jobs/a%20b/rerun")).toEqual({ jobId: "a b" });
    expect(matchPath(p, "/V1/Jobs/x/RERUN")).toEqual({ jobId: "x" });
    expect(matchPath(p, "/v1/jobs/x/y/rerun")).toBeNull();
    expect(matchPath(p, "/v1/jobs/%E0%A4%A/rerun")).toBeNull();
  });
});

describe("response check (tests/helpers/response-check.ts): drift fails", () => {
  it("accepts an answer as declared", () => {
    expect(() => checkAnswer("GET", "/v1/account/credit/balance", 200, { remainingCredits: 5, error: false, status: 200 })).not.toThrow();
    expect(() => checkAnswer("POST", "/v1/pdf/info", 449, { error: true, status: 449, message: "pages: …" })).not.toThrow();
  });

  it("an undeclared field, a missing field or a wrong type throws", () => {
    expect(() => checkAnswer("GET", "/v1/account/credit/balance", 200, { remainingCredits: 5, error: false, status: 200, extra: 1 })).toThrow(/extra/);
    expect(() => checkAnswer("GET", "/v1/account/webhook-secret", 200, { error: false, status: 200 })).toThrow(/secret/);
    expect(() => checkAnswer("GET", "/v1/jobs", 200, { error: false, status: 200, jobs: [{ jobId: 1 }] })).toThrow(/jobs\.0/);
  });

  it("operation answers are checked against the envelope plus the contract's response fields", () => {
    const base = { error: false, status: 200, credits: 1, remainingCredits: 9, duration: 3 };
    expect(() => checkAnswer("POST", "/v1/pdf/info", 200, { ...base, info: { PageCount: 2 }, pageCount: 2 })).not.toThrow();
    expect(() => checkAnswer("POST", "/v1/pdf/info", 200, base)).toThrow(/info/);
    expect(() => checkAnswer("POST", "/v1/pdf/split", 200, { ...base, urls: "x" })).toThrow(/urls/);
    expect(() => checkAnswer("POST", "/v1/pdf/split", 200, { jobId: "j", url: "u", name: "n", ...base })).not.toThrow();
  });

  it("an error body whose status differs from the HTTP status throws", () => {
    expect(() => checkAnswer("POST", "/v1/pdf/info", 400, { error: true, status: 454, message: "x" })).toThrow(/HTTP status is 400/);
  });

  it("files are not JSON: nothing to check", () => {
    expect(() => checkAnswer("GET", "/files/x/y.pdf", 200, makePdf({ pages: 1 }).toString("latin1"))).not.toThrow();
  });
});
