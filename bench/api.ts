/**
 * `npm run bench`: the foundation's figures, measured in one run on loopback (bounded):
 *  - requests/s and p50/p99 of GET /v1/account/credit/balance and GET /v1/job/check (autocannon)
 *  - /v1/job/check p99 while two CPU-heavy jobs run (document work stays off the event loop)
 *  - POST /v1/pdf/info on a generated 500-page PDF, and split into 500 files, against
 *    pdfinfo / qpdf on the same file when they are installed (ratios).
 */
import autocannon from "autocannon";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startQuire, waitForJob } from "../tests/helpers/quire-server";
import { uploadBytes } from "../tests/helpers/api-client";
import { makePdf } from "../tests/helpers/pdf-fixtures";

const DURATION = Number(process.env.BENCH_SECONDS ?? 5);

async function cannon(url: string, headers: Record<string, string>) {
  const r = await autocannon({ url, headers, connections: 16, duration: DURATION, pipelining: 1 });
  return { rps: Math.round(r.requests.average), p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.non2xx };
}

function median(xs: number[]) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function hasTool(t: string) {
  try {
    execFileSync("which", [t], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

async function timeIt(fn: () => Promise<unknown> | unknown, runs = 5) {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  return median(times);
}

async function main() {
  // The rate limit is off: the figures are the server's, not a per-key policy's.
  const q = await startQuire({ env: { LOG_LEVEL: "error", WORKERS: "2", RATE_LIMIT_PER_SECOND: "0" } });
  const rows: string[][] = [];
  try {
    const h = { "x-api-key": q.apiKey };
    const bal = await cannon(`${q.url}/v1/account/credit/balance`, h);
    rows.push(["GET /v1/account/credit/balance", `${bal.rps} req/s`, `p50 ${bal.p50} ms, p99 ${bal.p99} ms`, `target ≥ 2000 req/s; errors ${bal.errors}`]);

    const pdf500 = makePdf({ pages: 500 });
    const src = await uploadBytes(q, pdf500, "bench-500.pdf", "application/pdf");
    const job = await q.api("/v1/pdf/info", { json: { url: src, async: true } });
    await waitForJob(q, job.body.jobId);
    const jc = await cannon(`${q.url}/v1/job/check?jobid=${job.body.jobId}`, h);
    rows.push(["GET /v1/job/check (idle)", `${jc.rps} req/s`, `p50 ${jc.p50} ms, p99 ${jc.p99} ms`, `errors ${jc.errors}`]);

    // Two CPU-heavy jobs (split of a 3000-page PDF each) while job check is hammered.
    const heavy = await uploadBytes(q, makePdf({ pages: 3000 }), "heavy.pdf", "application/pdf");
    const heavyJobs = await Promise.all([0, 1].map(() => q.api("/v1/pdf/split", { json: { url: heavy, async: true } })));
    await new Promise((r) => setTimeout(r, 700));
    const busy = await cannon(`${q.url}/v1/job/check?jobid=${job.body.jobId}`, h);
    rows.push(["GET /v1/job/check (2 heavy jobs running)", `${busy.rps} req/s`, `p50 ${busy.p50} ms, p99 ${busy.p99} ms`, `target p99 < 20 ms`]);
    await Promise.all(heavyJobs.map((j) => waitForJob(q, j.body.jobId, 300_000)));

    const info = await timeIt(() => q.api("/v1/pdf/info", { json: { url: src } }));
    const split = await timeIt(() => q.api("/v1/pdf/split", { json: { url: src } }), 3);
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "quire-bench-"));
    const file = path.join(tmp, "500.pdf");
    fs.writeFileSync(file, pdf500);
    let infoTool = "pdfinfo not installed";
    if (hasTool("pdfinfo")) {
      const t = await timeIt(() => execFileSync("pdfinfo", [file], { stdio: "ignore" }));
      infoTool = `pdfinfo ${t.toFixed(1)} ms (Quire/pdfinfo ${(info / t).toFixed(2)}×, Quire includes HTTP, download and sandbox)`;
    }
    rows.push(["POST /v1/pdf/info, 500 pages", `${info.toFixed(1)} ms`, infoTool, "target < 300 ms"]);
    let splitTool = "qpdf not installed";
    if (hasTool("qpdf")) {
      const out = path.join(tmp, "split");
      fs.mkdirSync(out);
      const t = await timeIt(() => execFileSync("qpdf", ["--split-pages", file, path.join(out, "p-%d.pdf")], { stdio: "ignore" }), 3);
      splitTool = `qpdf --split-pages ${t.toFixed(0)} ms (Quire/qpdf ${(split / t).toFixed(2)}×)`;
    }
    rows.push(["POST /v1/pdf/split into 500 files", `${split.toFixed(0)} ms`, splitTool, "target < 3000 ms"]);
    fs.rmSync(tmp, { recursive: true, force: true });
  } finally {
    await q.stop();
  }
  const w = [0, 1, 2, 3].map((i) => Math.max(...rows.map((r) => r[i].length)));
  console.log(`\nQuire API benchmark (${os.cpus().length} cores, ${DURATION}s per load test, 16 connections)\n`);
  for (const r of rows) console.log(r.map((c, i) => c.padEnd(w[i])).join("  |  "));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
