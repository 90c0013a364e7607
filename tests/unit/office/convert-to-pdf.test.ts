import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import type net from "node:net";
import * as XLSX from "@e965/xlsx";
import { canIsolateNetwork, convertOfficeToPdf, setNetworkIsolationForTests, warmOffice } from "@/lib/engine/office/convert-to-pdf";
import { readPdf } from "@/tests/helpers/convert-fixtures";
import { makeDocx, makeDocxBomb, makeDocxWithExternalImage, makeEncryptedOffice, makeOdtWithMacro, makeRtf } from "@/tests/helpers/office-fixtures";

/** LibreOffice → PDF: page counts and text, sheets, and the hostile inputs (bomb, password, links, time). */

function workbook(bookType: "xlsx" | "xls" | "ods" = "xlsx"): Buffer {
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet([["Alpha sheet"], [1], [2]]), "One");
  XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet([["Bravo sheet"], [3, 4]]), "Two");
  XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet([["Charlie sheet"]]), "Three");
  return XLSX.write(wb, { type: "buffer", bookType }) as Buffer;
}

let server: http.Server;
let hits: string[] = [];
let origin = "";

beforeAll(async () => {
  server = http.createServer((req, res) => {
    hits.push(req.url ?? "");
    res.writeHead(200, { "content-type": "image/png" }).end();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  origin = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  await warmOffice();
}, 120_000);
afterAll(() => new Promise<void>((r) => server.close(() => r())));
// LibreOffice shares two cores with the rest of the suite.
vi.setConfig({ testTimeout: 120_000 });

describe("convertOfficeToPdf", () => {
  it("docx: 5 pages, each starting with its number", async () => {
    const { pdf, format } = await convertOfficeToPdf({ bytes: makeDocx({ pages: 5 }), name: "five.docx" }, { accept: "text" });
    expect(format).toBe("docx");
    const r = readPdf(pdf);
    expect(r.pageCount).toBe(5);
    for (let i = 0; i < 5; i++) expect(r.texts[i]).toContain(`Page ${i + 1}`);
    expect(r.sizes[0][0]).toBeCloseTo(595.3, 0); // A4 from the document's sectPr
  });

  it("doc and odt (written by LibreOffice from a docx) → the same pages", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "quire-office-formats-"));
    try {
      fs.writeFileSync(path.join(dir, "three.docx"), makeDocx({ pages: 3 }));
      for (const target of ["doc", "odt"]) {
        execFileSync("soffice", [`-env:UserInstallation=file://${dir}/profile`, "--headless", "--convert-to", target, "--outdir", dir, path.join(dir, "three.docx")], { stdio: "ignore", timeout: 120_000 });
        const bytes = fs.readFileSync(path.join(dir, `three.${target}`));
        const { pdf, format } = await convertOfficeToPdf({ bytes, name: "upload.bin" }, { accept: "text" });
        expect(format).toBe(target);
        const r = readPdf(pdf);
        expect(r.pageCount).toBe(3);
        expect(r.texts[2]).toContain("Page 3");
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it("rtf, whatever the file is called", async () => {
    const { pdf, format } = await convertOfficeToPdf({ bytes: makeRtf(["Hello from RTF", "Second line"]), name: "upload.bin" });
    expect(format).toBe("rtf");
    expect(readPdf(pdf).texts[0]).toContain("Hello from RTF");
  });

  it("xlsx: the whole workbook, one sheet (worksheetIndex), or one page per sheet (autosize)", async () => {
    const all = readPdf((await convertOfficeToPdf({ bytes: workbook(), name: "b.xlsx" }, { accept: "sheet" })).pdf);
    const text = all.texts.join("\n");
    expect(text).toContain("Alpha sheet");
    expect(text).toContain("Charlie sheet");
    const two = readPdf((await convertOfficeToPdf({ bytes: workbook(), name: "b.xlsx" }, { worksheetIndex: 2 })).pdf);
    expect(two.texts.join("\n")).toContain("Bravo sheet");
    expect(two.texts.join("\n")).not.toContain("Alpha sheet");
    expect(two.texts.join("\n")).not.toContain("Charlie sheet");
    const auto = readPdf((await convertOfficeToPdf({ bytes: workbook(), name: "b.xlsx" }, { autosize: true })).pdf);
    expect(auto.pageCount).toBe(3);
  });

  it.each(["xls", "ods"] as const)("%s: worksheetIndex (converted to xlsx first, then one sheet printed)", async (type) => {
    const { pdf, format } = await convertOfficeToPdf({ bytes: workbook(type), name: `b.${type}` }, { accept: "sheet", worksheetIndex: 3 });
    expect(format).toBe(type);
    const text = readPdf(pdf).texts.join("\n");
    expect(text).toContain("Charlie sheet");
    expect(text).not.toContain("Alpha sheet");
    expect(text).not.toContain("Bravo sheet");
  }, 60_000);

  it("worksheetIndex past the last sheet → 454", async () => {
    await expect(convertOfficeToPdf({ bytes: workbook(), name: "b.xlsx" }, { worksheetIndex: 9 })).rejects.toMatchObject({ status: 454 });
  });

  it("a spreadsheet sent to the word-processor endpoint → 415 naming the right one", async () => {
    await expect(convertOfficeToPdf({ bytes: workbook(), name: "b.xlsx" }, { accept: "text" })).rejects.toMatchObject({
      status: 415,
      message: expect.stringContaining("/v1/xls/convert/to/pdf"),
    });
  });

  it("a zip-bomb docx → 413 before LibreOffice runs", async () => {
    const bomb = makeDocxBomb();
    const t = Date.now();
    await expect(convertOfficeToPdf({ bytes: bomb, name: "bomb.docx" })).rejects.toMatchObject({ status: 413 });
    expect(Date.now() - t).toBeLessThan(10_000); // no LibreOffice run: the zip guard refuses it
  });

  it("a password-protected docx → 442 saying so", async () => {
    await expect(convertOfficeToPdf({ bytes: makeEncryptedOffice(), name: "secret.docx" })).rejects.toMatchObject({
      status: 442,
      message: expect.stringContaining("password-protected"),
    });
  });

  it("garbage named .docx → 415; a damaged docx → 442", async () => {
    await expect(convertOfficeToPdf({ bytes: Buffer.from("just text"), name: "x.docx" })).rejects.toMatchObject({ status: 415 });
    const broken = makeDocx();
    const damaged = Buffer.from(broken);
    damaged.write("<<<<not xml>>>>", damaged.indexOf("word/document.xml") + 60, "latin1");
    await expect(convertOfficeToPdf({ bytes: damaged, name: "x.docx" })).rejects.toMatchObject({ status: 442 });
  });

  // A plain `soffice --convert-to` of this file requests the image (OPTIONS then GET).
  it.each([
    ["in a network namespace", undefined],
    ["with the closed proxy only", false],
  ] as const)("an image linked from the document is never fetched (%s)", async (_mode, isolation) => {
    setNetworkIsolationForTests(isolation);
    try {
      if (isolation === undefined && !canIsolateNetwork()) return; // the host allows no namespace
      hits = [];
      const { pdf } = await convertOfficeToPdf({ bytes: makeDocxWithExternalImage(`${origin}/tracker.png`), name: "linked.docx" });
      expect(readPdf(pdf).pageCount).toBe(1);
      await new Promise((r) => setTimeout(r, 300));
      expect(hits).toEqual([]);
    } finally {
      setNetworkIsolationForTests(undefined);
    }
  });

  // A guard: LibreOffice 7.4's command-line conversion did not run this macro even with macro
  // security at "low" when checked by hand; the job profile's settings keep it so for any version.
  it("a document macro bound to its load event never runs", async () => {
    const marker = path.join(os.tmpdir(), `quire-macro-${process.pid}-${Date.now()}.txt`);
    const { pdf, format } = await convertOfficeToPdf({ bytes: makeOdtWithMacro(marker), name: "macro.odt" });
    expect(format).toBe("odt");
    expect(readPdf(pdf).texts[0]).toContain("Document with a macro");
    expect(fs.existsSync(marker)).toBe(false);
  });

  it("under a memory cap LibreOffice cannot work in → 442 naming the cap", async () => {
    // 100 MB of address space is less than LibreOffice's own libraries map; at 300 MB a small
    // document sometimes converted (address-space use varies from start to start).
    await expect(
      convertOfficeToPdf({ bytes: makeDocx(), name: "small.docx" }, { limits: { memoryMb: 100 } }),
    ).rejects.toMatchObject({ status: 442, message: expect.stringContaining("100 MB") });
  });

  it("a warm spare converts one job only: each job on its own instance and profile, gone afterwards", async () => {
    await warmOffice();
    const used: string[] = [];
    for (const pages of [2, 3]) {
      const lines: string[] = [];
      const { pdf } = await convertOfficeToPdf({ bytes: makeDocx({ pages }), name: "warm.docx" }, { log: (l) => lines.push(l) });
      expect(readPdf(pdf).pageCount).toBe(pages);
      const spare = lines.join("\n").match(/\(spare (quire-office-spare-\w+)\)/)?.[1];
      expect(spare, lines.join("\n")).toBeDefined();
      used.push(spare!);
    }
    expect(used[0]).not.toBe(used[1]);
    await new Promise((r) => setTimeout(r, 500));
    for (const name of used) {
      expect(fs.existsSync(path.join(os.tmpdir(), name))).toBe(false);
      const running = fs
        .readdirSync("/proc")
        .filter((p) => /^\d+$/.test(p))
        .filter((p) => {
          try {
            return fs.readFileSync(`/proc/${p}/cmdline`, "utf8").includes(name);
          } catch {
            return false;
          }
        });
      expect(running).toEqual([]);
    }
  });

  it("over the time cap → 408, and the next job still works", async () => {
    await expect(
      convertOfficeToPdf({ bytes: makeDocx({ pages: 3 }), name: "slow.docx" }, { limits: { timeoutMs: 150 } }),
    ).rejects.toMatchObject({ status: 408 });
    const { pdf } = await convertOfficeToPdf({ bytes: makeDocx({ pages: 2 }), name: "ok.docx" });
    expect(readPdf(pdf).pageCount).toBe(2);
  });
});
