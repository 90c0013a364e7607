/**
 * OCR accuracy against tesseract.js's own test images (../shared/corpus/ocr, see SOURCE.md):
 * character error rate per image and overall. Run:
 *   npx tsx --import ./scripts/node-hooks.mjs bench/accuracy/ocr.ts
 *
 * Each image goes through Quire's normal path (getPageTexts: decode with EXIF orientation,
 * OCR with the pool, words with boxes); the text is rebuilt line by line from the words.
 * CER = Levenshtein distance / expected length, after collapsing runs of whitespace to one
 * space (SOURCE.md's fair comparison; bill.png's column spacing is thus not scored).
 * Images needing a language that is not installed (chinese.png: chi_tra) are skipped with a note.
 */
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { installedLanguages } from "@/lib/engine/ocr/languages";
import { shutdownOcr } from "@/lib/engine/ocr/pool";
import { getPageTexts } from "@/lib/engine/text/page-texts";

const dir = resolve(process.cwd(), "../shared/corpus/ocr");
const LANG: Record<string, string> = { "chinese.png": "chi_tra" };

function levenshtein(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  let prev = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const cur = [i];
    for (let j = 1; j <= y.length; j++) cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (x[i - 1] === y[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[y.length];
}

const norm = (s: string) => s.replace(/\s+/g, " ").trim();

async function main() {
  if (!existsSync(join(dir, "expected.json"))) {
    console.log(`accuracy:ocr skipped: no corpus at ${dir} (expected.json with images).`);
    return;
  }
  const expected = JSON.parse(readFileSync(join(dir, "expected.json"), "utf8")) as Record<string, string>;
  const installed = installedLanguages();
  let errors = 0;
  let chars = 0;
  const cers: number[] = [];
  for (const [file, truth] of Object.entries(expected)) {
    const lang = LANG[file] ?? "eng";
    if (!lang.split("+").every((l) => installed.has(l))) {
      console.log(`${file.padEnd(18)} skipped: language ${lang} not installed (add ${lang}.traineddata to the OCR language folder)`);
      continue;
    }
    const t = performance.now();
    let text = "";
    try {
      const res = await getPageTexts(readFileSync(join(dir, file)), { lang });
      const lines = new Map<number, string[]>();
      for (const w of res.pages[0]?.words ?? []) lines.set(w.lineId, [...(lines.get(w.lineId) ?? []), w.text]);
      text = [...lines.values()].map((ws) => ws.join(" ")).join("\n");
    } catch (e) {
      console.log(`${file.padEnd(18)} ERROR ${(e as Error).message}`);
      continue;
    }
    const a = norm(text);
    const b = norm(truth);
    const d = levenshtein(a, b);
    const cer = b.length ? d / b.length : 0;
    errors += d;
    chars += b.length;
    cers.push(cer);
    console.log(`${file.padEnd(18)} CER ${(cer * 100).toFixed(2).padStart(6)}%  (${d} edits / ${b.length} chars, ${(performance.now() - t).toFixed(0)} ms)${d ? `  got: ${JSON.stringify(a.slice(0, 80))}` : ""}`);
  }
  console.log(`TOTAL CER ${((errors / Math.max(1, chars)) * 100).toFixed(2)}% over ${cers.length} image(s) (${errors} edits / ${chars} chars); mean per image ${((cers.reduce((s, c) => s + c, 0) / Math.max(1, cers.length)) * 100).toFixed(2)}%`);
  await shutdownOcr();
}

await main();
