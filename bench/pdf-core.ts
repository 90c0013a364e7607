/**
 * PDF core benchmark: info and split-into-every-page of a generated 500-page PDF, against
 * poppler's `pdfinfo` and `qpdf --split-pages` when they are installed (same machine, same run);
 * merge of 50 PDFs × 20 pages against `qpdf --empty --pages … --`; deleting every other page
 * and rotating every page of the 500-page PDF against `qpdf --pages` and `qpdf --rotate`.
 *
 *   npx tsx --import ./scripts/node-hooks.mjs bench/pdf-core.ts [pages] [runs]
 *
 * Quire's figures include opening the file from disk and, for split, writing every part to disk,
 * so they compare like for like with the command-line tools (which also pay a process start).
 */
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { openPdf } from "@/lib/engine/pdf/open-pdf";
import { readInfo } from "@/lib/engine/pdf/read-info";
import { deletePages, rotatePages, savePdf } from "@/lib/engine/pdf/edit-pages";
import { PdfMerger } from "@/lib/engine/pdf/merge-pdfs";
import { extractPages, planSplit } from "@/lib/engine/pdf/split-pdf";
import { makePdf } from "@/tests/helpers/pdf-fixtures";

const pages = Number(process.argv[2] ?? 500);
const runs = Number(process.argv[3] ?? 5);

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

async function time(fn: () => Promise<void> | void): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

/** Median of `runs` timed calls after one warm-up; `prepare`/`cleanup` run outside the timing. */
async function measure(
  label: string,
  fn: (run: number) => Promise<void> | void,
  prepare: (run: number) => Promise<void> = async () => {},
  cleanup: (run: number) => Promise<void> = async () => {},
): Promise<number> {
  await prepare(-1);
  await fn(-1); // warm-up: WASM compile, page cache
  await cleanup(-1);
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    await prepare(i);
    samples.push(await time(() => fn(i)));
    await cleanup(i);
  }
  const m = median(samples);
  console.log(
    `${label.padEnd(38)} median ${m.toFixed(1).padStart(8)} ms  (runs: ${samples.map((s) => s.toFixed(0)).join(", ")})`,
  );
  return m;
}

function hasTool(cmd: string): boolean {
  const r = spawnSync(cmd, ["--version"], { stdio: "ignore" });
  return !r.error;
}

function runTool(cmd: string, args: string[]): void {
  const r = spawnSync(cmd, args, { stdio: ["ignore", "ignore", "pipe"] });
  if (r.error || (r.status !== 0 && r.status !== 3)) {
    // qpdf exits 3 for warnings; anything else is a real failure
    throw new Error(`${cmd} ${args.join(" ")} failed: ${r.error?.message ?? r.stderr.toString()}`);
  }
}

async function main() {
  const dir = await mkdtemp(path.join(tmpdir(), "quire-bench-"));
  try {
    const source = path.join(dir, "source.pdf");
    const generated = await time(async () => writeFile(source, makePdf({ pages })));
    const size = (await readFile(source)).length;
    console.log(
      `Generated a ${pages}-page PDF (${(size / 1024).toFixed(0)} KiB) in ${generated.toFixed(0)} ms; ${runs} runs each.\n`,
    );

    const quireInfo = await measure("quire  readInfo (read+open+info)", async () => {
      const doc = openPdf(await readFile(source));
      try {
        const info = readInfo(doc);
        if (info.PageCount !== pages) throw new Error("wrong page count");
      } finally {
        doc.destroy();
      }
    });

    const outDir = (tool: string, run: number) => path.join(dir, `${tool}-${run + 1}`);
    const makeDir = (tool: string) => async (run: number) => void (await mkdir(outDir(tool, run)));
    const dropDir = (tool: string) => async (run: number) =>
      rm(outDir(tool, run), { recursive: true, force: true });

    const quireSplit = await measure(
      `quire  split into ${pages} files`,
      async (run) => {
        const out = outDir("quire", run);
        const doc = openPdf(await readFile(source));
        try {
          const parts = planSplit(doc.countPages(), "");
          // Synchronous writes, as the split runner does: fastest for many small files.
          for (const [i, part] of parts.entries())
            writeFileSync(path.join(out, `part-${i + 1}.pdf`), extractPages(doc, part.pages));
        } finally {
          doc.destroy();
        }
      },
      makeDir("quire"),
      dropDir("quire"),
    );

    const quireSplitMemory = await measure(`quire  split, in memory only`, async () => {
      const doc = openPdf(await readFile(source));
      try {
        for (const part of planSplit(doc.countPages(), "")) extractPages(doc, part.pages);
      } finally {
        doc.destroy();
      }
    });
    console.log(`  → of which writing ${pages} files: ${(quireSplit - quireSplitMemory).toFixed(1)} ms`);

    console.log("");
    if (hasTool("pdfinfo")) {
      const popplerInfo = await measure("poppler pdfinfo", () => runTool("pdfinfo", [source]));
      console.log(`  → quire info is ${(popplerInfo / quireInfo).toFixed(2)}× the speed of pdfinfo`);
    } else {
      console.log("pdfinfo not installed (apt-get install poppler-utils): info comparison skipped");
    }
    if (hasTool("qpdf")) {
      const qpdfSplit = await measure(
        `qpdf   --split-pages (${pages} files)`,
        (run) => runTool("qpdf", ["--split-pages=1", source, path.join(outDir("qpdf", run), "part-%d.pdf")]),
        makeDir("qpdf"),
        dropDir("qpdf"),
      );
      console.log(`  → quire split is ${(qpdfSplit / quireSplit).toFixed(2)}× the speed of qpdf`);
    } else {
      console.log("qpdf not installed (apt-get install qpdf): split comparison skipped");
    }

    // Merge: 50 files of 20 pages each (distinct files, as a caller sends them).
    const mergeFiles = await Promise.all(
      Array.from({ length: 50 }, async (_, n) => {
        const file = path.join(dir, `merge-${n + 1}.pdf`);
        await writeFile(file, makePdf({ pages: 20, text: (i) => `File ${n + 1} page ${i + 1}` }));
        return file;
      }),
    );
    console.log("");
    const quireMerge = await measure("quire  merge 50 PDFs × 20 pages", async () => {
      const merger = new PdfMerger();
      try {
        for (const file of mergeFiles) {
          const doc = openPdf(await readFile(file));
          try {
            merger.add(doc, path.basename(file));
          } finally {
            doc.destroy();
          }
        }
        writeFileSync(path.join(dir, "merged.pdf"), merger.finish());
      } finally {
        merger.destroy();
      }
    });
    if (hasTool("qpdf")) {
      const qpdfMerge = await measure("qpdf   --empty --pages (50 files)", () =>
        runTool("qpdf", ["--empty", "--pages", ...mergeFiles, "--", path.join(dir, "qpdf-merged.pdf")]),
      );
      console.log(`  → quire merge takes ${(quireMerge / qpdfMerge).toFixed(2)}× qpdf's time (target ≤ 2×)`);
    }

    // Page edits on the 500-page file, read from and written to disk like the CLI.
    console.log("");
    const evenPages = Array.from({ length: Math.floor(pages / 2) }, (_, i) => i * 2 + 1);
    const quireDelete = await measure(`quire  delete ${evenPages.length} of ${pages} pages`, async () => {
      const doc = openPdf(await readFile(source));
      try {
        deletePages(doc, evenPages);
        writeFileSync(path.join(dir, "deleted.pdf"), savePdf(doc, true));
      } finally {
        doc.destroy();
      }
    });
    const quireRotate = await measure(`quire  rotate ${pages} pages by 90°`, async () => {
      const doc = openPdf(await readFile(source));
      try {
        rotatePages(doc, Array.from({ length: pages }, (_, i) => i), 90);
        writeFileSync(path.join(dir, "rotated.pdf"), savePdf(doc, false));
      } finally {
        doc.destroy();
      }
    });
    if (hasTool("qpdf")) {
      const qpdfDelete = await measure(`qpdf   --pages 1-z:odd (keep ${pages - evenPages.length})`, () =>
        runTool("qpdf", [source, "--pages", source, "1-z:odd", "--", path.join(dir, "qpdf-deleted.pdf")]),
      );
      console.log(`  → quire delete-pages takes ${(quireDelete / qpdfDelete).toFixed(2)}× qpdf's time (target ≤ 2×)`);
      const qpdfRotate = await measure(`qpdf   --rotate=+90 (${pages} pages)`, () =>
        runTool("qpdf", [source, path.join(dir, "qpdf-rotated.pdf"), "--rotate=+90"]),
      );
      console.log(`  → quire rotate takes ${(quireRotate / qpdfRotate).toFixed(2)}× qpdf's time (target ≤ 2×)`);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
