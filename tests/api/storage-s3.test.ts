import { afterAll, beforeAll, describe, expect, it } from "vitest";
import fs from "node:fs";
import path from "node:path";
import { startQuire, waitForJob, type QuireServer } from "../helpers/quire-server";
import { uploadBytes, download } from "../helpers/api-client";
import { makePdf, pageTexts } from "../helpers/pdf-fixtures";
import { startS3, type TestS3 } from "../helpers/s3-server";

/** Objects s3rver holds for one Quire file id (it keeps each object as <key>._S3rver_object). */
function objectsOf(s3: TestS3, url: string): string[] {
  const id = /\/([0-9a-f]{32})\//.exec(new URL(url).pathname)?.[1];
  const dir = path.join(s3.dir, id ?? "none");
  return fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith("._S3rver_object")) : [];
}

let s3: TestS3;
beforeAll(async () => {
  s3 = await startS3();
});
afterAll(async () => s3?.stop());

describe("S3 storage, presigned (S3_PRESIGN=true): bytes go straight between client and store", () => {
  let q: QuireServer;
  beforeAll(async () => {
    q = await startQuire({ env: { ...s3.env, S3_PRESIGN: "true" } });
  });
  afterAll(async () => q?.stop());

  it("GET /v1/file/upload/get-presigned-url → the store's PUT URL; the upload is a source; outputs are the store's GET URLs", async () => {
    const url = await uploadBytes(q, makePdf({ pages: 3 }), "three.pdf", "application/pdf");
    expect(url.startsWith(`${s3.endpoint}/${s3.bucket}/`)).toBe(true);
    expect(objectsOf(s3, url)).toHaveLength(1);
    const r = await q.api("/v1/pdf/split", { json: { url, pages: "1-2,3" } });
    expect(r.status).toBe(200);
    expect(r.body.urls).toHaveLength(2);
    for (const u of r.body.urls) expect(u.startsWith(`${s3.endpoint}/${s3.bucket}/`)).toBe(true);
    const first = await download(r.body.urls[0]);
    expect(first.status).toBe(200);
    expect(first.headers.get("content-disposition")).toContain("result_page1-2.pdf");
    expect(pageTexts(first.bytes).map((t) => t.trim())).toEqual(["Page 1", "Page 2"]);
    // An output link is itself a source: read from the store, not fetched over the network
    // (the egress guard would refuse a loopback URL).
    const again = await q.api("/v1/pdf/info", { json: { url: r.body.urls[1] } });
    expect(again.status).toBe(200);
    expect(again.body.info.PageCount).toBe(1);
  });

  it("async: the promised URL is the store's; it answers once the job is done (split: a JSON list of the output URLs)", async () => {
    const url = await uploadBytes(q, makePdf({ pages: 2 }), "two.pdf", "application/pdf");
    const r = await q.api("/v1/pdf/split", { json: { url, pages: "2", async: true } });
    expect(r.status).toBe(200);
    expect(r.body.url.startsWith(`${s3.endpoint}/${s3.bucket}/`)).toBe(true);
    const done = await waitForJob(q, r.body.jobId);
    expect(done.status).toBe("success");
    const list = await download(r.body.url);
    expect(list.status).toBe(200);
    const urls = JSON.parse(list.bytes.toString()) as string[];
    expect(urls).toHaveLength(1);
    const got = await download(urls[0]);
    expect(pageTexts(got.bytes).map((t) => t.trim())).toEqual(["Page 2"]);
  });

  it("POST /v1/file/upload (multipart) stores the file in the bucket", async () => {
    const form = new FormData();
    form.append(
      "file",
      new Blob([new Uint8Array(makePdf({ pages: 4 }))], { type: "application/pdf" }),
      "four.pdf",
    );
    const up = await q.api("/v1/file/upload", { body: form });
    expect(up.status).toBe(200);
    expect(objectsOf(s3, up.body.url)).toHaveLength(1);
    const info = await q.api("/v1/pdf/info", { json: { url: up.body.url } });
    expect(info.body.info.PageCount).toBe(4);
  });

  it("a presigned PUT link is single-use in effect: a replacement after the upload's first use is refused (409), not read", async () => {
    const pre = await q.api("/v1/file/upload/get-presigned-url?name=once.pdf&contenttype=application/pdf");
    const put = (bytes: Buffer) => fetch(pre.body.presignedUrl, { method: "PUT", body: new Uint8Array(bytes), headers: { "content-type": "application/pdf" } });
    expect((await put(makePdf({ pages: 2 }))).status).toBe(200);
    const first = await q.api("/v1/pdf/info", { json: { url: pre.body.url } });
    expect(first.status).toBe(200);
    expect(first.body.info.PageCount).toBe(2);
    // The same link again (s3rver, like S3 without a signed If-None-Match, accepts the PUT) …
    expect((await put(makePdf({ pages: 5 }))).status).toBe(200);
    // … but Quire refuses the replaced object wherever it reads it.
    const again = await q.api("/v1/pdf/info", { json: { url: pre.body.url } });
    expect(again.status).toBe(409);
    expect(again.body.message).toMatch(/replaced through its presigned upload link/);
    expect((await q.api("/v1/file/hash", { json: { url: pre.body.url } })).status).toBe(409);
    // A multipart upload (written by Quire itself) is sealed as it is stored and reads normally.
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(makePdf({ pages: 1 }))], { type: "application/pdf" }), "mp.pdf");
    const up = await q.api("/v1/file/upload", { body: form });
    expect((await q.api("/v1/pdf/info", { json: { url: up.body.url } })).body.info.PageCount).toBe(1);
  });

  it("/readyz reports the store reachable", async () => {
    const r = await q.api("/readyz", { key: null });
    expect(r.status).toBe(200);
    expect(r.body.checks.storage).toBe("ok");
  });
});

describe("S3 storage, streamed (S3_PRESIGN=false): clients only ever see Quire's /files links", () => {
  let q: QuireServer;
  beforeAll(async () => {
    q = await startQuire({ env: { ...s3.env, S3_PRESIGN: "false" } });
  });
  afterAll(async () => q?.stop());

  it("upload through Quire's PUT link lands in the bucket; output links stream from it", async () => {
    const url = await uploadBytes(q, makePdf({ pages: 3 }), "three.pdf", "application/pdf");
    expect(url.startsWith(`${q.url}/files/`)).toBe(true);
    expect(objectsOf(s3, url)).toHaveLength(1);
    const r = await q.api("/v1/pdf/split", { json: { url, pages: "3" } });
    expect(r.status).toBe(200);
    expect(r.body.urls[0].startsWith(`${q.url}/files/`)).toBe(true);
    expect(objectsOf(s3, r.body.urls[0])).toHaveLength(1);
    const got = await download(r.body.urls[0]);
    expect(got.status).toBe(200);
    expect(got.headers.get("x-content-type-options")).toBe("nosniff");
    expect(pageTexts(got.bytes).map((t) => t.trim())).toEqual(["Page 3"]);
  });

  it("a link whose object was removed from the bucket answers 404, not 500", async () => {
    const url = await uploadBytes(q, makePdf({ pages: 1 }), "gone.pdf", "application/pdf");
    const id = /\/files\/([0-9a-f]{32})\//.exec(url)![1];
    fs.rmSync(path.join(s3.dir, id), { recursive: true, force: true });
    const got = await download(url);
    expect(got.status).toBe(404);
    expect(JSON.parse(got.bytes.toString()).error).toBe(true);
  });
});
