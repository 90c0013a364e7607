import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { routes } from "@/lib/api/routes";
import { operations, operationMethods } from "@/lib/operations/registry";
import { startQuire, waitForJob, type QuireServer } from "../helpers/quire-server";
import { uploadBytes, download } from "../helpers/api-client";
import { makePdf } from "../helpers/pdf-fixtures";

let q: QuireServer;
let pdf: string;

beforeAll(async () => {
  q = await startQuire();
  pdf = await uploadBytes(q, makePdf({ pages: 2 }), "two.pdf", "application/pdf");
});
afterAll(async () => q?.stop());

/**
 * One real call per method of every entry of the route table. Each answer goes through q.api,
 * which checks it against the entry's response schema (tests/helpers/response-check.ts), so this
 * file fails when an endpoint is added without a call here or when an answer drifts from its schema.
 */
const calls: Record<string, (method: string) => Promise<void>> = {
  health: async () => {
    const r = await q.api("/healthz", { key: null });
    expect(r.body).toEqual({ ok: true });
  },
  ready: async () => {
    const r = await q.api("/readyz", { key: null });
    expect(r.body).toEqual({ ok: true, checks: { database: "ok", queue: "ok", storage: "ok" } });
  },
  metrics: async () => {
    const r = await q.api("/metrics", { key: null });
    expect(r.status).toBe(200);
    expect(r.body).toMatch(/^# HELP /m);
    expect(r.body).toMatch(/quire_http_requests_total\{method="GET",route="\/readyz",status="200"\} \d+/);
  },
  openapi: async () => {
    const r = await q.api("/v1/openapi.json", { key: null });
    expect(r.body.paths["/v1/jobs/{jobId}/rerun"].post.operationId).toBe("job-rerun");
  },
  "credit-balance": async (method) => {
    const r = await q.api("/v1/account/credit/balance", { method });
    expect(r.status).toBe(200);
    expect(r.body.remainingCredits).toBeGreaterThan(0);
  },
  account: async () => {
    const r = await q.api("/v1/account");
    expect(r.body.email).toBe(q.adminEmail);
  },
  "credit-ledger": async () => {
    const r = await q.api("/v1/account/credit/ledger?days=7");
    expect(r.body.entries.some((e: { kind: string }) => e.kind === "grant")).toBe(true);
  },
  keys: async () => {
    const r = await q.api("/v1/account/keys");
    expect(r.body.keys.length).toBeGreaterThan(0);
  },
  "key-create": async () => {
    const r = await q.api("/v1/account/keys", { json: { name: "routes test" } });
    expect(r.body.key.name).toBe("routes test");
    expect(r.body.secret).toMatch(/^qk_/);
  },
  "key-revoke": async () => {
    const created = await q.api("/v1/account/keys", { json: { name: "to revoke" } });
    const r = await q.api(`/v1/account/keys/${created.body.key.id}`, { method: "DELETE" });
    expect(r.body.revoked).toBe(created.body.key.id);
    const missing = await q.api("/v1/account/keys/not-a-key", { method: "DELETE" });
    expect(missing.status).toBe(404);
  },
  "webhook-secret": async () => {
    const r = await q.api("/v1/account/webhook-secret");
    expect(r.body.secret).toMatch(/^whsec_/);
  },
  "webhook-secret-rotate": async () => {
    const before = (await q.api("/v1/account/webhook-secret")).body.secret;
    const r = await q.api("/v1/account/webhook-secret/rotate", { method: "POST" });
    expect(r.body.secret).not.toBe(before);
  },
  "job-check": async (method) => {
    const started = await q.api("/v1/pdf/info", { json: { url: pdf, async: true } });
    await waitForJob(q, started.body.jobId);
    const r =
      method === "GET"
        ? await q.api(`/v1/job/check?jobid=${started.body.jobId}`)
        : await q.api("/v1/job/check", { json: { jobid: started.body.jobId } });
    expect(r.body.status).toBe("success");
    expect(r.body.info.PageCount).toBe(2);
  },
  jobs: async () => {
    const r = await q.api("/v1/jobs?limit=5");
    expect(r.body.jobs.length).toBeGreaterThan(0);
    expect(r.body.jobs.length).toBeLessThanOrEqual(5);
  },
  "job-detail": async () => {
    const done = await q.api("/v1/pdf/split", { json: { url: pdf, pages: "1" } });
    const jobId = (await q.api("/v1/jobs?limit=1")).body.jobs[0].jobId;
    const r = await q.api(`/v1/jobs/${jobId}`);
    expect(r.body.job.operation).toBe("pdf-split");
    expect(r.body.job.result.urls).toHaveLength(done.body.urls.length);
  },
  "job-rerun": async () => {
    await q.api("/v1/pdf/split", { json: { url: pdf, pages: "2" } });
    const jobId = (await q.api("/v1/jobs?limit=1")).body.jobs[0].jobId;
    const r = await q.api(`/v1/jobs/${jobId}/rerun`, { method: "POST" });
    expect(r.status).toBe(200);
    expect(r.body.urls).toHaveLength(1);
  },
  "upload-presigned-url": async () => {
    const r = await q.api("/v1/file/upload/get-presigned-url?name=a.pdf&contenttype=application/pdf");
    expect(r.body.name).toBe("a.pdf");
  },
  "upload-multipart": async (method) => {
    if (method === "GET") {
      const r = await q.api("/v1/file/upload");
      expect(r.status).toBe(400);
      return;
    }
    const fd = new FormData();
    fd.set("file", new Blob([new Uint8Array(makePdf({ pages: 1 }))]), "one.pdf");
    const r = await q.api("/v1/file/upload", { body: fd });
    expect(r.body.name).toBe("one.pdf");
  },
  "upload-base64": async () => {
    const r = await q.api("/v1/file/upload/base64", {
      json: { name: "b.pdf", file: makePdf({ pages: 1 }).toString("base64") },
    });
    expect(r.body.name).toBe("b.pdf");
  },
  "storage-get": async (method) => {
    const r = await fetch(pdf, { method });
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("application/pdf");
  },
  "storage-put": async () => {
    const pre = await q.api("/v1/file/upload/get-presigned-url?name=c.bin");
    const put = await fetch(pre.body.presignedUrl, { method: "PUT", body: "abc" });
    expect(put.status).toBe(200);
    expect((await download(pre.body.url)).bytes.toString()).toBe("abc");
  },
  "file-upload-url": async (method) => {
    const r = method === "GET" ? await q.api(`/v1/file/upload/url?url=${encodeURIComponent(pdf)}&name=copy.pdf`) : await q.api("/v1/file/upload/url", { json: { url: pdf, name: "copy.pdf" } });
    expect(r.body.name).toBe("copy.pdf");
    expect(r.body.token).toMatch(/^[0-9a-f]{32}$/);
  },
  "file-hash": async (method) => {
    const r = method === "GET" ? await q.api(`/v1/file/hash?url=${encodeURIComponent(pdf)}`) : await q.api("/v1/file/hash", { json: { url: pdf } });
    expect(r.body.hash).toMatch(/^[0-9a-f]{64}$/);
  },
  "file-delete": async (method) => {
    const url = await uploadBytes(q, Buffer.from("to delete"), "gone.txt", "text/plain");
    const r = method === "GET" ? await q.api(`/v1/file/delete?url=${encodeURIComponent(url)}`) : await q.api("/v1/file/delete", { json: { url } });
    expect(r.body.name).toBe("gone.txt");
  },
  "file-all": async () => {
    const r = await q.api("/v1/file/all?limit=5");
    expect(r.body.files.length).toBeGreaterThan(0);
  },
  "file-download": async (method) => {
    const token = (await q.api("/v1/file/all?limit=1")).body.files[0].token;
    const r = await fetch(`${q.url}/v1/file/download/${token}`, { method, headers: { "x-api-key": q.apiKey } });
    expect(r.status).toBe(200);
  },
  "file-options": async (method) => {
    const token = (await q.api("/v1/file/all?limit=1")).body.files[0].token;
    const r = method === "GET" ? await q.api(`/v1/file/options/${token}`) : await q.api(`/v1/file/options/${token}`, { json: { accessmode: "private" } });
    expect(r.body.accessMode).toBe("private");
  },
  "html-templates": async () => {
    const r = await q.api("/v1/templates/html");
    expect(r.body.templates[0]).toMatchObject({ id: 1, type: "system" });
  },
  "html-template": async () => {
    const r = await q.api("/v1/templates/html/1");
    expect(r.body.body).toContain("{{");
  },
  "html-template-update": async () => {
    const r = await q.api("/v1/templates/html/new/update", { json: { title: "Routes", body: "<p>{{x}}</p>" } });
    expect(r.body.id).toBeGreaterThanOrEqual(100);
  },
  "html-template-delete": async () => {
    const made = await q.api("/v1/templates/html/new/update", { json: { title: "Gone", body: "<p>bye</p>" } });
    const r = await q.api(`/v1/templates/html/${made.body.id}`, { method: "DELETE" });
    expect(r.status).toBe(200);
  },
  "data-store-get": async () => {
    await q.api("/v1/data/store", { json: { jobid: "routes-get", body: { a: 1 } } });
    const r = await q.api("/v1/data/store?jobid=routes-get");
    expect(r.body.body).toEqual({ a: 1 });
    expect(Array.isArray((await q.api("/v1/data/store")).body.items)).toBe(true);
  },
  "data-store-put": async () => {
    const r = await q.api("/v1/data/store", { json: { jobid: "routes-put", body: [1, 2] } });
    expect(r.body.size).toBe(5);
  },
  "data-store-delete": async () => {
    await q.api("/v1/data/store", { json: { jobid: "routes-del", body: 1 } });
    const r = await q.api("/v1/data/store?jobid=routes-del", { method: "DELETE" });
    expect(r.body.deleted).toBe(true);
  },
  "data-store-webhook": async () => {
    const r = await q.api("/v1/data/store/webhook?jobid=routes-hook", { method: "POST", body: '{"status":"success"}', headers: { "content-type": "application/json" } });
    expect(r.body.jobId).toBe("routes-hook");
  },
  "documentparser-templates": async () => {
    const r = await q.api("/v1/documentparser/templates");
    expect(Array.isArray(r.body.templates)).toBe(true);
  },
  "documentparser-template": async () => {
    const made = await q.api("/v1/documentparser/templates/new/update", { json: { title: "Routes", body: "templateName: Routes\nfields:\n  total:\n    expression: 'Total{{Spaces}}{{Number}}'\n" } });
    const r = await q.api(`/v1/documentparser/templates/${made.body.id}`);
    expect(r.body.title).toBe("Routes");
  },
  "documentparser-template-update": async () => {
    const r = await q.api("/v1/documentparser/templates/new/update", { json: { title: "Routes 2", body: "templateName: Routes2\nfields:\n  total:\n    expression: 'Total{{Spaces}}{{Number}}'\n" } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
  },
  "documentparser-template-delete": async () => {
    const made = await q.api("/v1/documentparser/templates/new/update", { json: { title: "Gone", body: "templateName: Gone\nfields:\n  total:\n    expression: 'Total{{Spaces}}{{Number}}'\n" } });
    const r = await q.api(`/v1/documentparser/templates/${made.body.id}`, { method: "DELETE" });
    expect(r.status).toBe(200);
  },
};

describe("route table", () => {
  it("every entry has a call in this file", () => {
    expect(Object.keys(calls).sort()).toEqual(routes.map((r) => r.id).sort());
  });

  for (const route of routes) {
    for (const method of route.methods) {
      it(`${method} ${route.path} (${route.id}) answers as its schema says`, () => calls[route.id](method));
    }
  }

  it("a declared path with an undeclared method → 405, after the key check", async () => {
    const r = await q.api("/v1/account/keys", { method: "PUT" });
    expect(r.status).toBe(405);
    expect((await q.api("/v1/account/keys", { method: "PUT", key: null })).status).toBe(401);
  });
});

describe("operations accept GET with query parameters where the public API does", () => {
  it("GET /v1/pdf/info?url=… → the same answer as POST", async () => {
    const r = await q.api(`/v1/pdf/info?url=${encodeURIComponent(pdf)}`);
    expect(r.status).toBe(200);
    expect(r.body.info.PageCount).toBe(2);
  });

  it("GET /v1/pdf/split?url=…&pages=2 → one PDF", async () => {
    const r = await q.api(`/v1/pdf/split?url=${encodeURIComponent(pdf)}&pages=2`);
    expect(r.status).toBe(200);
    expect(r.body.urls).toHaveLength(1);
  });

  it("GET /v1/ai-invoice-parser → 405 (POST only)", async () => {
    const r = await q.api(`/v1/ai-invoice-parser?url=${encodeURIComponent(pdf)}`);
    expect(r.status).toBe(405);
  });

  it("every operation except the invoice parser and TextSense (POST in the public API) takes GET", () => {
    const postOnly = ["ai-invoice-parser", "textsense-job-build"];
    for (const op of operations) expect(operationMethods(op), op.id).toEqual(postOnly.includes(op.id) ? ["POST"] : ["GET", "POST"]);
  });
});
