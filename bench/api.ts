/**
 * `npm run bench`: the foundation's figures, measured in one run on loopback (bounded):
 *  - requests/s and p50/p99 of GET /v1/account/credit/balance and GET /v1/job/check (autocannon)
 *  - /v1/job/check p99 while two CPU-heavy jobs run (document work stays off the event loop)
 *  - POST /v1/pdf/info on a generated 500-page PDF, and split into 500 files, against
 *    pdfinfo / qpdf on the same file when they are installed (ratios; timed alternately, the
 *    tools at Quire's work priority: bench/side-by-side.ts).
 *  - POST /v1/pdf/merge of 50 PDFs × 20 pages, /v1/pdf/edit/delete-pages (every other page) and
 *    /v1/pdf/edit/rotate (every page) of the 500-page PDF, against `qpdf --empty --pages … --`,
 *    `qpdf --pages in 1-z:odd --` and `qpdf --rotate=+90` (Quire's figure includes HTTP, fetching
 *    the sources from storage, the sandbox and storing the output; bench/pdf-core.ts has the
 *    engine's own figures).
 *  - POST /v1/pdf/convert/to/text against `pdftotext -layout` and /v1/pdf/convert/to/png at
 *    150 dpi against `pdftoppm -r 150` (bench/pdf-out.ts).
 *  - POST /v1/pdf/convert/from/url of a simple local page, warm, against a warm Playwright
 *    `page.pdf()` of the same page (bench/pdf-out.ts).
 *  - POST /v1/pdf/makesearchable of a 20-page 300 dpi scan against the tesseract CLI per page
 *    (bench/searchable.ts).
 *  - barcodes (bench/barcodes.ts): bwip-js generation and ZXing reading per second, against
 *    `zbarimg` reading the same scans (ratio), and the two barcode operations over HTTP.
 *  - POST /v1/pdf/convert/from/doc of a 5-page docx against a direct `soffice --convert-to pdf`
 *    (bench/office-bench.ts).
 */
import autocannon from "autocannon";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startQuire, waitForJob } from "../tests/helpers/quire-server";
import { uploadBytes } from "../tests/helpers/api-client";
import { makePdf } from "../tests/helpers/pdf-fixtures";
import { convertFigures, webFigures, webSite } from "./pdf-out";
import { benchSearchable } from "./searchable";
import { barcodeRows } from "./barcodes";
import { benchDocxToPdf } from "./office-bench";
import { hasTool, runTool, sideBySide, WORK_NICE } from "./side-by-side";

const DURATION = Number(process.env.BENCH_SECONDS ?? 5);

async function cannon(url: string, headers: Record<string, string>) {
  const r = await autocannon({ url, headers, connections: 16, duration: DURATION, pipelining: 1 });
  return { rps: Math.round(r.requests.average), p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.non2xx };
}

function median(xs: number[]) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
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
  const site = await webSite();
  const q = await startQuire({ env: { LOG_LEVEL: "error", WORKERS: "2", RATE_LIMIT_PER_SECOND: "0", EGRESS_ALLOW: site.hostPort } });
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

    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "quire-bench-"));
    const file = path.join(tmp, "500.pdf");
    fs.writeFileSync(file, pdf500);
    const infoCall = () => q.api("/v1/pdf/info", { json: { url: src } });
    const splitCall = async () => {
      const r = await q.api("/v1/pdf/split", { json: { url: src } });
      if (r.status !== 200 || r.body.urls?.length !== 500) throw new Error(`split failed: ${JSON.stringify(r.body).slice(0, 300)}`);
    };
    await Promise.all([splitCall(), splitCall()]); // one warm-up per sandbox worker
    let info: number;
    let infoTool = "pdfinfo not installed";
    if (hasTool("pdfinfo")) {
      const t = await sideBySide(infoCall, () => runTool("pdfinfo", [file]), 5);
      info = t.quire;
      infoTool = `pdfinfo ${t.tool.toFixed(1)} ms (Quire/pdfinfo ${(info / t.tool).toFixed(2)}×, Quire includes HTTP, download and sandbox)`;
    } else info = await timeIt(infoCall);
    rows.push(["POST /v1/pdf/info, 500 pages", `${info.toFixed(1)} ms`, infoTool, "target < 300 ms"]);
    let split: number;
    let splitTool = "qpdf not installed";
    if (hasTool("qpdf")) {
      const out = path.join(tmp, "split");
      fs.mkdirSync(out);
      const t = await sideBySide(splitCall, () => runTool("qpdf", ["--split-pages", file, path.join(out, "p-%d.pdf")]), 5);
      split = t.quire;
      splitTool = `qpdf --split-pages ${t.tool.toFixed(0)} ms (Quire/qpdf ${(split / t.tool).toFixed(2)}×)`;
    } else split = await timeIt(splitCall, 5);
    rows.push(["POST /v1/pdf/split into 500 files", `${split.toFixed(0)} ms`, splitTool, "target ≤ 1.5× qpdf"]);

    // Page operations: merge 50 × 20 pages, delete every other page and rotate all of 500 pages.
    // The heavy splits above used up the first-start credits.
    await q.cli(["grant-credits", q.adminEmail, "100000"]);
    const mergeFiles = Array.from({ length: 50 }, (_, n) => {
      const f = path.join(tmp, `m-${n + 1}.pdf`);
      fs.writeFileSync(f, makePdf({ pages: 20, text: (i) => `File ${n + 1} page ${i + 1}` }));
      return f;
    });
    const mergeUrls: string[] = [];
    for (const f of mergeFiles) mergeUrls.push(await uploadBytes(q, fs.readFileSync(f), path.basename(f), "application/pdf"));
    const ok = async (p: Promise<{ status: number; body: any }>) => {
      const r = await p;
      if (r.status !== 200) throw new Error(`benchmark call failed: ${JSON.stringify(r.body).slice(0, 300)}`);
    };
    const evenPages = Array.from({ length: 250 }, (_, i) => i * 2 + 2).join(",");
    const calls = {
      merge: () => ok(q.api("/v1/pdf/merge", { json: { url: mergeUrls.join(",") } })),
      del: () => ok(q.api("/v1/pdf/edit/delete-pages", { json: { url: src, pages: evenPages } })),
      rot: () => ok(q.api("/v1/pdf/edit/rotate", { json: { url: src, angle: 90 } })),
    };
    // One warm-up call per sandbox worker (a worker loads an operation's code on its first job).
    for (const call of Object.values(calls)) await Promise.all([call(), call()]);
    const merge = await timeIt(calls.merge, 5);
    const del = await timeIt(calls.del, 5);
    const rot = await timeIt(calls.rot, 5);
    let mergeTool = "qpdf not installed";
    let delTool = mergeTool;
    let rotTool = mergeTool;
    if (hasTool("qpdf")) {
      const qm = await timeIt(() => runTool("qpdf", ["--empty", "--pages", ...mergeFiles, "--", path.join(tmp, "merged.pdf")]), 3);
      mergeTool = `qpdf --empty --pages ${qm.toFixed(0)} ms (Quire/qpdf ${(merge / qm).toFixed(2)}×)`;
      const qd = await timeIt(() => runTool("qpdf", [file, "--pages", file, "1-z:odd", "--", path.join(tmp, "deleted.pdf")]), 3);
      delTool = `qpdf --pages 1-z:odd ${qd.toFixed(0)} ms (Quire/qpdf ${(del / qd).toFixed(2)}×)`;
      const qr = await timeIt(() => runTool("qpdf", [file, path.join(tmp, "rotated.pdf"), "--rotate=+90"]), 3);
      rotTool = `qpdf --rotate=+90 ${qr.toFixed(0)} ms (Quire/qpdf ${(rot / qr).toFixed(2)}×)`;
    }
    rows.push(["POST /v1/pdf/merge, 50 PDFs × 20 pages", `${merge.toFixed(0)} ms`, mergeTool, "target ≤ 2× qpdf"]);
    rows.push(["POST /v1/pdf/edit/delete-pages, 250 of 500", `${del.toFixed(0)} ms`, delTool, "target ≤ 2× qpdf"]);
    rows.push(["POST /v1/pdf/edit/rotate, 500 pages", `${rot.toFixed(0)} ms`, rotTool, "target ≤ 2× qpdf"]);
    rows.push(...(await benchDocxToPdf(q, tmp, timeIt)));
    fs.rmSync(tmp, { recursive: true, force: true });

    // PDF → text against pdftotext -layout, PDF → PNG at 150 dpi against pdftoppm (bench/pdf-out.ts).
    await convertFigures(q, rows);
    await webFigures(q, site, rows);
    rows.push(...(await benchSearchable(q)));
    rows.push(...(await barcodeRows(q)));
  } finally {
    await q.stop();
    await site.close();
  }
  const w = [0, 1, 2, 3].map((i) => Math.max(...rows.map((r) => r[i].length)));
  const load = os.loadavg().map((l) => l.toFixed(2)).join(", ");
  console.log(
    `\nQuire API benchmark, ${new Date().toISOString().slice(0, 16)}Z (${os.cpus().length} cores, load average at the end ${load}; ${DURATION}s per load test, 16 connections)`,
  );
  console.log(`Quire and each tool timed alternately, the tools at Quire's work priority (nice ${WORK_NICE}; bench/side-by-side.ts)\n`);
  for (const r of rows) console.log(r.map((c, i) => c.padEnd(w[i])).join("  |  "));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
