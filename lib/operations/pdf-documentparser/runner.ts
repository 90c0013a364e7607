import "server-only";
import { writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { z } from "zod";
import { QuireError } from "@/lib/core/errors";
import { parseDocument } from "@/lib/engine/docparser/parse-document";
import { requireParserTemplate } from "@/lib/engine/docparser/template";
import { toCsv, toXml } from "@/lib/engine/docparser/write-output";
import { getPageTexts } from "@/lib/engine/text/page-texts";
import type { Runner } from "@/lib/operations/runner-types";
import type { operation } from "./contract";

const formats = {
  JSON: { ext: "json", type: "application/json" },
  CSV: { ext: "csv", type: "text/csv" },
  XML: { ext: "xml", type: "application/xml" },
} as const;

/** The template first (a bad one fails before any page is read), then the text, then the objects. */
export const run: Runner<z.infer<typeof operation.params>> = async (ctx) => {
  const p = ctx.params;
  const source = ctx.sources[0];
  if (!source) throw new QuireError(400, "url: give the URL of a PDF or image.");
  if (!p.template || p.template.trim() === "") {
    throw new QuireError(400, "template: give a document parser template (or the templateId of a stored one).");
  }
  const templates = requireParserTemplate(p.template);
  const texts = await getPageTexts(await readFile(source.path), {
    password: p.password,
    pages: p.pages,
    lang: p.lang,
    ocrMode: p.profiles?.OCRMode ?? "Auto",
    ocrResolution: p.profiles?.OCRResolution,
    rotation: p.profiles?.RotationAngle,
  });
  const result = parseDocument(texts.pages, templates);
  const found = result.objects.filter((o) => (o.objectType === "field" ? o.value !== null : o.rows.length > 0)).length;
  ctx.log(`template "${result.templateName}"${result.detected ? "" : " (keywords not matched)"}: ${found} of ${result.objects.length} object(s) found on ${texts.pages.length} page(s)`);

  const format = formats[p.outputFormat ?? "JSON"];
  const text =
    format.ext === "json" ? JSON.stringify(result, null, 2) : format.ext === "csv" ? toCsv(result, p.generateCsvHeaders !== false) : toXml(result);
  const base = (p.name ?? "").trim().replace(/\.[^.]*$/, "") || "result";
  const file = path.join(ctx.workDir, `result.${format.ext}`);
  writeFileSync(file, text, "utf8");
  if (p.inline && format.ext === "json") {
    return { fields: { body: result }, pageCount: texts.pages.length };
  }
  return {
    outputs: [{ path: file, name: `${base}.${format.ext}`, contentType: format.type }],
    inlineText: text,
    pageCount: texts.pages.length,
  };
};
