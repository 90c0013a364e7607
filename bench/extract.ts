/**
 * Extraction benchmark, one run on the same generated files:
 *   1. PDF → CSV and PDF → text pages/s on a generated 200-page text PDF (tables, bordered and
 *      not, plus prose), against `pdftotext -layout` (poppler) on the same file, as ratios, runs
 *      alternating: the CSV pipeline in this process on one thread (open, words, ruling lines,
 *      table analysis, CSV text), then the CSV and text runners as jobs run them, in the
 *      sandbox pool (WORKERS children, default 2) with the pages split among free children —
 *      the whole runner path minus HTTP, download and storage — and over HTTP against a started
 *      Quire (skip with --skip-api).
 *   2. OCR seconds per page at 300 dpi for a sparse and a dense A4 page (warm worker), and the
 *      same page image through Quire and the `tesseract` CLI (one thread each) as a ratio.
 *   3. Peak memory (RSS, worker threads and native tesseract children included) while
 *      converting a 300-page scanned PDF to CSV, measured in a fresh child process.
 *
 *   npx tsx --import ./scripts/node-hooks.mjs bench/extract.ts [--skip-scan] [--csv-only] [--ocr-only] [--skip-api]
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { analysePages, segmentRows, toCsv } from "@/lib/engine/tables/extract-tables";
import { resolveExtraction } from "@/lib/engine/tables/extraction-options";
import { ocrEngine } from "@/lib/engine/ocr/native";
import { shutdownOcr } from "@/lib/engine/ocr/pool";
import { getPageTexts } from "@/lib/engine/text/page-texts";
import { createSandboxPool } from "@/lib/jobs/sandbox/pool";
import { operation as csvOp } from "@/lib/operations/pdf-convert-to-csv/contract";
import { operation as textOp } from "@/lib/operations/pdf-convert-to-text/contract";
import { uploadBytes } from "@/tests/helpers/api-client";
import { imageToPdfPages, makeTablesPdf, renderPagePng, type PageSpec } from "@/tests/helpers/extract-fixtures";
import { startQuire } from "@/tests/helpers/quire-server";

const A4: [number, number] = [595, 842];

/** A realistic text page: a title, a paragraph, a 30-row table (ruled on even pages). */
export function textPage(i: number): PageSpec {
  const rows = [["Date", "Reference", "Description", "Quantity", "Amount"]];
  for (let r = 0; r < 30; r++) {
    rows.push([`2024-${String((r % 12) + 1).padStart(2, "0")}-${String((r % 28) + 1).padStart(2, "0")}`, `INV-${i * 100 + r}`, `Item number ${r + 1} of page ${i + 1}`, String((r * 7) % 13), `${(r * 13.37 + i).toFixed(2)}`]);
  }
  return {
    size: A4,
    texts: [
      { x: 50, y: 40, text: `Statement page ${i + 1}`, size: 16, bold: true },
      { x: 50, y: 70, text: "This statement lists every transaction of the period with its reference and amount.", size: 10 },
      { x: 50, y: 84, text: "Amounts are in euros; quantities in units. Questions: accounts@example.com.", size: 10 },
    ],
    tables: [{ x: 50, y: 110, cols: [80, 80, 200, 60, 75], rows, borders: i % 2 === 0 ? "all" : "none", fontSize: 9 }],
  };
}

function sparsePage(): PageSpec {
  return {
    size: A4,
    texts: [
      { x: 60, y: 60, text: "ACME Corporation", size: 18, bold: true },
      { x: 60, y: 90, text: "12 Example Street, Springfield", size: 11 },
      { x: 60, y: 130, text: "Dear customer, thank you for your order.", size: 11 },
      { x: 60, y: 150, text: "Your invoice number is 2024-0042.", size: 11 },
      { x: 60, y: 760, text: "Page 1 of 1", size: 9 },
    ],
  };
}

function densePage(): PageSpec {
  const texts = [];
  for (let l = 0; l < 62; l++) {
    texts.push({ x: 50, y: 40 + l * 12.5, text: `Line ${l + 1}: the quick brown fox jumps over the lazy dog while 1234 numbers pass by quickly.`, size: 10 });
  }
  return { size: A4, texts };
}

function fmt(n: number, d = 1) {
  return n.toFixed(d);
}

async function csvPipeline(bytes: Uint8Array, onProgress?: (done: number, total: number) => void): Promise<string> {
  const opts = resolveExtraction({});
  const texts = await getPageTexts(bytes, { ...opts.text, onProgress });
  return toCsv(segmentRows(analysePages(texts.pages, opts.table, opts.area)));
}

/** CPU time of this process's waited-for children (Linux /proc, clock ticks of 10 ms), ms. */
function childrenCpuMs(): number {
  try {
    const stat = readFileSync("/proc/self/stat", "utf8");
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(f[13]) + Number(f[14])) * 10; // cutime, cstime
  } catch {
    return 0;
  }
}

/** CPU time (ms) of each direct child process (the sandbox children) spent during `job`, best of 3 by total. */
async function childCpuOf(job: () => Promise<unknown>): Promise<number[]> {
  const read = () => {
    const out = new Map<number, number>();
    for (const pid of readdirSync("/proc")) {
      if (!/^\d+$/.test(pid)) continue;
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
        const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
        if (Number(f[1]) === process.pid) out.set(Number(pid), (Number(f[11]) + Number(f[12])) * 10); // utime, stime
      } catch {
        /* gone */
      }
    }
    return out;
  };
  let best: number[] = [];
  for (let r = 0; r < 3; r++) {
    const before = read();
    await job();
    const after = read();
    const used = [...after].map(([pid, ms]) => ms - (before.get(pid) ?? ms)).filter((ms) => ms > 0).sort((a, b) => b - a);
    if (!best.length || used.reduce((a, b) => a + b, 0) < best.reduce((a, b) => a + b, 0)) best = used;
  }
  return best;
}

function cpuSplit(used: number[], toolCpu: number): string {
  if (!used.length) return "CPU per child: not measured (no /proc)";
  const longest = used[0];
  return (
    `CPU per child: ${used.map((ms) => `${ms} ms`).join(" + ")} (the longest is the job's time on free cores)` +
    (toolCpu ? `; pdftotext ${toolCpu.toFixed(0)} ms CPU: ratio on free cores ≈ ${fmt(toolCpu / longest, 2)}` : "")
  );
}

/** Best of `runs` of each, run alternately (a load change hits both alike). */
async function alternate(runs: number, a: () => Promise<unknown> | unknown, b: () => Promise<unknown> | unknown): Promise<[number, number]> {
  const ta: number[] = [];
  const tb: number[] = [];
  for (let r = 0; r < runs; r++) {
    let t = performance.now();
    await a();
    ta.push(performance.now() - t);
    t = performance.now();
    await b();
    tb.push(performance.now() - t);
  }
  return [Math.min(...ta) / 1000, Math.min(...tb) / 1000];
}

async function benchCsv(dir: string) {
  const pages = 200;
  const pdf = makeTablesPdf(Array.from({ length: pages }, (_, i) => textPage(i)));
  const file = path.join(dir, "text-200.pdf");
  writeFileSync(file, pdf);
  const hasPoppler = !spawnSync("pdftotext", ["-v"], { encoding: "utf8" }).error;
  // The sandbox children run at nice 10 (pool.ts); pdftotext is compared at the same priority
  // with them, so that other load on the machine weighs on both alike.
  const poppler = (nice: number) => () => {
    const res = spawnSync("nice", ["-n", String(nice), "pdftotext", "-layout", file, path.join(dir, "out.txt")]);
    if (res.status !== 0) throw new Error(`pdftotext failed: ${res.stderr}`);
  };
  const popplerOr = (f: () => unknown, nice = 0) => (hasPoppler ? poppler(nice) : f);
  const line = (what: string, ours: number, theirs: number) =>
    `   ${what.padEnd(44)} ${fmt(pages / ours).padStart(6)} pages/s (${fmt(ours, 2)} s)` +
    (hasPoppler ? `   pdftotext -layout ${fmt(pages / theirs)} pages/s   ratio ${fmt(theirs / ours, 2)}` : "");

  let csv = "";
  await csvPipeline(readFileSync(file)); // warm-up (WASM, JIT)
  // CPU time too (this process's; pdftotext's from the kernel's count of waited-for children):
  // unlike wall time it hardly moves with other load on the machine.
  let ownCpu = 0;
  let toolCpu = 0;
  const [one, p1] = await alternate(
    5,
    async () => {
      const c = process.cpuUsage();
      csv = await csvPipeline(readFileSync(file));
      const d = process.cpuUsage(c);
      ownCpu = Math.min(ownCpu || Infinity, (d.user + d.system) / 1000);
    },
    popplerOr(() => {}),
  );
  if (hasPoppler) {
    for (let r = 0; r < 5; r++) {
      const before = childrenCpuMs();
      poppler(0)();
      toolCpu = Math.min(toolCpu || Infinity, childrenCpuMs() - before);
    }
  }
  console.log(`\n1. PDF → CSV and text, ${pages}-page text PDF (${(pdf.length / 1024).toFixed(0)} KB, ${csv.split("\r\n").length - 1} CSV rows), best of 5, alternating with pdftotext`);
  if (!hasPoppler) console.log("   pdftotext not installed (apt-get install poppler-utils) — no ratio");
  console.log(line("CSV, in this process (one thread)", one, p1));
  if (hasPoppler) console.log(`   CPU time: Quire ${ownCpu.toFixed(0)} ms, pdftotext -layout ${toolCpu.toFixed(0)} ms (ratio ${fmt(toolCpu / ownCpu, 2)}; ±10 ms, the kernel counts in ticks)`);

  // The runners as a job runs them: in the sandbox pool (WORKERS children, 2 by default), the
  // pages split among the free children; minus HTTP, download and storage.
  const workers = Math.max(1, Number(process.env.WORKERS ?? 2));
  const pool = createSandboxPool({ size: workers, timeoutMs: 120_000, memoryMb: 2048, logger: () => {} });
  try {
    const source = { path: file, name: "text-200.pdf", contentType: "application/pdf", size: pdf.length, url: "https://example.com/text-200.pdf" };
    const runIn = (opId: string, params: unknown) => async () => {
      const workDir = mkdtempSync(path.join(dir, "job-"));
      await pool.run({ opId, params, sources: [source], workDir }, { fetchUrl: async () => Promise.reject(new Error("no fetch")) });
      rmSync(workDir, { recursive: true, force: true });
    };
    const csvJob = runIn("pdf-convert-to-csv", csvOp.params.parse({ url: source.url, inline: true }));
    const textJob = runIn("pdf-convert-to-text", textOp.params.parse({ url: source.url, inline: true }));
    await Promise.all([csvJob(), csvJob(), textJob(), textJob()]); // warm-up: every child loads its runners
    const [pc, p2] = await alternate(5, csvJob, popplerOr(() => {}, 10));
    console.log(line(`CSV, sandbox pool (${workers} children)`, pc, p2));
    console.log(`   ${cpuSplit(await childCpuOf(csvJob), toolCpu)}`);
    const [pt, p3] = await alternate(5, textJob, popplerOr(() => {}, 10));
    console.log(line(`text (/convert/to/text), sandbox pool`, pt, p3));
    console.log(`   ${cpuSplit(await childCpuOf(textJob), toolCpu)}`);
  } finally {
    await pool.close();
  }
  if (!process.argv.includes("--skip-api")) {
    // Over HTTP against a started Quire (WORKERS=2): upload once, then the calls as a client makes
    // them (inline answers; the source fetched from Quire's storage, the work budget, the sandbox).
    const q = await startQuire({ env: { SYNC_TIMEOUT_MS: "120000" } });
    try {
      const url = await uploadBytes(q, pdf, "text-200.pdf", "application/pdf");
      const call = (route: string) => async () => {
        const r = await q.api(route, { json: { url, inline: true } });
        if (r.status !== 200) throw new Error(`${route}: ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
      };
      const csvCall = call("/v1/pdf/convert/to/csv");
      const textCall = call("/v1/pdf/convert/to/text");
      await Promise.all([csvCall(), csvCall(), textCall(), textCall()]); // warm-up
      const [ac, p4] = await alternate(5, csvCall, popplerOr(() => {}, 10));
      console.log(line("CSV over the API (/v1/pdf/convert/to/csv)", ac, p4));
      const [at, p5] = await alternate(5, textCall, popplerOr(() => {}, 10));
      console.log(line("text over the API (/v1/pdf/convert/to/text)", at, p5));
    } finally {
      await q.stop();
    }
  }
  console.log("   (sandbox and API rows: pdftotext at nice 10, as the children run)   targets: CSV and text ≥ 1× pdftotext -layout pages/s");
}

async function benchOcr(dir: string) {
  console.log(`\n2. OCR at 300 dpi (A4, one page, engine: ${ocrEngine()})`);
  for (const [label, spec] of [["sparse", sparsePage()], ["dense", densePage()]] as const) {
    const pdf = makeTablesPdf([spec]);
    await getPageTexts(pdf, { ocrMode: "Always", ocrResolution: 300 }); // warm-up: worker start
    const times: number[] = [];
    let words = 0;
    for (let r = 0; r < 3; r++) {
      const t = performance.now();
      const res = await getPageTexts(pdf, { ocrMode: "Always", ocrResolution: 300 });
      times.push(performance.now() - t);
      words = res.pages[0].words.length;
    }
    const best = Math.min(...times) / 1000;
    console.log(`   ${label.padEnd(6)}: ${fmt(best, 2)} s/page (${words} words; render + OCR)${label === "sparse" ? "  — target < 2 s" : ""}`);
    // The same image through Quire (decode + OCR) and the tesseract CLI, one thread each, interleaved.
    const png = renderPagePng(pdf, 0, 300);
    const file = path.join(dir, `${label}.png`);
    writeFileSync(file, png);
    if (spawnSync("tesseract", ["--version"]).error) {
      console.log("          tesseract CLI not installed: no ratio");
      continue;
    }
    const q: number[] = [];
    const c: number[] = [];
    const qCpu: number[] = [];
    const cCpu: number[] = [];
    const load = loadavg()[0];
    for (let r = 0; r < 5; r++) {
      let t = performance.now();
      let cpu = cpuSeconds();
      await getPageTexts(png, { ocrMode: "Always" });
      q.push(performance.now() - t);
      qCpu.push(cpuSeconds() - cpu);
      t = performance.now();
      cpu = cpuSeconds();
      const res = spawnSync("tesseract", [file, "stdout", "--psm", "3", "tsv"], { env: { ...process.env, OMP_THREAD_LIMIT: "1" }, maxBuffer: 1 << 26 });
      c.push(performance.now() - t);
      cCpu.push(cpuSeconds() - cpu);
      if (res.status !== 0) throw new Error(`tesseract failed: ${res.stderr}`);
    }
    const [qb, cb] = [Math.min(...q) / 1000, Math.min(...c) / 1000];
    console.log(`          same PNG: Quire ${fmt(qb, 2)} s, tesseract CLI ${fmt(cb, 2)} s (OMP_THREAD_LIMIT=1, best of 5, interleaved): ratio ${fmt(qb / cb, 2)}${label === "dense" ? "  — target ≤ 1.1" : ""}`);
    // CPU time (this process and its children, /proc/self/stat) does not swing with the load.
    const [qc, cc] = [median(qCpu), median(cCpu)];
    if (qc > 0 && cc > 0) console.log(`          CPU time (median): Quire ${fmt(qc, 2)} s, tesseract CLI ${fmt(cc, 2)} s: ratio ${fmt(qc / cc, 2)}; load average ${fmt(load, 1)} → ${fmt(loadavg()[0], 1)}`);
  }
}

/** CPU seconds of this process and its waited-for children (Linux /proc: utime, stime, cutime, cstime), 0 elsewhere. */
function cpuSeconds(): number {
  try {
    const stat = readFileSync("/proc/self/stat", "utf8");
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) / 100;
  } catch {
    return 0;
  }
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1] ?? 0;
}

/** Resident memory of this process's direct children (Linux /proc), bytes. */
function childrenRss(): number {
  let total = 0;
  try {
    for (const pid of readdirSync("/proc")) {
      if (!/^\d+$/.test(pid)) continue;
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
        const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
        if (Number(fields[1]) === process.pid) total += Number(fields[21]) * 4096; // ppid, rss pages
      } catch {
        /* gone */
      }
    }
  } catch {
    /* not Linux */
  }
  return total;
}

/** Child mode: convert the scan to CSV while sampling RSS; prints a JSON line. */
async function scanChild(file: string) {
  let peak = process.memoryUsage().rss;
  // With the native engine the pages are OCRed in child processes: the peak counts this
  // process plus its live tesseract children, sampled together.
  let peakTotal = peak;
  let peakChildren = 0;
  const timer = setInterval(() => {
    const own = process.memoryUsage().rss;
    const kids = childrenRss();
    peak = Math.max(peak, own);
    peakChildren = Math.max(peakChildren, kids);
    peakTotal = Math.max(peakTotal, own + kids);
  }, 50);
  const t = performance.now();
  // RSS after 10%, 50% and 100% of the pages: flat when memory is bounded.
  const marks: Record<string, number> = {};
  const csv = await csvPipeline(readFileSync(file), (done, total) => {
    for (const f of [0.1, 0.5, 1]) if (done === Math.round(total * f)) marks[`${done}`] = Math.round(process.memoryUsage().rss / 2 ** 20);
  });
  const seconds = (performance.now() - t) / 1000;
  clearInterval(timer);
  peak = Math.max(peak, process.memoryUsage().rss);
  let hwm = 0;
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync("/proc/self/status", "utf8"));
    if (m) hwm = Number(m[1]) * 1024;
  } catch {
    /* not Linux */
  }
  await shutdownOcr();
  console.log(JSON.stringify({ peak: Math.max(peak, hwm), peakTotal: Math.max(peakTotal, hwm), peakChildren, seconds, rows: csv.split("\r\n").length - 1, marks }));
}

async function benchScan(dir: string) {
  const pages = 300;
  // 300 distinct scanned pages (150 dpi grey images of a few text lines each): an image-only PDF.
  const images = Array.from({ length: pages }, (_, k) =>
    renderPagePng(
      makeTablesPdf([
        {
          size: A4,
          texts: [
            { x: 60, y: 60, text: `Scanned page ${k + 1} of ${pages}`, size: 16 },
            { x: 60, y: 100, text: `Total due: ${(k * 17.31).toFixed(2)} EUR`, size: 12 },
          ],
        },
      ]),
      0,
      150,
    ),
  );
  const pdf = imageToPdfPages(images, 150);
  const file = path.join(dir, "scan-300.pdf");
  writeFileSync(file, pdf);
  const res = spawnSync(process.execPath, [...process.execArgv, process.argv[1], "--scan-child", file], { encoding: "utf8", maxBuffer: 1 << 24 });
  const line = res.stdout.trim().split("\n").pop() ?? "";
  let parsed: { peak: number; peakTotal: number; peakChildren: number; seconds: number; rows: number; marks: Record<string, number> } | null = null;
  try {
    parsed = JSON.parse(line);
  } catch {
    console.log(`\n3. 300-page scan: child failed: ${res.stderr.slice(-500)}`);
    return;
  }
  console.log(`\n3. 300-page scanned PDF → CSV (OCR at 300 dpi, ${(pdf.length / 2 ** 20).toFixed(1)} MB)`);
  console.log(`   peak memory: ${(parsed!.peakTotal / 2 ** 20).toFixed(0)} MB RSS in all (process ${(parsed!.peak / 2 ** 20).toFixed(0)} MB incl. worker threads; tesseract children at most ${(parsed!.peakChildren / 2 ** 20).toFixed(0)} MB together) — target < 600 MB; ${fmt(parsed!.seconds)} s, ${fmt(parsed!.seconds / pages, 2)} s/page, ${parsed!.rows} CSV rows`);
  console.log(`   RSS after ${Object.entries(parsed!.marks).map(([n, mb]) => `${n} pages: ${mb} MB`).join(", ")}`);
}

async function main() {
  const childAt = process.argv.indexOf("--scan-child");
  if (childAt >= 0) return scanChild(process.argv[childAt + 1]);
  const dir = mkdtempSync(path.join(tmpdir(), "quire-bench-extract-"));
  try {
    console.log(`Quire extraction benchmark — node ${process.version}, ${new Date().toISOString()}`);
    if (!process.argv.includes("--ocr-only")) await benchCsv(dir);
    if (process.argv.includes("--csv-only")) return;
    await benchOcr(dir);
    await shutdownOcr();
    if (!process.argv.includes("--skip-scan")) await benchScan(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// Run only when executed (the page builders above are importable).
if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) await main();
