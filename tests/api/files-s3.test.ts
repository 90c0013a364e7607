import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startQuire, type QuireServer } from "../helpers/quire-server";
import { download, uploadBytes } from "../helpers/api-client";
import { makePdf } from "../helpers/pdf-fixtures";
import { startS3, type TestS3 } from "../helpers/s3-server";

/** The account's stored files on an S3-compatible store (s3rver on loopback), presigned links. */

let s3: TestS3;
let q: QuireServer;
beforeAll(async () => {
  s3 = await startS3();
  q = await startQuire({ env: { ...s3.env, S3_PRESIGN: "true" } });
}, 120_000);
afterAll(async () => {
  await q?.stop();
  await s3?.stop();
});

describe("/v1/file/* on S3 storage", () => {
  it("GET /v1/file/all lists a presigned upload; hash, download by token, filetoken:// as a source, upload/url copy and delete work on the store", async () => {
    const pdf = makePdf({ pages: 2 });
    const url = await uploadBytes(q, pdf, "s3-two.pdf", "application/pdf");
    expect(url.startsWith(`${s3.endpoint}/${s3.bucket}/`)).toBe(true);
    const all = await q.api("/v1/file/all");
    const f = all.body.files.find((x: { name: string }) => x.name === "s3-two.pdf");
    expect(f).toMatchObject({ size: pdf.length, contentType: "application/pdf", accessMode: "private" });
    const hash = await q.api("/v1/file/hash", { json: { url } });
    expect(hash.body.hash).toBe(crypto.createHash("sha256").update(pdf).digest("hex"));
    const dl = await fetch(`${q.url}/v1/file/download/${f.token}`, { headers: { "x-api-key": q.apiKey } });
    expect(Buffer.from(await dl.arrayBuffer()).equals(pdf)).toBe(true);
    const info = await q.api("/v1/pdf/info", { json: { url: `filetoken://${f.token}` } });
    expect(info.body.info.PageCount).toBe(2);
    const copy = await q.api("/v1/file/upload/url", { json: { url, name: "s3-copy.pdf" } });
    expect(copy.status, JSON.stringify(copy.body)).toBe(200);
    expect((await download(copy.body.url)).bytes.equals(pdf)).toBe(true);
    const del = await q.api("/v1/file/delete", { json: { url } });
    expect(del.status).toBe(200);
    expect((await download(url)).status).not.toBe(200);
    expect((await q.api("/v1/file/all")).body.files.map((x: { name: string }) => x.name)).toEqual(["s3-copy.pdf"]);
  });
});
