import "server-only";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { parseTemplateData, renderHtmlTemplate } from "@/lib/engine/templates/html-template";
import type { z } from "zod";
import { QuireError } from "@/lib/core/errors";
import { renderUrlToPdf } from "@/lib/engine/browser/render-url-to-pdf";
import { countPdfPages, pdfName } from "@/lib/operations/pdf-output";
import type { Runner } from "@/lib/operations/runner-types";
import type { operation } from "./contract";

type Params = z.infer<typeof operation.params>;

/** Prints the caller's HTML (filled from templateData when given) through the browser pool. */
export const run: Runner<Params> = async (ctx) => {
  const p = ctx.params;
  const html = documentHtml(p);
  const result = await renderUrlToPdf({
    url: "about:blank",
    html,
    margins: p.margins,
    paperSize: p.paperSize,
    orientation: p.orientation,
    printBackground: p.printBackground,
    mediaType: p.mediaType,
    doNotWaitFullLoad: p.DoNotWaitFullLoad,
    header: p.header,
    footer: p.footer,
    customScript: p.customScript ?? p.profiles?.CustomScript,
    log: ctx.log,
  });
  const file = path.join(ctx.workDir, "result.pdf");
  await writeFile(file, result.pdf);
  return {
    outputs: [{ path: file, name: pdfName(p.name), contentType: "application/pdf" }],
    pageCount: countPdfPages(result.pdf),
  };
};

/**
 * The HTML to print. A stored template (`templateId`) was rendered into `html` when the job was
 * submitted (lib/templates/store.ts); raw `html` with `templateData` is filled here, by the same
 * Mustache renderer.
 */
function documentHtml(p: Params): string {
  if (p.templateId !== undefined && String(p.templateId).trim() !== "") {
    throw new QuireError(400, "templateId: stored templates are resolved when the job is submitted; send the call through the API.");
  }
  const html = p.html ?? "";
  if (!html.trim()) throw new QuireError(400, "html: give the HTML document to print (or the templateId of a stored template).");
  if (p.templateData === undefined || (typeof p.templateData === "string" && p.templateData.trim() === "")) return html;
  return renderHtmlTemplate(html, parseTemplateData(p.templateData), "html");
}
