import "server-only";
import type { z } from "zod";
import {
  deleteTemplate,
  listTemplates,
  parseTemplateId,
  requireTemplate,
  saveTemplate,
  type TemplateKind,
  type TemplateRecord,
} from "@/lib/templates/store";
import type { RouteHandler } from "../define-route";
import type * as s from "../schemas";

type KeyHandler<R extends z.ZodType, I extends z.ZodObject | undefined = undefined> = RouteHandler<"api-key", I, R>;

/**
 * HTML templates (`/v1/templates/html…`) and document parser templates
 * (`/v1/documentparser/templates…`): the same store, answers shaped as the public API's.
 * Reading and saving templates costs nothing.
 */

const summary = (t: TemplateRecord) => ({ id: t.id, type: t.type, title: t.title, description: t.description });
const full = (t: TemplateRecord, balance: number) => ({
  error: false as const,
  status: 200 as const,
  id: t.id,
  type: t.type,
  title: t.title,
  description: t.description,
  test_json: t.testJson,
  updated_at: t.updatedAt?.toISOString() ?? null,
  body: t.body,
  remainingCredits: balance,
  credits: 0,
});

function list(kind: TemplateKind): KeyHandler<typeof s.templateListResponse> {
  return async ({ caller }) => ({
    error: false,
    status: 200,
    templates: (await listTemplates(caller.accountId, kind)).map(summary),
    remainingCredits: caller.balance,
    credits: 0,
  });
}

function get(kind: TemplateKind): KeyHandler<typeof s.templateResponse> {
  return async ({ caller, pathParams }) =>
    full(await requireTemplate(caller.accountId, kind, parseTemplateId(pathParams.id), "id"), caller.balance);
}

/** `{id}` = `new` (or 0) creates a template; an id of the account's updates it. */
function update(kind: TemplateKind): KeyHandler<typeof s.templateResponse, typeof s.templateUpdateInput> {
  return async ({ caller, pathParams, input }) => {
    const p = await input();
    const raw = pathParams.id.trim().toLowerCase();
    const id = raw === "new" || raw === "0" ? null : parseTemplateId(raw);
    const saved = await saveTemplate(caller.accountId, kind, id, {
      title: p.title,
      description: p.description,
      body: p.body,
      testJson: p.test_json ?? p.testJson,
    });
    return full(saved, caller.balance);
  };
}

function remove(kind: TemplateKind): KeyHandler<typeof s.templateDeleteResponse> {
  return async ({ caller, pathParams }) => {
    const id = parseTemplateId(pathParams.id);
    await deleteTemplate(caller.accountId, kind, id);
    return { error: false, status: 200, deleted: id };
  };
}

export const listHtml = list("html");
export const getHtml = get("html");
export const updateHtml = update("html");
export const deleteHtml = remove("html");
export const listParser = list("documentparser");
export const getParser = get("documentparser");
export const updateParser = update("documentparser");
export const deleteParser = remove("documentparser");
