import { afterAll, beforeAll, describe, expect, it } from "vitest";
import http from "node:http";
import type net from "node:net";
import { startQuire, waitForJob, type QuireServer } from "../helpers/quire-server";
import { uploadBytes } from "../helpers/api-client";
import { makePdf } from "../helpers/pdf-fixtures";

/** A PDF source on loopback that holds each download until released. */
async function heldSource() {
  const pdf = makePdf({ pages: 1 });
  const waiting: http.ServerResponse[] = [];
  let holding = true;
  const server = http.createServer((_req, res) => {
    if (!holding) return res.writeHead(200, { "content-type": "application/pdf" }).end(pdf);
    waiting.push(res);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    url: `http://127.0.0.1:${port}/doc.pdf`,
    waiting,
    release() {
      holding = false;
      for (const res of waiting.splice(0)) res.writeHead(200, { "content-type": "application/pdf" }).end(pdf);
    },
    hold() {
      holding = true;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

async function until(cond: () => boolean, ms = 20_000) {
  const deadline = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("rate limit per API key (RATE_LIMIT_PER_SECOND / RATE_LIMIT_BURST)", () => {
  let q: QuireServer;
  beforeAll(async () => {
    q = await startQuire({ env: { RATE_LIMIT_PER_SECOND: "2", RATE_LIMIT_BURST: "5" } });
  });
  afterAll(async () => q?.stop());

  it("a burst past the bucket → 429 with Retry-After and the IETF RateLimit headers; it refills", async () => {
    const answers = [];
    for (let i = 0; i < 8; i++) answers.push(await q.api("/v1/account/credit/balance"));
    const ok = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status === 429);
    expect(ok.length).toBeGreaterThanOrEqual(5);
    expect(ok.length).toBeLessThanOrEqual(6); // one token may refill while the calls run
    expect(refused.length).toBe(8 - ok.length);
    expect(ok[0].headers.get("ratelimit-policy")).toBe('"per-key";q=5;w=3');
    expect(ok[0].headers.get("ratelimit")).toMatch(/^"per-key";r=4;t=\d+$/);
    const no = refused[0];
    expect(no.body).toMatchObject({ error: true, status: 429 });
    expect(no.body.message).toMatch(/2 requests per second/);
    const wait = Number(no.headers.get("retry-after"));
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(no.headers.get("ratelimit")).toMatch(/^"per-key";r=0;/);
    await new Promise((r) => setTimeout(r, wait * 1000 + 100));
    expect((await q.api("/v1/account/credit/balance")).status).toBe(200);
  });

  it("each key has its own bucket", async () => {
    await new Promise((r) => setTimeout(r, 2600)); // let the admin key's bucket refill
    const made = await q.api("/v1/account/keys", { json: { name: "second" } });
    expect(made.status).toBe(200);
    for (let i = 0; i < 6; i++) await q.api("/v1/account/credit/balance");
    expect((await q.api("/v1/account/credit/balance")).status).toBe(429);
    expect((await q.api("/v1/account/credit/balance", { key: made.body.secret })).status).toBe(200);
  });
});

describe("Idempotency-Key and ACCOUNT_MAX_CONCURRENT_JOBS", () => {
  let q: QuireServer;
  let src: Awaited<ReturnType<typeof heldSource>>;
  let pdf2: string;
  beforeAll(async () => {
    src = await heldSource();
    q = await startQuire({
      env: { EGRESS_ALLOW: `127.0.0.1:${src.port}`, ACCOUNT_MAX_CONCURRENT_JOBS: "1" },
    });
    pdf2 = await uploadBytes(q, makePdf({ pages: 2 }), "two.pdf", "application/pdf");
  });
  afterAll(async () => {
    src.release();
    await q?.stop();
    await src.close();
  });

  it("same key + same body → the same job (replayed); same key + other body → 422", async () => {
    const body = { url: pdf2, pages: "1", async: true };
    const first = await q.api("/v1/pdf/split", { json: body, headers: { "idempotency-key": "split-1" } });
    expect(first.status).toBe(200);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    await waitForJob(q, first.body.jobId);
    const before = (await q.api("/v1/account/credit/balance")).body.remainingCredits;
    // The same parameters in another order and letter case are the same request.
    const again = await q.api("/v1/pdf/split", {
      json: { async: true, pages: "1", url: pdf2 },
      headers: { "idempotency-key": "split-1" },
    });
    expect(again.status).toBe(200);
    expect(again.body.jobId).toBe(first.body.jobId);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect((await q.api("/v1/account/credit/balance")).body.remainingCredits).toBe(before);
    const other = await q.api("/v1/pdf/split", {
      json: { ...body, pages: "2" },
      headers: { "idempotency-key": "split-1" },
    });
    expect(other.status).toBe(422);
    expect(other.body).toMatchObject({ error: true, status: 422 });
    const jobs = await q.api("/v1/jobs?limit=50");
    expect(jobs.body.jobs.filter((j: { jobId: string }) => j.jobId === first.body.jobId)).toHaveLength(1);
  });

  it("a call refused before it made a job keeps nothing: the key can be used again", async () => {
    const bad = await q.api("/v1/pdf/split", {
      json: { url: pdf2, pages: "2", expiration: 99_999_999 },
      headers: { "idempotency-key": "retry-me" },
    });
    expect(bad.status).toBe(454);
    const good = await q.api("/v1/pdf/split", {
      json: { url: pdf2, pages: "2" },
      headers: { "idempotency-key": "retry-me" },
    });
    expect(good.status).toBe(200);
    expect(good.body.urls).toHaveLength(1);
  });

  it("while the first call with a key is still running → 409; one job running → the next is 429 (concurrency cap)", async () => {
    src.hold();
    const slow = q.api("/v1/pdf/info", { json: { url: src.url }, headers: { "idempotency-key": "slow-1" } });
    await until(() => src.waiting.length > 0);
    const dup = await q.api("/v1/pdf/info", {
      json: { url: src.url },
      headers: { "idempotency-key": "slow-1" },
    });
    expect(dup.status).toBe(409);
    expect(dup.headers.get("retry-after")).toBe("1");
    const capped = await q.api("/v1/pdf/info", { json: { url: pdf2 } });
    expect(capped.status).toBe(429);
    expect(capped.body.message).toMatch(/ACCOUNT_MAX_CONCURRENT_JOBS/);
    expect(Number(capped.headers.get("retry-after"))).toBeGreaterThan(0);
    src.release();
    const done = await slow;
    expect(done.status).toBe(200);
    expect(done.body.info.PageCount).toBe(1);
    const replay = await q.api("/v1/pdf/info", {
      json: { url: src.url },
      headers: { "idempotency-key": "slow-1" },
    });
    expect(replay.body).toEqual(done.body);
    expect((await q.api("/v1/pdf/info", { json: { url: pdf2 } })).status).toBe(200);
  });

  it("Idempotency-Key must be visible ASCII, at most 255 characters", async () => {
    const r = await q.api("/v1/pdf/info", {
      json: { url: pdf2 },
      headers: { "idempotency-key": "x".repeat(256) },
    });
    expect(r.status).toBe(400);
    expect(r.body.message).toMatch(/Idempotency-Key/);
  });
});

describe("health and metrics", () => {
  let q: QuireServer;
  let guarded: QuireServer;
  beforeAll(async () => {
    [q, guarded] = await Promise.all([
      startQuire({ env: { TRUST_PROXY: "loopback" } }),
      startQuire({ env: { METRICS_TOKEN: "s3cret-metrics-token" } }),
    ]);
  });
  afterAll(async () => {
    await q?.stop();
    await guarded?.stop();
  });

  it("GET /healthz → 200; GET /readyz → 200 with the database, queue and storage checked", async () => {
    expect((await q.api("/healthz", { key: null })).status).toBe(200);
    const r = await q.api("/readyz", { key: null });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ ok: true, checks: { database: "ok", queue: "ok", storage: "ok" } });
  });

  it("GET /metrics: requests by route and status, job durations, credits, queue depth (loopback only)", async () => {
    const pdf = await uploadBytes(q, makePdf({ pages: 2 }), "m.pdf", "application/pdf");
    expect((await q.api("/v1/pdf/split", { json: { url: pdf, pages: "1,2" } })).status).toBe(200);
    expect((await q.api("/v1/pdf/split", { json: { url: pdf, pages: "9" } })).status).toBe(449);
    const m = await q.api("/metrics", { key: null });
    expect(m.status).toBe(200);
    expect(m.headers.get("content-type")).toMatch(/text\/plain/);
    const text = m.body as string;
    expect(text).toMatch(
      /quire_http_requests_total\{method="POST",route="\/v1\/pdf\/split",status="200"\} 1/,
    );
    expect(text).toMatch(
      /quire_http_requests_total\{method="POST",route="\/v1\/pdf\/split",status="449"\} 1/,
    );
    expect(text).toMatch(/quire_job_duration_seconds_count\{operation="pdf-split",status="success"\} 1/);
    expect(text).toMatch(/quire_job_duration_seconds_count\{operation="pdf-split",status="failed"\} 1/);
    expect(text).toMatch(/quire_credits_charged_total\{operation="pdf-split"\} 3/);
    expect(text).toMatch(/quire_queue_jobs_waiting \d+/);
    expect(text).toMatch(/quire_sandbox_restarts_total \d+/);
    // From another machine (through the trusted proxy): refused without a token.
    const remote = await q.api("/metrics", { key: null, headers: { "x-forwarded-for": "203.0.113.7" } });
    expect(remote.status).toBe(403);
  });

  it("with METRICS_TOKEN, /metrics needs the bearer token", async () => {
    expect((await guarded.api("/metrics", { key: null })).status).toBe(401);
    expect(
      (await guarded.api("/metrics", { key: null, headers: { authorization: "Bearer wrong" } })).status,
    ).toBe(401);
    const ok = await guarded.api("/metrics", {
      key: null,
      headers: { authorization: "Bearer s3cret-metrics-token" },
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toContain("quire_http_requests_total");
  });
});
