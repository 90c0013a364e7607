import { describe, expect, it } from "vitest";
import * as mupdf from "mupdf";
import { makePdf, makePdfDocument, encryptPdf, pageTexts } from "@/tests/helpers/pdf-fixtures";
import { chars, edit, find, inkIn, links, pixel, text } from "./helpers";

const size = 20;

describe("edit/add text: position, lines, macros", () => {
  it("draws text with its first baseline 0.8 × size below y, starting at x", async () => {
    const { bytes } = await edit(makePdf(), { annotations: [text("Hello Quire", 100, 200, { size })] });
    const h = find(bytes, "Hello Quire");
    expect(h[0].x).toBeCloseTo(100, 1);
    expect(h[0].y).toBeCloseTo(200 + 0.8 * size, 1);
    expect(h[0].size).toBeCloseTo(size, 1);
    expect(h[0].font).toBe("Helvetica");
  });

  it("breaks lines at \\n and {{$$newLine}}, spaced by leading", async () => {
    const { bytes } = await edit(makePdf(), {
      annotations: [text("one\ntwo{{$$newLine}}three", 50, 100, { size: 10, leading: 15 })],
    });
    const [one, two, three] = ["one", "two", "three"].map((w) => find(bytes, w)[0]);
    expect(two.y - one.y).toBeCloseTo(15, 1);
    expect(three.y - two.y).toBeCloseTo(15, 1);
    expect([one.x, two.x, three.x].every((x) => Math.abs(x - 50) < 0.01)).toBe(true);
  });

  it("default leading is 1.2 × size", async () => {
    const { bytes } = await edit(makePdf(), { annotations: [text("xx\nyy", 50, 100, { size: 10 })] });
    expect(find(bytes, "yy")[0].y - find(bytes, "xx")[0].y).toBeCloseTo(12, 1);
  });

  it("{{$$PageNumber}} and {{$$PageCount}} differ per page; pages selects 0-based pages", async () => {
    const { bytes } = await edit(makePdf({ pages: 3 }), {
      annotations: [
        text("Page {{$$PageNumber}} of {{$$PageCount}}", 300, 700),
        text("only first", 300, 600, { pages: "0" }),
      ],
    });
    const texts = pageTexts(bytes);
    texts.forEach((t, i) => expect(t).toContain(`Page ${i + 1} of 3`));
    expect(texts[0]).toContain("only first");
    expect(texts[1]).not.toContain("only first");
  });

  it("custom macros come from templateData, nested by dots; unknown ones stay", async () => {
    const { bytes } = await edit(makePdf(), {
      annotations: [text("Dear {{customer.name}}, order {{order}} {{ $$pagenumber }} {{missing}}", 50, 100)],
      templateData: { customer: { name: "Ada" }, order: 42 },
    });
    expect(pageTexts(bytes)[0]).toContain("Dear Ada, order 42 1 {{missing}}");
  });

  it("page selection errors name the annotation: 449 past the end, 450 malformed", async () => {
    await expect(
      edit(makePdf({ pages: 2 }), { annotations: [text("x", 1, 1, { pages: "5" })] }),
    ).rejects.toMatchObject({
      status: 449,
      message: expect.stringMatching(/^annotations\[0\]\.pages: page 5/),
    });
    await expect(edit(makePdf(), { annotations: [text("x", 1, 1, { pages: "a-b" })] })).rejects.toMatchObject(
      { status: 450 },
    );
  });
});

describe("edit/add text: box, alignment, style", () => {
  it("wraps to width and aligns center / right inside it", async () => {
    const long = "The quick brown fox jumps over the lazy dog again and again";
    const { bytes } = await edit(makePdf(), {
      annotations: [
        text(long, 100, 100, { width: 150 }),
        text("centered", 100, 300, { width: 200, alignment: "center" }),
        text("right", 100, 400, { width: 200, alignment: "right" }),
      ],
    });
    const all = chars(bytes).filter((c) => c.y > 100 && c.y < 250);
    const lines = new Set(all.map((c) => Math.round(c.y)));
    expect(lines.size).toBeGreaterThan(2);
    for (const c of all) expect(c.x).toBeGreaterThanOrEqual(99.9);
    const c = find(bytes, "centered");
    const cLast = c[c.length - 1];
    const mid = (c[0].x + cLast.x + cLast.size * 0.556) / 2; // "d" is 0.556 em wide in Helvetica
    expect(mid).toBeCloseTo(200, 0);
    const r = find(bytes, "right");
    expect(r[r.length - 1].x + r[r.length - 1].size * 0.278).toBeCloseTo(300, 0); // "t" is 0.278 em
  });

  it("colours text (RRGGBB, #RRGGBB) and applies AARRGGBB opacity", async () => {
    const { bytes } = await edit(makePdf(), {
      annotations: [
        text("RED", 100, 100, { size: 40, color: "FF0000", fontUnderline: true }),
        text("HALF", 100, 200, { size: 40, color: "#80FF0000", fontUnderline: true }),
      ],
    });
    // The underline bars are solid: 0.1 × size below the baseline, 0.05 × size thick.
    const red = find(bytes, "RED")[0];
    expect(pixel(bytes, red.x + 5, red.y + 40 * 0.125)).toEqual([255, 0, 0]);
    const half = find(bytes, "HALF")[0];
    const [r, g, b] = pixel(bytes, half.x + 5, half.y + 40 * 0.125);
    expect(r).toBe(255);
    expect(g).toBeGreaterThan(110);
    expect(g).toBeLessThan(145);
    expect(b).toBe(g);
  });

  it("transparent: false paints a white box that hides what is under it", async () => {
    // makePdf draws "Page 1" in 24 pt at (72, 720) PDF = (72, 72) from the top.
    const src = makePdf();
    expect(inkIn(src, [72, 50, 140, 75]).length).toBeGreaterThan(20);
    const { bytes } = await edit(src, {
      annotations: [text("", 60, 40, { width: 200, height: 50, transparent: false })],
    });
    expect(inkIn(bytes, [72, 50, 140, 75])).toHaveLength(0);
  });

  it("height cuts off lines below the box", async () => {
    const { bytes } = await edit(makePdf(), {
      annotations: [text("line1\nline2\nline3\nline4", 300, 300, { size: 20, height: 30 })],
    });
    expect(inkIn(bytes, [300, 300, 400, 330]).length).toBeGreaterThan(0);
    expect(inkIn(bytes, [300, 335, 400, 400])).toHaveLength(0);
  });

  it("underline and strikeout draw bars in the text colour", async () => {
    const { bytes } = await edit(makePdf(), {
      annotations: [text("struck", 100, 100, { size: 30, color: "0000FF", fontStrikeout: true })],
    });
    const s = find(bytes, "struck")[0];
    // Strikeout: 0.3 × size above the baseline, across the gap between "s" and "t".
    expect(pixel(bytes, s.x + 30 * 0.52, s.y - 30 * 0.3 + 0.75)).toEqual([0, 0, 255]);
  });

  it.each([
    ["Arial", false, false, "Helvetica"],
    ["Helvetica", true, false, "Helvetica-Bold"],
    ["Arial", false, true, "Helvetica-Oblique"],
    ["Times New Roman", false, false, "Times-Roman"],
    ["Times New Roman", true, true, "Times-BoldItalic"],
    ["Courier New", false, false, "Courier"],
    ["Consolas", true, false, "Courier-Bold"],
    ["Calibri", false, false, "Helvetica"],
  ])("fontName %s (bold %s, italic %s) → %s", async (fontName, fontBold, fontItalic, expected) => {
    const { bytes } = await edit(makePdf(), {
      annotations: [text("Styled", 100, 100, { fontName, fontBold, fontItalic })],
    });
    expect(find(bytes, "Styled")[0].font).toBe(expected);
  });

  it("draws text beyond Latin-1 with embedded, subset fonts", async () => {
    const src = makePdf();
    const words = "Zażółć Ελληνικά Русский 中文 日本語 한국어";
    const { bytes, notes } = await edit(src, { annotations: [text(words, 50, 100, { size: 14 })] });
    expect(pageTexts(bytes)[0]).toContain(words);
    expect(notes).toEqual([]);
    expect(bytes.length - src.length).toBeLessThan(120_000); // subsets, not whole fonts (Droid Sans Fallback is 3.5 MB)
    const fonts = new Set(chars(bytes).map((c) => c.font));
    expect([...fonts].some((f) => /Droid/.test(f))).toBe(true);
  });

  it("adds a link over the text box", async () => {
    const { bytes } = await edit(makePdf(), {
      annotations: [text("click me", 100, 100, { size: 20, link: "https://example.com/x" })],
    });
    const [l] = links(bytes);
    expect(l.uri).toBe("https://example.com/x");
    expect(l.bounds[0]).toBeCloseTo(100, 0);
    expect(l.bounds[1]).toBeCloseTo(100, 0);
    expect(l.bounds[3]).toBeCloseTo(124, 0);
    await expect(
      edit(makePdf(), { annotations: [text("x", 1, 1, { link: "javascript:alert(1)" })] }),
    ).rejects.toMatchObject({ status: 454 });
    const bare = await edit(makePdf(), { annotations: [text("x", 1, 1, { link: "example.org/path" })] });
    expect(links(bare.bytes)[0].uri).toBe("https://example.org/path");
  });

  it("rejects a malformed colour with 454", async () => {
    await expect(edit(makePdf(), { annotations: [text("x", 1, 1, { color: "red" })] })).rejects.toMatchObject(
      {
        status: 454,
        message: expect.stringMatching(/^annotations\[0\]\.color/),
      },
    );
  });
});

describe("edit/add text: page geometry", () => {
  it("uses the displayed top-left corner on rotated pages", async () => {
    const src = makePdf({ rotate: 90, size: [612, 792] }); // displayed 792 wide, 612 high
    const { bytes } = await edit(src, { annotations: [text("Upright", 100, 50, { size })] });
    const u = find(bytes, "Upright");
    expect(u[0].x).toBeCloseTo(100, 1);
    expect(u[0].y).toBeCloseTo(50 + 0.8 * size, 1);
    expect(u[1].x).toBeGreaterThan(u[0].x); // runs left to right on screen
    expect(Math.abs(u[1].y - u[0].y)).toBeLessThan(0.01);
  });

  it("uses the crop box and ignores a CTM left behind by the page's own content", async () => {
    const doc = makePdfDocument();
    const page = doc.findPage(0);
    page.put("CropBox", [50, 50, 562, 742]);
    // Unbalanced content: a scale and an open q that are never restored.
    const old = page.get("Contents");
    const contents = doc.newArray();
    contents.push(old);
    contents.push(doc.addStream("q 0.5 0 0 0.5 0 0 cm", {}));
    page.put("Contents", contents);
    const src = Buffer.from(doc.saveToBuffer("").asUint8Array());
    doc.destroy();
    const { bytes } = await edit(src, { annotations: [text("Placed", 10, 10, { size: 10 })] });
    const p = find(bytes, "Placed")[0];
    expect(p.x).toBeCloseTo(10, 1);
    expect(p.y).toBeCloseTo(18, 1);
  });

  it("keeps the page's existing content; no pages means every page", async () => {
    const { bytes } = await edit(makePdf({ pages: 2 }), { annotations: [text("Added", 300, 300)] });
    const texts = pageTexts(bytes);
    expect(texts[0]).toMatch(/Page 1[\s\S]*Added/);
    expect(texts[1]).toMatch(/Page 2[\s\S]*Added/);
  });
});

describe("edit/add: encrypted input", () => {
  it("needs the password (441) and honours permissions (443) unless the owner password is given", async () => {
    const locked = encryptPdf(makePdf(), { userPassword: "u", ownerPassword: "o", permissions: ["print"] });
    await expect(edit(locked, { annotations: [text("x", 1, 1)] })).rejects.toMatchObject({ status: 441 });
    await expect(edit(locked, { annotations: [text("x", 1, 1)], password: "u" })).rejects.toMatchObject({
      status: 443,
    });
    const { bytes } = await edit(locked, { annotations: [text("Owner edit", 50, 50)], password: "o" });
    const doc = new mupdf.PDFDocument(Buffer.from(bytes));
    if (doc.needsPassword()) doc.authenticatePassword("o");
    const page = doc.loadPage(0);
    expect(page.toStructuredText("").asText()).toContain("Owner edit");
  });
});
