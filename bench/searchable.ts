/**
 * The searchable-PDF figure of `npm run bench` (called from bench/api.ts): POST
 * /v1/pdf/makesearchable of a 20-page 300 dpi scan against Debian's tesseract CLI making a PDF
 * (`tesseract page.png out -l eng pdf`) of each page of the same scan, one after the other (the
 * CLI's own threads on), as milliseconds per page and their ratio. Quire's figure includes HTTP,
 * storage and the sandbox. Run alone: `bash scripts/quire.sh run bench/searchable.ts`.
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

/** Rows for the benchmark table: [what, Quire, tool, target]. */
export async function benchSearchable(q: QuireServer): Promise<string[][]> {
  const text = makePdf({ pages: PAGES, text: (i) => [...LINES, `Page ${i + 1} of ${PAGES}`].join("\n") });
  const scan = scanOf(text, 300);
  const src = await uploadBytes(q, scan, "scan-20.pdf", "application/pdf");
  const t0 = performance.now();
  const job = await q.api("/v1/pdf/makesearchable", { json: { url: src, lang: "eng", async: true } });
  const done = await waitForJob(q, job.body.jobId, 600_000);
  const quire = (performance.now() - t0) / PAGES;
  if (done.status !== "success") return [["POST /v1/pdf/makesearchable, 20-page 300 dpi scan", `failed: ${done.message}`, "", ""]];
  let tool = "tesseract not installed";
  if (hasTool("tesseract")) {
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
      for (const f of files) execFileSync("tesseract", [f, f.replace(/\.png$/, ""), "-l", "eng", "--dpi", "300", "pdf"], { stdio: "ignore" });
      const cli = (performance.now() - t) / PAGES;
      tool = `tesseract CLI ${cli.toFixed(0)} ms/page (Quire/CLI ${(quire / cli).toFixed(2)}×)`;
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  }
  return [["POST /v1/pdf/makesearchable, 20-page 300 dpi scan", `${quire.toFixed(0)} ms/page`, tool, "target ≤ 1.2× CLI per page"]];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const q = await startQuire({ env: { LOG_LEVEL: "error", RATE_LIMIT_PER_SECOND: "0" } });
  try {
    for (const r of await benchSearchable(q)) console.log(r.join("  |  "));
  } finally {
    await q.stop();
  }
}
