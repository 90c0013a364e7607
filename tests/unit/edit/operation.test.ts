import { describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { parseParams } from "@/lib/operations/wire";
import { parseColor } from "@/lib/engine/edit/color";
import { normalizeLink } from "@/lib/engine/edit/edit-pdf";
import { resolveFace, winAnsiCode } from "@/lib/engine/edit/fonts";
import { expandMacros, isPageDependent } from "@/lib/engine/edit/macros";
import { visualOrder } from "@/lib/engine/edit/text-layout";
import type { RunContext } from "@/lib/operations/runner-types";
import { operation } from "@/lib/operations/pdf-edit-add/contract";
import { run } from "@/lib/operations/pdf-edit-add/runner";
import { makePdf, pageTexts } from "@/tests/helpers/pdf-fixtures";
import { find, links, pixel } from "./helpers";

type Params = ReturnType<typeof parseParams<typeof operation.params>>;

function context(params: Params, bytes: Uint8Array, fetched: string[] = []): RunContext<Params> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "quire-edit-"));
  const src = path.join(dir, "source.pdf");
  writeFileSync(src, bytes);
  return {
    params,
    sources: [
      {
        path: src,
        name: "source.pdf",
        contentType: "application/pdf",
        size: bytes.length,
        url: "https://example.com/source.pdf",
      },
    ],
    workDir: dir,
    fetchUrl: async (url) => {
      fetched.push(url);
      const png = await sharp({ create: { width: 10, height: 10, channels: 3, background: "#00ff00" } })
        .png()
        .toBuffer();
      return { bytes: png, contentType: "image/png", name: "x.png" };
    },
    log: () => {},
  };
}

describe("macros, colours, fonts, links", () => {
  it.each([
    ["a{{$$newLine}}b", "a\nb"],
    ["a\\nb", "a\nb"],
    ["a\r\nb", "a\nb"],
    ["{{$$PageNumber}}/{{$$PAGECOUNT}}", "3/9"],
    ["{{ $$pageNumber }}", "3"],
    ["{{x}} {{$$x}} {{y.z}} {{nope}}", "1 1 deep {{nope}}"],
  ])("expandMacros(%j) = %j", (input, out) => {
    expect(expandMacros(input, { pageNumber: 3, pageCount: 9, data: { x: 1, y: { z: "deep" } } })).toBe(out);
  });

  it("knows which texts change per page", () => {
    expect(isPageDependent("p {{$$PageNumber}}")).toBe(true);
    expect(isPageDependent("p {{$$newLine}}")).toBe(false);
  });

  it.each([
    ["#FF0000", { r: 1, g: 0, b: 0, alpha: 1 }],
    ["00ff00", { r: 0, g: 1, b: 0, alpha: 1 }],
    ["#800000FF", { r: 0, g: 0, b: 1, alpha: 128 / 255 }],
    ["#fff", { r: 1, g: 1, b: 1, alpha: 1 }],
  ])("parseColor(%s)", (input, rgba) => {
    expect(parseColor(input, "color")).toEqual(rgba);
  });

  it("rejects colours it cannot read", () => {
    for (const bad of ["red", "#12345", "#GG0000", ""])
      expect(() => parseColor(bad, "c")).toThrowError(expect.objectContaining({ status: 454 }));
  });

  it("maps font names to the standard families", () => {
    expect(resolveFace("Times New Roman", false, false)).toEqual({
      family: "Times",
      bold: false,
      italic: false,
    });
    expect(resolveFace("Arial Bold Italic", false, false)).toEqual({
      family: "Helvetica",
      bold: true,
      italic: true,
    });
    expect(resolveFace("Courier New", true, false)).toEqual({ family: "Courier", bold: true, italic: false });
    expect(resolveFace("DejaVu Sans", false, false).family).toBe("Helvetica");
    expect(resolveFace(undefined, false, true)).toEqual({ family: "Helvetica", bold: false, italic: true });
  });

  it("encodes WinAnsi including the 0x80–0x9F block", () => {
    expect(winAnsiCode("A".codePointAt(0)!)).toBe(0x41);
    expect(winAnsiCode("€".codePointAt(0)!)).toBe(0x80);
    expect(winAnsiCode("é".codePointAt(0)!)).toBe(0xe9);
    expect(winAnsiCode("Ω".codePointAt(0)!)).toBe(-1);
  });

  it("reverses right-to-left runs for display", () => {
    expect(visualOrder("abc שלום עולם def")).toBe("abc םלוע םולש def");
    expect(visualOrder("plain")).toBe("plain");
  });

  it("normalizes links", () => {
    expect(normalizeLink("https://a.b/c", "l")).toBe("https://a.b/c");
    expect(normalizeLink("mailto:x@y.z", "l")).toBe("mailto:x@y.z");
    expect(normalizeLink("www.example.com", "l")).toBe("https://www.example.com");
    expect(() => normalizeLink("javascript:alert(1)", "l")).toThrowError(
      expect.objectContaining({ status: 454 }),
    );
    expect(() => normalizeLink("not a url", "l")).toThrowError(expect.objectContaining({ status: 454 }));
  });
});

describe("pdf-edit-add contract and runner", () => {
  it("reads what real clients send: JSON strings, lower-case keys, string numbers and booleans", () => {
    const p = parseParams(
      {
        url: "https://x/a.pdf",
        annotations: JSON.stringify([
          {
            text: "Hi",
            x: "10",
            y: "20",
            fontname: "Arial",
            fontbold: "True",
            Size: "14",
            transparent: "false",
          },
        ]),
        images: { url: "https://x/logo.png", x: 1, y: 2 },
        fields: '[{"fieldName":"name","text":"Bob"}]',
        encrypt: true,
      },
      operation.params,
    );
    expect(p.annotations![0]).toMatchObject({
      text: "Hi",
      x: 10,
      y: 20,
      fontName: "Arial",
      fontBold: true,
      size: 14,
      transparent: false,
      type: "Text",
      color: "#000000",
      alignment: "left",
    });
    expect(p.images).toEqual([{ url: "https://x/logo.png", x: 1, y: 2 }]);
    expect(p.fields).toEqual([{ fieldName: "name", text: "Bob" }]);
  });

  it("accepts a check box annotation with empty text", () => {
    const p = parseParams(
      { url: "u", annotations: [{ text: "", x: 1, y: 1, type: "CheckboxChecked", id: "ok" }] },
      operation.params,
    );
    expect(p.annotations![0]).toMatchObject({ text: "", type: "CheckboxChecked" });
  });

  it("requires x and y (400) and refuses negative coordinates (454)", () => {
    expect(() => parseParams({ url: "u", annotations: [{ text: "a" }] }, operation.params)).toThrowError(
      expect.objectContaining({ status: 400 }),
    );
    expect(() =>
      parseParams({ url: "u", annotations: [{ text: "a", x: -1, y: 0 }] }, operation.params),
    ).toThrowError(expect.objectContaining({ status: 454 }));
  });

  it("runs: text, image through ctx.fetchUrl, templateData as JSON text", async () => {
    const params = parseParams(
      {
        url: "u",
        name: "stamped",
        annotations: [{ text: "Hello {{who}}", x: 100, y: 100, size: 20, link: "https://example.com" }],
        images: [{ url: "https://img.example/g.png", x: 300, y: 300, width: 40 }],
        templateData: '{"who": "world"}',
      },
      operation.params,
    );
    const fetched: string[] = [];
    const r = await run(context(params, makePdf(), fetched));
    expect(fetched).toEqual(["https://img.example/g.png"]);
    expect(r.outputs![0].name).toBe("stamped.pdf");
    expect(r.pageCount).toBe(1);
    const out = readFileSync(r.outputs![0].path);
    expect(pageTexts(out)[0]).toContain("Hello world");
    expect(find(out, "Hello")[0].x).toBeCloseTo(100, 1);
    expect(links(out)[0].uri).toBe("https://example.com");
    expect(pixel(out, 320, 320)).toEqual([0, 255, 0]);
  });

  it("nothing to add → 400; unreadable templateData → 454", async () => {
    await expect(run(context(parseParams({ url: "u" }, operation.params), makePdf()))).rejects.toMatchObject({
      status: 400,
    });
    const bad = parseParams(
      { url: "u", annotations: [{ text: "a", x: 1, y: 1 }], templateData: "{nope" },
      operation.params,
    );
    await expect(run(context(bad, makePdf()))).rejects.toMatchObject({ status: 454 });
  });
});
