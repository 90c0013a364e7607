/**
 * The searchable-PDF figure of `npm run bench` (called from bench/api.ts): POST
 * /v1/pdf/makesearchable of a 20-page 300 dpi scan against Debian's tesseract CLI making a PDF
 * (`tesseract page.png out -l eng pdf`) of each page of the same scan, one after the other (the
 * CLI's own threads on), as milliseconds per page and their ratio. Quire's figure includes HTTP,
 * storage and the sandbox. The TextSense job (text output) on the same scan against the CLI
 * writing text (`tesseract page.png out -l eng txt`). Run alone: `bash scripts/quire.sh run bench/searchable.ts`.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import * as mupdf from "mupdf";
import { startQuire, waitForJob, type QuireServer } from "../tests/helpers/quire-server";
import { uploadBytes } from "../tests/helpers/api-client";
import { makePdf } from "../tests/helpers/pdf-fixtures";
import { scanOf } from "../tests/helpers/text-fixtures";

const PAGES = 20;
const LINES = [
  "Quarterly report of the northern region",
  "Revenue grew by 12 percent to 4.2 million",
  "Costs were held at the level of last year",
  "The board approved the plan for next year",
  "Invoice number 10045 dated 12 March 2025",
];

function hasTool(t: string) {
  try {
    execFileSync("which", [t], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/** Milliseconds per page of `run`, an async Quire job on the scan; null with its message when it failed. */
async function timeJob(q: QuireServer, path_: string, body: Record<string, unknown>): Promise<number | string> {
  const t0 = performance.now();
  const job = await q.api(path_, { json: body });
  const done = await waitForJob(q, job.body.jobId, 600_000);
  if (done.status !== "success") return `failed: ${done.message}`;
  return (performance.now() - t0) / PAGES;
}

/** The tesseract CLI on each page's PNG, one after the other: ms per page, or why it did not run. */
function timeCli(scan: Buffer, format: "pdf" | "txt"): number | string {
  if (!hasTool("tesseract")) return "tesseract not installed";
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "quire-bench-ocr-"));
  try {
    const doc = new mupdf.PDFDocument(scan);
    const files: string[] = [];
    for (let i = 0; i < PAGES; i++) {
      const pix = doc.loadPage(i).toPixmap(mupdf.Matrix.scale(300 / 72, 300 / 72), mupdf.ColorSpace.DeviceGray, false);
      const f = path.join(tmp, `p${i}.png`);
      fs.writeFileSync(f, pix.asPNG());
      files.push(f);
    }
    doc.destroy();
    const t = performance.now();
    for (const f of files) execFileSync("tesseract", [f, f.replace(/\.png$/, ""), "-l", "eng", "--dpi", "300", format], { stdio: "ignore" });
    return (performance.now() - t) / PAGES;
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

function row(what: string, quire: number | string, cli: number | string, target: string): string[] {
  if (typeof quire === "string") return [what, quire, "", ""];
  const tool = typeof cli === "string" ? cli : `tesseract CLI ${cli.toFixed(0)} ms/page (Quire/CLI ${(quire / cli).toFixed(2)}×)`;
  return [what, `${quire.toFixed(0)} ms/page`, tool, target];
}

/**
 * Rows for the benchmark table: [what, Quire, tool, target]. The searchable PDF against the CLI
 * making a PDF of each page; the TextSense job (text output) against the CLI writing text.
 */
export async function benchSearchable(q: QuireServer): Promise<string[][]> {
  const text = makePdf({ pages: PAGES, text: (i) => [...LINES, `Page ${i + 1} of ${PAGES}`].join("\n") });
  const scan = scanOf(text, 300);
  const src = await uploadBytes(q, scan, "scan-20.pdf", "application/pdf");
  const searchable = await timeJob(q, "/v1/pdf/makesearchable", { url: src, lang: "eng", async: true });
  const textsense = await timeJob(q, "/v1/textsense/job/build", {
    inputUri: src,
    options: { extraJobs: { type: "textSense", option: { reqType: "Document", reqOption: {}, outputType: "txt" } } },
  });
  return [
    row("POST /v1/pdf/makesearchable, 20-page 300 dpi scan", searchable, timeCli(scan, "pdf"), "target ≤ 1.2× CLI per page"),
    row("POST /v1/textsense/job/build (txt), the same scan", textsense, timeCli(scan, "txt"), "target ≤ 1.2× CLI per page"),
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const q = await startQuire({ env: { LOG_LEVEL: "error", RATE_LIMIT_PER_SECOND: "0" } });
  try {
    for (const r of await benchSearchable(q)) console.log(r.join("  |  "));
  } finally {
    await q.stop();
  }
}
