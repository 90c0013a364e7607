import { afterAll, beforeAll, describe, expect, it } from "vitest";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { QuireError } from "@/lib/core/errors";
import { openPdf } from "@/lib/engine/pdf/open-pdf";
import { checkPdfWork } from "@/lib/engine/pdf/work-budget";
import { createSandboxPool, type SandboxPool } from "@/lib/jobs/sandbox/pool";
import { makeInflationBombPdf } from "@/tests/helpers/bomb-fixtures";
import { makePdf } from "@/tests/helpers/pdf-fixtures";
import { makeTiff } from "@/tests/helpers/convert-fixtures";
import { makeDocx } from "@/tests/helpers/office-fixtures";
import { oversizedPng } from "@/tests/helpers/oversized-image";

// Issue 10 §2 and §5: a bomb is refused before any work, in a moment, and never holds a worker.

let bomb: Buffer;
let dir: string;
let pool: SandboxPool;
beforeAll(async () => {
  bomb = await makeInflationBombPdf(600 * 1024 * 1024);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "quire-budget-"));
  fs.writeFileSync(path.join(dir, "bomb.pdf"), bomb);
  process.env.WORK_MAX_INFLATED_MB = "64"; // read by the children forked below
  pool = createSandboxPool({ size: 1, timeoutMs: 60_000, memoryMb: 2048, logger: () => {} });
  delete process.env.WORK_MAX_INFLATED_MB;
}, 120_000);
afterAll(async () => {
  await pool?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const limits = { maxPages: 50, maxInflatedBytes: 64 * 1024 * 1024, maxImagePixels: 100_000_000 };

async function failure(p: Promise<unknown>): Promise<QuireError> {
  try {
    await p;
  } catch (e) {
    return e as QuireError;
  }
  throw new Error("expected a failure");
}

describe("work budget", () => {
  it("counts the pages of every source it can before the work: PDF pages, TIFF pages and images from their headers", async () => {
    const files: Array<[string, Buffer]> = [
      ["five.pdf", makePdf({ pages: 5 })],
      ["three.tif", makeTiff([0, 1, 2].map(() => ({ width: 4, height: 4, rgb: [9, 9, 9] as [number, number, number] })))],
      // A header that declares 20000×20000 over data that cannot be decoded: counted, never decoded.
      ["huge.png", await oversizedPng(20_000, 20_000)],
      ["four.docx", makeDocx({ pages: 4 })],
    ];
    const sources = files.map(([name, bytes]) => {
      fs.writeFileSync(path.join(dir, name), bytes);
      return { path: path.join(dir, name), name, contentType: "", size: bytes.length, url: `https://example.com/${name}` };
    });
    const started = Date.now();
    const r = await pool.run(
      { opId: "work-budget", params: {}, sources, workDir: dir },
      { fetchUrl: async () => { throw new QuireError(500, "none"); } },
    );
    expect(r.fields?.pages).toEqual([5, 3, 1, null]);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("measures an ordinary PDF: its pages and a few bytes of content", async () => {
    const doc = openPdf(makePdf({ pages: 7 }));
    try {
      const m = await checkPdfWork(doc, limits);
      expect(m.pages).toBe(7);
      expect(m.inflatedBytes).toBeGreaterThan(0);
      expect(m.inflatedBytes).toBeLessThan(100_000);
    } finally {
      doc.destroy();
    }
  });

  it("refuses a 600 MB content-stream bomb (a file of ~600 kB) with 413 in well under a second", async () => {
    expect(bomb.length).toBeLessThan(2 * 1024 * 1024);
    const doc = openPdf(bomb);
    try {
      const t0 = Date.now();
      const e = await failure(checkPdfWork(doc, limits));
      expect(Date.now() - t0).toBeLessThan(1500);
      expect(e.status).toBe(413);
      expect(e.message).toMatch(/inflates to more than 64 MB/);
    } finally {
      doc.destroy();
    }
  });

  it("refuses a document past MAX_PAGES with 413 naming the limit", async () => {
    const doc = openPdf(makePdf({ pages: 51 }));
    try {
      const e = await failure(checkPdfWork(doc, limits));
      expect(e.status).toBe(413);
      expect(e.message).toMatch(/51 pages.*at most 50 pages.*MAX_PAGES/);
    } finally {
      doc.destroy();
    }
  });

  it("the dashboard preview of the bomb is refused by the sandbox in seconds, not after PREVIEW_TIMEOUT_MS", async () => {
    const source = {
      path: path.join(dir, "bomb.pdf"),
      name: "bomb.pdf",
      contentType: "application/pdf",
      size: bomb.length,
      url: "",
    };
    // A warm child, as in a running server: the time measured is the preview's own.
    fs.writeFileSync(path.join(dir, "one.pdf"), makePdf());
    const one = { ...source, path: path.join(dir, "one.pdf"), name: "one.pdf", size: fs.statSync(path.join(dir, "one.pdf")).size };
    await pool.run(
      { opId: "pdf-preview", params: { mode: "info" }, sources: [one], workDir: dir },
      {
        fetchUrl: async () => {
          throw new Error("none");
        },
      },
    );
    const t0 = Date.now();
    const e = await failure(
      pool.run(
        { opId: "pdf-preview", params: { mode: "page", page: 0, dpi: 96 }, sources: [source], workDir: dir },
        {
          // Far above the preview's own cap: a 413 (not a 408) shows the budget stopped it.
          timeoutMs: 120_000,
          fetchUrl: async () => {
            throw new Error("none");
          },
        },
      ),
    );
    expect(e.status).toBe(413);
    expect(Date.now() - t0).toBeLessThan(15_000); // PREVIEW_TIMEOUT_MS's default
  }, 180_000);
});
