import Mustache from "mustache";
import { QuireError } from "@/lib/core/errors";

/**
 * HTML templates: Mustache (logic-less; `{{name}}` is HTML-escaped, `{{{name}}}` is not,
 * `{{#items}}…{{/items}}` repeats over a list or shows a block for a true value,
 * `{{^items}}…{{/items}}` when empty or false). No partials: a template is one document.
 */

export interface TemplateProblem {
  line: number;
  column: number;
  message: string;
}

/** Templates and data past these sizes are refused (413). */
export const MAX_TEMPLATE_BYTES = 2 * 1024 * 1024;
export const MAX_RENDERED_BYTES = 50 * 1024 * 1024;

/** Line and column (1-based) of a character offset. */
function position(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, Math.min(offset, text.length)));
  const lines = before.split("\n");
  return { line: lines.length, column: lines[lines.length - 1].length + 1 };
}

/** The template's syntax errors (at most one: Mustache stops at the first), each with its line. */
export function checkHtmlTemplate(body: string): TemplateProblem[] {
  try {
    Mustache.parse(body);
    return [];
  } catch (e) {
    const message = (e as Error).message;
    const at = /\bat (\d+)\s*$/.exec(message);
    let offset = at ? Number(at[1]) : 0;
    // Mustache reports an unclosed section at the end of the text: point at its opening tag.
    const unclosed = /^Unclosed section "([^"]*)"/.exec(message);
    if (unclosed) {
      const name = unclosed[1].replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      const opens = [...body.matchAll(new RegExp(`{{\\s*[#^]\\s*${name}\\s*}}`, "g"))];
      if (opens.length) offset = opens[opens.length - 1].index!;
    }
    const where = position(body, offset);
    return [{ ...where, message: message.replace(/\s*at \d+\s*$/, "") + (unclosed ? " (opened here, never closed)" : "") }];
  }
}

/** Parses `templateData` (a JSON object, or JSON text of one) for rendering. */
export function parseTemplateData(data: unknown, field = "templateData"): Record<string, unknown> {
  if (data === undefined || data === null || data === "") return {};
  let value = data;
  if (typeof data === "string") {
    try {
      value = JSON.parse(data);
    } catch (e) {
      throw new QuireError(400, `${field}: not valid JSON (${(e as Error).message}).`);
    }
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new QuireError(400, `${field}: give a JSON object, e.g. {"name": "Alice", "items": [...]}.`);
  }
  return value as Record<string, unknown>;
}

/**
 * Renders an HTML template with data. A syntax error answers 400 naming its line; a result past
 * MAX_RENDERED_BYTES answers 413 (a small template over a huge list).
 */
export function renderHtmlTemplate(body: string, data: Record<string, unknown>, what = "template"): string {
  if (Buffer.byteLength(body) > MAX_TEMPLATE_BYTES) {
    throw new QuireError(413, `${what}: larger than ${MAX_TEMPLATE_BYTES / 1024 / 1024} MB.`);
  }
  const problems = checkHtmlTemplate(body);
  if (problems.length) {
    const p = problems[0];
    throw new QuireError(400, `${what}: line ${p.line}, column ${p.column}: ${p.message}.`);
  }
  const html = Mustache.render(body, data, undefined, { escape: escapeHtml });
  if (Buffer.byteLength(html) > MAX_RENDERED_BYTES) {
    throw new QuireError(413, `${what}: the rendered HTML is larger than ${MAX_RENDERED_BYTES / 1024 / 1024} MB.`);
  }
  return html;
}

function escapeHtml(value: unknown): string {
  return String(value).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
