import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startQuire, waitForJob, type QuireServer } from "../helpers/quire-server";
import { uploadBytes } from "../helpers/api-client";
import { makePdf } from "../helpers/pdf-fixtures";

let q: QuireServer;
let pdf: string;

// The queue is not worked at first, so an accepted job waits in it until the restart.
beforeAll(async () => {
  q = await startQuire({ env: { RUN_WORKERS: "false" } });
  pdf = await uploadBytes(q, makePdf({ pages: 2 }), "two.pdf", "application/pdf");
});
afterAll(async () => q?.stop());

async function tamper(jobId: string, patch: Record<string, unknown>) {
  await q.kill("SIGTERM");
  const r = await q.script("tests/helpers/tamper-job.ts", [jobId, JSON.stringify(patch)]);
  expect(r.code, r.out).toBe(0);
}

describe("stored requests are checked again through the operation's contract", () => {
  it("a queued job whose stored params no longer fit fails with the field named, uncharged", async () => {
    const before = (await q.api("/v1/account/credit/balance")).body.remainingCredits;
    const accepted = await q.api("/v1/pdf/info", { json: { url: pdf, async: true } });
    expect(accepted.status).toBe(200);
    await tamper(accepted.body.jobId, { url: 42 });
    await q.restart({ RUN_WORKERS: "true" });
    const done = await waitForJob(q, accepted.body.jobId);
    expect(done.status).toBe("failed");
    expect(done.errorCode).toBe(454);
    expect(done.message).toMatch(/stored request no longer fits \/v1\/pdf\/info: url: /);
    expect(done.credits).toBe(0);
    expect((await q.api("/v1/account/credit/balance")).body.remainingCredits).toBe(before);
  });

  it("a re-run of a job whose stored params no longer fit → 454 naming the field, nothing run or charged", async () => {
    const ok = await q.api("/v1/pdf/split", { json: { url: pdf, pages: "1" } });
    expect(ok.status).toBe(200);
    const jobId = (await q.api("/v1/jobs?limit=1")).body.jobs[0].jobId;
    await tamper(jobId, { pages: ["1"] });
    await q.restart();
    const jobsBefore = (await q.api("/v1/jobs?limit=500")).body.jobs.length;
    const before = (await q.api("/v1/account/credit/balance")).body.remainingCredits;
    const r = await q.api(`/v1/jobs/${jobId}/rerun`, { method: "POST" });
    expect(r.status).toBe(454);
    expect(r.body.message).toMatch(/pages: /);
    expect((await q.api("/v1/jobs?limit=500")).body.jobs.length).toBe(jobsBefore);
    expect((await q.api("/v1/account/credit/balance")).body.remainingCredits).toBe(before);
  });
});
