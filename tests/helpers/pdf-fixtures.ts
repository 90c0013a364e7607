/**
 * Tiny PDF fixtures that tests generate themselves (STYLE.md §11): pages that say "Page N",
 * a form with every field type, embedded files, encrypted and damaged files. Synchronous where
 * MuPDF can do it; the form uses pdf-lib (MuPDF.js cannot create widgets) and is async.
 */
import * as mupdf from "mupdf";
import { PDFDocument as LibDocument, PDFName, PDFString } from "pdf-lib";

// No server-only imports here (Playwright and scripts load this file too). The fixtures only
// parse well-formed PDFs, so MuPDF has nothing to warn about; openPdf installs the quiet log.

export interface Bookmark {
  title: string;
  /** 0-based page the bookmark points to. */
  page: number;
  children?: Bookmark[];
}

export interface MakePdfOptions {
  /** Number of pages (default 1). */
  pages?: number;
  /** Text of page i (0-based); default `Page ${i + 1}`. Latin-1 only; "\n" starts a new line. */
  text?: (i: number) => string;
  /** Page size in points, or one per page; default Letter [612, 792]. */
  size?: [number, number] | ((i: number) => [number, number]);
  /** /Rotate of every page or of page i. */
  rotate?: 0 | 90 | 180 | 270 | ((i: number) => 0 | 90 | 180 | 270);
  /** Document info entries; dates as PDF date strings ("D:2024...") or Date objects. */
  info?: Partial<Record<"Title" | "Author" | "Subject" | "Keywords" | "Creator" | "Producer", string>> & {
    CreationDate?: string | Date;
    ModDate?: string | Date;
  };
  bookmarks?: Bookmark[];
}

/** A PDF whose page i shows `text(i)` (default "Page N") in 24 pt Helvetica. */
export function makePdf(options: MakePdfOptions = {}): Buffer {
  const doc = makePdfDocument(options);
  try {
    return save(doc);
  } finally {
    doc.destroy();
  }
}

/** Like makePdf but returns the open MuPDF document (caller destroys it) for further edits. */
export function makePdfDocument(options: MakePdfOptions = {}): mupdf.PDFDocument {
  const { pages = 1, text = (i: number) => `Page ${i + 1}` } = options;
  const doc = new mupdf.PDFDocument();
  const font = doc.addSimpleFont(new mupdf.Font("Helvetica"));
  const resources = doc.addObject(doc.newDictionary());
  resources.put("Font", doc.newDictionary()).put("F1", font);
  for (let i = 0; i < pages; i++) {
    const [w, h] = typeof options.size === "function" ? options.size(i) : (options.size ?? [612, 792]);
    const rotate = typeof options.rotate === "function" ? options.rotate(i) : (options.rotate ?? 0);
    const lines = text(i).split("\n");
    const ops = lines.map(
      (line, n) => `BT /F1 24 Tf 72 ${h - 72 - n * 30} Td (${escapePdfString(line)}) Tj ET`,
    );
    const page = doc.addPage([0, 0, w, h], rotate, resources, ops.join("\n"));
    doc.insertPage(-1, page);
  }
  const info = options.info ?? {};
  for (const [key, value] of Object.entries(info)) {
    if (value === undefined) continue;
    const metaKey = key === "ModDate" ? "info:ModDate" : `info:${key}`;
    doc.setMetaData(metaKey, value instanceof Date ? toPdfDate(value) : value);
  }
  if (options.bookmarks?.length) addBookmarks(doc, options.bookmarks);
  return doc;
}

function addBookmarks(doc: mupdf.PDFDocument, bookmarks: Bookmark[]): void {
  const it = doc.outlineIterator();
  const insertLevel = (items: Bookmark[]) => {
    for (const b of items) {
      it.insert({ title: b.title, uri: `#page=${b.page + 1}`, open: true });
      if (b.children?.length) {
        it.prev(); // back onto the item just inserted
        it.down(); // an empty slot under it
        insertLevel(b.children);
        it.up();
        it.next();
      }
    }
  };
  insertLevel(bookmarks);
  it.destroy();
}

/** `D:YYYYMMDDHHmmSSZ` for a Date (UTC). */
export function toPdfDate(d: Date): string {
  const p = (n: number) => String(n).padStart(2, "0");
  return `D:${d.getUTCFullYear()}${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())}${p(d.getUTCHours())}${p(d.getUTCMinutes())}${p(d.getUTCSeconds())}Z`;
}

function escapePdfString(s: string): string {
  return s.replace(/[^\x20-\xff]/g, "?").replace(/[\\()]/g, (c) => `\\${c}`);
}

function save(doc: mupdf.PDFDocument, options: string | Record<string, string> = "compress"): Buffer {
  const buf = doc.saveToBuffer(options);
  try {
    return Buffer.from(buf.asUint8Array());
  } finally {
    buf.destroy();
  }
}

/** What makeFormPdf contains, in AcroForm order, as /v1/pdf/info/fields reports it. */
export const FORM_FIXTURE_FIELDS = [
  { FieldName: "name", Type: "EditBox", Value: "Alice", AltFieldName: "Your name", PageIndex: 0 },
  { FieldName: "address.city", Type: "EditBox", Value: "Paris", AltFieldName: "", PageIndex: 0 },
  { FieldName: "agree", Type: "CheckBox", Value: "Yes", AltFieldName: "I agree", PageIndex: 0 },
  { FieldName: "color", Type: "RadioButton", Value: "green", AltFieldName: "", PageIndex: 0 },
  { FieldName: "country", Type: "ComboBox", Value: "Germany", AltFieldName: "", PageIndex: 1 },
  { FieldName: "fruits", Type: "ListBox", Value: "Banana", AltFieldName: "", PageIndex: 1 },
  { FieldName: "submit", Type: "PushButton", Value: "", AltFieldName: "", PageIndex: 1 },
  { FieldName: "signature", Type: "Signature", Value: "", AltFieldName: "", PageIndex: 1 },
] as const;

/**
 * A 2-page form with a text field (with a tooltip /TU), a nested text field (`address.city`),
 * a checked checkbox, a radio group, a combo box, a list box, a push button and an unsigned
 * signature field. FORM_FIXTURE_FIELDS describes it.
 */
export async function makeFormPdf(): Promise<Buffer> {
  const lib = await LibDocument.create();
  const form = lib.getForm();
  const p1 = lib.addPage([612, 792]);
  const p2 = lib.addPage([612, 792]);
  p1.drawText("Page 1", { x: 72, y: 720, size: 24 });
  p2.drawText("Page 2", { x: 72, y: 720, size: 24 });

  const name = form.createTextField("name");
  name.setText("Alice");
  name.addToPage(p1, { x: 72, y: 650, width: 200, height: 20 });
  name.acroField.dict.set(PDFName.of("TU"), PDFString.of("Your name"));

  const city = form.createTextField("address.city");
  city.setText("Paris");
  city.addToPage(p1, { x: 72, y: 610, width: 200, height: 20 });

  const agree = form.createCheckBox("agree");
  agree.addToPage(p1, { x: 72, y: 570, width: 15, height: 15 });
  agree.check();
  agree.acroField.dict.set(PDFName.of("TU"), PDFString.of("I agree"));

  const color = form.createRadioGroup("color");
  color.addOptionToPage("red", p1, { x: 72, y: 530, width: 15, height: 15 });
  color.addOptionToPage("green", p1, { x: 102, y: 530, width: 15, height: 15 });
  color.addOptionToPage("blue", p1, { x: 132, y: 530, width: 15, height: 15 });
  color.select("green");

  const country = form.createDropdown("country");
  country.addOptions(["France", "Germany", "Spain"]);
  country.select("Germany");
  country.addToPage(p2, { x: 72, y: 650, width: 200, height: 20 });

  const fruits = form.createOptionList("fruits");
  fruits.addOptions(["Apple", "Banana", "Cherry"]);
  fruits.select("Banana");
  fruits.addToPage(p2, { x: 72, y: 560, width: 200, height: 60 });

  const submit = form.createButton("submit");
  submit.addToPage("Submit", p2, { x: 72, y: 500, width: 100, height: 25 });

  const bytes = await lib.save();

  // pdf-lib cannot make signature fields: add an unsigned one on page 2 with MuPDF.
  const doc = new mupdf.PDFDocument(Buffer.from(bytes));
  try {
    const page = doc.findPage(1);
    const sig = doc.addObject(doc.newDictionary());
    sig.put("Type", doc.newName("Annot"));
    sig.put("Subtype", doc.newName("Widget"));
    sig.put("FT", doc.newName("Sig"));
    sig.put("T", doc.newString("signature"));
    sig.put("F", 4);
    sig.put("Rect", [72, 400, 272, 450]);
    sig.put("P", page);
    let annots = page.get("Annots");
    if (!annots.isArray()) annots = page.put("Annots", doc.newArray());
    annots.push(sig);
    doc.getTrailer().get("Root", "AcroForm", "Fields").push(sig);
    return save(doc, "");
  } finally {
    doc.destroy();
  }
}

export interface AttachmentSpec {
  name: string;
  data: string | Uint8Array;
  mimeType?: string;
  /** "names" (document-level EmbeddedFiles, default) or "annotation" (a FileAttachment on page 1). */
  via?: "names" | "annotation";
}

/** A 1-page PDF carrying the given files as embedded files or file-attachment annotations. */
export function makePdfWithAttachments(files: AttachmentSpec[], options: MakePdfOptions = {}): Buffer {
  const doc = makePdfDocument(options);
  try {
    const when = new Date(Date.UTC(2024, 0, 2, 3, 4, 5));
    files.forEach((f, n) => {
      const data = typeof f.data === "string" ? Buffer.from(f.data, "utf8") : f.data;
      const spec = doc.addEmbeddedFile(f.name, f.mimeType ?? "", data, when, when, false);
      if ((f.via ?? "names") === "names") {
        // Name-tree keys must be unique; the file name lives in the filespec anyway.
        doc.insertEmbeddedFile(`${String(n).padStart(3, "0")}-${f.name}`, spec);
      } else {
        const page = doc.loadPage(0);
        const annot = page.createAnnotation("FileAttachment");
        annot.setRect([72 + n * 30, 72, 92 + n * 30, 92]);
        annot.setFileSpec(spec);
        annot.update();
      }
    });
    return save(doc);
  } finally {
    doc.destroy();
  }
}

export type PermissionName =
  "print" | "modify" | "copy" | "annotate" | "form" | "accessibility" | "assemble" | "print-hq";

/** /P bits of each permission (ISO 32000-1 Table 22). */
export const PERMISSION_BITS: Record<PermissionName, number> = {
  print: 1 << 2,
  modify: 1 << 3,
  copy: 1 << 4,
  annotate: 1 << 5,
  form: 1 << 8,
  accessibility: 1 << 9,
  assemble: 1 << 10,
  "print-hq": 1 << 11,
};

export interface EncryptOptions {
  userPassword?: string;
  ownerPassword?: string;
  /** Allowed permissions (default all), or a raw /P value. */
  permissions?: PermissionName[] | number;
  algorithm?: "aes-256" | "aes-128" | "rc4-128" | "rc4-40";
}

/** Re-saves a PDF encrypted (MuPDF's `encrypt` save options, given as an object so passwords may hold commas). */
export function encryptPdf(bytes: Uint8Array, options: EncryptOptions = {}): Buffer {
  const { userPassword = "", ownerPassword = "owner", algorithm = "aes-256" } = options;
  const perms = options.permissions ?? (Object.keys(PERMISSION_BITS) as PermissionName[]);
  // Every reserved bit set (bits 7-8 and 13-32), bits 1-2 clear: -3904 allows nothing.
  const p =
    typeof perms === "number" ? perms : perms.reduce((acc, name) => acc | PERMISSION_BITS[name], -3904);
  const doc = new mupdf.PDFDocument(Buffer.from(bytes));
  try {
    return save(doc, {
      encrypt: algorithm,
      "user-password": userPassword,
      "owner-password": ownerPassword,
      permissions: String(p),
    });
  } finally {
    doc.destroy();
  }
}

/**
 * Files that must be refused with 442: random bytes, a PDF cut after its first 100 bytes,
 * an HTML page, a PDF with an empty page tree, an empty file, and two page trees that count
 * pages they cannot deliver (MuPDF opens them and fails only when a page is loaded, as with
 * qpdf's fuzzed files): /Kids misspelt ("malformed page tree") and a /Kids array whose
 * second reference is cut by a stray "+" ("cycle in page tree").
 */
export function makeDamagedPdf(
  kind: "random" | "truncated" | "html" | "no-pages" | "empty" | "kids-missing" | "kids-broken" = "random",
): Buffer {
  switch (kind) {
    case "random": {
      const b = Buffer.alloc(4096);
      let x = 0x2545f491;
      for (let i = 0; i < b.length; i++) {
        x ^= x << 13;
        x ^= x >>> 17;
        x ^= x << 5;
        b[i] = x & 0xff;
      }
      return b;
    }
    case "truncated":
      return makePdf({ pages: 3 }).subarray(0, 100);
    case "html":
      return Buffer.from(
        "<!DOCTYPE html><html><head><title>Not found</title></head><body><h1>404</h1></body></html>",
      );
    case "no-pages":
      return Buffer.from(
        "%PDF-1.4\n1 0 obj\n<</Type/Catalog/Pages 2 0 R>>\nendobj\n2 0 obj\n<</Type/Pages/Kids[]/Count 0>>\nendobj\n" +
          "trailer\n<</Root 1 0 R/Size 3>>\n%%EOF\n",
      );
    case "empty":
      return Buffer.alloc(0);
    case "kids-missing":
      return pageTreePdf("<</Type/Pages/Count 2/KidJ[3 0 R 3 0 R]>>");
    case "kids-broken":
      return pageTreePdf("<</Type/Pages/Count 2/Kids[3 0+R 3 0 R]>>");
  }
}

/** A one-page PDF (no xref: MuPDF repairs it) whose /Pages object is `pages`. */
function pageTreePdf(pages: string): Buffer {
  const content = "BT /F1 12 Tf 20 100 Td (Page one) Tj ET";
  return Buffer.from(
    "%PDF-1.4\n1 0 obj\n<</Type/Catalog/Pages 2 0 R>>\nendobj\n" +
      `2 0 obj\n${pages}\nendobj\n` +
      "3 0 obj\n<</Type/Page/MediaBox[0 0 200 200]/Parent 2 0 R/Contents 4 0 R/Resources<</Font<</F1<</Type/Font/Subtype/Type1/BaseFont/Helvetica>>>>>>>>\nendobj\n" +
      `4 0 obj\n<</Length ${content.length}>>\nstream\n${content}\nendstream\nendobj\n` +
      "trailer\n<</Root 1 0 R/Size 5>>\n%%EOF\n",
  );
}

/** The text of every page (MuPDF structured text), trimmed, for checking outputs. */
export function pageTexts(bytes: Uint8Array, password?: string): string[] {
  const doc = new mupdf.PDFDocument(Buffer.from(bytes));
  try {
    if (doc.needsPassword()) doc.authenticatePassword(password ?? "");
    const out: string[] = [];
    for (let i = 0; i < doc.countPages(); i++) {
      const page = doc.loadPage(i);
      const st = page.toStructuredText("preserve-whitespace");
      out.push(st.asText().trim());
      st.destroy();
      page.destroy();
    }
    return out;
  } finally {
    doc.destroy();
  }
}
