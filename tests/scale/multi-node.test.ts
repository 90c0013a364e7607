import { afterAll, beforeAll, describe, expect, it } from "vitest";
import http from "node:http";
import net from "node:net";
import { spawn } from "node:child_process";
import path from "node:path";
import pg from "pg";
import { startCluster, type Cluster } from "../helpers/cluster";
import { makePdf, pageTexts } from "../helpers/pdf-fixtures";

/**
 * Scaled out: 2 web nodes (RUN_WORKERS=false) and 2 `npm run worker` processes on one
 * PostgreSQL database and one S3 bucket (s3rver), each with its own DATA_DIR.
 */
const hasPg = Boolean(process.env.QUIRE_TEST_PG_URL);

async function api(
  base: string,
  key: string,
  p: string,
  init: { json?: unknown; method?: string; body?: BodyInit; headers?: Record<string, string> } = {},
) {
  const headers: Record<string, string> = { "x-api-key": key, ...(init.headers ?? {}) };
  let body = init.body;
  if (init.json !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(init.json);
  }
  const r = await fetch(base + p, { method: init.method ?? (body ? "POST" : "GET"), headers, body });
  const text = await r.text();
  let parsed: any = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: r.status, body: parsed, headers: r.headers };
}

async function waitJob(base: string, key: string, jobId: string, timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const r = await api(base, key, `/v1/job/check?jobid=${jobId}`);
    if (r.body.status !== "working") return r.body;
    if (Date.now() > deadline) throw new Error(`job ${jobId} still working after ${timeoutMs} ms`);
    await new Promise((res) => setTimeout(res, 250));
  }
}

/** The workers whose logs say they started this job. */
function startedBy(c: Cluster, jobId: string) {
  return c.workers.filter((w) =>
    w.logs().some((l) => l.jobId === jobId && String(l.msg).startsWith("job started")),
  );
}

describe.skipIf(!hasPg)("several nodes on one PostgreSQL and one bucket", () => {
  let c: Cluster;
  let db: pg.Client;
  let slow: http.Server;
  let slowPort: number;
  const held: http.ServerResponse[] = [];
  let slowHits = 0;
  const pdf1 = makePdf({ pages: 1 });

  beforeAll(async () => {
    // A source that hangs on its first download (the job is then mid-run on a worker) and
    // answers every later one.
    slow = http.createServer((req, res) => {
      slowHits++;
      if (slowHits === 1) {
        held.push(res);
        return;
      }
      res.writeHead(200, { "content-type": "application/pdf" });
      res.end(pdf1);
    });
    await new Promise<void>((r) => slow.listen(0, "127.0.0.1", r));
    slowPort = (slow.address() as net.AddressInfo).port;
    c = await startCluster({
      web: 2,
      workers: 2,
      env: { S3_PRESIGN: "false", EGRESS_ALLOW: `127.0.0.1:${slowPort}` },
      workerEnv: { QUEUE_CONCURRENCY: "1" },
    });
    db = new pg.Client({ connectionString: c.databaseUrl });
    await db.connect();
  });
  afterAll(async () => {
    for (const r of held) r.destroy();
    slow?.close();
    await db?.end();
    await c?.stop();
  });

  it("an upload through node A is used by a job that node B accepted and a worker ran; node A serves the output", async () => {
    const [a, b] = c.web;
    const up = await api(
      a.url!,
      c.apiKey,
      "/v1/file/upload/get-presigned-url?name=three.pdf&contenttype=application/pdf",
    );
    const put = await fetch(up.body.presignedUrl, {
      method: "PUT",
      body: new Uint8Array(makePdf({ pages: 3 })),
    });
    expect(put.status).toBe(200);
    const job = await api(b.url!, c.apiKey, "/v1/pdf/split", {
      json: { url: up.body.url, pages: "1,2-3", async: true },
      headers: { "x-request-id": "trace-upload-a-job-b" },
    });
    expect(job.status).toBe(200);
    expect(job.headers.get("x-request-id")).toBe("trace-upload-a-job-b");
    const done = await waitJob(a.url!, c.apiKey, job.body.jobId);
    expect(done.status).toBe("success");
    const [ranOn] = startedBy(c, job.body.jobId);
    expect(startedBy(c, job.body.jobId)).toHaveLength(1);
    // The request id follows the job into the worker's structured logs.
    const lines = ranOn.logs().filter((l) => l.jobId === job.body.jobId);
    expect(lines.map((l) => l.msg)).toEqual([
      "job started: pdf-split",
      expect.stringMatching(/^job finished: pdf-split success/),
    ]);
    for (const l of lines) expect(l.requestId).toBe("trace-upload-a-job-b");
    // The output links name node B (where the call came in); any node answers them.
    const out = new URL(done.urls[1]);
    expect(out.origin).toBe(b.url);
    const viaA = await fetch(a.url + out.pathname + out.search);
    expect(viaA.status).toBe(200);
    expect(pageTexts(new Uint8Array(await viaA.arrayBuffer())).map((t) => t.trim())).toEqual([
      "Page 2",
      "Page 3",
    ]);
    // The same upload in a synchronous call on node B runs in B's own sandbox.
    const sync = await api(b.url!, c.apiKey, "/v1/pdf/info", { json: { url: up.body.url } });
    expect(sync.body.info.PageCount).toBe(3);
  });

  it("a worker killed (SIGKILL) mid-job: the other worker finishes the job, charged once", async () => {
    const [a] = c.web;
    const before = (await api(a.url!, c.apiKey, "/v1/account/credit/balance")).body.remainingCredits;
    const job = await api(a.url!, c.apiKey, "/v1/pdf/info", {
      json: { url: `http://127.0.0.1:${slowPort}/slow.pdf`, async: true },
    });
    expect(job.status).toBe(200);
    const jobId = job.body.jobId as string;
    const deadline = Date.now() + 30_000;
    while (held.length === 0 || startedBy(c, jobId).length === 0) {
      if (Date.now() > deadline) throw new Error("the job did not start");
      await new Promise((r) => setTimeout(r, 100));
    }
    const [victim] = startedBy(c, jobId);
    const survivor = c.workers.find((w) => w !== victim)!;
    await victim.kill("SIGKILL");
    const done = await waitJob(a.url!, c.apiKey, jobId, 120_000);
    expect(done.status).toBe("success");
    expect(done.info.PageCount).toBe(1);
    // Started twice (the killed run and the retry), finished once.
    expect(new Set(startedBy(c, jobId))).toEqual(new Set([victim, survivor]));
    expect(survivor.logs().some((l) => l.jobId === jobId && String(l.msg).startsWith("job finished"))).toBe(
      true,
    );
    const after = (await api(a.url!, c.apiKey, "/v1/account/credit/balance")).body.remainingCredits;
    expect(before - after).toBe(done.credits);
    const ledger = await db.query(`select kind, amount from credit_ledger where job_id = $1 order by id`, [
      jobId,
    ]);
    expect(ledger.rows.map((r) => r.kind)).toEqual(["reserve", "capture"]);
  }, 180_000);

  it("many jobs through both web nodes: each runs exactly once, on some worker; credits exact", async () => {
    const [a, b] = c.web;
    const alive = c.workers.filter((w) => !w.exited());
    const up = await api(a.url!, c.apiKey, "/v1/file/upload/get-presigned-url?name=three.pdf");
    await fetch(up.body.presignedUrl, { method: "PUT", body: new Uint8Array(makePdf({ pages: 3 })) });
    const before = (await api(b.url!, c.apiKey, "/v1/account/credit/balance")).body.remainingCredits;
    const jobs = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        api((i % 2 ? b : a).url!, c.apiKey, "/v1/pdf/split", {
          json: { url: up.body.url, pages: "1,2-3", async: true },
        }),
      ),
    );
    const results = await Promise.all(jobs.map((j) => waitJob(a.url!, c.apiKey, j.body.jobId)));
    expect(results.map((r) => r.status)).toEqual(Array(8).fill("success"));
    for (const j of jobs) {
      const runs = startedBy(c, j.body.jobId);
      expect(runs).toHaveLength(1);
      expect(alive).toContain(runs[0]);
      // Two outputs and the promised JSON list: a second run would have stored more.
      const files = await db.query(`select count(*)::int as n from files where job_id = $1`, [j.body.jobId]);
      expect(files.rows[0].n).toBe(3);
    }
    const charged = results.reduce((s, r) => s + r.credits, 0);
    expect(charged).toBe(8 * 4);
    const after = (await api(a.url!, c.apiKey, "/v1/account/credit/balance")).body.remainingCredits;
    expect(before - after).toBe(charged);
    const sums = await db.query(
      `select a.balance::int as balance, (select sum(amount)::int from credit_ledger l where l.account_id = a.id) as ledger from accounts a`,
    );
    for (const r of sums.rows) expect(r.balance).toBe(r.ledger);
  }, 180_000);

  it("nothing is cached per node: a credit grant and a key revocation are seen by every node at once", async () => {
    const [a, b] = c.web;
    const before = (await api(b.url!, c.apiKey, "/v1/account/credit/balance")).body.remainingCredits;
    const cli = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        "--import",
        "./scripts/node-hooks.mjs",
        "lib/server/cli.ts",
        "grant-credits",
        "admin@test.local",
        "7",
      ],
      {
        cwd: path.resolve(import.meta.dirname, "../.."),
        env: { ...c.env, DATA_DIR: c.web[0].dataDir } as unknown as NodeJS.ProcessEnv,
      },
    );
    expect(await new Promise((r) => cli.on("exit", r))).toBe(0);
    expect((await api(a.url!, c.apiKey, "/v1/account/credit/balance")).body.remainingCredits).toBe(
      before + 7,
    );
    expect((await api(b.url!, c.apiKey, "/v1/account/credit/balance")).body.remainingCredits).toBe(
      before + 7,
    );
    const made = await api(a.url!, c.apiKey, "/v1/account/keys", { json: { name: "temp" } });
    const temp = made.body.secret as string;
    expect((await api(b.url!, temp, "/v1/account/credit/balance")).status).toBe(200);
    expect(
      (await api(a.url!, c.apiKey, `/v1/account/keys/${made.body.key.id}`, { method: "DELETE" })).status,
    ).toBe(200);
    expect((await api(b.url!, temp, "/v1/account/credit/balance")).status).toBe(401);
  });

  it("every node is ready: /readyz checks the database, the queue and the bucket", async () => {
    for (const n of c.web) {
      const r = await fetch(`${n.url}/readyz`);
      expect(r.status).toBe(200);
      expect((await r.json()).checks).toEqual({ database: "ok", queue: "ok", storage: "ok" });
    }
  });
});
