/**
 * `npm run bench:broken`: every damaged PDF of ../shared/corpus/broken-pdfs (qpdf's error-condition
 * files) through the operations that read PDFs, over HTTP. Prints per file and operation the
 * status and, for failures, the message; a 500 or a hang is a bug (a damaged file answers 442 with
 * a reason, or works when the damage is recoverable). Compares the page count with poppler's
 * `pdfinfo` where it has one. Skips when the corpus is absent.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { startQuire } from "../tests/helpers/quire-server";
import { uploadBytes } from "../tests/helpers/api-client";

const dir = path.resolve(process.env.QUIRE_CORPUS_DIR ?? path.join(import.meta.dirname, "../../shared/corpus"), "broken-pdfs");
if (!fs.existsSync(dir)) {
  console.log(`skipped: ${dir} is absent`);
  process.exit(0);
}
const files = fs.readdirSync(dir).filter((f) => f.endsWith(".pdf")).sort((a, b) => parseInt(a.slice(3)) - parseInt(b.slice(3)));
const ops: Array<[string, Record<string, unknown>]> = [
  ["/v1/pdf/info", {}],
  ["/v1/pdf/convert/to/csv", { inline: true }],
  ["/v1/pdf/convert/to/html", { inline: true }],
  ["/v1/pdf/split", { pages: "1" }],
  ["/v1/pdf/classifier", {}],
];
function popplerPages(file: string): number | string {
  try {
    const out = execFileSync("pdfinfo", [file], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"], timeout: 20_000 });
    return Number(/Pages:\s+(\d+)/.exec(out)?.[1] ?? NaN);
  } catch {
    return "error";
  }
}

const q = await startQuire({ env: { SYNC_TIMEOUT_MS: "60000" } });
let bad = 0;
try {
  for (const f of files) {
    const url = await uploadBytes(q, fs.readFileSync(path.join(dir, f)), f);
    const cells: string[] = [];
    for (const [p, extra] of ops) {
      const t = Date.now();
      const r = await q.api(p, { json: { url, ...extra } });
      const ms = Date.now() - t;
      if (r.status >= 500) bad++;
      const pages = p === "/v1/pdf/info" && r.status === 200 ? ` pages=${r.body.info.PageCount}` : "";
      cells.push(`${p.split("/").pop()}=${r.status}${pages}${r.status !== 200 ? ` (${String(r.body.message).slice(0, 60)})` : ""}${ms > 10_000 ? ` ${ms}ms` : ""}`);
    }
    console.log(`${f.padEnd(10)} poppler=${popplerPages(path.join(dir, f))}  ${cells.join("  ")}`);
  }
} finally {
  await q.stop();
}
console.log(`${bad} answer(s) with a 5xx status`);
