import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startQuire, waitForJob, type QuireServer } from "../helpers/quire-server";
import { uploadBytes } from "../helpers/api-client";
import { makePdf } from "../helpers/pdf-fixtures";

/**
 * /v1/data/store (GET, POST, DELETE) and /v1/data/store/webhook over HTTP: values kept per account
 * and key, replaced on a second write, listed, deleted; the webhook stores a whole callback body;
 * bad keys 400, oversized values 413, another account's key 404, nothing charged.
 */

let q: QuireServer;
let otherKey: string;

beforeAll(async () => {
  q = await startQuire({ env: { DATA_STORE_MAX_BYTES: "2048", DATA_STORE_MAX_KEYS: "4" } });
  const r = await q.cli(["create-user", "store-other@test.local", "--password", "password123", "--credits", "10"]);
  otherKey = /api key:\s+(qk_\S+)/.exec(r.out)![1];
}, 120_000);
afterAll(async () => q?.stop());

describe("/v1/data/store", () => {
  it("stores a JSON value under a key, reads it back, replaces it, lists and deletes it; free", async () => {
    const before = (await q.api("/v1/account/credit/balance")).body.remainingCredits;
    const put = await q.api("/v1/data/store", { json: { jobid: "job-1", body: { invoice: "4711", total: 119.5, items: [1, 2] } } });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body.jobId).toBe("job-1");
    expect(put.body.size).toBe(JSON.stringify({ invoice: "4711", total: 119.5, items: [1, 2] }).length);

    const got = await q.api("/v1/data/store?jobid=job-1");
    expect(got.status).toBe(200);
    expect(got.body.body).toEqual({ invoice: "4711", total: 119.5, items: [1, 2] });

    // GET with the parameters in the query string works like the public API's GET form; a second write replaces.
    await q.api("/v1/data/store", { json: { jobid: "job-1", body: "replaced" } });
    expect((await q.api("/v1/data/store?JobId=job-1")).body.body).toBe("replaced");

    await q.api("/v1/data/store", { json: { jobid: "job-2", body: [] } });
    const list = await q.api("/v1/data/store");
    expect(list.body.items.map((i: { jobId: string }) => i.jobId)).toEqual(["job-1", "job-2"]);

    const del = await q.api("/v1/data/store?jobid=job-2", { method: "DELETE" });
    expect(del.status).toBe(200);
    expect(del.body.deleted).toBe(true);
    expect((await q.api("/v1/data/store?jobid=job-2")).status).toBe(404);
    expect((await q.api("/v1/data/store?jobid=job-2", { method: "DELETE" })).status).toBe(404);
    expect((await q.api("/v1/account/credit/balance")).body.remainingCredits).toBe(before);
  });

  it("another account neither sees nor deletes the key (404), and keeps its own value under the same key", async () => {
    await q.api("/v1/data/store", { json: { jobid: "shared-name", body: { owner: "admin" } } });
    expect((await q.api("/v1/data/store?jobid=shared-name", { key: otherKey })).status).toBe(404);
    expect((await q.api("/v1/data/store?jobid=shared-name", { method: "DELETE", key: otherKey })).status).toBe(404);
    await q.api("/v1/data/store", { key: otherKey, json: { jobid: "shared-name", body: { owner: "other" } } });
    expect((await q.api("/v1/data/store?jobid=shared-name")).body.body).toEqual({ owner: "admin" });
    expect((await q.api("/v1/data/store?jobid=shared-name", { key: otherKey })).body.body).toEqual({ owner: "other" });
    expect((await q.api("/v1/data/store?jobid=shared-name", { key: null })).status).toBe(401);
  });

  it("refuses bad keys (400), missing bodies (400), values over DATA_STORE_MAX_BYTES and keys past DATA_STORE_MAX_KEYS (413)", async () => {
    const bad = await q.api("/v1/data/store", { json: { jobid: "../etc/passwd", body: 1 } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/^jobid:/);
    expect((await q.api("/v1/data/store", { json: { jobid: "x" } })).status).toBe(400);
    const big = await q.api("/v1/data/store", { json: { jobid: "big", body: "x".repeat(3000) } });
    expect(big.status).toBe(413);
    expect(big.body.message).toMatch(/DATA_STORE_MAX_BYTES/);
    expect((await q.api("/v1/data/store?jobid=big")).status).toBe(404);
    // job-1 and shared-name exist; two more fit, the fifth is refused; replacing an existing key still works.
    expect((await q.api("/v1/data/store", { json: { jobid: "k3", body: 3 } })).status).toBe(200);
    expect((await q.api("/v1/data/store", { json: { jobid: "k4", body: 4 } })).status).toBe(200);
    const full = await q.api("/v1/data/store", { json: { jobid: "k5", body: 5 } });
    expect(full.status).toBe(413);
    expect(full.body.message).toMatch(/DATA_STORE_MAX_KEYS/);
    expect((await q.api("/v1/data/store", { json: { jobid: "k4", body: 44 } })).status).toBe(200);
    await q.api("/v1/data/store?jobid=k3", { method: "DELETE" });
    await q.api("/v1/data/store?jobid=k4", { method: "DELETE" });
  });
});

describe("/v1/data/store/webhook", () => {
  it("stores a job's whole answer posted as a callback body under ?jobid=, readable with GET", async () => {
    const url = await uploadBytes(q, makePdf({ pages: 3 }), "three.pdf");
    const job = await q.api("/v1/pdf/info", { json: { url, async: true } });
    const done = await waitForJob(q, job.body.jobId);
    expect(done.status).toBe("success");
    const hook = await q.api(`/v1/data/store/webhook?jobid=${job.body.jobId}`, { body: JSON.stringify(done), headers: { "content-type": "application/json" }, method: "POST" });
    expect(hook.status, JSON.stringify(hook.body)).toBe(200);
    expect(hook.body.jobId).toBe(job.body.jobId);
    const got = await q.api(`/v1/data/store?jobid=${job.body.jobId}`);
    expect(got.body.body.info.PageCount).toBe(3);
    await q.api(`/v1/data/store?jobid=${job.body.jobId}`, { method: "DELETE" });
  });

  it("answers 400 without jobid or with a body that is not JSON, 413 past DATA_STORE_MAX_BYTES", async () => {
    const noKey = await q.api("/v1/data/store/webhook", { method: "POST", body: "{}", headers: { "content-type": "application/json" } });
    expect(noKey.status).toBe(400);
    const notJson = await q.api("/v1/data/store/webhook?jobid=w1", { method: "POST", body: "status=success", headers: { "content-type": "text/plain" } });
    expect(notJson.status).toBe(400);
    expect(notJson.body.message).toMatch(/JSON/);
    const big = await q.api("/v1/data/store/webhook?jobid=w1", { method: "POST", body: JSON.stringify({ x: "y".repeat(5000) }), headers: { "content-type": "application/json" } });
    expect(big.status).toBe(413);
    expect((await q.api("/v1/data/store?jobid=w1")).status).toBe(404);
  });
});
