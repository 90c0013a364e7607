/**
 * Text macros of /v1/pdf/edit/add (docs/editing.md):
 *   {{$$newLine}}      a line break (as is "\n", "\r\n" or a literal backslash-n sent by form clients)
 *   {{$$PageNumber}}   1-based number of the page the text is drawn on
 *   {{$$PageCount}}    pages in the document
 *   {{name}}           a value from `templateData` ({{customer.name}} reaches nested objects;
 *                      {{$$name}} works too). Unknown names are left as they are.
 * Built-in names are matched case-insensitively; spaces inside the braces are allowed.
 */
export interface MacroContext {
  /** 1-based page number. */
  pageNumber: number;
  pageCount: number;
  data?: Record<string, unknown>;
}

const MACRO = /\{\{\s*(\$\$)?([A-Za-z_][\w.-]*)\s*\}\}/g;

export function expandMacros(text: string, ctx: MacroContext): string {
  const out = text.replace(MACRO, (whole, dollars: string | undefined, name: string) => {
    const lower = name.toLowerCase();
    if (dollars) {
      if (lower === "newline") return "\n";
      if (lower === "pagenumber") return String(ctx.pageNumber);
      if (lower === "pagecount") return String(ctx.pageCount);
    }
    const value = lookup(ctx.data, name);
    return value === undefined ? whole : value;
  });
  return out.replace(/\r\n?/g, "\n").replace(/\\n/g, "\n");
}

/** True when the text's result depends on the page (so it cannot be laid out once for all pages). */
export function isPageDependent(text: string): boolean {
  return /\{\{\s*\$\$(pagenumber|pagecount)\s*\}\}/i.test(text);
}

function lookup(data: Record<string, unknown> | undefined, path: string): string | undefined {
  if (!data) return undefined;
  if (Object.prototype.hasOwnProperty.call(data, path)) return stringify(data[path]);
  let cur: unknown = data;
  for (const part of path.split(".")) {
    if (cur === null || typeof cur !== "object" || !Object.prototype.hasOwnProperty.call(cur, part))
      return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return stringify(cur);
}

function stringify(v: unknown): string | undefined {
  if (v === undefined) return undefined;
  if (v === null) return "";
  if (typeof v === "string") return v;
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  return JSON.stringify(v);
}
