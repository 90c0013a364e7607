import { afterAll, beforeAll, describe, expect, it } from "vitest";
import http from "node:http";
import type net from "node:net";
import { createRequestHandler } from "@/lib/server/http-handler";

// Issue 10 §8: the dashboard's answers carry CSP, X-Frame-Options, nosniff and Referrer-Policy.
let server: http.Server;
let origin: string;
beforeAll(async () => {
  const handler = createRequestHandler({
    next: async (_req, res) => {
      res.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><p>dashboard</p>");
    },
  });
  server = http.createServer((req, res) => void handler(req, res));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  origin = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe("dashboard security headers", () => {
  it("a dashboard page is not frameable, not sniffed, and loads only from its own origin", async () => {
    const r = await fetch(`${origin}/jobs`);
    expect(r.status).toBe(200);
    const csp = r.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toContain("unsafe-eval");
    expect(r.headers.get("x-frame-options")).toBe("DENY");
    expect(r.headers.get("x-content-type-options")).toBe("nosniff");
    expect(r.headers.get("referrer-policy")).toBe("same-origin");
  });

  it("HSTS is never sent over plain HTTP (browsers ignore it there; it is set on HTTPS answers)", async () => {
    const plain = await fetch(`${origin}/`);
    expect(plain.headers.get("strict-transport-security")).toBeNull();
  });
});
