import * as mupdf from "mupdf";
import { afterAll, describe, expect, test } from "vitest";
import { run } from "@/lib/operations/pdf-edit-rotate-auto/runner";
import { makePdf } from "@/tests/helpers/pdf-fixtures";
import { messageOf, runRunner, workspace } from "./run-helper";

/** pdf-edit-rotate-auto runner: pages set upright, message, lang checked first. */

const ws = workspace();
afterAll(() => ws.cleanup());

const TEXT = "Quarterly report of the northern region\nRevenue grew by eleven percent this year";

describe("pdf-edit-rotate-auto runner", () => {
  test("sideways and upside-down text pages become upright; the message names them", async () => {
    const src = makePdf({ pages: 3, text: () => TEXT, rotate: (i) => ([0, 90, 180] as const)[i] });
    const r = await runRunner(run, { url: "x", name: "result.pdf" }, [ws.source("rotated_pages.pdf", src)], ws.dir);
    const doc = new mupdf.PDFDocument(r.files[0]);
    try {
      expect([0, 1, 2].map((i) => doc.findPage(i).getInheritable("Rotate").asNumber())).toEqual([0, 0, 0]);
    } finally {
      doc.destroy();
    }
    expect(r.pageCount).toBe(3);
    expect(r.message).toBe("Turned 2 page(s): 1 by 270°, 2 by 180°.");
  });

  test("an upright file: unchanged, says so; an unknown lang → 400 before any work", async () => {
    const r = await runRunner(run, { url: "x" }, [ws.source("ok.pdf", makePdf({ text: () => TEXT }))], ws.dir);
    expect(r.message).toBe("Every page was already upright.");
    expect(await messageOf(runRunner(run, { url: "x", lang: "xxx" }, [ws.source("ok.pdf", makePdf())], ws.dir))).toMatch(/^lang: /);
  });
});
