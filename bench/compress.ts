/**
 * npm run bench:compress — Quire's default /v2/pdf/compress against Ghostscript
 * (`-sDEVICE=pdfwrite -dPDFSETTINGS=/ebook`) and qpdf (`--object-streams=generate
 * --recompress-flate`) on image-heavy PDFs built here: camera photos, gray and 1-bit scans,
 * mixed text + photo + chart pages. For each tool: output size ÷ input size, wall time, and the
 * visual similarity of the result (mean and worst SSIM of pages rendered at 100 dpi in gray).
 *
 * Target (docs/compression.md): smaller than Ghostscript /ebook, SSIM ≥ 0.95, at least as fast.
 *
 * Options: --quick (smaller corpus), --runs N (timed runs after one warm-up, median; default 3),
 *          --keep DIR (write inputs and outputs there).
 * Run: npx tsx --import ./scripts/node-hooks.mjs bench/compress.ts
 */
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import sharp from "sharp";
import { optimizePdf } from "@/lib/engine/optimize/optimize-pdf";
import { defaultOptimizeOptions } from "@/lib/engine/optimize/options";
import { ssim } from "@/lib/engine/optimize/ssim";
import {
  grayToBits,
  makeImagePdf,
  photoJpeg,
  renderGray,
  scanPixels,
  scanText,
  type ImagePage,
} from "@/tests/helpers/optimize-fixtures";
import * as mupdf from "mupdf";

const run = promisify(execFile);
const args = process.argv.slice(2);
const quick = args.includes("--quick");
const runs = Number(args[args.indexOf("--runs") + 1]) || 3;
const keepDir = args.includes("--keep") ? path.resolve(args[args.indexOf("--keep") + 1]) : null;

interface Sample {
  name: string;
  description: string;
  bytes: Buffer;
}

async function chartPng(width: number, height: number, seed: number): Promise<Buffer> {
  // Flat-colour business graphics (bars, grid, legend) stored losslessly, as office apps do.
  const bars = Array.from({ length: 8 }, (_, i) => {
    const h = 60 + ((seed * 37 + i * 53) % 280);
    const colors = ["#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948"];
    return `<rect x="${60 + i * 90}" y="${height - 40 - h}" width="60" height="${h}" fill="${colors[i % colors.length]}"/>`;
  }).join("");
  const grid = Array.from(
    { length: 6 },
    (_, i) =>
      `<line x1="50" x2="${width - 20}" y1="${height - 40 - i * 60}" y2="${height - 40 - i * 60}" stroke="#ccc"/>`,
  ).join("");
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="white"/>${grid}${bars}<text x="60" y="30" font-size="22" font-family="sans-serif">Quarterly results</text></svg>`;
  return sharp(Buffer.from(svg)).raw().toBuffer();
}

async function buildCorpus(): Promise<Sample[]> {
  const photoPages = quick ? 3 : 8;
  const scanPages = quick ? 2 : 6;
  const samples: Sample[] = [];

  // Camera photos (2400×1800, JPEG q92) full width on Letter: 2400 px / 7.5 in = 320 ppi.
  const photos: ImagePage[] = [];
  for (let i = 0; i < photoPages; i++) {
    const jpeg = await photoJpeg(2400, 1800, 100 + i, 92);
    photos.push({
      images: [{ image: { type: "jpeg", data: jpeg }, x: 36, y: 36, width: 540, height: 405 }],
      text: [],
    });
  }
  samples.push({
    name: "photos",
    description: `${photoPages} pages, one 2400×1800 q92 JPEG each (320 ppi)`,
    bytes: makeImagePdf(photos),
  });

  // Gray scans at 300 dpi, Flate (lossless) as many scanner drivers write them.
  const grays: ImagePage[] = [];
  const bws: ImagePage[] = [];
  for (let i = 0; i < scanPages; i++) {
    const s = await scanPixels(300, 200 + i);
    grays.push({
      images: [
        {
          image: { type: "raw", ...s, colorSpace: "DeviceGray", bpc: 8 },
          x: 0,
          y: 0,
          width: 612,
          height: 792,
        },
      ],
    });
    const bits = grayToBits(s.data, s.width, s.height);
    bws.push({
      images: [
        {
          image: {
            type: "raw",
            data: bits,
            width: s.width,
            height: s.height,
            colorSpace: "DeviceGray",
            bpc: 1,
          },
          x: 0,
          y: 0,
          width: 612,
          height: 792,
        },
      ],
    });
  }
  samples.push({
    name: "scans-gray",
    description: `${scanPages} pages, 300 dpi 8-bit gray scans (Flate)`,
    bytes: makeImagePdf(grays),
  });
  samples.push({
    name: "scans-bw",
    description: `${scanPages} pages, 300 dpi 1-bit scans (Flate)`,
    bytes: makeImagePdf(bws),
  });

  // Mixed report pages: text, a photo (1600×1200 q90 over 5 in = 320 ppi) and a lossless chart.
  const mixed: ImagePage[] = [];
  for (let i = 0; i < scanPages; i++) {
    const jpeg = await photoJpeg(1600, 1200, 300 + i, 90);
    const chart = await chartPng(900, 450, i + 1);
    mixed.push({
      images: [
        { image: { type: "jpeg", data: jpeg }, x: 72, y: 300, width: 360, height: 270 },
        {
          image: { type: "raw", data: chart, width: 900, height: 450, colorSpace: "DeviceRGB", bpc: 8 },
          x: 72,
          y: 590,
          width: 432,
          height: 172,
        },
      ],
      text: scanText(14, 400 + i),
    });
  }
  samples.push({
    name: "mixed",
    description: `${scanPages} pages: text, a 320 ppi photo, a lossless chart`,
    bytes: makeImagePdf(mixed),
  });
  return samples;
}

interface Outcome {
  tool: string;
  size: number;
  ms: number;
  ssimMean: number;
  ssimMin: number;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function similarity(a: Uint8Array, b: Uint8Array): { mean: number; min: number } {
  const pages = new mupdf.PDFDocument(Buffer.from(a)).countPages();
  const scores: number[] = [];
  for (let i = 0; i < pages; i++) scores.push(ssim(renderGray(a, i, 100), renderGray(b, i, 100)));
  return { mean: scores.reduce((x, y) => x + y, 0) / scores.length, min: Math.min(...scores) };
}

async function timeIt(fn: () => Promise<Uint8Array>): Promise<{ out: Uint8Array; ms: number }> {
  const times: number[] = [];
  let out: Uint8Array = await fn(); // warm-up, untimed: file cache, JIT (Quire's workers are long-lived)
  for (let i = 0; i < runs; i++) {
    const t = process.hrtime.bigint();
    out = await fn();
    times.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  return { out, ms: median(times) };
}

async function tools(sample: Sample, dir: string): Promise<Outcome[]> {
  const input = path.join(dir, `${sample.name}.pdf`);
  writeFileSync(input, sample.bytes);
  const results: Outcome[] = [];
  const record = (tool: string, out: Uint8Array, ms: number) => {
    const sim = similarity(sample.bytes, out);
    results.push({ tool, size: out.length, ms, ssimMean: sim.mean, ssimMin: sim.min });
    if (keepDir) writeFileSync(path.join(dir, `${sample.name}.${tool.replace(/\W+/g, "-")}.pdf`), out);
  };

  const quire = await timeIt(async () => (await optimizePdf(sample.bytes, defaultOptimizeOptions())).bytes);
  record("quire", quire.out, quire.ms);

  const gsOut = path.join(dir, `${sample.name}.gs.pdf`);
  const gs = await timeIt(async () => {
    await run("gs", [
      "-q",
      "-dNOPAUSE",
      "-dBATCH",
      "-dSAFER",
      "-sDEVICE=pdfwrite",
      "-dPDFSETTINGS=/ebook",
      `-sOutputFile=${gsOut}`,
      input,
    ]);
    return readFileSync(gsOut);
  });
  record("gs /ebook", gs.out, gs.ms);

  const qpdfOut = path.join(dir, `${sample.name}.qpdf.pdf`);
  const qp = await timeIt(async () => {
    await run("qpdf", ["--object-streams=generate", "--recompress-flate", input, qpdfOut]);
    return readFileSync(qpdfOut);
  });
  record("qpdf", qp.out, qp.ms);
  return results;
}

async function hasTool(cmd: string, flag: string): Promise<boolean> {
  try {
    await run(cmd, [flag]);
    return true;
  } catch {
    return false;
  }
}

async function main() {
  for (const [cmd, flag] of [
    ["gs", "--version"],
    ["qpdf", "--version"],
  ] as const) {
    if (!(await hasTool(cmd, flag))) {
      console.error(`bench:compress needs ${cmd} (Debian: apt-get install ghostscript qpdf).`);
      process.exit(2);
    }
  }
  const gsVersion = (await run("gs", ["--version"])).stdout.trim();
  const qpdfVersion = (await run("qpdf", ["--version"])).stdout.split("\n")[0].trim();
  console.log(
    `Quire compress vs Ghostscript ${gsVersion} /ebook and ${qpdfVersion}; ${os.cpus().length} CPUs, Node ${process.version}, median of ${runs} run(s) after a warm-up`,
  );

  const dir = keepDir ?? mkdtempSync(path.join(os.tmpdir(), "quire-bench-"));
  if (keepDir) mkdirSync(keepDir, { recursive: true });
  const t0 = Date.now();
  const corpus = await buildCorpus();
  console.log(`corpus built in ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);

  const header = ["sample", "input", "tool", "output", "ratio", "time ms", "SSIM mean", "SSIM min"];
  const rows: string[][] = [];
  const totals = new Map<string, { size: number; ms: number; minSsim: number }>();
  let inputTotal = 0;
  for (const sample of corpus) {
    inputTotal += sample.bytes.length;
    for (const r of await tools(sample, dir)) {
      rows.push([
        sample.name,
        kb(sample.bytes.length),
        r.tool,
        kb(r.size),
        (r.size / sample.bytes.length).toFixed(3),
        r.ms.toFixed(0),
        r.ssimMean.toFixed(4),
        r.ssimMin.toFixed(4),
      ]);
      const t = totals.get(r.tool) ?? { size: 0, ms: 0, minSsim: 1 };
      t.size += r.size;
      t.ms += r.ms;
      t.minSsim = Math.min(t.minSsim, r.ssimMin);
      totals.set(r.tool, t);
    }
  }
  for (const s of corpus) console.log(`${s.name}: ${s.description}`);
  console.log();
  printTable(header, rows);

  console.log();
  const q = totals.get("quire")!;
  const g = totals.get("gs /ebook")!;
  const p = totals.get("qpdf")!;
  printTable(
    ["tool", "total output", "ratio", "total time ms", "worst page SSIM"],
    [...totals].map(([tool, t]) => [
      tool,
      kb(t.size),
      (t.size / inputTotal).toFixed(3),
      t.ms.toFixed(0),
      t.minSsim.toFixed(4),
    ]),
  );
  console.log();
  console.log(`quire / gs: size ${(q.size / g.size).toFixed(3)}, time ${(q.ms / g.ms).toFixed(3)}`);
  console.log(`quire / qpdf: size ${(q.size / p.size).toFixed(3)}, time ${(q.ms / p.ms).toFixed(3)}`);
  const ok = q.size < g.size && q.minSsim >= 0.95 && q.ms <= g.ms;
  console.log(
    `target (smaller than gs /ebook, every page SSIM ≥ 0.95, at least as fast): ${ok ? "MET" : "NOT MET"}`,
  );
  if (!keepDir) rmSync(dir, { recursive: true, force: true });
}

function kb(n: number): string {
  return n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(2)} MB` : `${(n / 1024).toFixed(1)} KB`;
}

function printTable(header: string[], rows: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i >= 3 ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join("  ");
  console.log(line(header));
  console.log(widths.map((w) => "-".repeat(w)).join("  "));
  for (const r of rows) console.log(line(r));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
