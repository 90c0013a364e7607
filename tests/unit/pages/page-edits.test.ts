import * as mupdf from "mupdf";
import { afterAll, describe, expect, test } from "vitest";
import { run as deletePages } from "@/lib/operations/pdf-edit-delete-pages/runner";
import { run as rotate } from "@/lib/operations/pdf-edit-rotate/runner";
import { encryptPdf, makePdf, pageTexts } from "@/tests/helpers/pdf-fixtures";
import { messageOf, runRunner, statusOf, workspace } from "./run-helper";

/** pdf-edit-delete-pages and pdf-edit-rotate runners: page selection, permissions, pageCount. */

const ws = workspace();
afterAll(() => ws.cleanup());

const rotations = (bytes: Uint8Array) => {
  const doc = new mupdf.PDFDocument(Buffer.from(bytes));
  try {
    return Array.from({ length: doc.countPages() }, (_, i) => doc.findPage(i).getInheritable("Rotate").asNumber());
  } finally {
    doc.destroy();
  }
};

describe("pdf-edit-delete-pages runner", () => {
  test.each([
    ["1-2", ["Page 3", "Page 4", "Page 5"]],
    ["1,3,!1", ["Page 2", "Page 4"]],
    ["4-", ["Page 1", "Page 2", "Page 3"]],
    ["!2-!1", ["Page 1", "Page 2", "Page 3"]],
  ])("pages %s (1-based) of 5", async (pages, left) => {
    const r = await runRunner(deletePages, { url: "x", pages }, [ws.source("five.pdf", makePdf({ pages: 5 }))], ws.dir);
    expect(pageTexts(r.files[0])).toEqual(left);
    expect(r.pageCount).toBe(left.length);
  });

  test.each([
    ["6", 449],
    ["0", 450],
    ["1-5", 450],
    ["x", 450],
  ])("pages %s of 5 → %i", async (pages, status) => {
    expect(await statusOf(runRunner(deletePages, { url: "x", pages }, [ws.source("five.pdf", makePdf({ pages: 5 }))], ws.dir))).toBe(status);
  });

  test("restricted permissions need the owner password (443); with it the restrictions stay", async () => {
    const src = encryptPdf(makePdf({ pages: 3 }), { userPassword: "", ownerPassword: "boss", permissions: ["print"] });
    const p = runRunner(deletePages, { url: "x", pages: "1" }, [ws.source("locked.pdf", src)], ws.dir);
    expect(await statusOf(p)).toBe(443);
    const r = await runRunner(deletePages, { url: "x", pages: "1", password: "boss" }, [ws.source("locked.pdf", src)], ws.dir);
    const doc = new mupdf.PDFDocument(r.files[0]);
    try {
      expect(doc.countPages()).toBe(2);
      expect(doc.hasPermission("assemble")).toBe(false);
    } finally {
      doc.destroy();
    }
  });
});

describe("pdf-edit-rotate runner", () => {
  test("the official sample's angle 90 and pages 0-2,4", async () => {
    const r = await runRunner(rotate, { url: "x", angle: 90, pages: "0-2,4" }, [ws.source("s.pdf", makePdf({ pages: 6 }))], ws.dir);
    expect(rotations(r.files[0])).toEqual([90, 90, 90, 0, 90, 0]);
    expect(r.pageCount).toBe(6);
    expect(pageTexts(r.files[0])[4]).toBe("Page 5");
  });

  test("empty pages: every page; added to the current rotation", async () => {
    const r = await runRunner(rotate, { url: "x", angle: 270 }, [ws.source("s.pdf", makePdf({ pages: 2, rotate: (i) => (i ? 180 : 0) }))], ws.dir);
    expect(rotations(r.files[0])).toEqual([270, 90]);
  });

  test("angle 0 changes nothing and says so", async () => {
    const r = await runRunner(rotate, { url: "x" }, [ws.source("s.pdf", makePdf({ pages: 2 }))], ws.dir);
    expect(rotations(r.files[0])).toEqual([0, 0]);
    expect(r.message).toMatch(/no page was turned/);
  });

  test("a page past the end → 449", async () => {
    const p = runRunner(rotate, { url: "x", angle: 90, pages: "2" }, [ws.source("s.pdf", makePdf({ pages: 2 }))], ws.dir);
    expect(await statusOf(p)).toBe(449);
    expect(await messageOf(runRunner(rotate, { url: "x", angle: 90, pages: "2" }, [ws.source("s.pdf", makePdf({ pages: 2 }))], ws.dir))).toMatch(/^pages: page 2 is past the last page \(1\)/);
  });
});
