import { afterAll, beforeAll, describe, expect, it } from "vitest";
import fs from "node:fs";
import { startQuire, waitForJob, type QuireServer } from "../helpers/quire-server";
import { download, uploadBytes } from "../helpers/api-client";
import { makePdf, pageTexts } from "../helpers/pdf-fixtures";
import { makeInflationBombPdf } from "../helpers/bomb-fixtures";
import { operations } from "@/lib/operations/registry";

/**
 * Issue 10 §5, §6 and §8: per-page work is paid for before it is done (never past the balance),
 * a bomb is refused in a moment without holding the workers, and async calls refuse forbidden
 * URLs at submit.
 */
let q: QuireServer;
beforeAll(async () => {
  q = await startQuire({ env: { MAX_PAGES: "3000", RATE_LIMIT_PER_SECOND: "0" } });
}, 120_000);
afterAll(async () => {
  await q?.stop();
});

async function userKey(credits: number) {
  const email = `u${Math.random().toString(36).slice(2, 8)}@test.local`;
  const r = await q.cli(["create-user", email, "--password", "password123", "--credits", String(credits)]);
  expect(r.code, r.out).toBe(0);
  return /api key:\s+(qk_\S+)/.exec(r.out)![1];
}
const balance = async (key: string) =>
  (await q.api("/v1/account/credit/balance", { key })).body.remainingCredits as number;

describe("billing never passes the balance", () => {
  it("10 parallel splits of a 40-page PDF on 100 credits: 2 succeed (41 each), 8 answer 402, balance 18", async () => {
    const key = await userKey(100);
    const src = await uploadBytes(q, makePdf({ pages: 40 }), "forty.pdf");
    const results = await Promise.all(
      Array.from({ length: 10 }, () => q.api("/v1/pdf/split", { json: { url: src }, key })),
    );
    const ok = results.filter((r) => r.status === 200);
    const poor = results.filter((r) => r.status === 402);
    expect(ok).toHaveLength(2);
    expect(poor).toHaveLength(8);
    for (const r of ok) expect(r.body.credits).toBe(41);
    expect(poor[0].body.message).toMatch(/40 pages.*costs 41 credits/);
    expect(await balance(key)).toBe(18);
  }, 120_000);

  it("a 2000-page split on a 20-credit account is refused with 402 and costs nothing", async () => {
    const key = await userKey(20);
    const src = await uploadBytes(q, makePdf({ pages: 2000 }), "big.pdf");
    const r = await q.api("/v1/pdf/split", { json: { url: src }, key });
    expect(r.status).toBe(402);
    expect(r.body.message).toMatch(/2000 pages.*2001 credits.*Nothing was charged/);
    expect(await balance(key)).toBe(20);
    // Async too: the job fails with 402 and the reservation comes back.
    const a = await q.api("/v1/pdf/split", { json: { url: src, async: true }, key });
    expect(a.status).toBe(200);
    const done = await waitForJob(q, a.body.jobId, 60_000, key);
    expect(done.status).toBe("failed");
    expect(await balance(key)).toBe(20);
  }, 120_000);

  it("a reservation larger than the work is refunded: convert a 3-page range of a 10-page PDF costs 1 + 3", async () => {
    const key = await userKey(100);
    const src = await uploadBytes(q, makePdf({ pages: 10 }), "ten.pdf");
    const r = await q.api("/v1/pdf/convert/to/csv", { json: { url: src, pages: "0-2", inline: true }, key });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.credits).toBe(4);
    expect(await balance(key)).toBe(96);
  }, 60_000);

  it("a document past MAX_PAGES is refused with 413, uncharged", async () => {
    const key = await userKey(10_000);
    const src = await uploadBytes(q, makePdf({ pages: 3001 }), "huge.pdf");
    const r = await q.api("/v1/pdf/info", { json: { url: src }, key });
    expect(r.status).toBe(413);
    expect(r.body.message).toMatch(/MAX_PAGES/);
    expect(await balance(key)).toBe(10_000);
  }, 120_000);
});

describe("the work budget of many inputs (measured by two sandbox children)", () => {
  it("a merge of 9 inputs with a bomb as the 8th: 413 naming file #8, nothing charged; without it the pages are counted and charged", async () => {
    const key = await userKey(1000);
    const bomb = await uploadBytes(q, await makeInflationBombPdf(1200 * 1024 * 1024), "bomb.pdf");
    const inputs: string[] = [];
    for (let n = 0; n < 9; n++) inputs.push(await uploadBytes(q, makePdf({ pages: 2, text: (i) => `In${n + 1}p${i + 1}` }), `in-${n + 1}.pdf`));
    const withBomb = [...inputs];
    withBomb[7] = bomb;
    const r = await q.api("/v1/pdf/merge", { json: { url: withBomb.join(",") }, key });
    expect(r.status).toBe(413);
    expect(r.body.message).toMatch(/^file #8 \(bomb\.pdf\) inflates to more than/);
    expect(await balance(key)).toBe(1000);
    const ok = await q.api("/v1/pdf/merge", { json: { url: inputs.join(",") }, key });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    // perCall 1 + perPage 1 × 18 pages, counted before the work from both halves.
    expect(ok.body.credits).toBe(19);
    expect(await balance(key)).toBe(1000 - 19);
    const merged = pageTexts((await download(ok.body.url)).bytes).map((t) => t.trim());
    expect(merged).toEqual(Array.from({ length: 18 }, (_, k) => `In${Math.floor(k / 2) + 1}p${(k % 2) + 1}`));
  }, 120_000);
});

describe("a bomb does not hold the workers", () => {
  it("two bomb jobs are refused with 413 in seconds; a 1-page call and the API answer meanwhile", async () => {
    const key = await userKey(1000);
    const bomb = await uploadBytes(q, await makeInflationBombPdf(1200 * 1024 * 1024), "bomb.pdf");
    const one = await uploadBytes(q, makePdf({ pages: 1 }), "one.pdf");
    const t0 = Date.now();
    const bombs = [0, 1].map(() =>
      q.api("/v1/pdf/convert/to/csv", { json: { url: bomb, inline: true }, key }),
    );
    // While the bombs are measured, other calls answer promptly.
    const latencies: number[] = [];
    for (let i = 0; i < 10; i++) {
      const s = Date.now();
      const b = await q.api("/v1/account/credit/balance", { key });
      expect(b.status).toBe(200);
      latencies.push(Date.now() - s);
      await new Promise((r) => setTimeout(r, 50));
    }
    const info = await q.api("/v1/pdf/info", { json: { url: one }, key });
    expect(info.status).toBe(200);
    const answers = await Promise.all(bombs);
    for (const a of answers) {
      expect(a.status).toBe(413);
      expect(a.body.message).toMatch(/inflates to more than/);
    }
    expect(Date.now() - t0).toBeLessThan(30_000);
    latencies.sort((a, b) => a - b);
    expect(latencies[Math.floor(latencies.length / 2)]).toBeLessThan(100);
    expect(await balance(key)).toBe(1000 - 1);
  }, 120_000);
});

describe("async calls refuse forbidden URLs at submit", () => {
  it.each([
    ["url", { url: "file:///etc/passwd", async: true }, 452],
    ["url", { url: "http://127.0.0.1:9/x.pdf", async: true }, 403],
    ["url", { url: "http://169.254.169.254/latest/meta-data/", async: true }, 403],
    [
      "callback",
      { url: "https://example.com/a.pdf", async: true, callback: "http://localhost:8080/hook" },
      403,
    ],
    ["callback", { url: "https://example.com/a.pdf", async: true, callback: "file:///etc/passwd" }, 452],
  ] as const)("%s %j → %d, no job", async (_field, body, status) => {
    const key = await userKey(10);
    const r = await q.api("/v1/pdf/info", { json: body, key });
    expect(r.status).toBe(status);
    expect((await q.api("/v1/jobs", { key })).body.jobs).toHaveLength(0);
    expect(await balance(key)).toBe(10);
  });
});

describe("every URL-taking field of every operation refuses forbidden spellings at submit (async)", () => {
  // Loopback, private, link-local and metadata addresses in the spellings parsers disagree on,
  // and a non-http scheme; generated from the registry so a new operation or field is covered.
  const spellings: Array<[string, 403 | 452]> = [
    ["http://127.0.0.1:9/x", 403],
    ["http://2130706433/x", 403],
    ["http://0x7f.1/x", 403],
    ["http://017700000001/x", 403],
    ["http://[::ffff:127.0.0.1]/x", 403],
    ["http://[::1]/x", 403],
    ["http://localhost./x", 403],
    ["http://0.0.0.0/x", 403],
    ["http://10.1.2.3/x", 403],
    ["http://169.254.169.254/latest/meta-data/", 403],
    ["http://[fd00::1]/x", 403],
    ["file:///etc/passwd", 452],
    ["gopher://127.0.0.1:25/x", 452],
  ];
  /** What each operation needs besides its URL fields to pass validation. */
  const extras: Record<string, Record<string, unknown>> = {
    "pdf-documentparser": { template: "fields:\n  a:\n    expression: 'x'\n" },
    "pdf-find": { searchString: "x" },
    "pdf-edit-delete-text": { searchString: "x" },
    "pdf-edit-replace-text": { searchString: "x", replaceString: "y" },
    "pdf-edit-replace-text-with-image": { searchString: "x", replaceImage: "data:image/png;base64,iVBORw0KGgo=" },
    "pdf-edit-delete-pages": { pages: "1" },
    "pdf-split2": { searchString: "x" },
    "pdf-edit-rotate": { angle: 90 },
    "email-send": { from: "a@example.com", to: "b@example.com", subject: "s", bodyText: "t", smtpServer: "smtp.example.com" },
    "barcode-generate": { value: "x" },
  };
  const fields: Array<[opId: string, path: string, field: string, make: (u: string) => Record<string, unknown>]> = [];
  // The other URL fields hold one of Quire's own links (read from storage, never checked or fetched).
  let ok = "";
  for (const op of operations) {
    const shape = (op.params as unknown as { shape: Record<string, unknown> }).shape;
    const base = { ...(extras[op.id] ?? {}), async: true };
    const needsUrl = "url" in shape && op.input !== "none";
    const withUrl = () => (needsUrl ? { url: ok } : {});
    if ("url" in shape) fields.push([op.id, op.path, "url", (u) => ({ ...base, url: u })]);
    if ("callback" in shape) fields.push([op.id, op.path, "callback", (u) => ({ ...base, ...withUrl(), callback: u })]);
    for (const key of ["rulescsvurl", "replaceImage", "decorationImage"])
      if (key in shape) fields.push([op.id, op.path, key, (u) => ({ ...base, ...withUrl(), [key]: u })]);
    if ("images" in shape) fields.push([op.id, op.path, "images[0].url", (u) => ({ ...base, ...withUrl(), images: [{ url: u, x: 1, y: 1 }] })]);
  }

  it("covers every operation's url and its secondary URL fields", () => {
    const seen = new Set(fields.map(([, , f]) => f));
    for (const f of ["url", "callback", "rulescsvurl", "replaceImage", "decorationImage", "images[0].url"]) expect(seen).toContain(f);
    expect(new Set(fields.map(([id]) => id)).size).toBe(operations.length);
  });

  let key = "";
  beforeAll(async () => {
    key = await userKey(10);
    ok = await uploadBytes(q, makePdf({ pages: 1 }), "ok.pdf");
  });

  it.each(fields)("%s %s: %s", async (_id, path, field, make) => {
    for (const [url, status] of spellings) {
      const r = await q.api(path, { json: make(url), key });
      expect(r.status, `${field}=${url}: ${JSON.stringify(r.body)}`).toBe(status);
      expect(r.body.message.startsWith(`${field}: `), r.body.message).toBe(true);
    }
  }, 60_000);

  it("none of them made a job or took a credit", async () => {
    expect((await q.api("/v1/jobs", { key })).body.jobs).toHaveLength(0);
    expect(await balance(key)).toBe(10);
  });
});

describe("job records do not show URL credentials", () => {
  it("user:pass@ in a source URL is masked in the job's source and request", async () => {
    const key = await userKey(10);
    const r = await q.api("/v1/pdf/info", { json: { url: "http://alice:s3cret@127.0.0.1:9/a.pdf" }, key });
    expect(r.status).toBe(403);
    const jobs = (await q.api("/v1/jobs", { key })).body.jobs;
    for (const j of jobs) {
      const detail = (await q.api(`/v1/jobs/${j.jobId}`, { key })).body.job;
      expect(JSON.stringify(detail)).not.toContain("s3cret");
    }
  });
});

describe("smaller holes", () => {
  it("a presigned PUT link cannot replace a finished upload (409), the first bytes stay", async () => {
    const pre = await q.api("/v1/file/upload/get-presigned-url?name=once.bin");
    const first = await fetch(pre.body.presignedUrl, { method: "PUT", body: "first" });
    expect(first.status).toBe(200);
    const second = await fetch(pre.body.presignedUrl, { method: "PUT", body: "replaced" });
    expect(second.status).toBe(409);
    expect(await (await fetch(pre.body.url)).text()).toBe("first");
  });

  it("DATA_DIR is private to Quire's user (0700)", () => {
    expect(fs.statSync(q.dataDir).mode & 0o777).toBe(0o700);
  });
});
