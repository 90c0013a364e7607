import "server-only";
import { readFile } from "node:fs/promises";
import type { z } from "zod";
import { QuireError } from "@/lib/core/errors";
import { readInvoice } from "@/lib/engine/invoice/read-invoice";
import { parseCustomFields } from "@/lib/engine/invoice/parse-invoice";
import type { Runner } from "@/lib/operations/runner-types";
import type { operation } from "./contract";

/** One invoice (PDF, scan or image) → the public API's invoice object; see docs/intelligence.md. */
export const run: Runner<z.infer<typeof operation.params>> = async (ctx) => {
  const source = ctx.sources[0];
  if (!source) throw new QuireError(400, "url: give the URL of the invoice (PDF, PNG, JPEG or TIFF).");
  const bytes = await readFile(source.path);
  const customFields = parseCustomFields(ctx.params.customField);
  const result = await readInvoice(bytes, { password: ctx.params.password, customFields, log: ctx.log });
  ctx.log(`${result.pageCount} page(s), ${result.source}`);
  const fields: Record<string, unknown> = { body: result.body };
  if (ctx.params.profiles?.IncludeFieldSources) fields.fieldSources = result.fieldSources;
  if (ctx.params.profiles?.IncludeConfidence) fields.confidence = result.confidence;
  return { fields, pageCount: result.pageCount, message: result.message };
};
