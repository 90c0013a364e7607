import { afterAll, beforeAll, describe, expect, it } from "vitest";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { QuireError } from "@/lib/core/errors";
import { shutdownOcr } from "@/lib/engine/ocr/pool";
import { createSandboxPool, type SandboxPool, type SandboxRunOptions } from "@/lib/jobs/sandbox/pool";
import { operation as csvOp } from "@/lib/operations/pdf-convert-to-csv/contract";
import { run as runCsv } from "@/lib/operations/pdf-convert-to-csv/runner";
import { operation as textOp } from "@/lib/operations/pdf-convert-to-text/contract";
import { run as runText } from "@/lib/operations/pdf-convert-to-text/runner";
import { cleanupContexts, contextFor, makeTablesPdf, type PageSpec } from "@/tests/helpers/extract-fixtures";
import { makeDamagedPdf } from "@/tests/helpers/pdf-fixtures";

// Issue 17: the pages of one CSV or text job are read in several sandbox children at once (a
// free child reads a run of pages from the job's file), with the very output of one process.

const noFetch: SandboxRunOptions["fetchUrl"] = async () => {
  throw new QuireError(400, "no fetch in this test");
};

/** A statement page: a title and a 12-row table, ruled on even pages; a table that runs on. */
function page(i: number): PageSpec {
  const rows = [["Date", "Reference", "Amount"]];
  for (let r = 0; r < 12; r++) rows.push([`2024-03-${String(r + 1).padStart(2, "0")}`, `REF-${i}-${r}`, (i * 3.5 + r).toFixed(2)]);
  return {
    texts: [{ x: 50, y: 40, text: `Statement page ${i + 1}`, size: 14, bold: true }],
    tables: [{ x: 50, y: 80, cols: [90, 120, 70], rows, borders: i % 2 === 0 ? "all" : "none", fontSize: 9 }],
  };
}

let dir: string;
let pool: SandboxPool;
let pdf: Buffer;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "quire-beside-"));
  // 40 pages, page 20 blank (Auto mode OCRs it: left to the job's own process).
  pdf = makeTablesPdf(Array.from({ length: 40 }, (_, i) => (i === 19 ? {} : page(i))));
  fs.writeFileSync(path.join(dir, "doc.pdf"), pdf);
  fs.writeFileSync(path.join(dir, "broken.pdf"), makeDamagedPdf("kids-broken"));
  pool = createSandboxPool({ size: 2, timeoutMs: 60_000, memoryMb: 2048, logger: () => {} });
});
afterAll(async () => {
  await pool?.close();
  await cleanupContexts();
  await shutdownOcr();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function inPool(opId: string, params: unknown, file = "doc.pdf") {
  const logs: string[] = [];
  const workDir = fs.mkdtempSync(path.join(dir, "work-"));
  const source = path.join(dir, file);
  const result = await pool.run(
    { opId, params, sources: [{ path: source, name: file, contentType: "application/pdf", size: fs.statSync(source).size, url: `https://example.com/${file}` }], workDir },
    { fetchUrl: noFetch, log: (m) => logs.push(m) },
  );
  return { result, logs };
}

describe("pages of one job in several sandbox children", () => {
  it("PDF → CSV: two processes, the same CSV as one process, charged for 40 pages", async () => {
    const params = csvOp.params.parse({ url: "https://example.com/doc.pdf", inline: true });
    const { result, logs } = await inPool("pdf-convert-to-csv", params);
    expect(logs).toContain("40 page(s) read in 2 process(es)");
    expect(logs.some((l) => /40 page\(s\), 1 OCRed/.test(l))).toBe(true);
    expect(result.pageCount).toBe(40);
    const alone = await runCsv(await contextFor(csvOp.params, pdf, { inline: true }));
    expect(result.inlineText).toBe(alone.inlineText);
    expect(result.inlineText).toContain('"REF-39-11"');
    // The table of page 1 runs on over the next pages (joined across the two processes' runs).
    expect(result.inlineText!.match(/"Date","Reference","Amount"/g)!.length).toBeLessThan(40);
  }, 120_000);

  it("PDF → text: the same layout text as one process, pages in order", async () => {
    const params = textOp.params.parse({ url: "https://example.com/doc.pdf", inline: true, pages: "2-37" });
    const { result, logs } = await inPool("pdf-convert-to-text", params);
    expect(logs).toContain("36 page(s) read in 2 process(es)");
    const alone = await runText(await contextFor(textOp.params, pdf, { inline: true, pages: "2-37" }));
    expect(result.inlineText).toBe(alone.inlineText);
    const text = result.inlineText!;
    expect(text.indexOf("Statement page 3")).toBeLessThan(text.indexOf("Statement page 37"));
    expect(text.split("\f")).toHaveLength(36);
  }, 120_000);

  it("a damaged page tree still answers 442, and a few pages stay in one process", async () => {
    const e = await inPool("pdf-convert-to-csv", csvOp.params.parse({ url: "https://example.com/broken.pdf", inline: true }), "broken.pdf").catch((x) => x);
    expect(e).toBeInstanceOf(QuireError);
    expect((e as QuireError).status).toBe(442);
    const { logs } = await inPool("pdf-convert-to-csv", csvOp.params.parse({ url: "https://example.com/doc.pdf", inline: true, pages: "0-9" }));
    expect(logs.some((l) => /read in \d process/.test(l))).toBe(false);
  }, 120_000);
});
