import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import * as native from "@/lib/engine/ocr/native";
import { getPageTexts } from "@/lib/engine/text/page-texts";
import { makeTablesPdf, renderPagePng } from "@/tests/helpers/extract-fixtures";
const pdf = makeTablesPdf([{ size: [595, 842], texts: [
      { x: 60, y: 60, text: "ACME Corporation", size: 18, bold: true },
      { x: 60, y: 90, text: "12 Example Street, Springfield", size: 11 },
      { x: 60, y: 130, text: "Dear customer, thank you for your order.", size: 11 },
      { x: 60, y: 150, text: "Your invoice number is 2024-0042.", size: 11 },
      { x: 60, y: 760, text: "Page 1 of 1", size: 9 }] }]);
const png = renderPagePng(pdf, 0, 300);
writeFileSync("/tmp/ocrpos-sparse.png", png);
process.env.QUIRE_TRACE_OCR = "1";
for (let i = 0; i < 3; i++) {
  let t = performance.now();
  const r = await getPageTexts(png, { ocrMode: "Always" });
  const q = performance.now() - t;
  t = performance.now();
  spawnSync("tesseract", ["/tmp/ocrpos-sparse.png", "stdout", "--psm", "3", "tsv"], { env: { ...process.env, OMP_THREAD_LIMIT: "1" } });
  const c = performance.now() - t;
  console.log(`quire ${q.toFixed(0)} cli ${c.toFixed(0)} words ${r.pages[0].words.length} orient ${r.pages[0].ocrOrientation ?? 0}`);
}
