import { afterAll, beforeAll, describe, expect, it } from "vitest";
import fs from "node:fs";
import http from "node:http";
import http2 from "node:http2";
import https from "node:https";
import { freePort, startQuire, type QuireServer } from "../helpers/quire-server";
import { selfSignedCert } from "../helpers/tls";

function request1(url: string, opts: { ca?: Buffer; headers?: Record<string, string> } = {}) {
  const u = new URL(url);
  const mod = u.protocol === "https:" ? https : http;
  return new Promise<{
    status: number;
    headers: http.IncomingHttpHeaders;
    body: string;
    alpn?: string | false;
  }>((resolve, reject) => {
    const req = mod.request(u, { ca: opts.ca, headers: opts.headers }, (res) => {
      const alpn = (res.socket as { alpnProtocol?: string | false } | null)?.alpnProtocol;
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (d) => (body += d));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body, alpn }));
    });
    req.on("error", reject);
    req.end();
  });
}

function request2(origin: string, p: string, ca: Buffer, headers: Record<string, string>) {
  return new Promise<{ status: number; headers: http2.IncomingHttpHeaders; body: string }>(
    (resolve, reject) => {
      const session = http2.connect(origin, { ca });
      session.on("error", reject);
      const stream = session.request({ ":path": p, ...headers });
      let body = "";
      let h: http2.IncomingHttpHeaders = {};
      stream.setEncoding("utf8");
      stream.on("response", (r) => (h = r));
      stream.on("data", (d) => (body += d));
      stream.on("end", () => {
        session.close();
        resolve({ status: Number(h[":status"]), headers: h, body });
      });
      stream.on("error", reject);
      stream.end();
    },
  );
}

describe("HTTPS served by Quire itself (TLS_CERT_FILE / TLS_KEY_FILE)", () => {
  let q: QuireServer;
  let tls: ReturnType<typeof selfSignedCert>;
  let redirectPort: number;
  let origin: string;
  beforeAll(async () => {
    tls = selfSignedCert();
    redirectPort = await freePort();
    q = await startQuire({
      env: { TLS_CERT_FILE: tls.cert, TLS_KEY_FILE: tls.key, HTTP_REDIRECT_PORT: String(redirectPort) },
      unsetEnv: ["PUBLIC_URL"],
    });
    origin = `https://127.0.0.1:${q.port}`;
  });
  afterAll(async () => {
    await q?.stop();
    fs.rmSync(tls.dir, { recursive: true, force: true });
  });

  it("the banner names the https address really bound", () => {
    expect(q.stdout()).toContain(`Quire is listening on https://127.0.0.1:${q.port}`);
    expect(q.stdout()).not.toContain("WARNING");
  });

  it("HTTP/1.1 over TLS: API answers with HSTS; upload and output links are https", async () => {
    const r = await request1(`${origin}/v1/file/upload/get-presigned-url?name=a.pdf`, {
      ca: tls.ca,
      headers: { "x-api-key": q.apiKey },
    });
    expect(r.status).toBe(200);
    expect(r.alpn === false || r.alpn === undefined || r.alpn === "http/1.1").toBe(true);
    expect(r.headers["strict-transport-security"]).toMatch(/max-age=\d+/);
    const body = JSON.parse(r.body);
    expect(body.presignedUrl.startsWith(`${origin}/files/upload/`)).toBe(true);
    expect(body.url.startsWith(`${origin}/files/`)).toBe(true);
  });

  it("HTTP/2 over TLS: the same API, the same answers", async () => {
    const r = await request2(origin, "/v1/account/credit/balance", tls.ca, { "x-api-key": q.apiKey });
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body).remainingCredits).toBeGreaterThan(0);
    expect(r.headers["strict-transport-security"]).toMatch(/max-age=/);
    const ready = await request2(origin, "/readyz", tls.ca, {});
    expect(ready.status).toBe(200);
  });

  it("plain HTTP is refused on the TLS port and redirected (308) on HTTP_REDIRECT_PORT", async () => {
    const r = await request1(`http://127.0.0.1:${redirectPort}/v1/account/credit/balance?x=1`);
    expect(r.status).toBe(308);
    expect(r.headers.location).toBe(`https://127.0.0.1:${q.port}/v1/account/credit/balance?x=1`);
    await expect(request1(`http://127.0.0.1:${q.port}/healthz`)).rejects.toThrow();
  });
});

describe("behind a reverse proxy (TRUST_PROXY)", () => {
  let trusting: QuireServer;
  let open: QuireServer;
  beforeAll(async () => {
    [trusting, open] = await Promise.all([
      startQuire({ env: { TRUST_PROXY: "loopback" }, unsetEnv: ["PUBLIC_URL"] }),
      startQuire({ env: { HOST: "0.0.0.0" }, unsetEnv: ["PUBLIC_URL"] }),
    ]);
  });
  afterAll(async () => {
    await trusting?.stop();
    await open?.stop();
  });

  const forwarded = {
    "x-forwarded-proto": "https",
    "x-forwarded-host": "docs.example.org",
    "x-forwarded-for": "203.0.113.9",
  };

  it("a trusted proxy's X-Forwarded-Proto/-Host make links https on the public host, with HSTS", async () => {
    const r = await trusting.api("/v1/file/upload/get-presigned-url?name=a.pdf", { headers: forwarded });
    expect(r.status).toBe(200);
    expect(r.body.presignedUrl.startsWith("https://docs.example.org/files/upload/")).toBe(true);
    expect(r.body.url.startsWith("https://docs.example.org/files/")).toBe(true);
    expect(r.headers.get("strict-transport-security")).toMatch(/max-age=/);
  });

  it("without TRUST_PROXY the same headers are ignored: links follow the address really used", async () => {
    const r = await open.api("/v1/file/upload/get-presigned-url?name=a.pdf", { headers: forwarded });
    expect(r.body.url.startsWith(`http://127.0.0.1:${open.port}/files/`)).toBe(true);
    expect(r.headers.get("strict-transport-security")).toBeNull();
  });

  it("listening on every interface over plain HTTP without a trusted proxy starts with a warning", () => {
    expect(open.stdout()).toMatch(
      /Quire is listening on http:\/\/0\.0\.0\.0:\d+ \(every interface: .*http:\/\/127\.0\.0\.1:\d+/,
    );
    expect(open.stdout()).toContain("WARNING: other machines can reach this server over plain HTTP");
    expect(trusting.stdout()).not.toContain("WARNING");
  });

  it("x-request-id is echoed, or made when absent", async () => {
    const given = await trusting.api("/healthz", { key: null, headers: { "x-request-id": "abc-123" } });
    expect(given.headers.get("x-request-id")).toBe("abc-123");
    const made = await trusting.api("/healthz", { key: null });
    expect(made.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });
});
