import { afterAll, beforeAll, describe, expect, it } from "vitest";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openPdf } from "@/lib/engine/pdf/open-pdf";
import { operation } from "@/lib/operations/pdf-convert-to-csv/contract";
import { run } from "@/lib/operations/pdf-convert-to-csv/runner";
import { makeCyclicPageTreePdf } from "@/tests/helpers/bomb-fixtures";

// Issue 10 §8: to/csv answered 500 on a PDF whose page tree loops; the tree is rebuilt instead.
let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "quire-cyclic-"));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("a cyclic page tree", () => {
  it("opens with its one real page, which loads", () => {
    const doc = openPdf(makeCyclicPageTreePdf());
    try {
      expect(doc.countPages()).toBe(1);
      expect(doc.loadPage(0).toStructuredText("preserve-whitespace").asText()).toContain("Hello cycle");
    } finally {
      doc.destroy();
    }
  });

  it("converts to CSV with the page's text (not a 500)", async () => {
    const file = path.join(dir, "cyclic.pdf");
    fs.writeFileSync(file, makeCyclicPageTreePdf());
    const r = await run({
      params: operation.params.parse({ url: "https://example.com/cyclic.pdf", inline: true }) as never,
      sources: [
        {
          path: file,
          name: "cyclic.pdf",
          contentType: "application/pdf",
          size: fs.statSync(file).size,
          url: "",
        },
      ],
      workDir: dir,
      fetchUrl: async () => {
        throw new Error("no fetch");
      },
      log: () => {},
    });
    expect(r.pageCount).toBe(1);
    expect(r.inlineText).toContain("Hello cycle");
  });
});
