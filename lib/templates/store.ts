import "server-only";
import { and, asc, eq } from "drizzle-orm";
import { QuireError } from "@/lib/core/errors";
import { getDb } from "@/lib/db/client";
import { templates } from "@/lib/db/schema";
import { checkHtmlTemplate, MAX_TEMPLATE_BYTES, parseTemplateData, renderHtmlTemplate } from "@/lib/engine/templates/html-template";
import { systemTemplates } from "@/lib/engine/templates/system-templates";
import { checkParserTemplate } from "@/lib/engine/docparser/template";

/**
 * An account's templates (HTML and document parser), plus the built-in HTML ones. A template of
 * another account is "not found" (404), never "forbidden": ids reveal nothing.
 */

export type TemplateKind = "html" | "documentparser";

export interface TemplateRecord {
  id: number;
  type: "system" | "user";
  title: string;
  description: string;
  body: string;
  testJson: string;
  updatedAt: Date | null;
}

/** A template body checker per kind: the problems with their lines (empty = fine). */
export type TemplateChecker = (body: string) => Array<{ line: number; column?: number; message: string }>;
const checkers: Record<TemplateKind, TemplateChecker> = { html: checkHtmlTemplate, documentparser: checkParserTemplate };


const fromSystem = (t: (typeof systemTemplates)[number]): TemplateRecord => ({
  id: t.id,
  type: "system",
  title: t.title,
  description: t.description,
  body: t.body,
  testJson: t.testJson,
  updatedAt: null,
});

const fromRow = (r: typeof templates.$inferSelect): TemplateRecord => ({
  id: r.id,
  type: "user",
  title: r.title,
  description: r.description,
  body: r.body,
  testJson: r.testJson,
  updatedAt: r.updatedAt,
});

export async function listTemplates(accountId: string, kind: TemplateKind): Promise<TemplateRecord[]> {
  const db = await getDb();
  const rows = await db
    .select()
    .from(templates)
    .where(and(eq(templates.accountId, accountId), eq(templates.kind, kind)))
    .orderBy(asc(templates.id));
  return [...(kind === "html" ? systemTemplates.map(fromSystem) : []), ...rows.map(fromRow)];
}

/** Parses a template id from a path or a parameter; anything else is 400. */
export function parseTemplateId(raw: unknown, field = "id"): number {
  const n = typeof raw === "number" ? raw : /^\s*\d{1,10}\s*$/.test(String(raw ?? "")) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(n) || n < 1) throw new QuireError(400, `${field}: give a template id (a positive integer).`);
  return n;
}

export async function getTemplate(accountId: string, kind: TemplateKind, id: number): Promise<TemplateRecord | null> {
  if (kind === "html") {
    const sys = systemTemplates.find((t) => t.id === id);
    if (sys) return fromSystem(sys);
  }
  const db = await getDb();
  const [row] = await db
    .select()
    .from(templates)
    .where(and(eq(templates.id, id), eq(templates.accountId, accountId), eq(templates.kind, kind)))
    .limit(1);
  return row ? fromRow(row) : null;
}

export async function requireTemplate(accountId: string, kind: TemplateKind, id: number, field = "templateId"): Promise<TemplateRecord> {
  const t = await getTemplate(accountId, kind, id);
  if (!t) throw new QuireError(404, `${field}: there is no template ${id} in this account.`);
  return t;
}

export interface TemplateInput {
  title?: string;
  description?: string;
  body?: string;
  testJson?: string;
}

/** Checks a body: size (413) and syntax (400 naming the line). */
function checkBody(kind: TemplateKind, body: string) {
  if (Buffer.byteLength(body) > MAX_TEMPLATE_BYTES) {
    throw new QuireError(413, `body: the template is larger than ${MAX_TEMPLATE_BYTES / 1024 / 1024} MB.`);
  }
  const problems = checkers[kind](body);
  if (problems.length) {
    const p = problems[0];
    throw new QuireError(400, `body: line ${p.line}${p.column ? `, column ${p.column}` : ""}: ${p.message}.`);
  }
}

/**
 * Creates (id null) or updates the account's template. System templates are read-only (400: save
 * a copy); another account's id is 404.
 */
export async function saveTemplate(accountId: string, kind: TemplateKind, id: number | null, input: TemplateInput): Promise<TemplateRecord> {
  const db = await getDb();
  const title = input.title?.trim().slice(0, 200);
  const description = input.description?.slice(0, 2000);
  const testJson = input.testJson;
  if (testJson !== undefined && testJson.trim() !== "" && kind === "html") parseTemplateData(testJson, "test_json");
  if (input.body !== undefined) checkBody(kind, input.body);

  if (id === null) {
    if (input.body === undefined || input.body.trim() === "") throw new QuireError(400, "body: give the template's content.");
    const [row] = await db
      .insert(templates)
      .values({ accountId, kind, title: title || "Untitled template", description: description ?? "", body: input.body, testJson: testJson ?? "" })
      .returning();
    return fromRow(row);
  }
  if (kind === "html" && systemTemplates.some((t) => t.id === id)) {
    throw new QuireError(400, `id: template ${id} is a built-in template and cannot be changed; save a copy (id: new).`);
  }
  const [row] = await db
    .update(templates)
    .set({
      ...(title !== undefined ? { title: title || "Untitled template" } : {}),
      ...(description !== undefined ? { description } : {}),
      ...(input.body !== undefined ? { body: input.body } : {}),
      ...(testJson !== undefined ? { testJson } : {}),
      updatedAt: new Date(),
    })
    .where(and(eq(templates.id, id), eq(templates.accountId, accountId), eq(templates.kind, kind)))
    .returning();
  if (!row) throw new QuireError(404, `id: there is no template ${id} in this account.`);
  return fromRow(row);
}

export async function deleteTemplate(accountId: string, kind: TemplateKind, id: number): Promise<void> {
  if (kind === "html" && systemTemplates.some((t) => t.id === id)) {
    throw new QuireError(400, `id: template ${id} is a built-in template and cannot be deleted.`);
  }
  const db = await getDb();
  const gone = await db
    .delete(templates)
    .where(and(eq(templates.id, id), eq(templates.accountId, accountId), eq(templates.kind, kind)))
    .returning({ id: templates.id });
  if (gone.length === 0) throw new QuireError(404, `id: there is no template ${id} in this account.`);
}

/** `templateId` of an operation that takes stored templates → `html` or `template`. */
export async function applyStoredTemplate<P extends Record<string, unknown>>(kind: TemplateKind, accountId: string, params: P): Promise<P> {
  if (kind === "html") return applyHtmlTemplate(accountId, params);
  const raw = params.templateId ?? params.templateid;
  if (raw === undefined || raw === null || raw === "") return params;
  if (typeof params.template === "string" && params.template.trim() !== "") return params; // the text given wins
  const t = await requireTemplate(accountId, "documentparser", parseTemplateId(raw, "templateId"));
  return { ...params, template: t.body };
}

/**
 * An operation's `templateId` + `templateData` → `html`: the account's HTML template rendered
 * before the job is recorded (the sandboxed runner never reads the database). Params without a
 * `templateId` pass unchanged.
 */
export async function applyHtmlTemplate<P extends Record<string, unknown>>(accountId: string, params: P): Promise<P> {
  const raw = params.templateId ?? params.templateid;
  if (raw === undefined || raw === null || raw === "") return params;
  const id = parseTemplateId(raw, "templateId");
  const t = await requireTemplate(accountId, "html", id);
  const data = parseTemplateData(params.templateData ?? params.templatedata);
  const html = renderHtmlTemplate(t.body, data, `template ${id}`);
  const { templateId: _a, templateid: _b, templateData: _c, templatedata: _d, ...rest } = params as Record<string, unknown>;
  return { ...rest, html } as unknown as P;
}
