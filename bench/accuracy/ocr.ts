/**
 * OCR accuracy, two parts (npm run accuracy:ocr [-- --quick]):
 *
 * 1. tesseract.js's own test images (../shared/corpus/ocr, see SOURCE.md): character error rate
 *    per image and overall.
 * 2. Scans made from real pages and generated ones, in the variants an office scanner delivers:
 *    clean (300 dpi gray), heavy JPEG (quality 40 at 200 dpi), skewed (turned ±0.5–3° with
 *    noise), and turned a quarter/half turn plus skew. Pages: the first page of the corpus PDFs
 *    with a text layer of 400+ characters (pdf-info/, and one invoice per language of
 *    invoices-intl/ read with that language), plus two generated pages (a dense page and a
 *    two-column article). Truth: the PDF's text layer. Each image is read by Quire's normal
 *    path (getPageTexts → CSV, all cells, rows in order) and by the `tesseract` CLI (single
 *    thread, same image, same language); printed per case: word F1 (true words found and words
 *    read, as multisets), CER (Levenshtein over the whitespace-collapsed text, so reading order
 *    counts: the PDF's text layer order is the truth; for Quire both PDF → CSV's rows and
 *    PDF → text's reading order), CER with word order ignored (both texts'
 *    words sorted, then Levenshtein: what was misread, whatever the order — the truth order of
 *    a form or an invoice's text layer is arbitrary, and CSV rows run across columns where the
 *    CLI reads column after column), seconds and the time ratio Quire / CLI. Then means per
 *    variant, and the load average (the ratios are what to compare on a shared machine).
 *
 * Each image goes through Quire's normal path (getPageTexts: decode with EXIF orientation,
 * OCR with the pool, words with boxes); the text is rebuilt line by line from the words.
 * CER = Levenshtein distance / expected length, after collapsing runs of whitespace to one
 * space (SOURCE.md's fair comparison; bill.png's column spacing is thus not scored).
 * Images needing a language that is not installed (chinese.png: chi_tra) are skipped with a note.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import * as mupdf from "mupdf";
import sharp from "sharp";
import { installedLanguages } from "@/lib/engine/ocr/languages";
import { ocrEngine } from "@/lib/engine/ocr/native";
import { shutdownOcr } from "@/lib/engine/ocr/pool";
import { analysePages, segmentRows } from "@/lib/engine/tables/extract-tables";
import { resolveExtraction } from "@/lib/engine/tables/extraction-options";
import { getPageTexts } from "@/lib/engine/text/page-texts";
import { readingOrderText } from "@/lib/engine/text/plain-text";
import { makeTablesPdf, type PageSpec } from "@/tests/helpers/extract-fixtures";

const corpus = [resolve(process.cwd(), "../shared/corpus"), "/work/shared/corpus"].find((d) => existsSync(d)) ?? resolve(process.cwd(), "../shared/corpus");
const dir = join(corpus, "ocr");
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

async function testImages() {
  if (!existsSync(join(dir, "expected.json"))) {
    console.log(`part 1 skipped: no corpus at ${dir} (expected.json with images).`);
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
}

// ---------------------------------------------------------------------------------------------
// Part 2: scans of real and generated pages.

interface Source {
  name: string;
  pdf: Uint8Array;
  lang: string;
}

const LANG_OF: Record<string, string> = { de: "deu", en: "eng", fr: "fra", es: "spa", pt: "por", nl: "nld", it: "ita" };

function pageText(pdf: Uint8Array): string {
  const doc = mupdf.Document.openDocument(Buffer.from(pdf), "application/pdf");
  try {
    const page = doc.loadPage(0);
    try {
      return page.toStructuredText("preserve-whitespace").asText();
    } finally {
      page.destroy();
    }
  } finally {
    doc.destroy();
  }
}

function densePage(): PageSpec {
  const texts = [];
  for (let l = 0; l < 50; l++) texts.push({ x: 50, y: 50 + l * 14.5, text: `Line ${l + 1}: the quick brown fox jumps over the lazy dog while 1234 numbers pass by quickly.`, size: 10 });
  return { size: [595, 842], texts };
}

function twoColumnPage(): PageSpec {
  const words = "scanned letters arrive every morning and the office reads them into the archive where each page keeps its words in order".split(" ");
  const texts = [{ x: 50, y: 50, text: "Quarterly Report of the Archive", size: 18, bold: true }];
  for (let col = 0; col < 2; col++) {
    for (let l = 0; l < 40; l++) {
      const n = col * 40 + l;
      const line = Array.from({ length: 6 }, (_, k) => words[(n * 7 + k * 3) % words.length]).join(" ");
      texts.push({ x: 50 + col * 265, y: 100 + l * 16, text: `${line} ${n + 1}`, size: 10, bold: false });
    }
  }
  return { size: [595, 842], texts };
}

function sources(quick: boolean): Source[] {
  const out: Source[] = [
    { name: "generated/dense", pdf: makeTablesPdf([densePage()]), lang: "eng" },
    { name: "generated/two-columns", pdf: makeTablesPdf([twoColumnPage()]), lang: "eng" },
  ];
  const installed = installedLanguages();
  const info = join(corpus, "pdf-info");
  if (existsSync(info)) {
    let n = 0;
    for (const d of readdirSync(info).sort()) {
      if (n >= (quick ? 1 : 4)) break;
      const folder = join(info, d);
      if (!existsSync(folder) || !/^\d/.test(d)) continue;
      for (const f of readdirSync(folder).filter((f) => f.endsWith(".pdf"))) {
        try {
          const pdf = readFileSync(join(folder, f));
          if (pageText(pdf).replace(/\s+/g, "").length >= 400) {
            out.push({ name: `pdf-info/${f}`, pdf, lang: "eng" });
            n++;
          }
        } catch {
          /* encrypted or damaged: not a page to scan */
        }
      }
    }
  }
  const intl = join(corpus, "invoices-intl");
  if (existsSync(intl)) {
    const seen = new Set<string>();
    for (const f of readdirSync(intl).filter((f) => f.endsWith(".pdf")).sort()) {
      const lang = LANG_OF[f.slice(0, 2)];
      if (!lang || seen.has(lang) || !installed.has(lang) || (quick && seen.size >= 2)) continue;
      try {
        const pdf = readFileSync(join(intl, f));
        if (pageText(pdf).replace(/\s+/g, "").length < 400) continue;
        out.push({ name: `invoices-intl/${f}`, pdf, lang: lang === "eng" ? "eng" : `${lang}+eng` });
        seen.add(lang);
      } catch {
        /* skip */
      }
    }
  }
  return out;
}

/** Deterministic noise: a linear congruential generator. */
function rng(seed: number) {
  let x = (Math.imul(seed + 1, 2654435761) ^ 0x9e3779b9) >>> 0 || 1;
  for (let i = 0; i < 8; i++) x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
  return () => ((x = (Math.imul(x, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

function renderGray(pdf: Uint8Array, dpi: number): { data: Buffer; width: number; height: number } {
  const doc = mupdf.Document.openDocument(Buffer.from(pdf), "application/pdf");
  try {
    const page = doc.loadPage(0);
    const pix = page.toPixmap(mupdf.Matrix.scale(dpi / 72, dpi / 72), mupdf.ColorSpace.DeviceGray, false, true);
    try {
      const w = pix.getWidth();
      const h = pix.getHeight();
      const stride = pix.getStride();
      const src = pix.getPixels();
      const data = Buffer.alloc(w * h);
      for (let y = 0; y < h; y++) data.set(src.subarray(y * stride, y * stride + w), y * w);
      return { data, width: w, height: h };
    } finally {
      pix.destroy();
      page.destroy();
    }
  } finally {
    doc.destroy();
  }
}

type Variant = "clean" | "jpeg40" | "skewed" | "turned";

/** The scan of `pdf`'s first page in a variant, as an image file (PNG or JPEG with its dpi). */
async function scan(pdf: Uint8Array, variant: Variant, seed: number): Promise<{ bytes: Buffer; ext: string; note: string }> {
  const dpi = variant === "jpeg40" ? 200 : 300;
  const g = renderGray(pdf, dpi);
  const raw = { raw: { width: g.width, height: g.height, channels: 1 as const } };
  if (variant === "clean") return { bytes: await sharp(g.data, raw).png().withMetadata({ density: dpi }).toBuffer(), ext: "png", note: "" };
  if (variant === "jpeg40") return { bytes: await sharp(g.data, raw).jpeg({ quality: 40 }).withMetadata({ density: dpi }).toBuffer(), ext: "jpg", note: "" };
  const rand = rng(seed);
  const mag = 0.5 + rand() * 2.5;
  const angle = Math.round((rand() < 0.5 ? -mag : mag) * 10) / 10;
  // Scanner noise: ±12 grey levels everywhere, a sprinkle of specks.
  for (let i = 0; i < g.data.length; i++) {
    let v = g.data[i] + (rand() - 0.5) * 24;
    if (rand() < 0.0005) v = 0;
    g.data[i] = Math.max(0, Math.min(255, v));
  }
  let img = sharp(g.data, raw).rotate(angle, { background: "#ffffff" });
  let note = `${angle > 0 ? "+" : ""}${angle}°`;
  if (variant === "turned") {
    const quarter = [90, 180, 270][seed % 3];
    img = sharp(await img.png().toBuffer()).rotate(quarter);
    note = `${quarter}° ${note}`;
  }
  return { bytes: await img.png().withMetadata({ density: dpi }).toBuffer(), ext: "png", note };
}

function wordsOf(text: string): string[] {
  return text
    .toLowerCase()
    .split(/\s+/)
    .map((w) => w.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ""))
    .filter(Boolean);
}

/** Share of the true words found (multiset), and the F1 with the words read. */
function wordScores(truth: string, got: string): { acc: number; f1: number } {
  const t = wordsOf(truth);
  const g = wordsOf(got);
  const bag = new Map<string, number>();
  for (const w of g) bag.set(w, (bag.get(w) ?? 0) + 1);
  let hit = 0;
  for (const w of t) {
    const n = bag.get(w) ?? 0;
    if (n > 0) {
      hit++;
      bag.set(w, n - 1);
    }
  }
  const acc = t.length ? hit / t.length : 1;
  const prec = g.length ? hit / g.length : 0;
  return { acc, f1: acc + prec ? (2 * acc * prec) / (acc + prec) : 0 };
}

/** Text with its words in sorted order: a CER over it ignores reading order, not misreadings. */
function sortedWords(text: string): string {
  return norm(text).split(" ").sort().join(" ");
}

/** The CSV's cells row by row (what PDF → CSV gives), and PDF → text's reading order (columns one after the other). */
async function quireText(bytes: Buffer, lang: string): Promise<{ csv: string; lines: string }> {
  const opts = resolveExtraction({});
  const texts = await getPageTexts(bytes, { ...opts.text, lang });
  const csv = segmentRows(analysePages(texts.pages, opts.table, opts.area))
    .map((r) => r.join(" "))
    .join("\n");
  return { csv, lines: readingOrderText(texts.pages) };
}

function cliText(file: string, lang: string): string | null {
  const res = spawnSync("tesseract", [file, "stdout", "-l", lang, "--psm", "3"], { encoding: "utf8", env: { ...process.env, OMP_THREAD_LIMIT: "1" }, maxBuffer: 1 << 26 });
  return res.error || res.status !== 0 ? null : res.stdout;
}

interface Score {
  f1: number;
  cer: number;
  /** CER with word order ignored. */
  bag: number;
  /** Quire: CER of PDF → text's reading order (columns one after the other, as the CLI reads). */
  read: number;
  s: number;
}

function score(truth: string, got: string, seconds: number, reading = got): Score {
  const b = norm(truth);
  const sorted = sortedWords(truth);
  return {
    f1: wordScores(truth, got).f1,
    cer: levenshtein(norm(got), b) / Math.max(1, b.length),
    bag: levenshtein(sortedWords(got), sorted) / Math.max(1, sorted.length),
    read: levenshtein(norm(reading), b) / Math.max(1, b.length),
    s: seconds,
  };
}

async function scans(quick: boolean) {
  const cli = !spawnSync("tesseract", ["--version"]).error;
  const list = sources(quick);
  const variants: Variant[] = ["clean", "jpeg40", "skewed", "turned"];
  const tmp = mkdtempSync(join(tmpdir(), "quire-accuracy-ocr-"));
  const zero = (): Score => ({ f1: 0, cer: 0, bag: 0, read: 0, s: 0 });
  const totals = new Map<Variant, { q: Score; c: Score; n: number }>();
  const pct = (x: number) => `${(x * 100).toFixed(2)}%`;
  console.log(`\nPart 2: ${list.length} pages × ${variants.length} variants; Quire engine: ${ocrEngine()}; CLI: ${cli ? "tesseract (OMP_THREAD_LIMIT=1)" : "not installed"}; load average ${loadavg().map((l) => l.toFixed(2)).join(" ")}`);
  console.log(`${"case".padEnd(48)} ${"Quire F1 / CER csv/text / any order / s".padEnd(42)} ${"CLI F1 / CER / any order / s".padEnd(34)} ratio`);
  try {
    let seed = 7;
    for (const src of list) {
      const truth = pageText(src.pdf);
      for (const variant of variants) {
        const { bytes, ext, note } = await scan(src.pdf, variant, seed++);
        const file = join(tmp, `scan.${ext}`);
        writeFileSync(file, bytes);
        let t = performance.now();
        let got = "";
        let reading = "";
        try {
          ({ csv: got, lines: reading } = await quireText(bytes, src.lang));
        } catch (e) {
          console.log(`${src.name} ${variant}: ERROR ${(e as Error).message}`);
          continue;
        }
        const q = score(truth, got, (performance.now() - t) / 1000, reading);
        let c: Score | null = null;
        if (cli) {
          t = performance.now();
          const text = cliText(file, src.lang);
          const cs = (performance.now() - t) / 1000;
          if (text !== null) c = score(truth, text, cs);
        }
        const fmt = (x: Score, withReading = false) => `${x.f1.toFixed(3)} ${pct(x.cer)}${withReading ? `/${pct(x.read)}` : ""} ${pct(x.bag)} ${x.s.toFixed(2)}s`;
        const label = `${src.name.slice(0, 30)} ${variant}${note ? ` ${note}` : ""}`;
        console.log(`${label.padEnd(48)} ${fmt(q, true).padEnd(42)} ${(c ? fmt(c) : "-").padEnd(34)} ${c ? (q.s / c.s).toFixed(2) : "-"}`);
        const tot = totals.get(variant) ?? { q: zero(), c: zero(), n: 0 };
        tot.n++;
        for (const k of ["f1", "cer", "bag", "read", "s"] as const) {
          tot.q[k] += q[k];
          tot.c[k] += c?.[k] ?? 0;
        }
        totals.set(variant, tot);
      }
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  console.log(
    "\nPer variant (means over pages): word F1; CER in the truth's order (Quire: CSV rows / PDF → text reading order; CLI: its text); CER with word order ignored; seconds per page; time ratio Quire / CLI",
  );
  for (const [v, t] of totals) {
    const m = (x: Score, withReading: boolean) =>
      `F1 ${(x.f1 / t.n).toFixed(3)}  CER ${pct(x.cer / t.n).padStart(6)}${withReading ? ` / ${pct(x.read / t.n).padStart(6)}` : ""}  any order ${pct(x.bag / t.n).padStart(6)}  ${(x.s / t.n).toFixed(2)} s`;
    console.log(`${v.padEnd(8)} Quire: ${m(t.q, true)}   CLI: ${cli ? m(t.c, false) : "-"}   ratio ${cli ? (t.q.s / t.c.s).toFixed(2) : "-"}  (${t.n} pages)`);
  }
  console.log(`load average after: ${loadavg().map((l) => l.toFixed(2)).join(" ")}`);
}

async function main() {
  const quick = process.argv.includes("--quick");
  await testImages();
  if (!process.argv.includes("--images-only")) await scans(quick);
  await shutdownOcr();
}

await main();
