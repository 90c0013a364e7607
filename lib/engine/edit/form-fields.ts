import "server-only";
import * as mupdf from "mupdf";
import { QuireError } from "@/lib/core/errors";
import { fmt, type Rgba } from "./color";
import { winAnsiCode } from "./fonts";
import type { PageCanvas, Rect4 } from "./page-canvas";

/**
 * Creating form fields (TextField, TextFieldMultiline, Checkbox, CheckboxChecked annotations)
 * and filling existing ones (the `fields` parameter). ISO 32000-1 §12.7.
 */

const FF_MULTILINE = 1 << 12;

export interface NewField {
  kind: "text" | "multiline" | "checkbox";
  name: string;
  value: string;
  checked: boolean;
  /** One widget per page: display-space rectangle. */
  widgets: { canvas: PageCanvas; rect: Rect4 }[];
  size: number;
  color: Rgba;
  /** White background (transparent: false). */
  background: boolean;
}

function acroForm(doc: mupdf.PDFDocument): mupdf.PDFObject {
  const root = doc.getTrailer().get("Root");
  let form = root.get("AcroForm");
  if (!form.isDictionary()) form = root.put("AcroForm", doc.addObject(doc.newDictionary()));
  if (!form.get("Fields").isArray()) form.put("Fields", doc.newArray());
  let dr = form.get("DR");
  if (!dr.isDictionary()) dr = form.put("DR", doc.newDictionary());
  let fonts = dr.get("Font");
  if (!fonts.isDictionary()) fonts = dr.put("Font", doc.newDictionary());
  if (fonts.get("Helv").isNull()) fonts.put("Helv", doc.addSimpleFont(new mupdf.Font("Helvetica"), "Latin"));
  if (fonts.get("ZaDb").isNull()) {
    const zadb = doc.addObject(doc.newDictionary());
    zadb.put("Type", doc.newName("Font"));
    zadb.put("Subtype", doc.newName("Type1"));
    zadb.put("BaseFont", doc.newName("ZapfDingbats"));
    fonts.put("ZaDb", zadb);
  }
  if (form.get("DA").isNull()) form.put("DA", doc.newString("/Helv 0 Tf 0 g"));
  return form;
}

/** Fully qualified names of every field in the AcroForm tree. */
export function existingFieldNames(doc: mupdf.PDFDocument): Set<string> {
  const names = new Set<string>();
  const fields = doc.getTrailer().get("Root", "AcroForm", "Fields");
  const walk = (node: mupdf.PDFObject, prefix: string, depth: number) => {
    if (depth > 32) return;
    const d = node.resolve();
    if (!d.isDictionary()) return;
    const t = d.get("T");
    const name = t.isString() ? (prefix ? `${prefix}.${t.asString()}` : t.asString()) : prefix;
    if (name) names.add(name);
    const kids = d.get("Kids");
    if (kids.isArray()) for (let i = 0; i < kids.length; i++) walk(kids.get(i), name, depth + 1);
  };
  if (fields.isArray()) for (let i = 0; i < fields.length; i++) walk(fields.get(i), "", 0);
  return names;
}

/** Adds a new field with one widget per page and generates its appearance. */
export function createField(doc: mupdf.PDFDocument, f: NewField): void {
  const form = acroForm(doc);
  const rgb = `${fmt(f.color.r)} ${fmt(f.color.g)} ${fmt(f.color.b)}`;
  const isText = f.kind !== "checkbox";
  const state = f.checked ? "Yes" : "Off";

  const field = doc.addObject(doc.newDictionary());
  field.put("FT", doc.newName(isText ? "Tx" : "Btn"));
  field.put("T", doc.newString(f.name));
  field.put("DA", doc.newString(isText ? `/Helv ${fmt(f.size)} Tf ${rgb} rg` : `/ZaDb 0 Tf ${rgb} rg`));
  if (f.kind === "multiline") field.put("Ff", FF_MULTILINE);
  if (isText) field.put("V", doc.newString(f.value));
  else field.put("V", doc.newName(state));

  const single = f.widgets.length === 1;
  const kids = doc.newArray();
  const widgetRefs: { ref: mupdf.PDFObject; canvas: PageCanvas }[] = [];
  for (const { canvas, rect } of f.widgets) {
    const w = single ? field : doc.addObject(doc.newDictionary());
    w.put("Type", doc.newName("Annot"));
    w.put("Subtype", doc.newName("Widget"));
    w.put("Rect", canvas.toPdfRect(rect));
    w.put("F", 4); // print
    w.put("P", canvas.obj);
    const mk = doc.newDictionary();
    mk.put("BC", [0, 0, 0]);
    if (f.background) mk.put("BG", [1, 1, 1]);
    const rotObj = canvas.obj.getInheritable("Rotate");
    const rotation = rotObj.isNumber() ? (((Math.round(rotObj.asNumber() / 90) * 90) % 360) + 360) % 360 : 0;
    if (rotation) mk.put("R", rotation);
    if (!isText) mk.put("CA", doc.newString("4")); // ZapfDingbats check mark, for viewers that redraw
    w.put("MK", mk);
    const bs = doc.newDictionary();
    bs.put("W", 1);
    bs.put("S", doc.newName("S"));
    w.put("BS", bs);
    if (!isText) {
      w.put("AS", doc.newName(state));
      w.put("AP", checkboxAppearance(doc, rect, f.color, f.background, rotation));
    }
    if (!single) {
      w.put("Parent", field);
      kids.push(w);
    }
    let annots = canvas.obj.get("Annots");
    if (!annots.isArray()) annots = canvas.obj.put("Annots", doc.newArray());
    annots.push(w);
    widgetRefs.push({ ref: w, canvas });
  }
  if (!single) field.put("Kids", kids);
  form.get("Fields").push(field);

  if (isText) {
    // MuPDF writes the text field's appearance stream when its value is set through a widget.
    for (const { ref, canvas } of widgetRefs) {
      const page = doc.loadPage(canvas.index);
      const widget = page.getWidgets().find((x) => x.getObject().asIndirect() === ref.asIndirect());
      if (widget) {
        widget.setTextValue(f.value);
        widget.update();
      }
      page.destroy();
    }
  }
}

/** Appearance /Matrix that keeps a form upright on a page shown rotated by `rotation` (§12.5.5, /MK /R). */
const UPRIGHT: Record<number, number[]> = {
  0: [1, 0, 0, 1, 0, 0],
  90: [0, 1, -1, 0, 0, 0],
  180: [-1, 0, 0, -1, 0, 0],
  270: [0, -1, 1, 0, 0, 0],
};

/**
 * /AP with an /Off box and a /Yes box with a check mark (drawn as a path: no font needed),
 * drawn at the display-space size of `rect` and turned upright on rotated pages.
 */
function checkboxAppearance(
  doc: mupdf.PDFDocument,
  rect: Rect4,
  color: Rgba,
  background: boolean,
  rotation: number,
): mupdf.PDFObject {
  const w = Math.abs(rect[2] - rect[0]);
  const h = Math.abs(rect[3] - rect[1]);
  const box = `${background ? `1 g 0 0 ${fmt(w)} ${fmt(h)} re f ` : ""}0 G 1 w 0.5 0.5 ${fmt(w - 1)} ${fmt(h - 1)} re S`;
  const rgb = `${fmt(color.r)} ${fmt(color.g)} ${fmt(color.b)}`;
  const check =
    `${rgb} RG ${fmt(Math.max(1, Math.min(w, h) * 0.12))} w 1 J 1 j ` +
    `${fmt(w * 0.2)} ${fmt(h * 0.52)} m ${fmt(w * 0.42)} ${fmt(h * 0.28)} l ${fmt(w * 0.8)} ${fmt(h * 0.76)} l S`;
  const form = (content: string) =>
    doc.addStream(content, {
      Type: "XObject",
      Subtype: "Form",
      BBox: [0, 0, w, h],
      Matrix: UPRIGHT[rotation] ?? UPRIGHT[0],
      Resources: {},
    });
  const n = doc.newDictionary();
  n.put("Yes", form(`q ${box} Q q ${check} Q`));
  n.put("Off", form(`q ${box} Q`));
  const ap = doc.newDictionary();
  ap.put("N", n);
  return ap;
}

const TRUE_WORDS = new Set(["true", "yes", "on", "1", "checked", "x"]);
const FALSE_WORDS = new Set(["false", "no", "off", "0", "unchecked", ""]);

interface FoundWidget {
  widget: mupdf.PDFWidget;
  page: number;
}

/**
 * On-states of a button widget (keys of /AP /N other than Off), each with its export value:
 * with /Opt the state names are indices into it (ISO 32000-1 §12.7.4.2.4), as pdf-lib writes.
 */
function onStates(w: mupdf.PDFWidget): { state: string; value: string }[] {
  const out: { state: string; value: string }[] = [];
  const obj = w.getObject();
  const opt = obj.getInheritable("Opt");
  const n = obj.get("AP", "N");
  if (!n.isDictionary() || n.isStream()) return out;
  n.forEach((_v, k) => {
    if (typeof k !== "string" || k === "Off") return;
    let value = k;
    if (opt.isArray() && /^\d+$/.test(k) && Number(k) < opt.length) {
      const o = opt.get(Number(k));
      if (o.isString()) value = o.asString();
    }
    out.push({ state: k, value });
  });
  return out;
}

/**
 * Sets existing fields by fully qualified name: text fields take the text; check boxes take
 * True/False (also yes/no, on/off, 1/0, checked, or their export value); radio groups take the
 * export value of the button to select (False/Off clears); list and combo boxes take one of
 * their options (export value or shown text). Unknown names → 400 listing the form's fields.
 */
export function fillFields(
  doc: mupdf.PDFDocument,
  fills: { fieldName: string; text: string; pages?: Set<number> }[],
): void {
  const byName = new Map<string, FoundWidget[]>();
  const pages: mupdf.PDFPage[] = [];
  for (let i = 0; i < doc.countPages(); i++) {
    const page = doc.loadPage(i);
    pages.push(page);
    for (const widget of page.getWidgets()) {
      const name = widget.getName();
      const list = byName.get(name) ?? [];
      list.push({ widget, page: i });
      byName.set(name, list);
    }
  }
  try {
    fills.forEach((fill, i) => {
      const where = `fields[${i}]`;
      let found = byName.get(fill.fieldName) ?? findCaseInsensitive(byName, fill.fieldName);
      if (!found) {
        const names = [...byName.keys()];
        throw new QuireError(
          400,
          names.length === 0
            ? `${where}.fieldName: "${fill.fieldName}" not found: this PDF has no form fields.`
            : `${where}.fieldName: no field named "${fill.fieldName}"; the form's fields are: ${names.slice(0, 60).join(", ")}${names.length > 60 ? ", …" : ""}.`,
        );
      }
      if (fill.pages) found = found.filter((f) => fill.pages!.has(f.page));
      if (found.length === 0)
        throw new QuireError(
          400,
          `${where}: field "${fill.fieldName}" has no widget on the pages given in ${where}.pages.`,
        );
      setField(doc, found, fill.text, where, fill.fieldName);
      // List boxes already have the appearance we drew; an update would replace it with MuPDF's empty one.
      if (!found[0].widget.isListBox()) for (const f of found) f.widget.update();
    });
  } finally {
    for (const p of pages) p.destroy();
  }
}

function findCaseInsensitive(map: Map<string, FoundWidget[]>, name: string): FoundWidget[] | undefined {
  const lower = name.toLowerCase();
  for (const [k, v] of map) if (k.toLowerCase() === lower) return v;
  return undefined;
}

function setField(
  doc: mupdf.PDFDocument,
  found: FoundWidget[],
  text: string,
  where: string,
  name: string,
): void {
  const first = found[0].widget;
  if (first.isText()) {
    for (const f of found) f.widget.setTextValue(text);
    return;
  }
  if (first.isCheckbox() || first.isRadioButton()) {
    const value = text.trim();
    const lower = value.toLowerCase();
    const all = found.flatMap((f) => onStates(f.widget).map((s) => ({ ...s, f })));
    const byState =
      all.find((s) => s.value.toLowerCase() === lower) ?? all.find((s) => s.state.toLowerCase() === lower);
    const isOn = (w: mupdf.PDFWidget) => {
      const as = w.getObject().get("AS");
      return as.isName() && as.asName() !== "Off";
    };
    if (first.isCheckbox() && !byState) {
      let want: boolean;
      if (TRUE_WORDS.has(lower)) want = true;
      else if (FALSE_WORDS.has(lower)) want = false;
      else
        throw new QuireError(
          454,
          `${where}.text: check box "${name}" takes True or False (or its export value ${all.map((s) => s.value).join("/")}).`,
        );
      if (isOn(first) !== want) first.toggle();
      return;
    }
    if (!byState) {
      if (FALSE_WORDS.has(lower)) {
        for (const f of found) {
          if (isOn(f.widget)) {
            const o = f.widget.getObject();
            o.put("AS", doc.newName("Off"));
          }
        }
        setValueOff(doc, found);
        return;
      }
      const options = [...new Set(all.map((s) => s.value))];
      throw new QuireError(
        454,
        `${where}.text: "${value}" is not an option of "${name}"; use one of: ${options.join(", ")}.`,
      );
    }
    if (!isOn(byState.f.widget)) byState.f.widget.toggle();
    return;
  }
  if (first.isChoice()) {
    const exports = first.getOptions(true);
    const shown = first.getOptions(false);
    const lower = text.toLowerCase();
    let idx = exports.findIndex((o) => o === text);
    if (idx < 0) idx = shown.findIndex((o) => o === text);
    if (idx < 0) idx = exports.findIndex((o) => o.toLowerCase() === lower);
    if (idx < 0) idx = shown.findIndex((o) => o.toLowerCase() === lower);
    const editable = first.isComboBox() && (first.getFieldFlags() & mupdf.PDFWidget.CH_FIELD_IS_EDIT) !== 0;
    if (idx < 0 && !editable) {
      throw new QuireError(
        454,
        `${where}.text: "${text}" is not an option of "${name}"; use one of: ${shown.join(", ")}.`,
      );
    }
    first.setChoiceValue(idx >= 0 ? exports[idx] : text);
    // MuPDF draws an empty appearance for list boxes: draw the options ourselves.
    if (first.isListBox()) {
      for (const f of found) {
        f.widget.update();
        listBoxAppearance(doc, f.widget, shown, idx);
      }
    }
    return;
  }
  throw new QuireError(
    454,
    `${where}: "${name}" is a ${first.getFieldType()} field and cannot be filled with text.`,
  );
}

/** Clears a radio group: /V /Off on the field (the parent of the widgets, or the widget itself). */
function setValueOff(doc: mupdf.PDFDocument, found: FoundWidget[]): void {
  const o = found[0].widget.getObject();
  const parent = o.get("Parent");
  const field = parent.isDictionary() && o.get("T").isNull() ? parent : o;
  field.put("V", doc.newName("Off"));
}

/**
 * A list box appearance as Acrobat draws one: white box, border, one row per option from the
 * top (scrolled so the selection shows), the selected row highlighted.
 */
function listBoxAppearance(
  doc: mupdf.PDFDocument,
  w: mupdf.PDFWidget,
  options: string[],
  selected: number,
): void {
  const obj = w.getObject();
  const r = obj.get("Rect");
  if (!r.isArray() || r.length < 4) return;
  const width = Math.abs(r.get(2).asNumber() - r.get(0).asNumber());
  const height = Math.abs(r.get(3).asNumber() - r.get(1).asNumber());
  const da = obj.getInheritable("DA");
  const m = da.isString() ? /([\d.]+)\s+Tf/.exec(da.asString()) : null;
  const size = m && Number(m[1]) > 0 ? Number(m[1]) : 12;
  const row = size * 1.15;
  const visible = Math.max(1, Math.floor((height - 2) / row));
  const top = selected >= visible ? selected - visible + 1 : 0;
  const ops = [
    "q 1 g",
    `0 0 ${fmt(width)} ${fmt(height)} re f`,
    "Q q 0 G 1 w",
    `0.5 0.5 ${fmt(width - 1)} ${fmt(height - 1)} re S Q`,
  ];
  ops.push(`q 1 1 ${fmt(width - 2)} ${fmt(height - 2)} re W n`);
  if (selected >= top && selected < top + visible) {
    const y = height - 1 - (selected - top + 1) * row;
    ops.push(`0.6 0.757 0.855 rg 1 ${fmt(y)} ${fmt(width - 2)} ${fmt(row)} re f`);
  }
  ops.push("0 g BT");
  for (let i = top; i < Math.min(options.length, top + visible); i++) {
    const baseline = height - 1 - (i - top + 1) * row + row * 0.25;
    ops.push(`/Helv ${fmt(size)} Tf 1 0 0 1 3 ${fmt(baseline)} Tm (${winAnsiLiteral(options[i])}) Tj`);
  }
  ops.push("ET Q");
  const fonts = doc.newDictionary();
  fonts.put("Helv", doc.addSimpleFont(new mupdf.Font("Helvetica"), "Latin"));
  const res = doc.newDictionary();
  res.put("Font", fonts);
  const stream = doc.addStream(ops.join("\n"), {
    Type: "XObject",
    Subtype: "Form",
    BBox: [0, 0, width, height],
  });
  stream.put("Resources", res);
  const ap = doc.newDictionary();
  ap.put("N", stream);
  obj.put("AP", ap);
}

/** Text as a WinAnsi literal string body; characters outside WinAnsi become "?". */
function winAnsiLiteral(text: string): string {
  let out = "";
  for (const ch of text) {
    const b = winAnsiCode(ch.codePointAt(0)!);
    const c = b < 0 ? 0x3f : b;
    out +=
      c === 0x28 || c === 0x29 || c === 0x5c
        ? `\\${String.fromCharCode(c)}`
        : c < 0x20 || c > 0x7e
          ? `\\${c.toString(8).padStart(3, "0")}`
          : String.fromCharCode(c);
  }
  return out;
}
