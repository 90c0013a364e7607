import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startQuire, type QuireServer } from "../helpers/quire-server";

/**
 * An account with a long history (100,000 jobs and 200,000 ledger rows, seeded into the
 * database while the server is stopped): /v1/jobs and the credit ledger page through it with
 * keyset cursors, filter by date, and answer the deepest page about as fast as the first.
 */
const N = 100_000;
let q: QuireServer;

beforeAll(async () => {
  q = await startQuire();
  await q.kill("SIGTERM");
  const seeded = await q.script("tests/helpers/seed-history.ts", [String(N)]);
  expect(seeded.code, seeded.out).toBe(0);
  console.log(seeded.out.trim());
  await q.restart();
}, 600_000);
afterAll(async () => {
  await q?.stop();
});

async function timed<T>(f: () => Promise<T>): Promise<[T, number]> {
  const t = performance.now();
  const r = await f();
  return [r, performance.now() - t];
}

describe("history paging", () => {
  it("GET /v1/jobs (100,000 jobs → 50 a page, cursors continue without gaps or repeats, deep pages stay fast)", async () => {
    const [first, firstMs] = await timed(() => q.api("/v1/jobs?limit=50"));
    expect(first.status).toBe(200);
    expect(first.body.jobs).toHaveLength(50);
    expect(first.body.jobs[0].jobId).toBe("seed-0000001");
    const seen = new Set<string>(first.body.jobs.map((j: { jobId: string }) => j.jobId));
    let cursor = first.body.nextCursor as string;
    for (let page = 2; page <= 4; page++) {
      const r = await q.api(`/v1/jobs?limit=50&cursor=${cursor}`);
      for (const j of r.body.jobs) {
        expect(seen.has(j.jobId)).toBe(false);
        seen.add(j.jobId);
      }
      cursor = r.body.nextCursor;
    }
    expect([...seen].sort().at(-1)).toBe("seed-0000200");
    // The last page, reached with a cursor near the end: as fast as the first (keyset, no OFFSET).
    const nearEnd = await q.api(`/v1/jobs?limit=500&to=${new Date(Date.now() - 3600_000 - (N - 550) * 60_000).toISOString()}`);
    const [deep, deepMs] = await timed(() => q.api(`/v1/jobs?limit=50&cursor=${nearEnd.body.nextCursor}`));
    expect(deep.body.jobs).toHaveLength(50);
    let tail = deep.body;
    while (tail.nextCursor) tail = (await q.api(`/v1/jobs?limit=50&cursor=${tail.nextCursor}`)).body;
    expect(tail.jobs.at(-1).jobId).toBe("seed-0100000");
    console.log(`/v1/jobs over ${N} jobs: first page ${firstMs.toFixed(0)} ms, last page ${deepMs.toFixed(0)} ms`);
    expect(deepMs).toBeLessThan(Math.max(1_000, firstMs * 5));
  });

  it("GET /v1/jobs (from/to dates and status filter; a bad date → 400 naming the field)", async () => {
    const day = new Date(Date.now() - 3 * 86400_000).toISOString().slice(0, 10);
    const r = await q.api(`/v1/jobs?limit=500&from=${day}&to=${day}&status=failed`);
    expect(r.status).toBe(200);
    // One job a minute, every 10th failed: 144 failures in a whole day.
    expect(r.body.jobs).toHaveLength(144);
    for (const j of r.body.jobs) {
      expect(j.createdAt.slice(0, 10)).toBe(day);
      expect(j.status).toBe("failed");
    }
    const bad = await q.api("/v1/jobs?from=yesterday");
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/^from: /);
    const badCursor = await q.api("/v1/jobs?cursor=nonsense");
    expect(badCursor.status).toBe(400);
    expect(badCursor.body.message).toMatch(/^cursor: /);
  });

  it("GET /v1/account/credit/ledger (entries a page at a time with the balance after each; per-job view nets reserve, capture and release)", async () => {
    const balance = (await q.api("/v1/account/credit/balance")).body.remainingCredits as number;
    const [first, ms] = await timed(() => q.api("/v1/account/credit/ledger?limit=100&days=366&daily=false"));
    expect(first.status).toBe(200);
    expect(first.body.entries).toHaveLength(100);
    const e = first.body.entries as { amount: number; balanceAfter: number; kind: string; operation: string }[];
    expect(e[0]!.balanceAfter).toBe(balance);
    for (let i = 1; i < e.length; i++) expect(e[i]!.balanceAfter).toBe(e[i - 1]!.balanceAfter - e[i - 1]!.amount);
    // A release names the job's operation, not "release".
    expect(e.filter((x) => x.kind === "release").every((x) => ["pdf-info", "pdf-split", "pdf-convert-to-csv"].includes(x.operation))).toBe(true);
    const second = await q.api(`/v1/account/credit/ledger?limit=100&days=366&cursor=${first.body.nextCursor}`);
    expect(second.body.entries[0].balanceAfter).toBe(e.at(-1)!.balanceAfter - e.at(-1)!.amount);
    expect(second.body.entries[0].id).toBe((first.body.entries.at(-1).id as number) - 1);
    expect(ms).toBeLessThan(2_500);

    const jobs = await q.api("/v1/account/credit/ledger?view=jobs&limit=20&days=366");
    expect(jobs.body.jobs).toHaveLength(20);
    const failed = jobs.body.jobs.find((j: { jobId: string }) => j.jobId === "seed-0000010");
    expect(failed).toMatchObject({ reserved: 1, extra: 0, released: 1, net: 0, operation: "pdf-split" });
    const ok = jobs.body.jobs.find((j: { jobId: string }) => j.jobId === "seed-0000011");
    expect(ok).toMatchObject({ reserved: 1, extra: 1, released: 0, net: 2 });
    const one = await q.api("/v1/account/credit/ledger?jobId=seed-0000010&days=366");
    expect(one.body.entries.map((x: { kind: string }) => x.kind)).toEqual(["release", "reserve"]);
    // Deep in the history: the page after the ledger row of job 99,000, as fast as the first.
    const at = (await q.api("/v1/account/credit/ledger?jobId=seed-0099000&days=366")).body.entries[0];
    const cursor = Buffer.from(JSON.stringify([at.at.replace("T", " ").replace("Z", "+00"), at.id])).toString("base64url");
    const [deep, deepMs] = await timed(() => q.api(`/v1/account/credit/ledger?limit=100&days=366&daily=false&cursor=${cursor}`));
    expect(deep.body.entries).toHaveLength(100);
    expect(deep.body.entries[0].jobId).toBe("seed-0099000");
    expect(deep.body.entries[0].kind).toBe("reserve");
    const [chart, chartMs] = await timed(() => q.api("/v1/account/credit/ledger?limit=1&days=30"));
    // 30 days of one job a minute (the seeded history starts an hour ago): ~43,000 jobs charted.
    const charted = (chart.body.daily as { credits: number }[]).reduce((s, d) => s + d.credits, 0);
    expect(charted).toBeGreaterThan(30 * 1440 * 2 * 0.85);
    console.log(`ledger over ${2 * N} rows: first page ${ms.toFixed(0)} ms, page at job 99,000 ${deepMs.toFixed(0)} ms, 30-day chart ${chartMs.toFixed(0)} ms`);
  });
});
