import { readFileSync } from "node:fs";
import * as mupdf from "mupdf";

export const DEJAVU = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";

/**
 * A page of DejaVu Sans glyphs (Type0, Identity-H) drawn left to right, with a ToUnicode map
 * that gives each glyph the text chosen here (several characters for one glyph, as ligatures and
 * shaped right-to-left words have).
 */
export function glyphPdf(glyphs: { ch: string; text: string }[], at: { x: number; y: number; size: number } = { x: 72, y: 700, size: 24 }): Buffer {
  const doc = new mupdf.PDFDocument();
  try {
    const font = new mupdf.Font("DejaVuSans", readFileSync(DEJAVU));
    const fontObj = doc.addFont(font);
    const hex = (n: number) => n.toString(16).padStart(4, "0");
    const utf16 = (s: string) => [...s].map((c) => hex(c.codePointAt(0)!)).join("");
    const gids = glyphs.map((g) => font.encodeCharacter(g.ch.codePointAt(0)!));
    const cmap = [
      "/CIDInit /ProcSet findresource begin 12 dict begin begincmap",
      "/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def /CMapName /Test def /CMapType 2 def",
      "1 begincodespacerange <0000> <FFFF> endcodespacerange",
      `${glyphs.length} beginbfchar`,
      ...glyphs.map((g, i) => `<${hex(gids[i])}> <${utf16(g.text)}>`),
      "endbfchar endcmap CMapName currentdict /CMap defineresource pop end end",
    ].join("\n");
    fontObj.put("ToUnicode", doc.addStream(cmap, {}));
    const res = doc.newDictionary();
    const fonts = doc.newDictionary();
    fonts.put("F1", fontObj);
    res.put("Font", fonts);
    const content = `BT /F1 ${at.size} Tf ${at.x} ${at.y} Td <${gids.map(hex).join("")}> Tj ET`;
    doc.insertPage(-1, doc.addPage([0, 0, 400, 792], 0, doc.addObject(res), content));
    return Buffer.from(doc.saveToBuffer("").asUint8Array());
  } finally {
    doc.destroy();
  }
}

