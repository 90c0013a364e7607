import { z } from "zod";
import type { FieldMeta } from "@/lib/operations/fields";
import type { OperationDefinition } from "@/lib/operations/types";

/**
 * The form generator: turns an operation's contract (zod 4 schema + `.meta()`) into a plain,
 * serialisable form model (computed on the server, sent to the client form as props, so zod
 * and the contracts stay out of the browser bundle), and validates/serialises form values
 * against that model. Pure: unit-tested in tests/unit/dashboard/form-model.test.ts.
 */

export type FieldKind = "string" | "number" | "integer" | "boolean" | "enum" | "json" | "string-array" | "object-array";
export type FieldSection = "source" | "main" | "advanced" | "profiles" | "delivery";

export interface FieldModel {
  /** Dotted path in the request: "pages", "profiles.OCRMode", "annotations". */
  name: string;
  key: string;
  kind: FieldKind;
  label: string;
  help?: string;
  advanced: boolean;
  widget?: FieldMeta["widget"];
  example?: unknown;
  required: boolean;
  default?: unknown;
  options?: string[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  format?: string;
  section: FieldSection;
  /** Contract messages by check ("min_length", "greater_than"...), shown as validation errors. */
  messages: Record<string, string>;
  /** For arrays of objects (edit/add annotations, images, fields): the item's fields. */
  itemFields?: FieldModel[];
}

export interface FormModel {
  id: string;
  title: string;
  summary: string;
  path: string;
  category: string;
  input: string;
  pageBase: 0 | 1;
  alwaysAsync: boolean;
  deprecated: boolean;
  fields: FieldModel[];
  /** Keys of `profiles` the contract knows (each is its own field, name "profiles.<key>"). */
  hasProfiles: boolean;
}

type Json = Record<string, unknown>;
const BIG = 2 ** 52;

function unwrap(schema: z.ZodType | undefined): z.ZodType | undefined {
  let s = schema as unknown as { _zod?: { def: { type: string; innerType?: z.ZodType; in?: z.ZodType } } } | undefined;
  for (let i = 0; i < 10 && s?._zod; i++) {
    const d = s._zod.def;
    if (d.innerType && ["optional", "default", "nullable", "prefault", "catch", "readonly", "nonoptional"].includes(d.type)) s = d.innerType as never;
    else if (d.type === "pipe" && d.in) s = d.in as never;
    else break;
  }
  return s as unknown as z.ZodType | undefined;
}

/** The custom messages of a field's checks (e.g. "url: give the URL of the source file"). */
function readMessages(schema: z.ZodType | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  const inner = unwrap(schema) as unknown as { _zod?: { def: { checks?: { _zod: { def: Json } }[]; error?: unknown } } } | undefined;
  const call = (fn: unknown): string | undefined => {
    if (typeof fn !== "function") return undefined;
    try {
      const r = (fn as (i: unknown) => unknown)({ code: "custom", input: undefined });
      return typeof r === "string" ? r : r && typeof r === "object" && typeof (r as Json).message === "string" ? ((r as Json).message as string) : undefined;
    } catch {
      return undefined;
    }
  };
  for (const c of inner?._zod?.def.checks ?? []) {
    const d = c._zod.def;
    const m = call(d.error);
    if (m) out[String(d.check === "string_format" ? "format" : d.check)] = m;
  }
  const own = call(inner?._zod?.def.error);
  if (own) out.type = own;
  return out;
}

function kindOf(js: Json): FieldKind {
  if (Array.isArray(js.enum)) return "enum";
  const t = js.type;
  if (t === "boolean") return "boolean";
  if (t === "integer") return "integer";
  if (t === "number") return "number";
  if (t === "array") {
    const items = (js.items ?? {}) as Json;
    return items.type === "object" ? "object-array" : "string-array";
  }
  if (t === "object") return "json";
  if (Array.isArray(js.anyOf)) {
    const opts = (js.anyOf as Json[]).filter((o) => o.type !== "null");
    if (opts.length === 1) return kindOf(opts[0]);
    return "json";
  }
  return "string";
}

function fieldFrom(name: string, key: string, js: Json, required: boolean, schema: z.ZodType | undefined, sectionHint?: FieldSection): FieldModel {
  const kind = kindOf(js);
  const advanced = js.advanced === true;
  const widget = js.widget as FieldMeta["widget"] | undefined;
  let section: FieldSection = sectionHint ?? (advanced ? "advanced" : "main");
  if (!sectionHint && name === "url") section = "source";
  if (!sectionHint && (name === "async" || name === "callback")) section = "delivery";
  const f: FieldModel = {
    name,
    key,
    kind,
    label: typeof js.label === "string" ? js.label : key,
    help: typeof js.help === "string" ? js.help : typeof js.description === "string" ? js.description : undefined,
    advanced,
    widget,
    example: js.example,
    required,
    default: js.default,
    options: Array.isArray(js.enum) ? (js.enum as unknown[]).map(String) : undefined,
    minimum: typeof js.minimum === "number" && Math.abs(js.minimum) < BIG ? js.minimum : typeof js.exclusiveMinimum === "number" ? js.exclusiveMinimum : undefined,
    maximum: typeof js.maximum === "number" && Math.abs(js.maximum) < BIG ? js.maximum : typeof js.exclusiveMaximum === "number" ? js.exclusiveMaximum : undefined,
    minLength: typeof js.minLength === "number" ? js.minLength : undefined,
    maxLength: typeof js.maxLength === "number" ? js.maxLength : undefined,
    format: typeof js.format === "string" ? js.format : undefined,
    section,
    messages: readMessages(schema),
  };
  for (const k of Object.keys(f) as (keyof FieldModel)[]) if (f[k] === undefined) delete f[k];
  if (kind === "object-array") {
    const items = (js.items ?? {}) as Json;
    const props = (items.properties ?? {}) as Record<string, Json>;
    const req = new Set((items.required as string[] | undefined) ?? []);
    const itemSchema = unwrap((unwrap(schema) as unknown as { _zod?: { def: { element?: z.ZodType } } } | undefined)?._zod?.def.element) as unknown as z.ZodObject | undefined;
    f.itemFields = Object.entries(props).map(([k, p]) => fieldFrom(k, k, p, req.has(k), itemSchema?.shape?.[k] as z.ZodType | undefined, "main"));
  }
  return f;
}

/** Builds the form model of one operation from its contract. */
export function buildFormModel(op: OperationDefinition): FormModel {
  const js = z.toJSONSchema(op.params, { io: "input", unrepresentable: "any" }) as Json;
  const props = (js.properties ?? {}) as Record<string, Json>;
  const required = new Set((js.required as string[] | undefined) ?? []);
  const shape = op.params.shape as Record<string, z.ZodType>;
  const fields: FieldModel[] = [];
  let hasProfiles = false;
  for (const [key, p] of Object.entries(props)) {
    if (key === "profiles" && kindOf(p) === "json" && p.properties) {
      hasProfiles = true;
      const pShape = (unwrap(shape.profiles) as unknown as z.ZodObject | undefined)?.shape as Record<string, z.ZodType> | undefined;
      for (const [pk, pp] of Object.entries(p.properties as Record<string, Json>)) {
        fields.push(fieldFrom(`profiles.${pk}`, pk, pp, false, pShape?.[pk], "profiles"));
      }
      continue;
    }
    fields.push(fieldFrom(key, key, p, required.has(key), shape[key]));
  }
  return {
    id: op.id,
    title: op.title,
    summary: op.summary,
    path: op.path,
    category: op.category,
    input: op.input,
    pageBase: op.pageBase,
    alwaysAsync: Boolean(op.alwaysAsync),
    deprecated: Boolean(op.deprecated),
    fields,
    hasProfiles,
  };
}

/** What the form holds for one field: text inputs hold strings, checkboxes booleans, arrays lists. */
export type FormValue = string | boolean | Record<string, unknown>[] | undefined;
export type FormValues = Record<string, FormValue>;

/**
 * Dashboard-only starting values: the invoice viewer needs field sources to highlight, the
 * classifier viewer needs match details. The user can still switch them off.
 */
const dashboardStart: Record<string, FormValues> = {
  "ai-invoice-parser": { "profiles.IncludeFieldSources": true, "profiles.IncludeConfidence": true },
  "pdf-classifier": { "profiles.IncludeMatchDetails": true },
};

/** Initial values: defaults where the contract has them (or the dashboard's own), else empty. */
export function initialValues(model: FormModel): FormValues {
  const v: FormValues = {};
  for (const f of model.fields) {
    if (f.kind === "boolean") v[f.name] = f.default === true;
    else if (f.kind === "object-array") v[f.name] = [];
    else if (f.kind === "json") v[f.name] = f.default !== undefined ? JSON.stringify(f.default, null, 2) : "";
    else v[f.name] = f.default !== undefined ? String(f.default) : "";
  }
  if (model.hasProfiles) v["profiles.$extra"] = "";
  for (const [name, value] of Object.entries(dashboardStart[model.id] ?? {})) if (name in v) v[name] = value;
  return v;
}

/** Parses a JSON text box: {value} or {error} with the parser's reason and line. */
export function parseJsonText(text: string): { value?: unknown; error?: string } {
  if (!text.trim()) return { value: undefined };
  try {
    return { value: JSON.parse(text) };
  } catch (e) {
    const msg = (e as Error).message;
    const pos = /position (\d+)/.exec(msg);
    if (pos) {
      const at = Number(pos[1]);
      const line = text.slice(0, at).split("\n").length;
      return { error: `Invalid JSON at line ${line}: ${msg.replace(/ in JSON at position \d+.*$/, "").replace(/^JSON\.parse: /, "")}` };
    }
    return { error: `Invalid JSON: ${msg}` };
  }
}

function checkOne(f: FieldModel, raw: FormValue): string | null {
  const label = f.name.replace(/^profiles\./, "");
  if (f.kind === "boolean") return null;
  if (f.kind === "object-array") {
    const list = (raw as Record<string, unknown>[] | undefined) ?? [];
    for (const [i, item] of list.entries()) {
      for (const sub of f.itemFields ?? []) {
        const v = item[sub.key];
        const err = checkOne(sub, v === undefined || v === null ? (sub.kind === "boolean" ? false : "") : typeof v === "boolean" ? v : String(v));
        if (err) return `${f.key}[${i}].${err}`;
      }
    }
    return null;
  }
  const text = typeof raw === "string" ? raw : "";
  if (!text.trim()) return f.required ? (f.messages.min_length ?? f.messages.type ?? `${label}: required`) : null;
  switch (f.kind) {
    case "integer":
    case "number": {
      const n = Number(text);
      if (!Number.isFinite(n)) return f.messages.type ?? `${label}: must be a number`;
      if (f.kind === "integer" && !Number.isInteger(n)) return `${label}: must be a whole number`;
      if (f.minimum !== undefined && n < f.minimum) return f.messages.greater_than ?? `${label}: must be at least ${f.minimum}`;
      if (f.maximum !== undefined && n > f.maximum) return f.messages.less_than ?? `${label}: must be at most ${f.maximum}`;
      return null;
    }
    case "enum":
      return f.options && !f.options.includes(text) ? `${label}: use one of ${f.options.join(", ")}` : null;
    case "json":
    case "string-array": {
      const r = parseJsonText(text);
      if (r.error) return `${label}: ${r.error}`;
      if (f.kind === "string-array" && !Array.isArray(r.value)) return `${label}: give a JSON array, e.g. ["1.4"]`;
      return null;
    }
    default:
      if (f.minLength !== undefined && text.length < f.minLength) return f.messages.min_length ?? `${label}: at least ${f.minLength} characters`;
      if (f.maxLength !== undefined && text.length > f.maxLength) return f.messages.max_length ?? `${label}: at most ${f.maxLength} characters`;
      if (f.format === "uri" && !/^https?:\/\/\S+$/i.test(text.trim())) return f.messages.format ?? `${label}: must be an http(s) URL`;
      return null;
  }
}

/** Validates the form; returns messages by field name (empty = valid). */
export function validateValues(model: FormModel, values: FormValues): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const f of model.fields) {
    const err = checkOne(f, values[f.name]);
    if (err) errors[f.name] = err;
  }
  if (model.hasProfiles) {
    const extra = values["profiles.$extra"];
    if (typeof extra === "string" && extra.trim()) {
      const r = parseJsonText(extra);
      if (r.error) errors["profiles.$extra"] = `profiles: ${r.error}`;
      else if (!r.value || typeof r.value !== "object" || Array.isArray(r.value)) errors["profiles.$extra"] = "profiles: give a JSON object, e.g. { \"OCRMode\": \"Always\" }";
    }
  }
  return errors;
}

function convert(f: FieldModel, raw: FormValue): unknown {
  if (f.kind === "boolean") return raw === true ? true : f.default === true ? false : undefined;
  if (f.kind === "object-array") {
    const list = (raw as Record<string, unknown>[] | undefined) ?? [];
    if (!list.length) return undefined;
    return list.map((item) => {
      const o: Record<string, unknown> = {};
      for (const sub of f.itemFields ?? []) {
        const v = item[sub.key];
        const c = convert(sub, v === undefined || v === null ? undefined : typeof v === "boolean" ? v : String(v));
        if (c !== undefined) o[sub.key] = c;
      }
      return o;
    });
  }
  const text = typeof raw === "string" ? raw.trim() : "";
  if (!text) return undefined;
  if (f.kind === "integer" || f.kind === "number") return Number(text);
  if (f.kind === "json" || f.kind === "string-array") return parseJsonText(text).value;
  return typeof raw === "string" ? raw : undefined;
}

/** The request body the API gets: only set values, numbers as numbers, profiles merged. */
export function toRequestBody(model: FormModel, values: FormValues): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  const profiles: Record<string, unknown> = {};
  for (const f of model.fields) {
    const v = convert(f, values[f.name]);
    if (v === undefined) continue;
    // Defaults the user did not change stay off the wire, so the request reads like a hand-written one.
    if (f.default !== undefined && JSON.stringify(v) === JSON.stringify(f.default)) continue;
    if (f.section === "profiles") profiles[f.key] = v;
    else body[f.key] = v;
  }
  if (model.hasProfiles) {
    const extra = values["profiles.$extra"];
    const r = typeof extra === "string" ? parseJsonText(extra) : {};
    if (r.value && typeof r.value === "object" && !Array.isArray(r.value)) Object.assign(profiles, r.value);
  }
  if (Object.keys(profiles).length) body.profiles = profiles;
  return body;
}
