/**
 * `npm run bench:load`: a bounded mixed load against Quire as it is deployed, in one run:
 *   one node   — the embedded default (PGlite, in-process workers, WORKERS=2)
 *   1 web + 1 worker, and 2 web + 2 workers — PostgreSQL + an S3-compatible bucket (s3rver),
 *              each worker one sandbox child taking one job at a time
 * For BENCH_SECONDS (default 20) each setup gets, at the same time: light calls (credit balance)
 * at a fixed rate, job checks at a fixed rate, and CPU-bound document jobs (async PDF → HTML of a
 * 2-page PDF: text layout and page rendering) kept in flight. Printed: document jobs per second, p50/p99 of each kind, errors
 * (5xx and transport, 429 apart), peak memory of each process (its own + its sandbox children).
 * Needs PostgreSQL (QUIRE_TEST_PG_URL, default 127.0.0.1:5432) for the scaled-out setups.
 */
import fs from "node:fs";
import pg from "pg";
import { startQuire, type QuireServer } from "../tests/helpers/quire-server";
import { startCluster, type Cluster } from "../tests/helpers/cluster";
import { makePdf } from "../tests/helpers/pdf-fixtures";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const LIGHT_RATE = Number(process.env.BENCH_LIGHT_RATE ?? 100); // requests/s
const CHECK_RATE = Number(process.env.BENCH_CHECK_RATE ?? 50); // requests/s
const IN_FLIGHT = Number(process.env.BENCH_JOBS_IN_FLIGHT ?? 4);
const JOB_PATH = "/v1/pdf/convert/to/html";
const PG_URL = process.env.QUIRE_TEST_PG_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

// Bench settings: no per-key limit (one key drives everything), no per-account cap.
const ENV = {
  RATE_LIMIT_PER_SECOND: "0",
  ACCOUNT_MAX_CONCURRENT_JOBS: "0",
  LOG_LEVEL: "warn",
  LOG_FORMAT: "text",
};

interface Target {
  name: string;
  urls: string[];
  key: string;
  /** Process ids to watch, by label. */
  pids: Record<string, number>;
  stop(): Promise<void>;
}

function pct(xs: number[], p: number) {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}

/** Resident memory (kB) of a process and all its descendants (sandbox children, browsers). */
function treeRssKb(pid: number): number {
  let total = 0;
  const status = (p: number) => {
    try {
      return fs.readFileSync(`/proc/${p}/status`, "utf8");
    } catch {
      return "";
    }
  };
  const kids = (p: number): number[] => {
    try {
      return fs
        .readFileSync(`/proc/${p}/task/${p}/children`, "utf8")
        .trim()
        .split(/\s+/)
        .filter(Boolean)
        .map(Number);
    } catch {
      return [];
    }
  };
  const walk = (p: number) => {
    const m = /VmRSS:\s+(\d+)/.exec(status(p));
    total += m ? Number(m[1]) : 0;
    for (const k of kids(p)) walk(k);
  };
  walk(pid);
  return total;
}

async function call(url: string, key: string, init: { json?: unknown } = {}) {
  const t = performance.now();
  try {
    const r = await fetch(url, {
      method: init.json ? "POST" : "GET",
      headers: { "x-api-key": key, ...(init.json ? { "content-type": "application/json" } : {}) },
      body: init.json ? JSON.stringify(init.json) : undefined,
    });
    const body = await r.json().catch(() => ({}));
    return { ms: performance.now() - t, status: r.status, body: body as Record<string, any> };
  } catch {
    return { ms: performance.now() - t, status: 0, body: {} as Record<string, any> };
  }
}

async function upload(base: string, key: string, bytes: Buffer, name: string) {
  const r = await call(
    `${base}/v1/file/upload/get-presigned-url?name=${name}&contenttype=application/pdf`,
    key,
  );
  const put = await fetch(r.body.presignedUrl, {
    method: "PUT",
    body: new Uint8Array(bytes),
    headers: { "content-type": "application/pdf" },
  });
  if (!put.ok) throw new Error(`upload failed: ${put.status}`);
  return r.body.url as string;
}

/** Fires `fn` at `rate` per second until `until`, never more than 64 in flight. */
async function atRate(rate: number, until: number, fn: () => Promise<void>) {
  const running = new Set<Promise<void>>();
  const step = 1000 / rate;
  let next = performance.now();
  while (Date.now() < until) {
    if (running.size < 64) {
      const p = fn().finally(() => running.delete(p));
      running.add(p);
    }
    next += step;
    const wait = next - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  }
  await Promise.all(running);
}

async function measure(t: Target, doc: Buffer) {
  const base = t.urls[0];
  const src = await upload(base, t.key, doc, "doc.pdf");
  // Warm each node (first sandbox import) outside the measured window.
  await Promise.all(t.urls.map((u) => call(`${u}${JOB_PATH}`, t.key, { json: { url: src, inline: true } })));
  const light: number[] = [];
  const checks: number[] = [];
  const jobsDone: number[] = [];
  const errors = { light: 0, check: 0, job: 0, limited: 0 };
  const peak: Record<string, number> = {};
  const sampler = setInterval(() => {
    for (const [label, pid] of Object.entries(t.pids))
      peak[label] = Math.max(peak[label] ?? 0, treeRssKb(pid));
  }, 250);
  const live: string[] = [];
  let rr = 0;
  const pick = () => t.urls[rr++ % t.urls.length];
  const started = Date.now();
  const until = started + SECONDS * 1000;
  const count = (s: number, kind: "light" | "check" | "job") => {
    if (s === 429) errors.limited++;
    else if (s === 0 || s >= 500) errors[kind]++;
  };
  const submitter = async () => {
    while (Date.now() < until) {
      const sub = await call(`${pick()}${JOB_PATH}`, t.key, { json: { url: src, async: true } });
      if (sub.status !== 200) {
        count(sub.status, "job");
        continue;
      }
      const id = sub.body.jobId as string;
      live.push(id);
      for (;;) {
        await new Promise((r) => setTimeout(r, 100));
        const c = await call(`${pick()}/v1/job/check?jobid=${id}`, t.key);
        checks.push(c.ms);
        count(c.status, "check");
        if (c.body.status === "success") {
          if (Date.now() <= until) jobsDone.push(Date.now());
          break;
        }
        if (c.body.status && c.body.status !== "working") {
          errors.job++;
          break;
        }
      }
      live.splice(live.indexOf(id), 1);
    }
  };
  await Promise.all([
    atRate(LIGHT_RATE, until, async () => {
      const r = await call(`${pick()}/v1/account/credit/balance`, t.key);
      light.push(r.ms);
      count(r.status, "light");
    }),
    atRate(CHECK_RATE, until, async () => {
      const id = live[Math.floor(Math.random() * live.length)];
      if (!id) return;
      const r = await call(`${pick()}/v1/job/check?jobid=${id}`, t.key);
      checks.push(r.ms);
      count(r.status, "check");
    }),
    ...Array.from({ length: IN_FLIGHT }, submitter),
  ]);
  clearInterval(sampler);
  return { jobsPerSecond: jobsDone.length / SECONDS, jobs: jobsDone.length, light, checks, errors, peak };
}

async function pgReachable() {
  const c = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 3000 });
  try {
    await c.connect();
    await c.end();
    return true;
  } catch {
    return false;
  }
}

async function oneNode(): Promise<Target> {
  const q: QuireServer = await startQuire({ env: { ...ENV, WORKERS: "2" } });
  return {
    name: "one node (embedded PGlite, WORKERS=2)",
    urls: [q.url],
    key: q.apiKey,
    pids: { node: q.pid() },
    stop: () => q.stop(),
  };
}

async function cluster(web: number, workers: number): Promise<Target> {
  process.env.QUIRE_TEST_PG_URL = PG_URL;
  const c: Cluster = await startCluster({
    web,
    workers,
    env: { ...ENV, S3_PRESIGN: "true", WORKERS: "1" },
    workerEnv: { QUEUE_CONCURRENCY: "1" },
  });
  const pids: Record<string, number> = {};
  for (const n of [...c.web, ...c.workers]) pids[n.name] = n.pid;
  return {
    name: `${web} web + ${workers} worker${workers > 1 ? "s" : ""} (PostgreSQL + S3)`,
    urls: c.web.map((n) => n.url!),
    key: c.apiKey,
    pids,
    stop: () => c.stop(),
  };
}

async function main() {
  const doc = makePdf({ pages: 2 });
  const setups: Array<() => Promise<Target>> = [oneNode];
  if (await pgReachable())
    setups.push(
      () => cluster(1, 1),
      () => cluster(2, 2),
    );
  else console.log(`PostgreSQL not reachable at ${PG_URL}: only the one-node setup runs.`);
  const results: Array<{ name: string; r: Awaited<ReturnType<typeof measure>> }> = [];
  for (const setup of setups) {
    const t = await setup();
    try {
      console.error(`measuring: ${t.name} for ${SECONDS} s`);
      results.push({ name: t.name, r: await measure(t, doc) });
    } finally {
      await t.stop();
    }
  }
  console.log(
    `\nMixed load for ${SECONDS} s per setup: ${LIGHT_RATE} balance calls/s, ${CHECK_RATE} job checks/s, ${IN_FLIGHT} document jobs in flight (async PDF → HTML, 2 pages).`,
  );
  const os = await import("node:os");
  console.log(
    `Machine: ${os.cpus().length} cores, load average ${os
      .loadavg()
      .map((x) => x.toFixed(1))
      .join(" / ")} (1/5/15 min) at the end.\n`,
  );
  for (const { name, r } of results) {
    console.log(name);
    console.log(`  document jobs:  ${r.jobs} done, ${r.jobsPerSecond.toFixed(2)} jobs/s`);
    console.log(
      `  balance calls:  ${r.light.length}, p50 ${pct(r.light, 50).toFixed(1)} ms, p99 ${pct(r.light, 99).toFixed(1)} ms`,
    );
    console.log(
      `  job checks:     ${r.checks.length}, p50 ${pct(r.checks, 50).toFixed(1)} ms, p99 ${pct(r.checks, 99).toFixed(1)} ms (target p99 < 50 ms)`,
    );
    console.log(
      `  errors:         5xx/transport: balance ${r.errors.light}, checks ${r.errors.check}, jobs ${r.errors.job}; 429: ${r.errors.limited}`,
    );
    console.log(
      `  peak memory:    ${Object.entries(r.peak)
        .map(([k, v]) => `${k} ${(v / 1024).toFixed(0)} MB`)
        .join(", ")} (each with its sandbox children)`,
    );
  }
  const one = results.find((x) => x.name.startsWith("1 web + 1"));
  const two = results.find((x) => x.name.startsWith("2 web + 2"));
  if (one && two) {
    console.log(
      `\nDocument-job throughput, 2 workers / 1 worker: ${(two.r.jobsPerSecond / one.r.jobsPerSecond).toFixed(2)}× (target ≥ 1.7× on a machine with a core per worker)`,
    );
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
