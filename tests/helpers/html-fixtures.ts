/**
 * Generated pages for PDF → HTML fidelity: paragraphs in serif, sans and monospaced fonts
 * (the standard 14, not embedded), fonts embedded as TrueType (simple) and as CIDFontType2
 * (Type0/Identity-H), bold and italic, rotated text, a ruled table, a picture and a form.
 * Built with MuPDF from hand-written content streams; every page is US Letter.
 * Used by the unit tests and by bench/accuracy/html.ts.
 */
import { existsSync, readFileSync } from "node:fs";
import * as mupdf from "mupdf";

mupdf.setLog(null);

const PAGE_W = 612;
const PAGE_H = 792;

const WORDS = (
  "lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et dolore " +
  "magna aliqua enim ad minim veniam quis nostrud exercitation ullamco laboris nisi aliquip ex ea commodo consequat " +
  "duis aute irure in reprehenderit voluptate velit esse cillum fugiat nulla pariatur excepteur sint occaecat " +
  "cupidatat non proident sunt culpa qui officia deserunt mollit anim id est laborum quarterly revenue grew " +
  "Against Budget Forecast Wholesale Invoices Shipping Warehouse Ledger Account Balance Summary October " +
  "figures 2024 1,250.00 37% (net) total: margin; office-supplies WAVE AVAILABLE Typography Yield"
).split(" ");

/** Deterministic pseudo-random numbers (the same pages every run). */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

type FontKey =
  | "TR" | "TB" | "TI" | "TBI" // Times
  | "HR" | "HB" | "HI" | "HBI" // Helvetica
  | "CR" | "CB" // Courier
  | "LS" // Liberation Serif, embedded TrueType (simple font)
  | "DJ"; // DejaVu Sans, embedded Type0 / Identity-H

const BASE14: Record<string, string> = {
  TR: "Times-Roman", TB: "Times-Bold", TI: "Times-Italic", TBI: "Times-BoldItalic",
  HR: "Helvetica", HB: "Helvetica-Bold", HI: "Helvetica-Oblique", HBI: "Helvetica-BoldOblique",
  CR: "Courier", CB: "Courier-Bold",
};

const EMBED_FILES: Record<string, string[]> = {
  LS: ["/usr/share/fonts/truetype/liberation2/LiberationSerif-Regular.ttf", "/usr/share/fonts/truetype/liberation/LiberationSerif-Regular.ttf"],
  DJ: ["/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"],
};

/** Whether the font files the embedded-font pages need are on this machine. */
export function embeddedFontsAvailable(): boolean {
  return Object.values(EMBED_FILES).every((c) => c.some((f) => existsSync(f)));
}

const fontCache = new Map<FontKey, mupdf.Font>();
function fontFor(key: FontKey): mupdf.Font {
  let f = fontCache.get(key);
  if (!f) {
    const files = EMBED_FILES[key];
    if (files) {
      const file = files.find((x) => existsSync(x));
      if (!file) throw new Error(`html-fixtures: no font file for ${key} (${files.join(", ")})`);
      f = new mupdf.Font(key === "LS" ? "LiberationSerif" : "DejaVuSans", readFileSync(file));
    } else {
      f = new mupdf.Font(BASE14[key]);
    }
    fontCache.set(key, f);
  }
  return f;
}

/** Text width in points. */
export function textWidth(key: FontKey, text: string, size: number): number {
  const f = fontFor(key);
  let w = 0;
  for (const ch of text) {
    const gid = f.encodeCharacter(ch.codePointAt(0) ?? 32);
    w += f.advanceGlyph(gid, 0);
  }
  return w * size;
}

interface Run {
  font: FontKey;
  size: number;
  text: string;
  /** Text matrix a b c d (default upright) and the origin (top-left page coordinates of the baseline start). */
  x: number;
  y: number;
  matrix?: [number, number, number, number];
  color?: [number, number, number];
}

export interface HtmlFixturePage {
  name: string;
  runs: Run[];
  /** Raw content-stream operators drawn before the text (PDF coordinates, bottom-left origin). */
  graphics?: string[];
  image?: { x: number; y: number; width: number; height: number };
}

function pdfString(key: FontKey, text: string): string {
  if (key === "DJ") {
    const f = fontFor(key);
    let hex = "";
    for (const ch of text) hex += f.encodeCharacter(ch.codePointAt(0) ?? 32).toString(16).padStart(4, "0");
    return `<${hex}>`;
  }
  return `(${text.replace(/[\\()]/g, (c) => `\\${c}`).replace(/[^\x20-\x7e]/g, "?")})`;
}

function runOp(r: Run): string {
  const [a, b, c, d] = r.matrix ?? [1, 0, 0, 1];
  const color = r.color ? `${r.color.join(" ")} rg` : "0 g";
  return `BT ${color} /${r.font} ${r.size} Tf ${a} ${b} ${c} ${d} ${r.x.toFixed(2)} ${(PAGE_H - r.y).toFixed(2)} Tm ${pdfString(r.font, r.text)} Tj ET`;
}

/** Lines of words filling `width`, starting at (x, y), `count` lines, leading 1.3 × size. */
function paragraph(font: FontKey | FontKey[], size: number, x: number, y: number, width: number, count: number, seed: number): Run[] {
  const rand = rng(seed);
  const fonts = Array.isArray(font) ? font : [font];
  const runs: Run[] = [];
  for (let line = 0; line < count; line++) {
    let cx = x;
    const baseline = y + line * size * 1.3;
    // Words one by one so that a line may mix styles; the space is part of the previous run.
    for (;;) {
      const word = WORDS[Math.floor(rand() * WORDS.length)];
      const f = fonts[Math.floor(rand() * fonts.length)];
      const w = textWidth(f, word, size);
      if (cx + w > x + width) break;
      runs.push({ font: f, size, text: word, x: cx, y: baseline });
      cx += w + textWidth(f, " ", size);
    }
  }
  return runs;
}

function title(font: FontKey, text: string, size = 20): Run {
  return { font, size, text, x: 72, y: 80 };
}

/** The generated pages (name → spec). */
export function htmlFixturePages(): HtmlFixturePage[] {
  const pages: HtmlFixturePage[] = [
    { name: "serif", runs: [title("TB", "Serif Page in Times"), ...paragraph("TR", 11, 72, 120, 468, 40, 1)] },
    { name: "sans", runs: [title("HB", "Sans Page in Helvetica"), ...paragraph("HR", 10, 72, 120, 468, 44, 2)] },
    { name: "monospace", runs: [title("CB", "Monospaced listing"), ...paragraph("CR", 10, 72, 120, 468, 44, 3)] },
    {
      name: "bold-italic",
      runs: [title("TBI", "Bold and Italic Styles"), ...paragraph(["TR", "TB", "TI", "TBI"], 11, 72, 120, 468, 18, 4), ...paragraph(["HR", "HB", "HI", "HBI"], 10, 72, 400, 468, 18, 5)],
    },
    {
      name: "rotated",
      runs: [
        title("HB", "Rotated text"),
        ...paragraph("TR", 11, 72, 120, 400, 8, 6),
        { font: "HR", size: 14, text: "Running upwards along the margin", x: 40, y: 700, matrix: [0, 1, -1, 0] },
        { font: "TR", size: 14, text: "Running downwards on the right side", x: 570, y: 200, matrix: [0, -1, 1, 0] },
        { font: "HB", size: 18, text: "Tilted by thirty degrees", x: 150, y: 520, matrix: [0.866, 0.5, -0.5, 0.866] },
      ],
    },
  ];
  if (embeddedFontsAvailable()) {
    pages.push(
      { name: "embedded-truetype", runs: [title("LS", "Embedded TrueType (Liberation Serif)"), ...paragraph("LS", 11, 72, 120, 468, 40, 7)] },
      { name: "embedded-cid", runs: [title("DJ", "Embedded CID font (DejaVu Sans)"), ...paragraph("DJ", 10, 72, 120, 468, 44, 8)] },
    );
  }
  // A ruled table: header row filled grey, every cell edge stroked.
  {
    const cols = [150, 110, 110, 100];
    const xs = [72];
    for (const c of cols) xs.push(xs[xs.length - 1] + c);
    const rowH = 22;
    const top = 130;
    const rows = 14;
    const g: string[] = [`0.85 g ${xs[0]} ${PAGE_H - top - rowH} ${xs[4] - xs[0]} ${rowH} re f`, "0 G 0.75 w"];
    for (let r = 0; r <= rows; r++) g.push(`${xs[0]} ${PAGE_H - top - r * rowH} m ${xs[4]} ${PAGE_H - top - r * rowH} l S`);
    for (const x of xs) g.push(`${x} ${PAGE_H - top} m ${x} ${PAGE_H - top - rows * rowH} l S`);
    const runs: Run[] = [title("HB", "Ruled table")];
    const rand = rng(9);
    const heads = ["Item", "Quantity", "Unit price", "Amount"];
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < 4; c++) {
        const text = r === 0 ? heads[c] : c === 0 ? `${WORDS[Math.floor(rand() * 60)]} ${WORDS[Math.floor(rand() * 60)]}` : (rand() * 1000).toFixed(c === 1 ? 0 : 2);
        runs.push({ font: r === 0 ? "HB" : "HR", size: 10, text, x: xs[c] + 5, y: top + r * rowH + 15 });
      }
    }
    pages.push({ name: "ruled-table", runs, graphics: g });
  }
  pages.push({
    name: "images",
    runs: [title("HB", "A picture with a caption"), ...paragraph("TR", 11, 72, 120, 468, 6, 10), { font: "TI", size: 10, text: "Figure 1: a generated gradient with circles", x: 72, y: 520 }, ...paragraph("TR", 11, 72, 560, 468, 10, 11)],
    image: { x: 72, y: 210, width: 468, height: 290 },
  });
  // A form: labelled boxes, check boxes, a filled title bar with white text.
  {
    const g: string[] = [`0.1 0.25 0.55 rg 72 ${PAGE_H - 110} 468 36 re f`, "0 G 0.6 w"];
    const runs: Run[] = [{ font: "HB", size: 16, text: "Application Form", x: 84, y: 98, color: [1, 1, 1] }];
    const labels = ["Full name", "Street address", "City", "Postal code", "Telephone", "Email address", "Date of birth", "Signature"];
    labels.forEach((label, i) => {
      const y = 150 + i * 48;
      runs.push({ font: "HR", size: 10, text: label, x: 72, y });
      g.push(`72 ${PAGE_H - y - 30} 468 22 re S`);
    });
    const boxesY = 150 + labels.length * 48 + 10;
    ["Yes", "No", "Maybe later"].forEach((label, i) => {
      const x = 72 + i * 150;
      g.push(`${x} ${PAGE_H - boxesY - 10} 10 10 re S`);
      runs.push({ font: "HR", size: 10, text: label, x: x + 16, y: boxesY });
    });
    g.push(`0.5 w 72 ${PAGE_H - boxesY - 15} 12 12 re S 74 ${PAGE_H - boxesY - 9} m 77 ${PAGE_H - boxesY - 13} l 82 ${PAGE_H - boxesY - 5} l S`);
    pages.push({ name: "form", runs, graphics: g });
  }
  return pages;
}

/** A gradient with circles as an RGB pixmap image (no text in it). */
function pictureImage(doc: mupdf.PDFDocument): mupdf.PDFObject {
  const w = 360;
  const h = 220;
  const pix = new mupdf.Pixmap(mupdf.ColorSpace.DeviceRGB, [0, 0, w, h], false);
  try {
    const px = pix.getPixels();
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        const i = (y * w + x) * 3;
        const inCircle = ((x - 110) ** 2 + (y - 110) ** 2 < 70 ** 2) || ((x - 260) ** 2 + (y - 120) ** 2 < 50 ** 2);
        px[i] = inCircle ? 230 : Math.round((x / w) * 200);
        px[i + 1] = inCircle ? 180 : Math.round((y / h) * 160 + 40);
        px[i + 2] = inCircle ? 40 : 180;
      }
    }
    const img = new mupdf.Image(pix);
    try {
      return doc.addImage(img);
    } finally {
      img.destroy();
    }
  } finally {
    pix.destroy();
  }
}

/** One PDF per fixture page (single page each). */
export function makeHtmlFixturePdf(page: HtmlFixturePage): Buffer {
  const doc = new mupdf.PDFDocument();
  try {
    const res = doc.newDictionary();
    const fonts = doc.newDictionary();
    const used = new Set(page.runs.map((r) => r.font));
    for (const key of used) {
      const f = fontFor(key);
      fonts.put(key, key === "DJ" ? doc.addFont(f) : doc.addSimpleFont(f));
    }
    res.put("Font", fonts);
    const ops: string[] = [...(page.graphics ?? [])];
    if (page.image) {
      const xo = doc.newDictionary();
      xo.put("Im1", pictureImage(doc));
      res.put("XObject", xo);
      const { x, y, width, height } = page.image;
      ops.push(`q ${width} 0 0 ${height} ${x} ${PAGE_H - y - height} cm /Im1 Do Q`);
    }
    for (const r of page.runs) ops.push(runOp(r));
    const p = doc.addPage([0, 0, PAGE_W, PAGE_H], 0, doc.addObject(res), ops.join("\n"));
    doc.insertPage(-1, p);
    const buf = doc.saveToBuffer("compress,garbage");
    try {
      return Buffer.from(buf.asUint8Array());
    } finally {
      buf.destroy();
    }
  } finally {
    doc.destroy();
  }
}
