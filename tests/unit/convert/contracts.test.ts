import { describe, expect, it } from "vitest";
import type { z } from "zod";
import type { OperationDefinition } from "@/lib/operations/types";
import { coerceObject } from "@/lib/operations/wire";
import { buildTemplate, sanitizeTemplate } from "@/lib/engine/browser/header-footer";
import {
  checkMarginsFit,
  parseLength,
  parseMargins,
  parsePaperSize,
} from "@/lib/engine/browser/print-options";
import { findChromium } from "@/lib/engine/browser/chromium-path";
import { operation as fromUrl } from "@/lib/operations/pdf-convert-from-url/contract";
import { operation as fromImage } from "@/lib/operations/pdf-convert-from-image/contract";
import { operation as toCsv } from "@/lib/operations/xls-convert-to-csv/contract";

/** Contracts of pdf-convert-from-url, pdf-convert-from-image and xls-convert-to-csv, and the print-setting parsers. */

const parse = <S extends z.ZodObject>(
  op: OperationDefinition<S>,
  wire: Record<string, unknown>,
): z.infer<S> => op.params.parse(coerceObject(wire, op.params));
const zero = { top: 0, right: 0, bottom: 0, left: 0 };

describe("conversion contracts", () => {
  it("pdf-convert-from-url takes what clients send (any case, string booleans, profiles as text)", () => {
    const p = parse(fromUrl, {
      url: "https://example.com/",
      papersize: "Letter",
      Orientation: "landscape",
      printbackground: "false",
      mediatype: "Screen",
      donotwaitfullload: "True",
      margins: "10px 20px",
      header: "<span class='title'></span>",
      profiles: "{ 'CustomScript': 'document.body.style.zoom = 0.8', 'outputDataFormat': 'base64' }",
      unknownField: 1,
    });
    expect(p).toMatchObject({
      url: "https://example.com/",
      paperSize: "Letter",
      orientation: "Landscape",
      printBackground: false,
      mediaType: "screen",
      DoNotWaitFullLoad: true,
      margins: "10px 20px",
      profiles: { CustomScript: "document.body.style.zoom = 0.8", outputDataFormat: "base64" },
    });
    expect(fromUrl.input).toBe("webpage");
    expect(() => parse(fromUrl, { url: "https://example.com/", orientation: "Diagonal" })).toThrow();
  });

  it("pdf-convert-from-image keeps the comma-separated URLs as one string", () => {
    const p = parse(fromImage, {
      url: "https://a.example/1.png,https://a.example/2.jpg",
      pages: "",
      name: "album",
    });
    expect(p.url).toBe("https://a.example/1.png,https://a.example/2.jpg");
    expect(p.pages).toBeUndefined();
    expect(fromImage.input).toBe("images");
  });

  it("xls-convert-to-csv takes worksheetIndex as digits in any case, numbers too", () => {
    expect(
      parse(toCsv, { url: "https://a.example/b.xlsx", worksheetindex: "2", inline: "true" }),
    ).toMatchObject({ worksheetIndex: "2", inline: true });
    expect(parse(toCsv, { url: "https://a.example/b.xlsx", WorksheetIndex: 3 }).worksheetIndex).toBe("3");
    expect(() => parse(toCsv, { url: "https://a.example/b.xlsx", worksheetIndex: "first" })).toThrow(
      /worksheetIndex/,
    );
    expect(toCsv.input).toBe("sheet");
  });
});

describe("print settings", () => {
  it.each([
    ["10px", 10],
    ["1in", 96],
    ["2.54cm", 96],
    ["25.4mm", 96],
    ["72pt", 96],
    ["12", 12],
    [" 0.5 in ", 48],
  ])("length %s = %d CSS px", (text, px) => {
    expect(parseLength(text, "margins")).toBeCloseTo(px, 6);
  });

  it("margins: one value, CSS shorthand with 2–4 values, or the fallback", () => {
    expect(parseMargins("1in", zero)).toEqual({ top: 96, right: 96, bottom: 96, left: 96 });
    expect(parseMargins("10px 20px", zero)).toEqual({ top: 10, right: 20, bottom: 10, left: 20 });
    expect(parseMargins("1px 2px 3px", zero)).toEqual({ top: 1, right: 2, bottom: 3, left: 2 });
    expect(parseMargins("1px 2px 3px 4px", zero)).toEqual({ top: 1, right: 2, bottom: 3, left: 4 });
    expect(parseMargins(undefined, { ...zero, top: 48 })).toEqual({ ...zero, top: 48 });
    expect(() => parseMargins("10 px 5", zero)).toThrow(expect.objectContaining({ status: 454 }));
    expect(() => parseMargins("-5px", zero)).toThrow(
      expect.objectContaining({ status: 454, message: expect.stringContaining("margins") }),
    );
  });

  it("paper sizes: names in any case, custom sizes with units, orientation swaps", () => {
    expect(parsePaperSize(undefined, false).width).toBeCloseTo((210 / 25.4) * 96, 6); // A4 default
    expect(parsePaperSize("letter", false)).toEqual({ width: 816, height: 1056 });
    expect(parsePaperSize("Letter", true)).toEqual({ width: 1056, height: 816 });
    expect(parsePaperSize("Ledger", false)).toEqual({ width: 1632, height: 1056 });
    expect(parsePaperSize("a0", false).height).toBeCloseTo((1189 / 25.4) * 96, 6);
    expect(parsePaperSize("8.5in 11in", false)).toEqual({ width: 816, height: 1056 });
    expect(parsePaperSize("800 600", false)).toEqual({ width: 800, height: 600 });
    expect(parsePaperSize("210mm x 297mm", false).width).toBeCloseTo((210 / 25.4) * 96, 6);
    expect(() => parsePaperSize("B5", false)).toThrow(
      expect.objectContaining({ status: 454, message: expect.stringContaining("A0–A6") }),
    );
    expect(() => parsePaperSize("300in 10in", false)).toThrow(expect.objectContaining({ status: 454 }));
    expect(() =>
      checkMarginsFit({ top: 500, right: 0, bottom: 600, left: 0 }, { width: 816, height: 1056 }),
    ).toThrow(expect.objectContaining({ status: 454 }));
  });

  it("header/footer HTML keeps markup and the print classes but nothing that loads a resource", () => {
    const dot = "data:image/png;base64,iVBORw0KGgo=";
    const html = `<div class="x" style="color:red;background:url(http://10.0.0.1/a.png)"><span class="pageNumber"></span>/<span class="totalPages"></span>
      <img src="${dot}" srcset="http://10.0.0.1/x 2x"><img src="http://127.0.0.1/t.png"><img src='file:///etc/passwd'>
      <script>fetch('http://10.0.0.1')</script><iframe src="http://10.0.0.1"></iframe><link rel=stylesheet href="http://10.0.0.1/c.css">
      <style>@import url(http://10.0.0.1/i.css); .a{background-image:url('data:image/png;base64,AAA')}</style>
      <a href="http://10.0.0.1" onclick="x()">link</a><svg><image href="http://10.0.0.1/s.svg"/></svg></div>`;
    const out = sanitizeTemplate(html);
    expect(out).toContain('<span class="pageNumber"></span>');
    expect(out).toContain(`src="${dot}"`);
    expect(out).toContain("url('data:image/png;base64,AAA')");
    expect(out).not.toMatch(/10\.0\.0\.1|127\.0\.0\.1|file:|<script|<iframe|<link|onclick|@import|srcset/);
    expect(buildTemplate(undefined, { left: 0, right: 0 })).toBe("<span></span>");
    expect(buildTemplate("<b>x</b>", { left: 20, right: 0 })).toMatch(/font-size:10px.*<b>x<\/b><\/div>$/);
  });

  it("finds Chromium from CHROMIUM_PATH, refusing a wrong path with a clear message", () => {
    expect(findChromium({ CHROMIUM_PATH: "/nonexistent/chrome" })).toMatchObject({
      path: null,
      problem: expect.stringContaining("CHROMIUM_PATH"),
    });
    const found = findChromium({});
    if (found.path) expect(found.path).toMatch(/chrom/);
    else expect(found.problem).toMatch(/apt-get install chromium/);
  });
});
