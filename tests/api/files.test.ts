import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startQuire, type QuireServer } from "../helpers/quire-server";
import { download, uploadBytes } from "../helpers/api-client";
import { startLoopbackServer, type LoopbackServer } from "../helpers/loopback-server";
import { makePdf } from "../helpers/pdf-fixtures";

/** The account's stored files over HTTP: upload from a URL, hash, list, download by token, access mode, delete. */

let q: QuireServer;
let remote: LoopbackServer;
const remoteBytes = crypto.randomBytes(300_000);

beforeAll(async () => {
  remote = await startLoopbackServer((req, res) => {
    if (req.url === "/report.bin") {
      res.writeHead(200, { "content-type": "application/octet-stream", "content-disposition": 'attachment; filename="report.bin"' });
      return res.end(remoteBytes);
    }
    if (req.url === "/doc.pdf") {
      res.writeHead(200, { "content-type": "application/pdf" });
      return res.end(makePdf({ pages: 3 }));
    }
    res.writeHead(404);
    res.end("no");
  });
  q = await startQuire({ env: { EGRESS_ALLOW: `127.0.0.1:${remote.port}` } });
}, 120_000);
afterAll(async () => {
  await q?.stop();
  await remote?.close();
});

async function userKey() {
  const email = `files-${Math.random().toString(36).slice(2)}@test.local`;
  const r = await q.cli(["create-user", email, "--password", "password123", "--credits", "100"]);
  if (r.code !== 0) throw new Error(r.out);
  return /api key:\s+(qk_\S+)/.exec(r.out)![1];
}

const sha256 = (b: Buffer) => crypto.createHash("sha256").update(b).digest("hex");

describe("/v1/file/upload/url, /v1/file/hash, /v1/file/all, /v1/file/delete", () => {
  it("POST /v1/file/upload/url (a remote file copied through the egress guard: same bytes, its name, listed, hashed, deleted)", async () => {
    const up = await q.api("/v1/file/upload/url", { json: { url: `${remote.origin}/report.bin` } });
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    expect(up.body).toMatchObject({ name: "report.bin", size: remoteBytes.length, error: false });
    const got = await download(up.body.url);
    expect(got.bytes.equals(remoteBytes)).toBe(true);

    const hash = await q.api("/v1/file/hash", { json: { url: up.body.url } });
    expect(hash.body).toMatchObject({ hash: sha256(remoteBytes), algorithm: "SHA-256", size: remoteBytes.length });
    const byToken = await q.api(`/v1/file/hash?url=filetoken://${up.body.token}`);
    expect(byToken.body.hash).toBe(sha256(remoteBytes));
    // A remote URL is hashed as fetched, without being stored.
    const remoteHash = await q.api("/v1/file/hash", { json: { url: `${remote.origin}/report.bin` } });
    expect(remoteHash.body.hash).toBe(sha256(remoteBytes));

    const all = await q.api("/v1/file/all");
    const listed = all.body.files.find((f: { token: string }) => f.token === up.body.token);
    expect(listed).toMatchObject({ name: "report.bin", size: remoteBytes.length, accessMode: "private" });

    const del = await q.api("/v1/file/delete", { json: { url: up.body.url } });
    expect(del.body).toMatchObject({ name: "report.bin", error: false });
    expect((await download(up.body.url)).status).toBe(404);
    expect((await q.api("/v1/file/all")).body.files.some((f: { token: string }) => f.token === up.body.token)).toBe(false);
    expect((await q.api("/v1/file/delete", { json: { url: up.body.url } })).status).toBe(404);
  });

  it("POST /v1/file/upload/url (name given; a Quire link is copied from storage; a private address → 403; a missing file → 400)", async () => {
    const src = await uploadBytes(q, Buffer.from("hello copy"), "orig.txt", "text/plain");
    const copy = await q.api("/v1/file/upload/url", { json: { url: src, name: "copy.txt" } });
    expect(copy.body.name).toBe("copy.txt");
    expect((await download(copy.body.url)).bytes.toString()).toBe("hello copy");
    const refused = await q.api("/v1/file/upload/url", { json: { url: "http://10.1.2.3/x.pdf" } });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toMatch(/private|public addresses/i);
    const missing = await q.api("/v1/file/upload/url", { json: { url: `${remote.origin}/nope` } });
    expect(missing.status).toBe(400);
  });

  it("filetoken://TOKEN works as an operation's url", async () => {
    const up = await q.api("/v1/file/upload/url", { json: { url: `${remote.origin}/doc.pdf` } });
    const info = await q.api("/v1/pdf/info", { json: { url: `filetoken://${up.body.token}` } });
    expect(info.status, JSON.stringify(info.body)).toBe(200);
    expect(info.body.info.PageCount).toBe(3);
  });
});

describe("/v1/file/download/{token} and /v1/file/options/{token}", () => {
  it("GET /v1/file/download/{token} (private: its account's key only; public: anyone; asattachment; link)", async () => {
    const up = await q.api("/v1/file/upload/url", { json: { url: `${remote.origin}/doc.pdf`, name: "shared.pdf" } });
    const token = up.body.token;
    const withKey = await fetch(`${q.url}/v1/file/download/${token}`, { headers: { "x-api-key": q.apiKey } });
    expect(withKey.status).toBe(200);
    expect(withKey.headers.get("content-type")).toBe("application/pdf");
    expect(withKey.headers.get("content-disposition")).toMatch(/^inline; filename="shared.pdf"/);
    expect(Buffer.from(await withKey.arrayBuffer()).subarray(0, 5).toString()).toBe("%PDF-");
    const noKey = await fetch(`${q.url}/v1/file/download/${token}`);
    expect(noKey.status).toBe(404);

    const opt = await q.api(`/v1/file/options/${token}`, { json: { accessMode: "public" } });
    expect(opt.body).toMatchObject({ token, accessMode: "public", name: "shared.pdf" });
    expect((await q.api(`/v1/file/options/${token}`)).body.accessMode).toBe("public");
    const open = await fetch(`${q.url}/v1/file/download/${token}?asattachment=true`);
    expect(open.status).toBe(200);
    expect(open.headers.get("content-disposition")).toMatch(/^attachment; filename="shared.pdf"/);
    const link = await q.api(`/v1/file/download/${token}?link=true`, { key: null });
    expect(link.body.url).toMatch(/\/files\//);
    expect((await download(link.body.url)).status).toBe(200);

    await q.api(`/v1/file/options/${token}`, { json: { accessmode: "private" } });
    expect((await fetch(`${q.url}/v1/file/download/${token}`)).status).toBe(404);
    expect((await q.api(`/v1/file/options/${token}`, { json: { accessmode: "everyone" } })).status).toBe(454);
  });

  it("a token of another account → 404, the same answer as a token that never existed", async () => {
    const other = await userKey();
    const up = await q.api("/v1/file/upload/url", { json: { url: `${remote.origin}/doc.pdf`, name: "mine.pdf" } });
    const token = up.body.token;
    const never = crypto.randomBytes(16).toString("hex");
    const answers = async (t: string) => {
      const dl = await fetch(`${q.url}/v1/file/download/${t}`, { headers: { "x-api-key": other } });
      const opt = await q.api(`/v1/file/options/${t}`, { json: { accessmode: "public" }, key: other });
      const del = await q.api("/v1/file/delete", { json: { url: `filetoken://${t}` }, key: other });
      const hash = await q.api("/v1/file/hash", { json: { url: `filetoken://${t}` }, key: other });
      const op = await q.api("/v1/pdf/info", { json: { url: `filetoken://${t}` }, key: other });
      return [dl.status, await dl.text(), opt.status, opt.body.message, del.status, del.body.message, hash.status, hash.body.message, op.status, op.body.message.replace(t, "T")];
    };
    const theirs = await answers(token);
    expect(theirs.filter((x) => typeof x === "number")).toEqual([404, 404, 404, 404, 404]);
    expect(theirs).toEqual(await answers(never));
    expect((await q.api("/v1/file/all", { key: other })).body.files).toEqual([]);
    // Still there, still private, for its owner.
    expect((await q.api(`/v1/file/options/${token}`)).body.accessMode).toBe("private");
    expect((await download(up.body.url)).status).toBe(200);
  });
});
