import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startQuire, waitForJob, type QuireServer } from "../helpers/quire-server";
import { uploadBytes } from "../helpers/api-client";
import { makePdf } from "../helpers/pdf-fixtures";
import { startLoopbackServer } from "../helpers/loopback-server";
import { verifyWebhook } from "@/lib/webhooks/sign";

let q: QuireServer;
let callbacks: Awaited<ReturnType<typeof startLoopbackServer>>;

beforeAll(async () => {
  callbacks = await startLoopbackServer((req, res) => {
    if (req.url === "/redirect") {
      res.writeHead(302, { location: "/ok" });
      return void res.end();
    }
    if (req.url === "/flaky" && callbacks.requests.filter((r) => r.url === "/flaky").length < 2) {
      res.writeHead(503);
      return void res.end("busy");
    }
    res.end("ok");
  });
  // The callback receiver lives on loopback: allow exactly it (the operator allow-list).
  q = await startQuire({ env: { EGRESS_ALLOW: `127.0.0.1:${callbacks.port}` } });
});
afterAll(async () => {
  await q?.stop();
  await callbacks?.close();
});

async function userKey(credits: number) {
  const email = `u${Math.random().toString(36).slice(2, 8)}@test.local`;
  const r = await q.cli(["create-user", email, "--password", "password123", "--credits", String(credits)]);
  expect(r.code, r.out).toBe(0);
  return { email, key: /api key:\s+(qk_\S+)/.exec(r.out)![1] };
}

describe("credits", () => {
  it("50 parallel requests against a balance of 10 → exactly 10 accepted, the rest 402", async () => {
    const { key } = await userKey(10);
    const src = await uploadBytes(q, makePdf({ pages: 1 }), "one.pdf");
    const results = await Promise.all(
      Array.from({ length: 50 }, () => q.api("/v1/pdf/info", { json: { url: src }, key })),
    );
    const ok = results.filter((r) => r.status === 200).length;
    const poor = results.filter((r) => r.status === 402);
    expect(ok).toBe(10);
    expect(poor).toHaveLength(40);
    expect(poor[0].body.message).toMatch(/credits/i);
    const bal = await q.api("/v1/account/credit/balance", { key });
    expect(bal.body.remainingCredits).toBe(0);
  });

  it("failed work is not charged; success charges perCall + perPage × pages", async () => {
    const { key } = await userKey(100);
    const src = await uploadBytes(q, makePdf({ pages: 4 }), "four.pdf");
    const fail = await q.api("/v1/pdf/split", { json: { url: src, pages: "9" }, key });
    expect(fail.status).toBe(449);
    expect((await q.api("/v1/account/credit/balance", { key })).body.remainingCredits).toBe(100);
    const ok = await q.api("/v1/pdf/split", { json: { url: src }, key });
    expect(ok.body.credits).toBe(1 + 4);
    expect(ok.body.remainingCredits).toBe(95);
    const ledger = await q.api("/v1/account/credit/ledger", { key });
    expect(ledger.body.entries.map((e: { kind: string }) => e.kind)).toEqual(
      expect.arrayContaining(["grant", "reserve", "release", "capture"]),
    );
  });

  it("CLI grant-credits changes the balance", async () => {
    const { email, key } = await userKey(5);
    const r = await q.cli(["grant-credits", email, "20"]);
    expect(r.code, r.out).toBe(0);
    expect((await q.api("/v1/account/credit/balance", { key })).body.remainingCredits).toBe(25);
  });
});

describe("callbacks", () => {
  it("async + callback → a signed POST of the job-check result (Standard Webhooks)", async () => {
    const src = await uploadBytes(q, makePdf({ pages: 2 }), "cb.pdf");
    const r = await q.api("/v1/pdf/info", { json: { url: src, async: true, callback: `${callbacks.origin}/hook` } });
    expect(r.status).toBe(200);
    await waitForJob(q, r.body.jobId);
    const deadline = Date.now() + 20_000;
    while (!callbacks.requests.some((x) => x.url === "/hook") && Date.now() < deadline) await new Promise((s) => setTimeout(s, 200));
    const hit = callbacks.requests.find((x) => x.url === "/hook")!;
    expect(hit).toBeTruthy();
    const body = JSON.parse(hit.body.toString("utf8"));
    expect(body).toMatchObject({ jobId: r.body.jobId, status: "success" });
    expect(body.info.PageCount).toBe(2);
    const secret = (await q.api("/v1/account/webhook-secret")).body.secret;
    const v = verifyWebhook(hit.headers as Record<string, string>, hit.body.toString("utf8"), secret);
    expect(v.ok).toBe(true);
  });

  it("callback redirects are not followed; failures are retried and recorded", async () => {
    const src = await uploadBytes(q, makePdf({ pages: 1 }), "cb2.pdf");
    const r = await q.api("/v1/pdf/info", { json: { url: src, async: true, callback: `${callbacks.origin}/redirect` } });
    await waitForJob(q, r.body.jobId);
    const deadline = Date.now() + 20_000;
    let job: any;
    while (Date.now() < deadline) {
      job = (await q.api(`/v1/jobs/${r.body.jobId}`)).body.job;
      if (job.callbacks.length) break;
      await new Promise((s) => setTimeout(s, 200));
    }
    expect(job.callbacks[0].ok).toBe(false);
    expect(callbacks.requests.some((x) => x.url === "/ok")).toBe(false);
  });
});

describe("jobs survive a restart", () => {
  it("SIGKILL mid-job, start again → the job completes once, credits captured once", async () => {
    const { key } = await userKey(5000);
    const big = await uploadBytes(q, makePdf({ pages: 1500 }), "big.pdf");
    const r = await q.api("/v1/pdf/split", { json: { url: big, async: true }, key });
    const jobId = r.body.jobId;
    // Wait until a worker has started it, then kill the whole process.
    const deadline = Date.now() + 30_000;
    for (;;) {
      const j = (await q.api(`/v1/jobs/${jobId}`, { key })).body.job;
      if (j.startedAt) break;
      if (Date.now() > deadline) throw new Error("job never started");
      await new Promise((s) => setTimeout(s, 50));
    }
    await q.kill("SIGKILL");
    await q.restart();
    const done = await waitForJob(q, jobId, 120_000, key).catch((e) => {
      throw new Error(`${e.message}\n${q.stdout().slice(-4000)}`);
    });
    expect(done.status).toBe("success");
    expect(done.credits).toBe(1 + 1500);
    const bal = await q.api("/v1/account/credit/balance", { key });
    expect(bal.body.remainingCredits).toBe(5000 - 1501);
    const ledger = (await q.api("/v1/account/credit/ledger", { key })).body.entries.filter((e: any) => e.jobId === jobId);
    expect(ledger.filter((e: any) => e.kind === "capture")).toHaveLength(1);
    expect(ledger.filter((e: any) => e.kind === "reserve")).toHaveLength(1);
  }, 180_000);
});
