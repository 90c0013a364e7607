/**
 * npm run accuracy:html — how much the HTML of PDF → HTML looks like the page.
 *
 * For each page: converts it with the operation's runner (pages: that page, default options
 * unless --profiles is given), renders the HTML in Chromium at 1024 px width and the PDF page
 * with MuPDF at the same size, and prints
 *   - text F1: the HTML's words (text of the page element, split at whitespace) against the
 *     PDF's words (MuPDF's structured text split at whitespace and at gaps of 0.4 em or
 *     more, a word overprinted at its own place counted once; see pdfWords), as multisets,
 *     NFKC-normalised;
 *   - offset: median distance (px) between the centres of matched words' boxes, words matched
 *     by text, nearest copy first (a word's copies are paired by position, not by the order
 *     of the HTML's text); the HTML boxes come from DOM ranges;
 *   - SSIM: grayscale, 11×11 Gaussian window (lib/engine/optimize/ssim.ts);
 *   - the HTML's size and the conversion time.
 * Pages: the generated ones (tests/helpers/html-fixtures.ts) and the first two pages of every
 * unencrypted PDF in ../shared/corpus/pdf-info (skipped when the corpus is absent).
 * Targets: F1 ≥ 0.98, offset ≤ 4 px, SSIM ≥ 0.85; an error counts as a failure. A page whose
 * PDF has no text (a picture, a scan) has no F1 and no offset: it is judged by SSIM only.
 *
 * Flags: --profiles='{"EmbedFonts":false}' (profile keys for every conversion);
 *        --only=NAME (pages whose name contains NAME); --save=DIR (write HTML and PNGs);
 *        --all-pages (also convert every page of every corpus PDF and report failures);
 *        --verbose (the words missing from / extra in the HTML).
 * Run: bash scripts/quire.sh run bench/accuracy/html.ts [flags]
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import * as mupdf from "mupdf";
import sharp from "sharp";
import { ssim } from "@/lib/engine/optimize/ssim";
import { operation } from "@/lib/operations/pdf-convert-to-html/contract";
import { run } from "@/lib/operations/pdf-convert-to-html/runner";
import { shutdownOcr } from "@/lib/engine/ocr/pool";
import { openPdf } from "@/lib/engine/pdf/open-pdf";
import { cleanupContexts, contextFor } from "@/tests/helpers/extract-fixtures";
import { htmlFixturePages, makeHtmlFixturePdf } from "@/tests/helpers/html-fixtures";

mupdf.setLog(null);

const WIDTH = 1024;
const TARGET = { f1: 0.98, offset: 4, ssim: 0.85 };

const args = process.argv.slice(2);
const flag = (name: string) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const profiles = flag("profiles") ? (JSON.parse(flag("profiles")!) as Record<string, unknown>) : undefined;
const only = flag("only");
const saveDir = flag("save");
const allPages = args.includes("--all-pages");
const verbose = args.includes("--verbose");

function corpusDir(): string | null {
  for (const d of [path.resolve(process.cwd(), "../shared/corpus/pdf-info"), "/work/shared/corpus/pdf-info"]) {
    if (existsSync(path.join(d, "files.json"))) return d;
  }
  return null;
}

interface Sample {
  name: string;
  pdf: Buffer;
  page: number;
}

interface Box {
  text: string;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

const norm = (s: string) => s.normalize("NFKC");

/**
 * The PDF's words in pixels at `scale`: MuPDF's structured text split at whitespace and at
 * visible gaps (≥ 0.4 em along the line, either way: glyphs set apart by positioning, with no
 * space character, which MuPDF leaves in one word; wider than a word space in any text face,
 * 0.25–0.33 em, and well above poppler's word break at 0.1 em), a word drawn twice at the same place
 * (overprinted for a bolder look or a shadow) counted once — the words a reader sees.
 */
function pdfWords(page: mupdf.Page, scale: number): Box[] {
  const [bx0, by0] = page.getBounds();
  const st = page.toStructuredText("");
  const out: Box[] = [];
  let cur: Box | null = null;
  let dir: [number, number] = [1, 0];
  let last: { lo: number; hi: number } | null = null;
  const flush = () => {
    if (cur && cur.text) out.push(cur);
    cur = null;
    last = null;
  };
  try {
    st.walk({
      beginLine(_bbox, _wmode, d) {
        flush();
        dir = [d[0], d[1]];
      },
      endLine: flush,
      onChar(c, _origin, _font, size, quad) {
        if (/\s/.test(c)) return flush();
        const along = [0, 2, 4, 6].map((k) => quad[k] * dir[0] + quad[k + 1] * dir[1]);
        const lo = Math.min(...along);
        const hi = Math.max(...along);
        if (last && Math.max(lo - last.hi, last.lo - hi) >= 0.4 * size) flush();
        last = { lo, hi };
        const xs = [quad[0], quad[2], quad[4], quad[6]].map((v) => (v - bx0) * scale);
        const ys = [quad[1], quad[3], quad[5], quad[7]].map((v) => (v - by0) * scale);
        if (!cur) cur = { text: "", x0: Infinity, y0: Infinity, x1: -Infinity, y1: -Infinity };
        cur.text += c;
        cur.x0 = Math.min(cur.x0, ...xs);
        cur.x1 = Math.max(cur.x1, ...xs);
        cur.y0 = Math.min(cur.y0, ...ys);
        cur.y1 = Math.max(cur.y1, ...ys);
      },
    });
    flush();
  } finally {
    st.destroy();
  }
  const words = out.map((b) => ({ ...b, text: norm(b.text) }));
  const seen = new Map<string, Box[]>();
  return words.filter((w) => {
    const same = seen.get(w.text) ?? [];
    if (same.some((v) => centreDistance(v, w) <= scale)) return false;
    seen.set(w.text, [...same, w]);
    return true;
  });
}

/** F1 of two multisets of words. */
function f1(a: string[], b: string[]): number {
  if (a.length === 0 && b.length === 0) return 1;
  const counts = new Map<string, number>();
  for (const w of a) counts.set(w, (counts.get(w) ?? 0) + 1);
  let common = 0;
  for (const w of b) {
    const n = counts.get(w) ?? 0;
    if (n > 0) {
      common++;
      counts.set(w, n - 1);
    }
  }
  if (common === 0) return 0;
  const p = common / b.length;
  const r = common / a.length;
  return (2 * p * r) / (p + r);
}

/**
 * Pairs of indices of matched words: words of the same text, nearest first (greedy on the
 * distance between box centres). Matching by text and order (a longest common subsequence)
 * paired the wrong copies of repeated words whenever the HTML's order (the reading order
 * Quire writes, tables at their first word) differed from MuPDF's, and counted the distance
 * between two copies as an offset.
 */
function nearestPairs(a: Box[], b: Box[]): [number, number][] {
  const byText = new Map<string, { a: number[]; b: number[] }>();
  const group = (t: string) => {
    let g = byText.get(t);
    if (!g) byText.set(t, (g = { a: [], b: [] }));
    return g;
  };
  a.forEach((w, i) => group(w.text).a.push(i));
  b.forEach((w, j) => group(w.text).b.push(j));
  const pairs: [number, number][] = [];
  for (const g of byText.values()) {
    if (g.a.length === 0 || g.b.length === 0) continue;
    if (g.a.length === 1 && g.b.length === 1) {
      pairs.push([g.a[0], g.b[0]]);
      continue;
    }
    const cand: [number, number, number][] = [];
    for (const i of g.a) for (const j of g.b) cand.push([centreDistance(a[i], b[j]), i, j]);
    cand.sort((p, q) => p[0] - q[0]);
    const usedA = new Set<number>();
    const usedB = new Set<number>();
    for (const [, i, j] of cand) {
      if (usedA.has(i) || usedB.has(j)) continue;
      usedA.add(i);
      usedB.add(j);
      pairs.push([i, j]);
    }
  }
  return pairs;
}

function centreDistance(p: Box, q: Box): number {
  return Math.hypot((p.x0 + p.x1) / 2 - (q.x0 + q.x1) / 2, (p.y0 + p.y1) / 2 - (q.y0 + q.y1) / 2);
}

function median(xs: number[]): number {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((p, q) => p - q);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

async function toGray(png: Buffer | Uint8Array, w: number, h: number): Promise<Uint8Array> {
  const buf = await sharp(png).flatten({ background: "#ffffff" }).resize(w, h, { fit: "fill" }).grayscale().raw().toBuffer();
  return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
}

/**
 * Runs in the page (a string: the bundler's helpers do not exist there). The HTML's words with
 * their boxes: whitespace-separated tokens of the page element's text; a token may span several
 * text nodes (a word drawn in several runs); SVG text is not page text.
 */
const WORDS_IN_PAGE = `(() => {
  const root = document.querySelector(".page");
  const origin = root.getBoundingClientRect();
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const nodes = [];
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const parent = n.parentElement;
    if (parent && (parent.closest("style,script,svg") || getComputedStyle(parent).display === "none")) continue;
    nodes.push(n);
  }
  const out = [];
  let text = "";
  let start = null;
  let last = null;
  const flush = () => {
    if (start && last && text) {
      const r = document.createRange();
      r.setStart(start[0], start[1]);
      r.setEnd(last[0], last[1]);
      const b = r.getBoundingClientRect();
      out.push({ text, x0: b.left - origin.left, y0: b.top - origin.top, x1: b.right - origin.left, y1: b.bottom - origin.top });
    }
    text = "";
    start = null;
    last = null;
  };
  for (const n of nodes) {
    const s = n.data;
    for (let i = 0; i < s.length; i++) {
      if (/\\s/.test(s[i])) {
        flush();
        continue;
      }
      if (!start) start = [n, i];
      text += s[i];
      last = [n, i + 1];
    }
  }
  flush();
  return out;
})()`;

interface Row {
  name: string;
  f1?: number;
  offset?: number;
  ssim?: number;
  kb?: number;
  ms?: number;
  error?: string;
}

type Browser = Awaited<ReturnType<typeof import("playwright-core")["chromium"]["launch"]>>;

async function measure(browser: Browser, s: Sample): Promise<Row> {
  const t0 = performance.now();
  const ctx = await contextFor(operation.params, s.pdf, { pages: String(s.page), inline: true, ...(profiles ? { profiles } : {}) }, "page.pdf");
  const result = await run(ctx);
  const ms = performance.now() - t0;
  const html = result.inlineText ?? "";
  const doc = openPdf(s.pdf);
  const page = doc.loadPage(s.page);
  let ref: Buffer;
  let words: Box[];
  let pw: number;
  let ph: number;
  try {
    const [x0, y0, x1, y1] = page.getBounds();
    const scale = WIDTH / (x1 - x0);
    pw = WIDTH;
    ph = Math.round((y1 - y0) * scale);
    const pix = page.toPixmap(mupdf.Matrix.scale(scale, scale), mupdf.ColorSpace.DeviceRGB, false, true);
    try {
      ref = Buffer.from(pix.asPNG());
    } finally {
      pix.destroy();
    }
    words = pdfWords(page, scale);
  } finally {
    page.destroy();
    doc.destroy();
  }
  const tab = await browser.newPage({ viewport: { width: WIDTH + 40, height: Math.max(800, ph + 40) }, deviceScaleFactor: 1 });
  try {
    const css = "<style>body{margin:0!important;padding:0!important;background:#fff!important}.page{margin:0!important;box-shadow:none!important}</style>";
    await tab.setContent(html.replace("</head>", `${css}</head>`), { waitUntil: "load" });
    await tab.evaluate(() => document.fonts.ready.then(() => undefined));
    const el = await tab.$(".page");
    if (!el) throw new Error("no .page element in the HTML");
    const shot = await el.screenshot({ type: "png" });
    const htmlWords = (await tab.evaluate(WORDS_IN_PAGE)) as Box[];
    const a = words.map((w) => w.text);
    const b = htmlWords.map((w) => w.text.normalize("NFKC"));
    const pairs = nearestPairs(words, htmlWords.map((w) => ({ ...w, text: w.text.normalize("NFKC") })));
    if (verbose) {
      const left = new Map<string, number>();
      for (const x of b) left.set(x, (left.get(x) ?? 0) + 1);
      const at = (w: Box) => `${w.text}@${Math.round(w.x0)},${Math.round(w.y0)}`;
      const missing = words.filter((w) => {
        const n = left.get(w.text) ?? 0;
        if (n > 0) left.set(w.text, n - 1);
        return n === 0;
      }).map(at);
      const extra = htmlWords.filter((w) => {
        const n = left.get(w.text.normalize("NFKC")) ?? 0;
        if (n > 0) left.set(w.text.normalize("NFKC"), n - 1);
        return n > 0;
      }).map(at);
      console.log(`  missing: ${missing.slice(0, 30).join(" ")}\n  extra: ${extra.slice(0, 30).join(" ")}`);
    }
    const dists = pairs.map(([i, j]) => centreDistance(words[i], htmlWords[j]));
    if (verbose) {
      const worst = pairs.map((p, k) => ({ p, d: dists[k] })).sort((x, y) => y.d - x.d).slice(0, 8);
      console.log(`  farthest: ${worst.map(({ p: [i], d }) => `${words[i].text}@${Math.round(words[i].x0)},${Math.round(words[i].y0)} ${d.toFixed(1)}px`).join("  ")}`);
    }
    const [ga, gb] = await Promise.all([toGray(ref, pw, ph), toGray(shot, pw, ph)]);
    const score = ssim({ data: ga, width: pw, height: ph }, { data: gb, width: pw, height: ph });
    if (saveDir) {
      mkdirSync(saveDir, { recursive: true });
      const base = path.join(saveDir, s.name.replace(/[^\w.-]+/g, "_"));
      writeFileSync(`${base}.html`, html);
      writeFileSync(`${base}.pdf.png`, ref);
      writeFileSync(`${base}.html.png`, shot);
    }
    // A page without text has no F1 (OCR may still find words in its pictures).
    return { name: s.name, f1: a.length ? f1(a, b) : undefined, offset: median(dists), ssim: score, kb: Buffer.byteLength(html) / 1024, ms };
  } finally {
    await tab.close();
  }
}

function samples(): Sample[] {
  const out: Sample[] = [];
  for (const p of htmlFixturePages()) out.push({ name: `gen/${p.name}`, pdf: makeHtmlFixturePdf(p), page: 0 });
  const dir = corpusDir();
  if (!dir) {
    console.log("accuracy:html: no corpus at ../shared/corpus/pdf-info; generated pages only.");
    return out;
  }
  const files = (JSON.parse(readFileSync(path.join(dir, "files.json"), "utf8")) as { data: { path: string; encrypted: boolean; pages: number }[] }).data;
  for (const f of files) {
    const file = path.join(dir, f.path);
    if (f.encrypted || !existsSync(file)) continue;
    const pdf = readFileSync(file);
    for (let i = 0; i < Math.min(2, f.pages); i++) out.push({ name: `${f.path.replace(/\.pdf$/, "")}#${i}`, pdf, page: i });
  }
  return out;
}

const fmt = (n: number | undefined, d: number) => (n === undefined || Number.isNaN(n) ? "-" : n.toFixed(d));

async function robustness(): Promise<void> {
  const dir = corpusDir();
  if (!dir) return;
  const files = (JSON.parse(readFileSync(path.join(dir, "files.json"), "utf8")) as { data: { path: string; encrypted: boolean; pages: number }[] }).data;
  console.log("\nEvery page of every corpus PDF (one call per file):");
  let failures = 0;
  for (const f of files) {
    const file = path.join(dir, f.path);
    if (!existsSync(file)) continue;
    const t0 = performance.now();
    const params: Record<string, unknown> = { inline: true, ...(profiles ? { profiles } : {}) };
    if (f.encrypted) params.password = "openpassword";
    try {
      const ctx = await contextFor(operation.params, readFileSync(file), params, path.basename(file));
      const r = await run(ctx);
      console.log(`  ${f.path.padEnd(70)} ${String(r.pageCount).padStart(4)} pages ${(Buffer.byteLength(r.inlineText ?? "") / 1024).toFixed(0).padStart(7)} KB ${((performance.now() - t0) / 1000).toFixed(1).padStart(6)} s`);
    } catch (e) {
      failures++;
      const err = e as { status?: number; message?: string };
      console.log(`  ${f.path.padEnd(70)} FAILED ${err.status ?? "500"} ${String(err.message).slice(0, 160)}`);
    }
    await cleanupContexts();
  }
  console.log(`  failures: ${failures}`);
}

async function main() {
  const { chromium } = await import("playwright-core");
  const executablePath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
  const browser = await chromium.launch({
    executablePath,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  const rows: Row[] = [];
  try {
    console.log(`${"page".padEnd(72)} ${"F1".padStart(6)} ${"offset".padStart(7)} ${"SSIM".padStart(6)} ${"KB".padStart(7)} ${"ms".padStart(6)}`);
    for (const s of samples()) {
      if (only && !s.name.includes(only)) continue;
      let row: Row;
      try {
        row = await measure(browser, s);
      } catch (e) {
        row = { name: s.name, error: `${(e as { status?: number }).status ?? ""} ${(e as Error).message}`.trim().slice(0, 200) };
      }
      await cleanupContexts();
      rows.push(row);
      const flags = row.error
        ? `ERROR ${row.error}`
        : [row.f1! < TARGET.f1 ? "f1" : "", row.offset! > TARGET.offset ? "offset" : "", row.ssim! < TARGET.ssim ? "ssim" : ""].filter(Boolean).join(",") +
          (row.f1 === undefined ? " (no text: SSIM only)" : "");
      console.log(`${row.name.padEnd(72)} ${fmt(row.f1, 3).padStart(6)} ${fmt(row.offset, 2).padStart(7)} ${fmt(row.ssim, 3).padStart(6)} ${fmt(row.kb, 0).padStart(7)} ${fmt(row.ms, 0).padStart(6)} ${flags}`);
    }
  } finally {
    await browser.close();
  }
  const ok = rows.filter((r) => !r.error);
  const mean = (k: "f1" | "offset" | "ssim" | "kb" | "ms", rs = ok) => {
    const xs = rs.map((r) => r[k]).filter((x): x is number => x !== undefined && !Number.isNaN(x));
    return xs.reduce((s, x) => s + x, 0) / Math.max(1, xs.length);
  };
  for (const [label, group] of [
    ["generated", ok.filter((r) => r.name.startsWith("gen/"))],
    ["corpus", ok.filter((r) => !r.name.startsWith("gen/"))],
    ["all", ok],
  ] as const) {
    if (group.length === 0) continue;
    console.log(
      `mean ${label.padEnd(10)} pages ${String(group.length).padStart(3)}  F1 ${group.some((r) => r.f1 !== undefined) ? mean("f1", group).toFixed(3) : "-"}  offset(median of medians) ${median(group.map((r) => r.offset!).filter((x) => !Number.isNaN(x))).toFixed(2)} px  SSIM ${mean("ssim", group).toFixed(3)}  size ${mean("kb", group).toFixed(0)} KB  ${mean("ms", group).toFixed(0)} ms`,
    );
  }
  const failing = rows.filter((r) => r.error || r.f1! < TARGET.f1 || r.offset! > TARGET.offset || r.ssim! < TARGET.ssim);
  console.log(`targets F1 ≥ ${TARGET.f1}, offset ≤ ${TARGET.offset} px, SSIM ≥ ${TARGET.ssim}: ${rows.length - failing.length}/${rows.length} pages meet all; errors ${rows.filter((r) => r.error).length}`);
  if (allPages) await robustness();
  await shutdownOcr();
}

await main();
