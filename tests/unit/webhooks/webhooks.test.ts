import { afterEach, describe, expect, it } from "vitest";
import {
  deliverWebhook,
  generateWebhookSecret,
  nextRetryDelay,
  signWebhook,
  verifyWebhook,
  WEBHOOK_MAX_ATTEMPTS,
} from "@/lib/webhooks";
import { startLoopbackServer, type LoopbackServer } from "@/tests/helpers/loopback-server";

const noDns = async () => {
  throw Object.assign(new Error("no DNS in tests"), { code: "ENOTFOUND" });
};

describe("webhook signing (Standard Webhooks)", () => {
  it("reproduces the published test vector", () => {
    const headers = signWebhook({
      id: "msg_p5jXN8AQM9LWM0D4loKWxJek",
      timestamp: 1614265330,
      body: '{"test": 2432232314}',
      secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
    });
    expect(headers).toEqual({
      "webhook-id": "msg_p5jXN8AQM9LWM0D4loKWxJek",
      "webhook-timestamp": "1614265330",
      "webhook-signature": "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=",
    });
  });

  it("generates whsec_ secrets of 24 random bytes", () => {
    const a = generateWebhookSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(Buffer.from(a.slice(6), "base64")).toHaveLength(24);
    expect(generateWebhookSecret()).not.toBe(a);
  });

  it("verifies what it signs, within the tolerance", () => {
    const secret = generateWebhookSecret();
    const body = JSON.stringify({ jobId: "j1", status: "success" });
    const now = 1_700_000_000;
    const headers = signWebhook({ id: "msg_1", timestamp: now, body, secret });
    expect(verifyWebhook(headers, body, secret, { now })).toEqual({ ok: true, id: "msg_1", timestamp: now });
    expect(verifyWebhook(headers, Buffer.from(body), secret, { now: now + 299 }).ok).toBe(true);
    expect(verifyWebhook(new Headers({ ...headers }), body, secret, { now }).ok).toBe(true);
    // Node's IncomingHttpHeaders style, with other casing
    expect(
      verifyWebhook(
        {
          "Webhook-Id": "msg_1",
          "Webhook-Timestamp": String(now),
          "Webhook-Signature": headers["webhook-signature"],
        },
        body,
        secret,
        { now },
      ).ok,
    ).toBe(true);
  });

  it.each([
    ["a changed body", (h: Record<string, string>) => h, '{"jobId":"j2"}', 0, "no matching v1 signature"],
    ["a stale timestamp", (h: Record<string, string>) => h, undefined, 301, "too old"],
    [
      "a future timestamp",
      (h: Record<string, string>) => h,
      undefined,
      -301,
      "too old or too far in the future",
    ],
    [
      "another id",
      (h: Record<string, string>) => ({ ...h, "webhook-id": "msg_2" }),
      undefined,
      0,
      "no matching",
    ],
    [
      "a missing header",
      (h: Record<string, string>) => ({ ...h, "webhook-signature": "" }),
      undefined,
      0,
      "missing",
    ],
    [
      "a v2 signature",
      (h: Record<string, string>) => ({
        ...h,
        "webhook-signature": h["webhook-signature"].replace("v1,", "v2,"),
      }),
      undefined,
      0,
      "no matching",
    ],
  ])("rejects %s", (_label, edit, otherBody, skew, reason) => {
    const secret = generateWebhookSecret();
    const body = '{"jobId":"j1"}';
    const now = 1_700_000_000;
    const headers = edit({ ...signWebhook({ id: "msg_1", timestamp: now, body, secret }) });
    const result = verifyWebhook(headers, otherBody ?? body, secret, { now: now + skew });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.reason).toContain(reason);
  });

  it("rejects another secret and accepts any matching signature of several", () => {
    const body = "{}";
    const now = 1_700_000_000;
    const headers = signWebhook({ id: "msg_1", timestamp: now, body, secret: generateWebhookSecret() });
    const secret = generateWebhookSecret();
    expect(verifyWebhook(headers, body, secret, { now }).ok).toBe(false);
    const mine = signWebhook({ id: "msg_1", timestamp: now, body, secret })["webhook-signature"];
    const rotated = { ...headers, "webhook-signature": `${headers["webhook-signature"]} ${mine}` };
    expect(verifyWebhook(rotated, body, secret, { now }).ok).toBe(true);
  });
});

describe("deliverWebhook", () => {
  const servers: LoopbackServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });

  it("POSTs signed JSON that the receiver can verify", async () => {
    const secret = generateWebhookSecret();
    let verdict: ReturnType<typeof verifyWebhook> | undefined;
    const receiver = await startLoopbackServer((req, res) => {
      verdict = verifyWebhook(req.headers, req.body, secret);
      res.writeHead(verdict.ok ? 204 : 401).end();
    });
    servers.push(receiver);
    const body = { jobId: "abc", status: "success", url: "https://quire.example/f/1" };
    const result = await deliverWebhook(`${receiver.origin}/hook`, body, secret, {
      policy: "127.0.0.1/32",
      lookup: noDns,
      id: "msg_fixed",
    });
    expect(result).toEqual({ ok: true, status: 204, error: undefined, retryable: false, id: "msg_fixed" });
    expect(verdict).toMatchObject({ ok: true, id: "msg_fixed" });
    const seen = receiver.requests[0];
    expect(seen.method).toBe("POST");
    expect(seen.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(seen.body.toString())).toEqual(body);
  });

  it("does not follow a redirecting receiver", async () => {
    const target = await startLoopbackServer();
    const receiver = await startLoopbackServer((_req, res) =>
      res.writeHead(302, { location: `${target.origin}/elsewhere` }).end(),
    );
    servers.push(target, receiver);
    const result = await deliverWebhook(`${receiver.origin}/hook`, { a: 1 }, generateWebhookSecret(), {
      policy: "127.0.0.1/32",
      lookup: noDns,
    });
    expect(result).toMatchObject({ ok: false, status: 302, retryable: true });
    expect(result.error).toContain("redirects are not followed");
    expect(target.connections).toBe(0);
  });

  it("reports a failing receiver as retryable", async () => {
    const receiver = await startLoopbackServer((_req, res) => res.writeHead(503).end("busy"));
    servers.push(receiver);
    const result = await deliverWebhook(`${receiver.origin}/hook`, "{}", generateWebhookSecret(), {
      policy: "127.0.0.1/32",
      lookup: noDns,
    });
    expect(result).toMatchObject({ ok: false, status: 503, retryable: true });
  });

  it("refuses a private callback URL without connecting, and says retrying cannot help", async () => {
    const receiver = await startLoopbackServer();
    servers.push(receiver);
    const result = await deliverWebhook(`${receiver.origin}/hook`, "{}", generateWebhookSecret(), {
      policy: "",
      lookup: noDns,
    });
    expect(result).toMatchObject({ ok: false, status: 0, retryable: false });
    expect(result.error).toMatch(/^callback: 127\.0\.0\.1 is a loopback address/);
    expect(receiver.connections).toBe(0);
    const bad = await deliverWebhook("ftp://example.com/x", "{}", generateWebhookSecret(), { lookup: noDns });
    expect(bad).toMatchObject({ ok: false, retryable: false });
  });

  it("times out a receiver that never answers", async () => {
    const receiver = await startLoopbackServer(() => new Promise(() => {}));
    servers.push(receiver);
    const result = await deliverWebhook(`${receiver.origin}/hook`, "{}", generateWebhookSecret(), {
      policy: "127.0.0.1/32",
      lookup: noDns,
      timeoutMs: 200,
    });
    expect(result).toMatchObject({ ok: false, status: 0, retryable: true });
    expect(result.error).toContain("took longer than 0.2 s");
  });
});

describe("nextRetryDelay", () => {
  it("backs off exponentially: 10 s, 30 s, 2 min, 10 min, 30 min, 1 h, ...", () => {
    const mid = () => 0.5; // no jitter
    expect([1, 2, 3, 4, 5, 6].map((a) => nextRetryDelay(a, mid))).toEqual([
      10_000, 30_000, 120_000, 600_000, 1_800_000, 3_600_000,
    ]);
  });

  it("adds ±20 % jitter", () => {
    expect(nextRetryDelay(1, () => 0)).toBe(8_000);
    expect(nextRetryDelay(1, () => 0.999999)).toBeCloseTo(12_000, -1);
    for (let i = 0; i < 50; i++) {
      const d = nextRetryDelay(3)!;
      expect(d).toBeGreaterThanOrEqual(96_000);
      expect(d).toBeLessThanOrEqual(144_000);
    }
  });

  it("stays at the last step past the table (the caller stops at WEBHOOK_MAX_ATTEMPTS)", () => {
    const mid = () => 0.5;
    expect(WEBHOOK_MAX_ATTEMPTS).toBe(10);
    expect(nextRetryDelay(WEBHOOK_MAX_ATTEMPTS - 1, mid)).toBe(8 * 3_600_000);
    expect(nextRetryDelay(50, mid)).toBe(8 * 3_600_000);
    expect(nextRetryDelay(0, mid)).toBe(10_000);
  });
});
