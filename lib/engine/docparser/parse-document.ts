import { boxOf, layoutPage, type LayoutPage } from "./layout-text";
import { convertValue } from "./convert-value";
import type { FieldSpec, ParserTemplate, TableSpec } from "./template";
import { centreInArea } from "@/lib/engine/text/page-frame";
import type { PageText } from "@/lib/engine/text/types";

/**
 * Runs a document parser template over a document's pages: picks the template (the first, by
 * priority, whose detection keywords all occur; with one template, that one), then finds each
 * field (static, by expression over the text, or inside a rectangle) and each table (rows between
 * a start and an end expression, one row per line the row expression matches).
 */

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface FieldResult extends Partial<Box> {
  name: string;
  objectType: "field";
  value: string | number | boolean | null;
  pageIndex: number | null;
}

export interface CellResult extends Partial<Box> {
  value: string | number | boolean | null;
  pageIndex: number;
}

export interface TableResult {
  name: string;
  objectType: "table";
  /** The column names in the template's order (JSON objects stored as jsonb lose key order). */
  columns: string[];
  rows: Array<Record<string, CellResult>>;
}

export interface ParseResult {
  templateName: string;
  templateVersion: string;
  /** Whether the detection keywords matched (false: the only template was applied anyway). */
  detected: boolean;
  objects: Array<FieldResult | TableResult>;
}

function valueOf(m: RegExpExecArray): { text: string; start: number; end: number } {
  const named = m.groups?.value;
  if (named !== undefined && m.indices?.groups?.value) {
    const [s, e] = m.indices.groups.value;
    return { text: named, start: s, end: e };
  }
  for (let i = 1; i < m.length; i++) {
    const at = m.indices?.[i];
    if (m[i] !== undefined && at) return { text: m[i], start: at[0], end: at[1] };
  }
  return { text: m[0], start: m.index, end: m.index + m[0].length };
}

function withIndices(re: RegExp): RegExp {
  return re.flags.includes("d") ? re : new RegExp(re.source, re.flags + "d");
}

function findField(f: FieldSpec, pages: LayoutPage[], culture: string): FieldResult {
  const empty: FieldResult = { name: f.name, objectType: "field", value: null, pageIndex: null };
  if (f.kind === "static") return { ...empty, value: convertValue(f.expression ?? "", f.dataType, culture, f.dateFormat) };
  const scope = f.pageIndex !== undefined ? pages.filter((p) => p.index === f.pageIndex) : pages;
  if (f.kind === "rectangle") {
    const page = scope[0] ?? pages.find((p) => p.index === (f.pageIndex ?? 0));
    if (!page) return empty;
    const [x, y, w, h] = f.rectangle!;
    const inside = page.lines
      .map((l) => ({ ...l, spans: l.spans.filter((s) => centreInArea(page, s.word, { x, y, width: w, height: h })) }))
      .filter((l) => l.spans.length);
    const words = inside.flatMap((l) => l.spans.map((s) => s.word));
    const sub = layoutPage({ index: page.index, width: page.width, height: page.height, rotation: 0, words, rules: [], ocrFrame: page.ocrFrame } as PageText, words);
    let text = sub.text.split("\n").map((l) => l.trim()).join("\n");
    let box = boxOf(sub, 0, sub.text.length);
    if (f.regex) {
      const m = withIndices(f.regex).exec(sub.text);
      if (!m) return { ...empty, pageIndex: page.index };
      const v = valueOf(m);
      text = v.text.trim();
      box = boxOf(sub, v.start, v.end) ?? box;
    }
    return { ...empty, value: text === "" ? null : convertValue(text, f.dataType, culture, f.dateFormat), pageIndex: page.index, ...(box ?? {}) };
  }
  const re = withIndices(f.regex!);
  for (const page of scope) {
    re.lastIndex = 0;
    const m = re.exec(page.text);
    if (!m) continue;
    const v = valueOf(m);
    return { ...empty, value: convertValue(v.text, f.dataType, culture, f.dateFormat), pageIndex: page.index, ...(boxOf(page, v.start, v.end) ?? {}) };
  }
  return empty;
}

function findTable(t: TableSpec, pages: LayoutPage[], culture: string): TableResult {
  const rows: TableResult["rows"] = [];
  const row = withIndices(new RegExp(t.row.source, t.row.flags.replace("g", "")));
  let inside = false;
  let done = false;
  for (const page of pages) {
    if (done) break;
    let from = 0;
    if (!inside || !t.multipage) {
      if (t.start) {
        const s = new RegExp(t.start.source, t.start.flags.replace("g", "")).exec(page.text);
        if (!s) {
          if (inside && !t.multipage) break;
          continue;
        }
        from = s.index + s[0].length;
      }
      inside = true;
    } else if (t.start) {
      // A table that goes on over pages may repeat its header: skip it.
      const s = new RegExp(t.start.source, t.start.flags.replace("g", "")).exec(page.text);
      if (s) from = s.index + s[0].length;
    }
    let to = page.text.length;
    if (t.end) {
      const tail = page.text.slice(from);
      const e = new RegExp(t.end.source, t.end.flags.replace("g", "")).exec(tail);
      if (e) {
        to = from + e.index;
        done = true;
      }
    }
    page.lines.forEach((line, i) => {
      const base = page.lineStarts[i];
      if (base + line.text.length <= from || base >= to) return;
      const m = row.exec(line.text);
      if (!m?.groups) return;
      const cells: Record<string, CellResult> = {};
      for (const c of t.columns) {
        const text = m.groups[c.name];
        const idx = m.indices?.groups?.[c.name];
        cells[c.name] = {
          value: text === undefined ? null : convertValue(text, c.dataType, culture, c.dateFormat),
          pageIndex: page.index,
          ...(idx ? (boxOf(page, base + idx[0], base + idx[1]) ?? {}) : {}),
        };
      }
      rows.push(cells);
    });
    if (!t.multipage && inside) break;
  }
  return { name: t.name, objectType: "table", columns: t.columns.map((c) => c.name), rows };
}

export function parseDocument(pagesText: PageText[], templates: ParserTemplate[], deadline = Infinity): ParseResult {
  const pages = pagesText.map((p) => layoutPage(p));
  const all = pages.map((p) => p.text).join("\n");
  const chosen = templates.find((t) => t.keywords.length > 0 && t.keywords.every((k) => new RegExp(k.source, k.flags.replace("g", "")).test(all)));
  const template = chosen ?? templates[0];
  const objects: ParseResult["objects"] = [];
  for (const f of template.fields) {
    if (Date.now() > deadline) throw new Error("deadline");
    objects.push(findField(f, pages, template.culture));
  }
  for (const t of template.tables) {
    if (Date.now() > deadline) throw new Error("deadline");
    objects.push(findTable(t, pages, template.culture));
  }
  return { templateName: template.name, templateVersion: template.version, detected: Boolean(chosen), objects };
}
