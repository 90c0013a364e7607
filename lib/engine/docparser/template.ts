import { LineCounter, parseAllDocuments, type Document } from "yaml";
import { QuireError } from "@/lib/core/errors";
import { compileExpression } from "./macros";

/**
 * Document parser templates as the public template guide writes them, in YAML or JSON (several
 * templates in one text: YAML documents separated by `---`, or a JSON array). Version 3 fields
 * name their `type` (static, regex, rectangle) and `dataType`; version 2 spellings (`static: true`,
 * `rect`, `type: decimal`) are read too. Every problem is reported with the line it is on.
 */

export type DataType = "string" | "integer" | "decimal" | "date" | "boolean";

export interface FieldSpec {
  name: string;
  kind: "static" | "regex" | "rectangle";
  expression?: string;
  regex?: RegExp;
  /** [x, y, width, height] in points from the page's top-left corner. */
  rectangle?: [number, number, number, number];
  pageIndex?: number;
  dataType: DataType;
  dateFormat?: string;
}

export interface ColumnSpec {
  name: string;
  dataType: DataType;
  dateFormat?: string;
}

export interface TableSpec {
  name: string;
  start?: RegExp;
  end?: RegExp;
  row: RegExp;
  columns: ColumnSpec[];
  multipage: boolean;
}

export interface ParserTemplate {
  name: string;
  version: string;
  priority: number;
  culture: string;
  keywords: RegExp[];
  fields: FieldSpec[];
  tables: TableSpec[];
}

export interface TemplateProblem {
  line: number;
  message: string;
}

/** More objects than this in one template are refused (413). */
export const MAX_TEMPLATE_OBJECTS = 10_000;

const dataTypes = new Set(["string", "integer", "decimal", "date", "boolean"]);

class Problem extends Error {
  constructor(
    readonly path: (string | number)[],
    message: string,
  ) {
    super(message);
  }
}

function lineOf(doc: Document, counter: LineCounter, path: (string | number)[]): number {
  for (let n = path.length; n >= 0; n--) {
    const node = n === 0 ? doc.contents : doc.getIn(path.slice(0, n), true);
    const range = (node as { range?: [number, number, number] } | undefined)?.range;
    if (range) return counter.linePos(range[0]).line;
  }
  return 1;
}

const str = (v: unknown) => (typeof v === "string" ? v : typeof v === "number" || typeof v === "boolean" ? String(v) : undefined);

function regexAt(path: (string | number)[], expression: unknown, what: string): RegExp {
  const text = str(expression);
  if (text === undefined || text === "") throw new Problem(path, `${what}: give an expression`);
  const compiled = compileExpression(text);
  if ("error" in compiled) throw new Problem(path, `${what}: ${compiled.error}`);
  return compiled.regex;
}

function dataTypeAt(path: (string | number)[], v: unknown): DataType {
  if (v === undefined || v === null || v === "") return "string";
  const t = String(v).toLowerCase();
  const mapped = t === "int" ? "integer" : t === "number" || t === "float" || t === "double" || t === "currency" ? "decimal" : t === "bool" ? "boolean" : t === "datetime" ? "date" : t;
  if (!dataTypes.has(mapped)) throw new Problem(path, `dataType: "${v}" is not one of string, integer, decimal, date, boolean`);
  return mapped as DataType;
}

function field(name: string, spec: unknown, path: (string | number)[]): FieldSpec {
  if (typeof spec === "string") return { name, kind: "regex", expression: spec, regex: regexAt(path, spec, name), dataType: "string" };
  if (!spec || typeof spec !== "object" || Array.isArray(spec)) throw new Problem(path, `${name}: a field is a mapping (type, expression...)`);
  const f = spec as Record<string, unknown>;
  const rawType = str(f.type)?.toLowerCase();
  // v2 wrote the data type in `type`; v3 has type = how the field is found.
  const typeIsData = rawType !== undefined && dataTypes.has(rawType === "int" ? "integer" : rawType);
  const rect = f.rectangle ?? f.rect;
  const kind: FieldSpec["kind"] =
    rawType === "static" || f.static === true ? "static" : rawType === "rectangle" || (rect !== undefined && rawType !== "regex") ? "rectangle" : "regex";
  if (rawType !== undefined && !typeIsData && !["static", "regex", "rectangle", "macros"].includes(rawType)) {
    throw new Problem([...path, "type"], `${name}: type "${f.type}" is not one of static, regex, rectangle`);
  }
  const dataType = dataTypeAt([...path, "dataType"], f.dataType ?? (typeIsData ? rawType : undefined));
  const pageIndex = f.pageIndex === undefined ? undefined : Number(f.pageIndex);
  if (pageIndex !== undefined && !(Number.isInteger(pageIndex) && pageIndex >= 0)) throw new Problem([...path, "pageIndex"], `${name}: pageIndex is a page number from 0`);
  const out: FieldSpec = { name, kind, dataType, pageIndex, dateFormat: str(f.dateFormat) };
  if (kind === "static") {
    out.expression = str(f.expression) ?? str(f.value) ?? "";
    return out;
  }
  if (kind === "rectangle") {
    if (!Array.isArray(rect) || rect.length !== 4 || rect.some((n) => !Number.isFinite(Number(n)))) {
      throw new Problem([...path, f.rectangle !== undefined ? "rectangle" : "rect"], `${name}: rectangle is [x, y, width, height] in points`);
    }
    out.rectangle = rect.map(Number) as [number, number, number, number];
    if (f.expression !== undefined) out.regex = regexAt([...path, "expression"], f.expression, name);
    out.expression = str(f.expression);
    return out;
  }
  out.expression = str(f.expression);
  out.regex = regexAt([...path, "expression"], f.expression, name);
  return out;
}

function table(spec: unknown, path: (string | number)[], i: number): TableSpec {
  if (!spec || typeof spec !== "object" || Array.isArray(spec)) throw new Problem(path, `tables[${i}]: a table is a mapping (name, start, end, row, columns)`);
  const t = spec as Record<string, unknown>;
  const name = str(t.name) ?? `table${i + 1}`;
  const exprOf = (v: unknown) => (v && typeof v === "object" ? (v as Record<string, unknown>).expression : v);
  const start = t.start === undefined ? undefined : regexAt([...path, "start"], exprOf(t.start), `${name}.start`);
  const end = t.end === undefined ? undefined : regexAt([...path, "end"], exprOf(t.end), `${name}.end`);
  if (t.row === undefined) throw new Problem(path, `${name}: give row.expression (a regular expression with a named group per column)`);
  const row = regexAt([...path, "row"], exprOf(t.row), `${name}.row`);
  const columns: ColumnSpec[] = [];
  if (t.columns !== undefined) {
    if (!Array.isArray(t.columns)) throw new Problem([...path, "columns"], `${name}: columns is a list`);
    t.columns.forEach((c, j) => {
      const cp = [...path, "columns", j];
      const col = (typeof c === "string" ? { name: c } : c) as Record<string, unknown>;
      const cname = str(col?.name);
      if (!cname) throw new Problem(cp, `${name}.columns[${j}]: give the column's name`);
      columns.push({ name: cname, dataType: dataTypeAt(cp, col.dataType ?? col.type), dateFormat: str(col.dateFormat) });
    });
  }
  const groups = new Set([...row.source.matchAll(/\(\?<([A-Za-z_][A-Za-z0-9_]*)>/g)].map((m) => m[1]));
  columns.forEach((c, j) => {
    if (!groups.has(c.name)) throw new Problem([...path, "columns", j], `${name}: column "${c.name}" has no (?<${c.name}>...) group in row.expression`);
  });
  if (columns.length === 0) for (const g of groups) columns.push({ name: g, dataType: "string" });
  if (columns.length === 0) throw new Problem([...path, "row"], `${name}: row.expression needs named groups, e.g. (?<description>...)`);
  return { name, start, end, row, columns, multipage: t.multipage === true || t.multipage === "true" };
}

function readTemplate(value: unknown, base: (string | number)[]): ParserTemplate {
  if (!value || typeof value !== "object" || Array.isArray(value)) throw new Problem(base, "a template is a mapping (templateName, fields, tables...)");
  const t = value as Record<string, unknown>;
  const fields: FieldSpec[] = [];
  if (t.fields !== undefined) {
    if (!t.fields || typeof t.fields !== "object") throw new Problem([...base, "fields"], "fields is a mapping of field names");
    const entries = Array.isArray(t.fields)
      ? (t.fields as unknown[]).map((f, i) => [str((f as Record<string, unknown>)?.name) ?? `field${i + 1}`, f, i] as const)
      : Object.entries(t.fields as Record<string, unknown>).map(([k, v]) => [k, v, k] as const);
    if (entries.length > MAX_TEMPLATE_OBJECTS) throw new Problem([...base, "fields"], `more than ${MAX_TEMPLATE_OBJECTS} fields`);
    for (const [name, spec, key] of entries) fields.push(field(name, spec, [...base, "fields", key]));
  }
  const tables: TableSpec[] = [];
  if (t.tables !== undefined) {
    if (!Array.isArray(t.tables)) throw new Problem([...base, "tables"], "tables is a list");
    if (t.tables.length > MAX_TEMPLATE_OBJECTS) throw new Problem([...base, "tables"], `more than ${MAX_TEMPLATE_OBJECTS} tables`);
    t.tables.forEach((spec, i) => tables.push(table(spec, [...base, "tables", i], i)));
  }
  if (fields.length === 0 && tables.length === 0) throw new Problem(base, "the template has no fields and no tables");
  const keywords: RegExp[] = [];
  const rules = t.detectionRules as Record<string, unknown> | undefined;
  if (rules?.keywords !== undefined) {
    if (!Array.isArray(rules.keywords)) throw new Problem([...base, "detectionRules", "keywords"], "detectionRules.keywords is a list");
    rules.keywords.forEach((k, i) => keywords.push(regexAt([...base, "detectionRules", "keywords", i], k, "keyword")));
  }
  return {
    name: str(t.templateName) ?? str(t.sourceId) ?? str(t.name) ?? "template",
    version: str(t.templateVersion) ?? "3",
    priority: Number(t.templatePriority ?? 0) || 0,
    culture: str(t.culture) ?? "en-US",
    keywords,
    fields,
    tables,
  };
}

/** Parses a template text; problems come with their line (first problem only). */
export function parseParserTemplate(text: string): { templates: ParserTemplate[] } | { problem: TemplateProblem } {
  const counter = new LineCounter();
  const docs = parseAllDocuments(text, { lineCounter: counter, uniqueKeys: false });
  const list = Array.isArray(docs) ? docs : [docs];
  const templates: ParserTemplate[] = [];
  for (const doc of list) {
    if (doc.errors.length) {
      const e = doc.errors[0];
      return { problem: { line: e.linePos?.[0].line ?? 1, message: e.message.split("\n")[0].replace(/ at line \d+, column \d+:?$/, "") } };
    }
    if (doc.contents === null) continue;
    try {
      const value = doc.toJS({ maxAliasCount: 100 });
      if (Array.isArray(value)) value.forEach((v, i) => templates.push(readTemplate(v, [i])));
      else templates.push(readTemplate(value, []));
    } catch (e) {
      if (e instanceof Problem) return { problem: { line: lineOf(doc, counter, e.path), message: e.message } };
      return { problem: { line: 1, message: (e as Error).message } };
    }
  }
  if (templates.length === 0) return { problem: { line: 1, message: "the template is empty" } };
  templates.sort((a, b) => a.priority - b.priority || a.name.localeCompare(b.name));
  return { templates };
}

/** For the templates store and the dashboard: the problems of a template text (empty = fine). */
export function checkParserTemplate(text: string): TemplateProblem[] {
  const r = parseParserTemplate(text);
  return "problem" in r ? [r.problem] : [];
}

/** Parses or answers 400 naming the line. */
export function requireParserTemplate(text: string, field = "template"): ParserTemplate[] {
  const r = parseParserTemplate(text);
  if ("problem" in r) throw new QuireError(400, `${field}: line ${r.problem.line}: ${r.problem.message}.`);
  return r.templates;
}
