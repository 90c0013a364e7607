import { afterAll, beforeAll, describe, expect, it } from "vitest";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { startQuire, type QuireServer } from "../helpers/quire-server";
import { download } from "../helpers/api-client";
import { makePdf } from "../helpers/pdf-fixtures";

let q: QuireServer;

beforeAll(async () => {
  q = await startQuire();
});
afterAll(async () => q?.stop());

/** Resident memory of the web process (kB): now, and the peak since it started. */
function memory(pid: number) {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (k: string) => Number(new RegExp(`^${k}:\\s+(\\d+)`, "m").exec(status)![1]);
  return { rss: kb("VmRSS"), peak: kb("VmHWM") };
}

const sha = (b: Uint8Array) => crypto.createHash("sha256").update(b).digest("hex");
const MB = 1024 * 1024;

/** Random bytes (incompressible), made in the test. */
function bytes(n: number) {
  const b = Buffer.allocUnsafe(n);
  for (let i = 0; i < n; i += 65536) crypto.randomFillSync(b, i, Math.min(65536, n - i));
  return b;
}

function storedFiles(): number {
  const dir = path.join(q.dataDir, "files");
  return fs.existsSync(dir) ? fs.readdirSync(dir).length : 0;
}

describe("uploads stream to disk", () => {
  it("POST /v1/file/upload (120 MB multipart): the bytes arrive whole, the web process never holds them", async () => {
    const file = bytes(120 * MB);
    const fd = new FormData();
    fd.set("file", new Blob([file], { type: "application/octet-stream" }), "big.bin");
    const before = memory(q.pid());
    const r = await q.api("/v1/file/upload", { body: fd });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const after = memory(q.pid());
    expect(after.peak - Math.max(before.peak, before.rss), `peak rose by ${after.peak - before.peak} kB`).toBeLessThan(64 * 1024);
    const got = await download(r.body.url);
    expect(got.bytes.length).toBe(file.length);
    expect(sha(got.bytes)).toBe(sha(file));
  });

  it("POST /v1/file/upload/base64 (150 MB as JSON): decoded while it streams, never whole in memory", async () => {
    // Reading it whole would hold the 200 MB text and the 150 MB file at once (and JSON.parse a
    // copy of the text as a string); streaming leaves only garbage the collector has not taken
    // yet, which on a loaded machine can near the file's size, but stays under the text's.
    const file = bytes(150 * MB);
    const body = Buffer.concat([Buffer.from('{"file":"'), Buffer.from(file.toString("base64")), Buffer.from('","name":"late-name.bin"}')]);
    const before = memory(q.pid());
    const r = await q.api("/v1/file/upload/base64", { body, headers: { "content-type": "application/json" } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const after = memory(q.pid());
    expect(after.peak - Math.max(before.peak, before.rss), `peak rose by ${after.peak - before.peak} kB`).toBeLessThan(body.length / 1024);
    expect(r.body.name).toBe("late-name.bin");
    const got = await download(r.body.url);
    expect(sha(got.bytes)).toBe(sha(file));
  });

  it("base64: a data: URI keeps its type; line breaks and URL-safe letters are read", async () => {
    const pdf = makePdf({ pages: 2 });
    const b64 = pdf.toString("base64").replace(/\+/g, "-").replace(/\//g, "_").replace(/(.{76})/g, "$1\n");
    const r = await q.api("/v1/file/upload/base64", { json: { name: "two.pdf", file: `data:application/pdf;base64,${b64}` } });
    expect(r.status).toBe(200);
    const got = await download(r.body.url);
    expect(got.headers.get("content-type")).toBe("application/pdf");
    expect(Buffer.compare(got.bytes, pdf)).toBe(0);
    const info = await q.api("/v1/pdf/info", { json: { url: r.body.url } });
    expect(info.body.info.PageCount).toBe(2);
  });

  it("base64: bad text → 400, empty → 400, and nothing is left in storage", async () => {
    const files = storedFiles();
    const half = Buffer.alloc(3 * MB, 65).toString("base64");
    const bad = await q.api("/v1/file/upload/base64", { json: { file: `${half}***${half}` } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/not valid base64/);
    expect((await q.api("/v1/file/upload/base64", { json: { file: "" } })).status).toBe(400);
    expect((await q.api("/v1/file/upload/base64", { json: { file: "data:application/pdf;base64," } })).body.message).toMatch(/empty/);
    expect((await q.api("/v1/file/upload/base64", { body: "{\"file\": \"QUJD\"", headers: { "content-type": "application/json" } })).status).toBe(400);
    expect(storedFiles()).toBe(files);
  });

  it("base64 as a form field or without a content type still works", async () => {
    const form = await q.api("/v1/file/upload/base64", {
      body: new URLSearchParams({ file: Buffer.from("hello").toString("base64"), name: "h.txt" }).toString(),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(form.status).toBe(200);
    expect((await download(form.body.url)).bytes.toString()).toBe("hello");
    const bare = await q.api("/v1/file/upload/base64", { body: JSON.stringify({ file: Buffer.from("bye").toString("base64") }) });
    expect(bare.status).toBe(200);
    expect(bare.body.name).toBe("upload");
    expect((await download(bare.body.url)).bytes.toString()).toBe("bye");
  });

  it("an upload past UPLOAD_MAX_BYTES → 413 and nothing is left in storage", async () => {
    const small = await startQuire({ env: { UPLOAD_MAX_BYTES: String(MB) } });
    try {
      const fd = new FormData();
      fd.set("notes", new Blob([bytes(1000)]), "small.bin"); // stored first, removed again when the body fails
      fd.set("file", new Blob([bytes(2 * MB)]), "big.bin");
      const multi = await small.api("/v1/file/upload", { body: fd });
      expect(multi.status).toBe(413);
      const b64 = await small.api("/v1/file/upload/base64", { json: { file: bytes(MB + 10).toString("base64") } });
      expect(b64.status).toBe(413);
      const dir = path.join(small.dataDir, "files");
      expect(fs.existsSync(dir) ? fs.readdirSync(dir) : []).toEqual([]);
    } finally {
      await small.stop();
    }
  });
});
