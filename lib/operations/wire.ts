import { z } from "zod";
import { QuireError } from "@/lib/core/errors";

/**
 * The lenient reading of a contract's fields: turns whatever a real client sent — JSON, form
 * fields, query strings, "True", "10", JSON-in-strings, single-quoted pseudo-JSON profiles, any
 * letter case — into the typed shape of an operation's contract (or of a route's input). Universal;
 * beside the contracts because the HTTP adapter, the job re-check and runners all use it.
 */

type Def = { type: string; innerType?: z.ZodType; element?: z.ZodType; shape?: Record<string, z.ZodType>; entries?: Record<string, string>; options?: z.ZodType[]; in?: z.ZodType };

function defOf(s: z.ZodType): Def {
  return (s as unknown as { _zod: { def: Def } })._zod.def;
}

/** Strips optional/default/nullable/catch/pipe wrappers to reach the schema that says what a value is. */
function baseSchema(s: z.ZodType): z.ZodType {
  let cur = s;
  for (let i = 0; i < 10; i++) {
    const d = defOf(cur);
    if ((d.type === "optional" || d.type === "default" || d.type === "nullable" || d.type === "prefault" || d.type === "readonly" || d.type === "catch") && d.innerType) cur = d.innerType;
    else if (d.type === "pipe" && d.in) cur = d.in;
    else break;
  }
  return cur;
}

export function shapeOf(s: z.ZodType): Record<string, z.ZodType> | null {
  const b = baseSchema(s);
  const d = defOf(b);
  return d.type === "object" && d.shape ? (d.shape as Record<string, z.ZodType>) : null;
}

/** Lower-cased key without a trailing "()" (profile keys are sent both ways). */
function keyNorm(k: string) {
  return k.trim().replace(/\(\)$/, "").toLowerCase();
}

/** Parses JSON, then single-quoted pseudo-JSON, then either without its outer braces. */
export function parseLenientJson(text: string): unknown {
  const t = text.trim();
  const attempts = [t, singleToDouble(t)];
  if (!t.startsWith("{") && !t.startsWith("[")) attempts.push(`{${t}}`, `{${singleToDouble(t)}}`);
  for (const a of attempts) {
    try {
      return JSON.parse(a);
    } catch {
      /* next */
    }
  }
  throw new SyntaxError("unreadable");
}

function singleToDouble(t: string) {
  // Swap quote kinds outside of escapes: 'a' → "a", and a literal " inside becomes \".
  let out = "";
  let inSingle = false;
  let inDouble = false;
  for (let i = 0; i < t.length; i++) {
    const c = t[i];
    if (c === "\\" && i + 1 < t.length) {
      out += c + t[++i];
      continue;
    }
    if (c === "'" && !inDouble) {
      inSingle = !inSingle;
      out += '"';
    } else if (c === '"' && !inSingle) {
      inDouble = !inDouble;
      out += c;
    } else if (c === '"' && inSingle) out += '\\"';
    else out += c;
  }
  return out;
}

/** Reads `profiles` in every shape clients send; 444 when a string cannot be read. */
export function parseProfiles(value: unknown): Record<string, unknown> | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  let v: unknown = value;
  if (typeof v === "string") {
    try {
      v = parseLenientJson(v);
    } catch {
      throw new QuireError(
        444,
        `profiles: cannot read ${JSON.stringify(String(value).slice(0, 80))}; send a JSON object such as {"JPEGQuality": 25}.`,
      );
    }
  }
  // Legacy nested form: {"profiles":[{"profile1":{...}}]} or [{"profile1":{...}}].
  if (v && typeof v === "object" && !Array.isArray(v) && "profiles" in v && Object.keys(v).length === 1) {
    v = (v as { profiles: unknown }).profiles;
    if (typeof v === "string") return parseProfiles(v);
  }
  if (Array.isArray(v)) {
    const merged: Record<string, unknown> = {};
    for (const item of v) {
      if (!item || typeof item !== "object") throw new QuireError(444, "profiles: the legacy list must hold objects.");
      for (const inner of Object.values(item as Record<string, unknown>)) {
        if (inner && typeof inner === "object" && !Array.isArray(inner)) Object.assign(merged, inner);
      }
    }
    return merged;
  }
  if (!v || typeof v !== "object") throw new QuireError(444, "profiles: expected a JSON object of profile keys.");
  return v as Record<string, unknown>;
}

const TRUE = new Set(["true", "1", "yes", "on"]);
const FALSE = new Set(["false", "0", "no", "off"]);

/** Coerces one wire value to what `schema` expects; leaves it alone when it cannot (zod then says why). */
function coerceValue(value: unknown, schema: z.ZodType, fieldName = ""): unknown {
  if (value === "" || value === null || value === undefined) return undefined;
  const b = baseSchema(schema);
  const d = defOf(b);
  switch (d.type) {
    case "boolean":
      if (typeof value === "string") {
        const l = value.trim().toLowerCase();
        if (TRUE.has(l)) return true;
        if (FALSE.has(l)) return false;
      }
      if (typeof value === "number") return value !== 0;
      return value;
    case "number":
      if (typeof value === "string" && value.trim() !== "" && Number.isFinite(Number(value))) return Number(value);
      return value;
    case "string":
      if (typeof value === "number" || typeof value === "boolean") return String(value);
      if (Array.isArray(value) && value.every((x) => typeof x === "string" || typeof x === "number")) return value.join(",");
      if (value && typeof value === "object") return JSON.stringify(value);
      return value;
    case "enum": {
      if (typeof value !== "string" && typeof value !== "number") return value;
      const wanted = String(value).trim().toLowerCase();
      const options = Object.values(d.entries ?? {});
      return options.find((o) => String(o).toLowerCase() === wanted) ?? value;
    }
    case "array": {
      let v: unknown = value;
      if (typeof v === "string") {
        const t = v.trim();
        if (t.startsWith("[")) {
          try {
            v = parseLenientJson(t) as unknown[];
          } catch {
            throw new QuireError(454, `${fieldName}: cannot read the JSON array.`);
          }
        } else if (t.startsWith("{")) {
          try {
            v = [parseLenientJson(t) as object];
          } catch {
            throw new QuireError(454, `${fieldName}: cannot read the JSON object.`);
          }
        } else v = [t];
      } else if (!Array.isArray(v)) v = [v];
      return (v as unknown[]).map((x, i) => coerceValue(x, d.element!, `${fieldName}[${i}]`));
    }
    case "object": {
      let v: unknown = value;
      if (typeof v === "string") {
        try {
          v = parseLenientJson(v);
        } catch {
          throw new QuireError(454, `${fieldName}: cannot read the JSON object.`);
        }
      }
      if (!v || typeof v !== "object" || Array.isArray(v)) return v;
      return coerceObject(v as Record<string, unknown>, b, fieldName);
    }
    case "union": {
      for (const opt of d.options ?? []) {
        const c = coerceValue(value, opt, fieldName);
        if (opt.safeParse(c).success) return c;
      }
      return value;
    }
    default:
      return value;
  }
}

/** Matches keys case-insensitively against the object schema, coerces each, drops unknown and empty ones. */
export function coerceObject(raw: Record<string, unknown>, schema: z.ZodType, prefix = ""): Record<string, unknown> {
  const shape = shapeOf(schema);
  if (!shape) return raw;
  const byNorm = new Map(Object.keys(shape).map((k) => [keyNorm(k), k]));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(raw)) {
    const canonical = byNorm.get(keyNorm(k));
    if (!canonical) continue; // unknown fields are ignored
    const path = prefix ? `${prefix}.${canonical}` : canonical;
    const c = canonical === "profiles" ? parseProfiles(v) : v;
    const coerced = coerceValue(c, shape[canonical], path);
    if (coerced !== undefined) out[canonical] = coerced;
  }
  return out;
}

/** Wire fields → validated params of a contract. Missing required → 400, invalid values → 454. */
export function parseParams<S extends z.ZodObject>(raw: Record<string, unknown>, schema: S): z.infer<S> {
  return validateParams(coerceObject(raw, schema), schema);
}

/**
 * Checks values that are already typed (a stored job's params) against a contract, without
 * coercion; the same errors as parseParams, each naming its field.
 */
export function validateParams<S extends z.ZodObject>(values: Record<string, unknown>, schema: S): z.infer<S> {
  const r = schema.safeParse(values);
  if (r.success) return r.data;
  const issues = r.error.issues.slice(0, 5);
  const isMissing = (i: (typeof issues)[number]) => i.code === "invalid_type" && getPath(values, i.path) === undefined;
  const describe = (i: (typeof issues)[number]) => {
    const p = i.path.map(String).join(".") || "body";
    if (isMissing(i)) return `${p}: required`;
    return i.message.startsWith(p) ? i.message : `${p}: ${i.message}`;
  };
  throw new QuireError(issues.some(isMissing) ? 400 : 454, issues.map(describe).join("; "));
}

function getPath(obj: unknown, path: PropertyKey[]): unknown {
  let cur: unknown = obj;
  for (const p of path) {
    if (cur === null || typeof cur !== "object") return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[p];
  }
  return cur;
}
