import { afterAll, beforeAll, describe, expect, it } from "vitest";
import crypto from "node:crypto";
import fs from "node:fs";
import http2 from "node:http2";
import { startQuire, type QuireServer } from "@/tests/helpers/quire-server";
import { selfSignedCert } from "@/tests/helpers/tls";
import { buildIfStale } from "./helpers/start-server";

/** One HTTP/2 request; cookies in and out as a `name=value; …` string. */
function h2(
  origin: string,
  ca: Buffer,
  p: string,
  init: { method?: string; body?: string; type?: string; cookie?: string } = {},
) {
  return new Promise<{
    status: number;
    body: string;
    setCookie: string[];
    headers: http2.IncomingHttpHeaders;
  }>((resolve, reject) => {
    const session = http2.connect(origin, { ca });
    session.on("error", reject);
    const headers: http2.OutgoingHttpHeaders = { ":path": p, ":method": init.method ?? "GET" };
    if (init.type) headers["content-type"] = init.type;
    if (init.cookie) headers.cookie = init.cookie;
    const stream = session.request(headers);
    let body = "";
    let h: http2.IncomingHttpHeaders = {};
    stream.setEncoding("utf8");
    stream.on("response", (r) => (h = r));
    stream.on("data", (d) => (body += d));
    stream.on("end", () => {
      session.close();
      const sc = h["set-cookie"];
      resolve({
        status: Number(h[":status"]),
        body,
        setCookie: Array.isArray(sc) ? sc : sc ? [sc] : [],
        headers: h,
      });
    });
    stream.on("error", reject);
    stream.end(init.body);
  });
}

describe("the dashboard over HTTPS with HTTP/2 (TLS_CERT_FILE)", () => {
  let q: QuireServer;
  let dir: string;
  let ca: Buffer;
  let origin: string;
  beforeAll(async () => {
    buildIfStale();
    const tls = selfSignedCert();
    dir = tls.dir;
    ca = tls.ca;
    q = await startQuire({
      dashboard: true,
      env: {
        TLS_CERT_FILE: tls.cert,
        TLS_KEY_FILE: tls.key,
        NEXTAUTH_SECRET: crypto.randomBytes(24).toString("hex"),
      },
      unsetEnv: ["PUBLIC_URL"],
    });
    origin = `https://127.0.0.1:${q.port}`;
  });
  afterAll(async () => {
    await q?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("sign-in page, sign-in, and an API call through the dashboard's proxy, all over HTTP/2; links are https", async () => {
    const page = await h2(origin, ca, "/sign-in");
    expect(page.status).toBe(200);
    expect(page.body).toContain("<html");
    expect(page.headers["strict-transport-security"]).toMatch(/max-age=/);
    const csrf = await h2(origin, ca, "/api/auth/csrf");
    const token = JSON.parse(csrf.body).csrfToken as string;
    const jar = new Map<string, string>();
    const keep = (cookies: string[]) => cookies.forEach((c) => jar.set(c.split("=")[0], c.split(";")[0]));
    const cookie = () => [...jar.values()].join("; ");
    keep(csrf.setCookie);
    const form = new URLSearchParams({
      csrfToken: token,
      email: q.adminEmail,
      password: q.adminPassword,
      json: "true",
    });
    const signIn = await h2(origin, ca, "/api/auth/callback/credentials", {
      method: "POST",
      body: form.toString(),
      type: "application/x-www-form-urlencoded",
      cookie: cookie(),
    });
    expect(signIn.status).toBe(200);
    keep(signIn.setCookie);
    const balance = await h2(origin, ca, "/api/proxy/v1/account/credit/balance", { cookie: cookie() });
    expect(balance.status).toBe(200);
    expect(JSON.parse(balance.body).remainingCredits).toBeGreaterThan(0);
    const presign = await h2(origin, ca, "/api/proxy/v1/file/upload/get-presigned-url?name=a.pdf", {
      cookie: cookie(),
    });
    expect(JSON.parse(presign.body).presignedUrl.startsWith(`${origin}/files/upload/`)).toBe(true);
    const jobs = await h2(origin, ca, "/jobs", { cookie: cookie() });
    expect(jobs.status).toBe(200);
  });
});
