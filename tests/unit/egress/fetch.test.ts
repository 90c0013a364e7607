import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import net from "node:net";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { egressDownloadToFile, egressFetch, egressStream } from "@/lib/egress/fetch";
import { setEgressPolicyForTests } from "@/lib/egress/policy";
import type { LookupFn } from "@/lib/egress/check-url";
import { QuireError } from "@/lib/core/errors";
import { startLoopbackServer, type LoopbackServer } from "@/tests/helpers/loopback-server";

const noDns: LookupFn = async () => {
  throw Object.assign(new Error("no DNS in tests"), { code: "ENOTFOUND" });
};

async function failure(p: Promise<unknown>): Promise<QuireError> {
  try {
    await p;
  } catch (e) {
    if (!(e instanceof QuireError)) throw e;
    return e;
  }
  throw new Error("expected a failure");
}

const servers: LoopbackServer[] = [];
async function server(handler?: Parameters<typeof startLoopbackServer>[0]) {
  const s = await startLoopbackServer(handler);
  servers.push(s);
  return s;
}

describe("egressFetch", () => {
  beforeAll(() => {
    delete process.env.EGRESS_ALLOW;
    delete process.env.SOURCE_MAX_BYTES;
    delete process.env.SOURCE_TIMEOUT_MS;
  });
  afterEach(async () => {
    setEgressPolicyForTests(undefined);
    delete process.env.EGRESS_ALLOW;
    delete process.env.SOURCE_MAX_BYTES;
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });
  afterAll(() => setEgressPolicyForTests(undefined));

  it("refuses a loopback server while EGRESS_ALLOW is off, and opens no socket", async () => {
    const s = await server();
    const err = await failure(egressFetch(`${s.origin}/a.pdf`, { lookup: noDns }));
    expect(err.status).toBe(403);
    expect(s.connections).toBe(0);
  });

  it("fetches from an allow-listed loopback server", async () => {
    process.env.EGRESS_ALLOW = "127.0.0.1/32";
    const s = await server((_req, res) => {
      res.writeHead(200, { "content-type": "application/pdf", "x-two": ["a", "b"] });
      res.end("%PDF-1.7 hello");
    });
    const r = await egressFetch(`${s.origin}/doc.pdf?x=1`, { lookup: noDns });
    expect(r.status).toBe(200);
    expect(r.bytes.toString()).toBe("%PDF-1.7 hello");
    expect(r.contentType).toBe("application/pdf");
    expect(r.headers["x-two"]).toBe("a, b");
    expect(r.finalUrl).toBe(`${s.origin}/doc.pdf?x=1`);
    expect(s.requests[0]).toMatchObject({ method: "GET", url: "/doc.pdf?x=1" });
    expect(s.requests[0].headers["user-agent"]).toMatch(/^Quire/);
  });

  it("sends method, headers and body", async () => {
    setEgressPolicyForTests("127.0.0.1/32");
    const s = await server((req, res) => res.end(`got ${req.body.length}`));
    const r = await egressFetch(`${s.origin}/hook`, {
      lookup: noDns,
      method: "POST",
      headers: { "content-type": "application/json", "x-custom": "1", host: "evil.example" },
      body: JSON.stringify({ a: 1 }),
    });
    expect(r.bytes.toString()).toBe("got 7");
    const seen = s.requests[0];
    expect(seen.method).toBe("POST");
    expect(seen.headers["content-type"]).toBe("application/json");
    expect(seen.headers["x-custom"]).toBe("1");
    expect(seen.headers.host).toBe(`127.0.0.1:${s.port}`);
    expect(seen.body.toString()).toBe('{"a":1}');
  });

  it("pins the connection to the address resolved once, keeping the host name", async () => {
    setEgressPolicyForTests("127.0.0.1/32");
    const s = await server((req, res) => res.end(req.headers.host));
    let calls = 0;
    // First answer is allowed; any later answer (a rebinding attempt) would point elsewhere.
    const rebinding: LookupFn = async () => [
      { address: calls++ === 0 ? "127.0.0.1" : "10.0.0.5", family: 4 },
    ];
    const r = await egressFetch(`http://files.example.test:${s.port}/a`, { lookup: rebinding });
    expect(r.bytes.toString()).toBe(`files.example.test:${s.port}`);
    expect(calls).toBe(1);
  });

  it("answers 400 naming the status for a non-2xx answer", async () => {
    setEgressPolicyForTests("127.0.0.1/32");
    const s = await server((_req, res) => {
      res.writeHead(404);
      res.end("nope");
    });
    const err = await failure(egressFetch(`${s.origin}/missing.pdf`, { lookup: noDns }));
    expect(err.status).toBe(400);
    expect(err.message).toBe("url: the server answered 404 Not Found");
    const r = await egressFetch(`${s.origin}/missing.pdf`, { lookup: noDns, acceptAnyStatus: true });
    expect(r.status).toBe(404);
    expect(r.bytes.toString()).toBe("nope");
  });

  it("answers 400 when nothing listens", async () => {
    setEgressPolicyForTests("127.0.0.1/32");
    const s = await server();
    const port = s.port;
    await s.close();
    servers.length = 0;
    const err = await failure(egressFetch(`http://127.0.0.1:${port}/`, { lookup: noDns }));
    expect(err.status).toBe(400);
    expect(err.message).toBe("url: could not connect to host: ECONNREFUSED");
  });

  describe("redirects", () => {
    it("follows up to 5 and re-checks each", async () => {
      setEgressPolicyForTests("127.0.0.1/32");
      const s = await server((req, res) => {
        const n = Number(req.url!.split("/")[2]);
        if (n < 5) {
          res.writeHead(302, { location: `/r/${n + 1}` });
          res.end();
        } else res.end(`landed ${n}`);
      });
      const r = await egressFetch(`${s.origin}/r/0`, { lookup: noDns });
      expect(r.bytes.toString()).toBe("landed 5");
      expect(r.finalUrl).toBe(`${s.origin}/r/5`);
      expect(s.hits).toBe(6);
    });

    it("refuses the sixth with 400 too many redirects", async () => {
      setEgressPolicyForTests("127.0.0.1/32");
      const s = await server((req, res) => {
        const n = Number(req.url!.split("/")[2]);
        res.writeHead(301, { location: `/r/${n + 1}` });
        res.end();
      });
      const err = await failure(egressFetch(`${s.origin}/r/0`, { lookup: noDns }));
      expect(err.status).toBe(400);
      expect(err.message).toBe("url: too many redirects (more than 5)");
      expect(s.hits).toBe(6);
      const two = await failure(egressFetch(`${s.origin}/r/0`, { lookup: noDns, maxRedirects: 2 }));
      expect(two.message).toBe("url: too many redirects (more than 2)");
    });

    it("refuses a redirect to a forbidden address without connecting to it", async () => {
      const forbidden = await server((_req, res) => res.end("secret"));
      const open = await server((_req, res) => {
        res.writeHead(302, { location: `${forbidden.origin}/admin` });
        res.end();
      });
      // Only the first server (host:port) is allow-listed; the target shares its IP but not its port.
      setEgressPolicyForTests(`127.0.0.1:${open.port}`);
      const err = await failure(egressFetch(`${open.origin}/start`, { lookup: noDns }));
      expect(err.status).toBe(403);
      expect(err.message).toBe(
        "url: redirect refused, 127.0.0.1 is a loopback address; Quire only fetches public addresses (an operator can allow it with EGRESS_ALLOW)",
      );
      expect(open.hits).toBe(1);
      expect(forbidden.connections).toBe(0);
    });

    it("refuses a redirect to another scheme", async () => {
      setEgressPolicyForTests("127.0.0.1/32");
      const s = await server((_req, res) => {
        res.writeHead(302, { location: "file:///etc/passwd" });
        res.end();
      });
      const err = await failure(egressFetch(`${s.origin}/`, { lookup: noDns }));
      expect(err.status).toBe(452);
    });

    it("does not follow with maxRedirects 0", async () => {
      setEgressPolicyForTests("127.0.0.1/32");
      const s = await server((_req, res) => {
        res.writeHead(307, { location: "/elsewhere" });
        res.end();
      });
      const r = await egressFetch(`${s.origin}/hook`, {
        lookup: noDns,
        maxRedirects: 0,
        acceptAnyStatus: true,
      });
      expect(r.status).toBe(307);
      expect(r.headers.location).toBe("/elsewhere");
      expect(s.hits).toBe(1);
      const err = await failure(egressFetch(`${s.origin}/hook`, { lookup: noDns, maxRedirects: 0 }));
      expect(err.message).toBe(
        "url: the server answered 307 Temporary Redirect (redirects are not followed here)",
      );
    });

    it("turns POST into GET on 303 and keeps it on 307", async () => {
      setEgressPolicyForTests("127.0.0.1/32");
      const s = await server((req, res) => {
        if (req.url === "/see-other") res.writeHead(303, { location: "/done" }).end();
        else if (req.url === "/temp") res.writeHead(307, { location: "/done" }).end();
        else res.end(`${req.method} ${req.body.length}`);
      });
      expect(
        (
          await egressFetch(`${s.origin}/see-other`, { lookup: noDns, method: "POST", body: "abc" })
        ).bytes.toString(),
      ).toBe("GET 0");
      expect(
        (
          await egressFetch(`${s.origin}/temp`, { lookup: noDns, method: "POST", body: "abc" })
        ).bytes.toString(),
      ).toBe("POST 3");
    });
  });

  describe("basic auth", () => {
    it("is sent to the first origin, including same-origin redirects", async () => {
      setEgressPolicyForTests("127.0.0.1/32");
      const s = await server((req, res) => {
        if (req.url === "/start") res.writeHead(302, { location: "/end" }).end();
        else res.end("ok");
      });
      await egressFetch(`${s.origin}/start`, {
        lookup: noDns,
        basicAuth: { username: "ann", password: "p@ss:word" },
      });
      const expected = "Basic " + Buffer.from("ann:p@ss:word").toString("base64");
      expect(s.requests.map((r) => r.headers.authorization)).toEqual([expected, expected]);
    });

    it("is dropped on a cross-origin redirect (with any Authorization or Cookie header)", async () => {
      setEgressPolicyForTests("127.0.0.1/32");
      const other = await server();
      const s = await server((_req, res) => res.writeHead(302, { location: `${other.origin}/file` }).end());
      await egressFetch(`${s.origin}/start`, {
        lookup: noDns,
        basicAuth: { username: "ann", password: "secret" },
        headers: { cookie: "session=1", "x-keep": "yes" },
      });
      expect(s.requests[0].headers.authorization).toMatch(/^Basic /);
      expect(s.requests[0].headers.cookie).toBe("session=1");
      expect(other.requests[0].headers.authorization).toBeUndefined();
      expect(other.requests[0].headers.cookie).toBeUndefined();
      expect(other.requests[0].headers["x-keep"]).toBe("yes");
    });

    it("is taken from the URL's user info", async () => {
      setEgressPolicyForTests("127.0.0.1/32");
      const s = await server();
      await egressFetch(`http://bob:s%40fe@127.0.0.1:${s.port}/x`, { lookup: noDns });
      expect(s.requests[0].headers.authorization).toBe("Basic " + Buffer.from("bob:s@fe").toString("base64"));
    });
  });

  describe("size cap", () => {
    it("refuses a declared Content-Length above the cap before reading", async () => {
      setEgressPolicyForTests("127.0.0.1/32");
      const s = await server((_req, res) => {
        res.writeHead(200, { "content-length": String(10_000) });
        res.end(Buffer.alloc(10_000));
      });
      const err = await failure(egressFetch(`${s.origin}/big`, { lookup: noDns, maxBytes: 1000 }));
      expect(err.status).toBe(413);
      expect(err.message).toBe("url: source is larger than 1000 bytes");
    });

    it("counts a chunked body while streaming and stops the server", async () => {
      setEgressPolicyForTests("127.0.0.1/32");
      let closed = false;
      let sent = 0;
      const s = await server((_req, res) => {
        res.on("close", () => (closed = true));
        const chunk = Buffer.alloc(64 * 1024, 1);
        const pump = () => {
          while (!closed && sent < 50 * 1024 * 1024) {
            sent += chunk.length;
            if (!res.write(chunk)) return void res.once("drain", pump);
          }
          res.end();
        };
        pump();
      });
      const err = await failure(egressFetch(`${s.origin}/endless`, { lookup: noDns, maxBytes: 1024 * 1024 }));
      expect(err.status).toBe(413);
      expect(err.message).toBe(`url: source is larger than ${1024 * 1024} bytes`);
      await new Promise((r) => setTimeout(r, 50));
      expect(closed).toBe(true);
      expect(sent).toBeLessThan(20 * 1024 * 1024);
    });

    it("counts a body without any length (read until close) and honours SOURCE_MAX_BYTES", async () => {
      setEgressPolicyForTests("127.0.0.1/32");
      process.env.SOURCE_MAX_BYTES = String(200_000);
      const raw = net.createServer((sock) => {
        sock.on("error", () => {});
        sock.once("data", () => {
          sock.write("HTTP/1.1 200 OK\r\nContent-Type: application/pdf\r\nConnection: close\r\n\r\n");
          const timer = setInterval(() => sock.write(Buffer.alloc(16 * 1024)), 1);
          sock.on("close", () => clearInterval(timer));
        });
      });
      await new Promise<void>((r) => raw.listen(0, "127.0.0.1", r));
      try {
        const port = (raw.address() as net.AddressInfo).port;
        const err = await failure(egressFetch(`http://127.0.0.1:${port}/`, { lookup: noDns }));
        expect(err.status).toBe(413);
        expect(err.message).toBe("url: source is larger than 200000 bytes");
      } finally {
        await new Promise((r) => raw.close(r));
      }
    });
  });

  describe("time cap", () => {
    it("gives up on a server that never answers (408)", async () => {
      setEgressPolicyForTests("127.0.0.1/32");
      const s = await server(() => new Promise(() => {}));
      const started = Date.now();
      const err = await failure(egressFetch(`${s.origin}/slow`, { lookup: noDns, timeoutMs: 300 }));
      expect(err.status).toBe(408);
      expect(err.message).toBe("url: the request took longer than 0.3 s");
      expect(Date.now() - started).toBeLessThan(2000);
    });

    it("counts the body in the total time (slow drip)", async () => {
      setEgressPolicyForTests("127.0.0.1/32");
      const s = await server((_req, res) => {
        res.writeHead(200);
        const timer = setInterval(() => res.write("."), 50);
        res.on("close", () => clearInterval(timer));
      });
      const err = await failure(egressFetch(`${s.origin}/drip`, { lookup: noDns, timeoutMs: 400 }));
      expect(err.status).toBe(408);
    });

    it("stops when the caller aborts", async () => {
      setEgressPolicyForTests("127.0.0.1/32");
      const s = await server(() => new Promise(() => {}));
      const ac = new AbortController();
      setTimeout(() => ac.abort(new Error("job cancelled")), 100);
      await expect(egressFetch(`${s.origin}/`, { lookup: noDns, signal: ac.signal })).rejects.toThrow(
        "job cancelled",
      );
    });
  });
});

describe("egressDownloadToFile", () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "quire-egress-"));
    setEgressPolicyForTests("127.0.0.1/32");
  });
  afterAll(async () => {
    setEgressPolicyForTests(undefined);
    fs.rmSync(dir, { recursive: true, force: true });
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });

  it("streams to disk and names the file from Content-Disposition", async () => {
    const s = await server((_req, res) => {
      res.writeHead(200, {
        "content-type": "application/pdf",
        "content-disposition": `attachment; filename*=UTF-8''r%C3%A9sum%C3%A9.pdf; filename="x.pdf"`,
      });
      res.end(Buffer.alloc(300_000, 7));
    });
    const file = path.join(dir, "a");
    const got = await egressDownloadToFile(`${s.origin}/get?id=1`, file, { lookup: noDns });
    expect(got).toMatchObject({
      status: 200,
      name: "résumé.pdf",
      contentType: "application/pdf",
      size: 300_000,
    });
    expect(fs.statSync(file).size).toBe(300_000);
  });

  it("names the file from the URL path otherwise", async () => {
    const s = await server((_req, res) => res.end("x"));
    const got = await egressDownloadToFile(`${s.origin}/files/My%20Invoice.pdf?sig=1`, path.join(dir, "b"), {
      lookup: noDns,
    });
    expect(got.name).toBe("My Invoice.pdf");
    const bare = await egressDownloadToFile(`${s.origin}/`, path.join(dir, "c"), { lookup: noDns });
    expect(bare.name).toBe("download");
  });

  it("removes the partial file past the cap", async () => {
    const s = await server((_req, res) => {
      res.write(Buffer.alloc(100_000));
      res.end(Buffer.alloc(100_000));
    });
    const file = path.join(dir, "d");
    const err = await failure(
      egressDownloadToFile(`${s.origin}/big`, file, { lookup: noDns, maxBytes: 150_000 }),
    );
    expect(err.status).toBe(413);
    expect(fs.existsSync(file)).toBe(false);
  });

  it("refuses before creating the file", async () => {
    const file = path.join(dir, "e");
    const err = await failure(egressDownloadToFile("http://10.0.0.5/x.pdf", file, { lookup: noDns }));
    expect(err.status).toBe(403);
    expect(fs.existsSync(file)).toBe(false);
  });
});

describe("egressStream (the dashboard's calls to a remote upstream)", () => {
  afterEach(async () => {
    setEgressPolicyForTests(undefined);
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });

  it("refuses a forbidden address without connecting", async () => {
    const s = await server();
    const err = await failure(egressStream(`${s.origin}/v1/x`, { lookup: noDns }));
    expect(err.status).toBe(403);
    expect(s.connections).toBe(0);
  });

  it("pins the connection to the checked address and streams both bodies", async () => {
    setEgressPolicyForTests("127.0.0.1/32");
    const s = await server((req, res) => {
      res.writeHead(201, { "content-type": "text/plain" });
      res.end(`got ${req.headers["transfer-encoding"]} ${req.body.toString()}`);
    });
    // The name resolves once, through the checker; the connection never asks DNS again.
    const once: LookupFn = async (host) => (host === "api.example.test" ? [{ address: "127.0.0.1", family: 4 }] : noDns(host));
    async function* body() {
      yield new TextEncoder().encode("part1,");
      yield new TextEncoder().encode("part2");
    }
    const r = await egressStream(`http://api.example.test:${s.port}/v1/pdf/info`, { lookup: once, method: "POST", body: body() });
    expect(r.status).toBe(201);
    let text = "";
    for await (const c of r.body) text += c;
    expect(text).toBe("got chunked part1,part2");
    expect(s.requests[0].headers.host).toBe(`api.example.test:${s.port}`);
  });

  it("returns a redirect as it is and any status", async () => {
    setEgressPolicyForTests("127.0.0.1/32");
    const s = await server((_req, res) => {
      res.writeHead(302, { location: "http://10.0.0.1/" });
      res.end();
    });
    const r = await egressStream(`${s.origin}/a`, { lookup: noDns });
    expect(r.status).toBe(302);
    r.body.resume();
    expect(s.hits).toBe(1);
  });

  it("answers 408 when the head does not come in time", async () => {
    setEgressPolicyForTests("127.0.0.1/32");
    const s = await server(() => {
      /* never answers */
    });
    const err = await failure(egressStream(`${s.origin}/slow`, { lookup: noDns, timeoutMs: 200 }));
    expect(err.status).toBe(408);
  });
});
