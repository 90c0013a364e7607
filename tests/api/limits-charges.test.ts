import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operations } from "@/lib/operations/registry";
import { startQuire, type QuireServer } from "../helpers/quire-server";
import { uploadBytes } from "../helpers/api-client";
import { oversizedPng } from "../helpers/oversized-image";
import { makePdf } from "../helpers/pdf-fixtures";
import { startLoopbackServer, type LoopbackServer } from "../helpers/loopback-server";

/**
 * One limit, one code, one fair charge (every operation alike): an image over IMAGE_MAX_PIXELS
 * is refused with 413 from its header, before decoding, with the same message and nothing
 * charged; a page selection is charged per selected page; a nested field's error names its path.
 */

let q: QuireServer;
let images: LoopbackServer;
let big: Buffer;
let bigUrl: string;
let fourPages: string;
/** A 1×1 PNG as a data URI (replace-text-with-image's image). */
const pixelPng = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

beforeAll(async () => {
  big = await oversizedPng(20_000, 20_000);
  images = await startLoopbackServer((_req, res) => {
    res.writeHead(200, { "content-type": "image/png" });
    res.end(big);
  });
  q = await startQuire({ env: { EGRESS_ALLOW: `127.0.0.1:${images.port}` } });
  bigUrl = await uploadBytes(q, big, "huge.png", "image/png");
  fourPages = await uploadBytes(q, makePdf({ pages: 4, text: (i) => `Page ${i + 1}\nInvoice total 12.00` }), "four.pdf");
}, 120_000);
afterAll(async () => {
  await q?.stop();
  await images?.close();
});

const balance = async () => (await q.api("/v1/account/credit/balance")).body.remainingCredits as number;

describe("one pixel limit: 413 from the header, the same message everywhere, nothing charged", () => {
  const cases: Array<[path: string, params: () => Record<string, unknown>, field: RegExp]> = [
    ["/v1/pdf/convert/from/image", () => ({ url: bigUrl }), /^image 1 \(huge\.png\)|huge\.png/],
    ["/v1/pdf/convert/to/csv", () => ({ url: bigUrl }), /^the image/],
    ["/v1/pdf/convert/to/html", () => ({ url: bigUrl }), /^the image/],
    ["/v1/pdf/classifier", () => ({ url: bigUrl }), /^the image/],
    ["/v1/pdf/edit/add", () => ({ url: fourPages, images: [{ url: `${images.origin}/huge.png`, x: 10, y: 10 }] }), /^images\[0\]\.url/],
  ];
  // …and every other operation that reads an image as its document, generated from the registry.
  const listed = new Set(cases.map(([p]) => p));
  for (const op of operations.filter((o) => (o.input === "document" || o.input === "images" || o.input === "files") && !o.alwaysAsync && !listed.has(o.path))) {
    const extra: Record<string, unknown> = op.id === "pdf-documentparser" ? { template: "fields:\n  a:\n    expression: 'x'\n" } : {};
    cases.push([op.path, () => ({ url: bigUrl, ...extra }), /./]);
  }
  for (const [path, params, field] of cases) {
    it(`${path}`, async () => {
      const before = await balance();
      // The PNG's header declares 20000×20000 but its data cannot be decoded: a 413 (not a 442)
      // proves the header was checked before any decoding.
      const r = await q.api(path, { json: params() });
      expect(r.status, JSON.stringify(r.body)).toBe(413);
      expect(r.body.error).toBe(true);
      expect(r.body.message).toMatch(field);
      expect(r.body.message).toContain("20000×20000 pixels is more than the limit of 100,000,000 pixels per image (IMAGE_MAX_PIXELS)");
      expect(await balance()).toBe(before);
    });
  }
});

describe("charges per selected page", () => {
  // Every operation that takes `pages` (images → PDF's `pages` picks TIFF frames: left out), with
  // what it needs besides; a new operation with `pages` fails here until it is listed.
  const extras: Record<string, () => Record<string, unknown>> = {
    "pdf-edit-rotate": () => ({ angle: 90 }),
    "pdf-documentparser": () => ({ template: "fields:\n  total:\n    expression: 'total{{Spaces}}({{Number}})'\n" }),
    "pdf-find": () => ({ searchString: "Invoice" }),
    "pdf-edit-delete-text": () => ({ searchString: "Invoice" }),
    "pdf-edit-replace-text": () => ({ searchString: "Invoice", replaceString: "Bill" }),
    "pdf-edit-replace-text-with-image": () => ({ searchString: "Invoice", replaceImage: pixelPng }),
  };
  const skip = new Set(["pdf-convert-from-image"]);
  const withPages = operations.filter((op) => "pages" in (op.params as unknown as { shape: object }).shape && !skip.has(op.id));
  it("covers every operation that takes pages", () => {
    expect(withPages.length).toBeGreaterThan(20);
  });
  for (const op of withPages) {
    it(`${op.path} with one page of four selected costs one page`, async () => {
      const before = await balance();
      const r = await q.api(op.path, { json: { url: fourPages, pages: op.pageBase === 1 ? "1" : "0", ...(extras[op.id]?.() ?? {}) } });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      const expected = op.cost.perCall + op.cost.perPage * 1;
      expect(r.body.credits).toBe(expected);
      expect(await balance()).toBe(before - expected);
    });
  }

  it("split reports the pages it wrote, not the source's", async () => {
    const r = await q.api("/v1/pdf/split", { json: { url: fourPages, pages: "1" } });
    expect(r.body.urls).toHaveLength(1);
    expect(r.body.pageCount).toBe(1);
  });
});

describe("nested errors name their full path", () => {
  it("a refused image address inside images[0] is reported as images[0].url, with the setting to change", async () => {
    const r = await q.api("/v1/pdf/edit/add", { json: { url: fourPages, images: [{ url: "http://10.0.0.5/logo.png", x: 1, y: 1 }] } });
    expect(r.status).toBe(403);
    expect(r.body.message).toMatch(/^images\[0\]\.url: /);
    expect(r.body.message).toContain("EGRESS_ALLOW");
  });
});

describe("the admin CLI tells the truth", () => {
  it("list shows a key's last use as it happened, not up to a minute late", async () => {
    const email = `cli-${Math.random().toString(36).slice(2)}@test.local`;
    const made = await q.cli(["create-user", email, "--password", "password123", "--credits", "10"]);
    const key = /api key:\s+(qk_\S+)/.exec(made.out)![1];
    const used = async () => {
      const out = (await q.cli(["list"])).out.split("\n");
      const at = out.findIndex((l) => l.startsWith(email));
      return /last used (\S+)/.exec(out[at + 1])![1];
    };
    expect(await used()).toBe("never");
    await q.api("/v1/account/credit/balance", { key });
    const first = Date.parse(await used());
    await new Promise((r) => setTimeout(r, 1100));
    const before = Date.now();
    await q.api("/v1/account/credit/balance", { key });
    const second = Date.parse(await used());
    if (q.mode === "postgres") {
      // With PostgreSQL the CLI is its own process and reads the database, which holds the last
      // use to the minute (one write per key per minute, off the hot path).
      expect(second).toBeGreaterThanOrEqual(first);
      expect(before - second).toBeLessThan(61_000);
    } else {
      expect(second).toBeGreaterThan(first);
      expect(second).toBeGreaterThanOrEqual(before - 5);
    }
  });

  it("job <id> says 'no such job' for a typo, and the job's status for a real one", async () => {
    const none = await q.cli(["job", "typo-123"]);
    expect(none.code).toBe(1);
    expect(none.out).toContain("no such job: typo-123");
    const r = await q.api("/v1/pdf/info", { json: { url: fourPages, async: true } });
    await new Promise((res) => setTimeout(res, 500));
    const real = await q.cli(["job", r.body.jobId]);
    expect(real.code).toBe(0);
    expect(real.out).toMatch(new RegExp(`^${r.body.jobId}\\s+pdf-info\\s+(working|success)`));
  });
});
