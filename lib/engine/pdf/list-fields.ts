import "server-only";
import type * as mupdf from "mupdf";

/**
 * Field types as PDF.co names them. EditBox = text (/FT /Tx); CheckBox, RadioButton and
 * PushButton = /FT /Btn by the radio (bit 16) and push-button (bit 17) flags; ComboBox and
 * ListBox = /FT /Ch by the combo flag (bit 18); Signature = /FT /Sig (ISO 32000-1 §12.7.4).
 */
export type FieldType =
  "EditBox" | "CheckBox" | "RadioButton" | "PushButton" | "ComboBox" | "ListBox" | "Signature" | "Unknown";

/** One terminal AcroForm field, as /v1/pdf/info/fields reports it. */
export interface FormField {
  /** Fully qualified name: the partial names (/T) of the field and its ancestors joined by ".". */
  FieldName: string;
  /**
   * The value as the PDF holds it: text for EditBox; the export value of the chosen option for
   * ComboBox/ListBox (several joined by ", "); the "on" state for CheckBox/RadioButton
   * (e.g. "Yes", or the /Opt export value the state stands for) or "Off"; "" for PushButton;
   * "Signed" or "" for Signature.
   */
  Value: string;
  Type: FieldType;
  /** The field's tooltip / alternate name (/TU), "" when absent. */
  AltFieldName: string;
  /** 0-based page of the field's first widget; -1 when it has no widget on any page. */
  PageIndex: number;
  /** Export values: the options of a choice field, the "on" states of a checkbox or radio group. */
  Options?: string[];
  ReadOnly: boolean;
  Required: boolean;
}

const MAX_DEPTH = 32;
const MAX_FIELDS = 20_000;

const FF_READ_ONLY = 1 << 0;
const FF_REQUIRED = 1 << 1;
const FF_RADIO = 1 << 15;
const FF_PUSHBUTTON = 1 << 16;
const FF_COMBO = 1 << 17;

interface Inherited {
  ft: string;
  ff: number;
  v: mupdf.PDFObject | null;
  opt: mupdf.PDFObject | null;
}

/**
 * Lists the terminal fields of the AcroForm (ISO 32000-1 §12.7.3) in field-tree order, one
 * entry per field (a radio group is one field however many buttons it has). Pages are found
 * from the pages' /Annots, falling back to each widget's /P.
 */
export function listFields(doc: mupdf.PDFDocument): FormField[] {
  const root = doc.getTrailer().get("Root");
  if (!root.isDictionary()) return [];
  const fields = root.get("AcroForm", "Fields");
  if (!fields.isArray() || fields.length === 0) return [];

  const pageOf = widgetPageMap(doc);
  const out: FormField[] = [];
  const seen = new Set<number>();

  const walk = (ref: mupdf.PDFObject, parentName: string, inherited: Inherited, depth: number) => {
    if (out.length >= MAX_FIELDS || depth > MAX_DEPTH) return;
    if (ref.isIndirect()) {
      const num = ref.asIndirect();
      if (seen.has(num)) return; // a cycle or a field listed twice
      seen.add(num);
    }
    const node = ref.resolve();
    if (!node.isDictionary()) return;
    const t = node.get("T");
    const partial = t.isString() ? t.asString() : "";
    const name = partial === "" ? parentName : parentName === "" ? partial : `${parentName}.${partial}`;
    const ftObj = node.get("FT");
    const ffObj = node.get("Ff");
    const vObj = node.get("V");
    const optObj = node.get("Opt");
    const here: Inherited = {
      ft: ftObj.isName() ? ftObj.asName() : inherited.ft,
      ff: ffObj.isNumber() ? ffObj.asNumber() | 0 : inherited.ff,
      v: vObj.isNull() ? inherited.v : vObj,
      opt: optObj.isNull() ? inherited.opt : optObj,
    };

    const kids = node.get("Kids");
    const childFields: mupdf.PDFObject[] = [];
    const widgets: mupdf.PDFObject[] = [];
    if (node.get("Subtype").isName() && node.get("Subtype").asName() === "Widget") widgets.push(ref);
    if (kids.isArray()) {
      for (let i = 0; i < kids.length; i++) {
        const kid = kids.get(i);
        const kidDict = kid.resolve();
        if (!kidDict.isDictionary()) continue;
        if (kidDict.get("T").isString()) childFields.push(kid);
        else widgets.push(kid);
      }
    }
    // A node is a terminal field when it has widgets (its own /Subtype /Widget, or kids without
    // /T) or nothing below it at all; intermediate nodes only carry inherited attributes.
    if (widgets.length > 0 || childFields.length === 0) {
      out.push(describeField(node, name, here, widgets, pageOf));
    }
    for (const child of childFields) walk(child, name, here, depth + 1);
  };

  for (let i = 0; i < fields.length; i++) walk(fields.get(i), "", { ft: "", ff: 0, v: null, opt: null }, 0);
  return out;
}

function describeField(
  node: mupdf.PDFObject,
  name: string,
  inh: Inherited,
  widgets: mupdf.PDFObject[],
  pageOf: (widget: mupdf.PDFObject) => number,
): FormField {
  const type = fieldType(inh.ft, inh.ff);
  const tu = node.get("TU");
  let pageIndex = -1;
  for (const w of widgets) {
    pageIndex = pageOf(w);
    if (pageIndex >= 0) break;
  }
  const field: FormField = {
    FieldName: name,
    Value: "",
    Type: type,
    AltFieldName: tu.isString() ? tu.asString() : "",
    PageIndex: pageIndex,
    ReadOnly: (inh.ff & FF_READ_ONLY) !== 0,
    Required: (inh.ff & FF_REQUIRED) !== 0,
  };
  const v = inh.v;
  switch (type) {
    case "EditBox":
      field.Value = v ? textOf(v) : "";
      break;
    case "ComboBox":
    case "ListBox": {
      field.Options = choiceOptions(inh.opt);
      if (v?.isArray()) {
        const values: string[] = [];
        for (let i = 0; i < v.length; i++) values.push(textOf(v.get(i)));
        field.Value = values.join(", ");
      } else field.Value = v ? textOf(v) : "";
      break;
    }
    case "CheckBox":
    case "RadioButton": {
      const exportOf = exportValueMapper(inh.opt);
      field.Options = onStates(widgets).map(exportOf);
      field.Options = [...new Set(field.Options)];
      const state = v?.isName() ? v.asName() : v?.isString() ? v.asString() : "Off";
      field.Value = state === "Off" || state === "" ? "Off" : exportOf(state);
      break;
    }
    case "Signature":
      field.Value = v?.isDictionary() ? "Signed" : "";
      break;
    default:
      field.Value = "";
  }
  return field;
}

function fieldType(ft: string, ff: number): FieldType {
  switch (ft) {
    case "Tx":
      return "EditBox";
    case "Btn":
      if (ff & FF_PUSHBUTTON) return "PushButton";
      return ff & FF_RADIO ? "RadioButton" : "CheckBox";
    case "Ch":
      return ff & FF_COMBO ? "ComboBox" : "ListBox";
    case "Sig":
      return "Signature";
    default:
      return "Unknown";
  }
}

/** A string value, a name, or the text of a rich-text stream value. */
function textOf(v: mupdf.PDFObject): string {
  if (v.isString()) return v.asString();
  if (v.isName()) return v.asName();
  if (v.isNumber()) return String(v.asNumber());
  if (v.isStream()) {
    const buf = v.readStream();
    try {
      return buf.asString();
    } finally {
      buf.destroy();
    }
  }
  return "";
}

/** /Opt of a choice field: each item is a string or an [export, display] pair (§12.7.4.4). */
function choiceOptions(opt: mupdf.PDFObject | null): string[] {
  const out: string[] = [];
  if (!opt?.isArray()) return out;
  for (let i = 0; i < opt.length; i++) {
    const item = opt.get(i);
    out.push(item.isArray() ? textOf(item.get(0)) : textOf(item));
  }
  return out;
}

/**
 * For check boxes and radio buttons with /Opt, the appearance state names are indices into
 * /Opt, which holds the export values (ISO 32000-1 §12.7.4.2.4). Without /Opt the state name is
 * the export value.
 */
function exportValueMapper(opt: mupdf.PDFObject | null): (state: string) => string {
  const values = opt?.isArray() ? choiceOptions(opt) : [];
  return (state) => {
    if (values.length && /^\d+$/.test(state)) {
      const i = Number.parseInt(state, 10);
      if (i < values.length) return values[i];
    }
    return state;
  };
}

/** The "on" appearance state names of the widgets (keys of /AP /N other than Off). */
function onStates(widgets: mupdf.PDFObject[]): string[] {
  const states: string[] = [];
  for (const w of widgets) {
    const n = w.resolve().get("AP", "N");
    if (!n.isDictionary() || n.isStream()) continue;
    n.forEach((_val, key) => {
      if (typeof key === "string" && key !== "Off") states.push(key);
    });
  }
  return states;
}

/** Maps a widget (by object number, else by its /P) to its 0-based page index. */
function widgetPageMap(doc: mupdf.PDFDocument): (widget: mupdf.PDFObject) => number {
  const byAnnot = new Map<number, number>();
  const byPage = new Map<number, number>();
  const count = doc.countPages();
  for (let i = 0; i < count; i++) {
    let page: mupdf.PDFObject;
    try {
      page = doc.findPage(i);
    } catch {
      continue;
    }
    if (page.isIndirect()) byPage.set(page.asIndirect(), i);
    const annots = page.get("Annots");
    if (!annots.isArray()) continue;
    for (let a = 0; a < annots.length; a++) {
      const annot = annots.get(a);
      if (annot.isIndirect() && !byAnnot.has(annot.asIndirect())) byAnnot.set(annot.asIndirect(), i);
    }
  }
  return (widget) => {
    if (widget.isIndirect()) {
      const hit = byAnnot.get(widget.asIndirect());
      if (hit !== undefined) return hit;
    }
    const p = widget.resolve().get("P");
    if (p.isIndirect()) return byPage.get(p.asIndirect()) ?? -1;
    return -1;
  };
}
