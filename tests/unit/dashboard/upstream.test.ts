import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startLoopbackServer, type LoopbackServer } from "@/tests/helpers/loopback-server";

// A real embedded database in a temporary DATA_DIR holds the account and its remote upstream.
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "quire-upstream-"));
process.env.DATA_DIR = dataDir;
process.env.PUBLIC_URL = "http://127.0.0.1:9";
delete process.env.EGRESS_ALLOW;

const { closeDb } = await import("@/lib/db/client");
const { createUser } = await import("@/lib/auth/users");
const { setRemoteUpstream } = await import("@/lib/auth/upstream");
const { setEgressPolicyForTests } = await import("@/lib/egress/policy");
const { forwardToUpstream } = await import("@/lib/dashboard/server/forward");
const { fetchUpstreamJson } = await import("@/lib/dashboard/server/prefetch");
const { fetchOutput } = await import("@/lib/dashboard/server/outputs");

let remote: LoopbackServer;
let user: Awaited<ReturnType<typeof createUser>>;

beforeAll(async () => {
  remote = await startLoopbackServer((req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ remainingCredits: 7, seen: { method: req.method, url: req.url, body: req.body.toString() } }));
  });
  user = await createUser({ email: "u@test.local", password: "password123" });
  // Saving a remote upstream is allowed here only because the operator allow-lists its address.
  setEgressPolicyForTests(`127.0.0.1:${remote.port}`);
  expect(await setRemoteUpstream(user.accountId, remote.origin, "remote-key")).toBe(7);
});
afterEach(() => setEgressPolicyForTests(`127.0.0.1:${remote.port}`));
afterAll(async () => {
  setEgressPolicyForTests(undefined);
  await remote.close();
  await closeDb();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("one way to the account's upstream (lib/dashboard/server/upstream.ts)", () => {
  it("the proxy streams the call to the remote with the account's key", async () => {
    const req = new Request("http://dash.local/api/proxy/v1/pdf/info?x=1", {
      method: "POST",
      headers: { "content-type": "application/json", cookie: "session=secret" },
      body: JSON.stringify({ url: "https://e.example/a.pdf" }),
    });
    const res = await forwardToUpstream(req, user, "/v1/pdf/info");
    expect(res.status).toBe(200);
    expect(res.headers.get("server-timing")).toMatch(/proxy;dur=[\d.]+, upstream;dur=[\d.]+/);
    const body = await res.json();
    expect(body.seen).toEqual({ method: "POST", url: "/v1/pdf/info?x=1", body: JSON.stringify({ url: "https://e.example/a.pdf" }) });
    const seen = remote.requests.at(-1)!;
    expect(seen.headers["x-api-key"]).toBe("remote-key");
    expect(seen.headers.cookie).toBeUndefined();
  });

  it("the server prefetch reads JSON from the remote with the key", async () => {
    const body = await fetchUpstreamJson<{ remainingCredits: number }>(user, "/v1/account/credit/balance");
    expect(body.remainingCredits).toBe(7);
    expect(remote.requests.at(-1)!.headers["x-api-key"]).toBe("remote-key");
  });

  it("a remote address refused since it was saved is refused again by the proxy, the prefetch and the previewers, without a connection", async () => {
    setEgressPolicyForTests(""); // the operator withdrew the allowance: 127.0.0.1 is loopback again
    const before = remote.connections;
    const res = await forwardToUpstream(new Request("http://dash.local/x"), user, "/v1/account/credit/balance");
    expect(res.status).toBe(403);
    expect((await res.json()).message).toMatch(/loopback|public/);
    await expect(fetchUpstreamJson(user, "/v1/account/credit/balance")).rejects.toMatchObject({ status: 403 });
    await expect(fetchOutput(user, `https://127.0.0.1:${remote.port}/files/x/y.pdf`)).rejects.toMatchObject({ status: 403 });
    expect(remote.connections).toBe(before);
  });

  it("the previewers read only https links of a remote upstream", async () => {
    await expect(fetchOutput(user, `http://127.0.0.1:${remote.port}/files/x/y.pdf`)).rejects.toMatchObject({ status: 403 });
  });
});

describe("nothing else in the dashboard's server code reaches an upstream", () => {
  it("only upstream.ts resolves the account's key and target, or calls out", () => {
    const root = path.resolve(import.meta.dirname, "../../..");
    const files = ["lib/dashboard/server", "app/api"].flatMap((d) =>
      fs.readdirSync(path.join(root, d), { recursive: true, encoding: "utf8" }).filter((f) => /\.tsx?$/.test(f)).map((f) => path.join(d, f)),
    );
    const offenders = files.filter((f) => {
      if (f === "lib/dashboard/server/upstream.ts") return false;
      const text = fs.readFileSync(path.join(root, f), "utf8");
      return /\bgetProxyTarget\b|\bfetch\(|\begressFetch\b|\begressStream\b|node:https?"/.test(text);
    });
    expect(offenders).toEqual([]);
  });
});
