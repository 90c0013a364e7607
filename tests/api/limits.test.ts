import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startQuire, waitForJob, type QuireServer } from "../helpers/quire-server";
import { uploadBytes } from "../helpers/api-client";
import { makePdf } from "../helpers/pdf-fixtures";

let q: QuireServer;
let big: string;
beforeAll(async () => {
  q = await startQuire({ env: { SYNC_TIMEOUT_MS: "300", JOB_TIMEOUT_MS: "1200", SOURCE_MAX_BYTES: "300000" } });
  big = await uploadBytes(q, makePdf({ pages: 2500 }), "big.pdf");
});
afterAll(async () => q?.stop());

describe("limits", () => {
  it("a synchronous call longer than SYNC_TIMEOUT_MS → 445 (use async), nothing charged", async () => {
    const before = (await q.api("/v1/account/credit/balance")).body.remainingCredits;
    const r = await q.api("/v1/pdf/convert/to/png", { json: { url: big } });
    expect(r.status).toBe(445);
    expect(r.body.message).toMatch(/async/);
    expect((await q.api("/v1/account/credit/balance")).body.remainingCredits).toBe(before);
    const jobs = (await q.api("/v1/jobs?limit=1")).body.jobs;
    expect(jobs[0].status).toBe("aborted");
  });

  it("work past JOB_TIMEOUT_MS fails cleanly (408) and the server stays up", async () => {
    // Rendering 2500 pages to PNG takes tens of seconds on any machine; a split of the same file can
    // finish inside the 1.2 s budget on a fast one, so it would not prove the timeout.
    const r = await q.api("/v1/pdf/convert/to/png", { json: { url: big, async: true } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const done = await waitForJob(q, r.body.jobId, 60_000);
    expect(done.status).toBe("failed");
    expect(done.message).toMatch(/longer than/);
    expect((await q.api("/v1/account/credit/balance")).status).toBe(200);
    const small = await uploadBytes(q, makePdf({ pages: 2 }), "small.pdf");
    const again = await q.api("/v1/pdf/info", { json: { url: small, async: true } });
    const ok = await waitForJob(q, again.body.jobId);
    expect(ok.status, JSON.stringify(ok)).toBe("success");
    expect(ok.info.PageCount).toBe(2);
  });

  it("a source larger than SOURCE_MAX_BYTES (counted while streaming) → 413", async () => {
    // The upload itself is fine; the 2500-page file is larger than the 300 kB source cap when fetched.
    const { startLoopbackServer } = await import("../helpers/loopback-server");
    const bytes = makePdf({ pages: 2500 });
    const srv = await startLoopbackServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/pdf" });
      res.end(bytes);
    });
    const q2 = await startQuire({ env: { SOURCE_MAX_BYTES: "300000", EGRESS_ALLOW: `127.0.0.1:${srv.port}` } });
    try {
      const r = await q2.api("/v1/pdf/info", { json: { url: `${srv.origin}/big.pdf` } });
      expect(r.status).toBe(413);
      expect(r.body.message).toMatch(/300000/);
    } finally {
      await q2.stop();
      await srv.close();
    }
  });
});
