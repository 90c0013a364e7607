import "server-only";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { z } from "zod";
import { QuireError, renameErrorField } from "@/lib/core/errors";
import { parseLenientJson } from "@/lib/operations/wire";
import { editPdf } from "@/lib/engine/edit/edit-pdf";
import type { EditRequest } from "@/lib/engine/edit/types";
import { outputName } from "@/lib/engine/optimize/report";
import type { Runner } from "@/lib/operations/runner-types";
import type { operation } from "./contract";

type Params = z.infer<typeof operation.params>;

/** Adds the annotations, images and field values; images are fetched through ctx.fetchUrl. */
export const run: Runner<Params> = async (ctx) => {
  const source = ctx.sources[0];
  if (!source) throw new QuireError(400, "url: give the URL of a PDF document.");
  const p = ctx.params;
  const req: EditRequest = {
    annotations: p.annotations ?? [],
    images: p.images ?? [],
    fields: p.fields ?? [],
    templateData: readTemplateData(p.templateData),
    password: p.password,
  };
  if (!req.annotations.length && !req.images.length && !req.fields.length) {
    throw new QuireError(400, "nothing to add: send `annotations`, `images` or `fields`.");
  }
  const result = await editPdf(await readFile(source.path), req, async (url, field) => {
    try {
      const r = await ctx.fetchUrl(url);
      return { bytes: r.bytes, contentType: r.contentType };
    } catch (e) {
      throw renameErrorField(e, field);
    }
  });
  const file = path.join(ctx.workDir, "result.pdf");
  await writeFile(file, result.bytes);
  ctx.log(
    `edit/add: ${req.annotations.length} annotation(s), ${req.images.length} image(s), ${req.fields.length} field value(s)`,
  );
  return {
    outputs: [{ path: file, name: outputName(p.name), contentType: "application/pdf" }],
    pageCount: result.pageCount,
    message: result.notes.length ? `${result.notes.join(". ")}.` : undefined,
  };
};

function readTemplateData(value: Params["templateData"]): Record<string, unknown> | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "string") return value;
  try {
    const parsed = parseLenientJson(value);
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed))
      return parsed as Record<string, unknown>;
  } catch {
    /* fall through */
  }
  throw new QuireError(454, 'templateData: send a JSON object such as {"customer": "Ada"}.');
}
