import { z } from "zod";
import { meta } from "@/lib/operations/fields";
import { defineOperation } from "@/lib/operations/types";
import { printJobParams, printParams } from "@/lib/operations/print-params";

/**
 * POST /v1/pdf/convert/from/html — prints an HTML document to PDF in Chromium with the print
 * options of /v1/pdf/convert/from/url. Everything the document loads goes through the egress
 * guard (docs/convert.md). `templateData` fills `html` as a Mustache template; `templateId` prints
 * one of the account's stored HTML templates (/v1/templates/html, docs/templates.md) filled with
 * `templateData`, rendered before the job is recorded.
 * Cost: 1 per call + 1 per output page.
 */
export const operation = defineOperation({
  id: "pdf-convert-from-html",
  path: "/v1/pdf/convert/from/html",
  title: "HTML to PDF",
  summary: "Prints an HTML document to PDF in a headless browser, with paper size, margins, header and footer.",
  category: "convert",
  templates: "html",
  params: z.object({
    html: meta(z.string().max(20_000_000, "html: at most 20 MB of HTML").optional(), {
      label: "HTML",
      help: "The HTML document to print. Images, styles and fonts it links are fetched from public addresses only.",
      widget: "textarea",
      example: "<h1>Hello</h1><p>Printed by Quire.</p>",
    }),
    templateData: meta(z.union([z.string().max(5_000_000), z.record(z.string(), z.unknown())]).optional(), {
      label: "Template data (JSON)",
      help: "JSON object that fills {{placeholders}} in the HTML (Mustache syntax: {{name}}, {{#items}}…{{/items}}).",
      widget: "json",
      advanced: true,
      example: '{"name":"Ada"}',
    }),
    templateId: meta(z.union([z.number().int(), z.string().max(200)]).optional(), {
      label: "Template ID",
      help: "Id of a stored HTML template to print instead of html (GET /v1/templates/html; 1 is the built-in invoice), filled with templateData.",
      advanced: true,
    }),
    ...printParams,
    customScript: meta(z.string().max(100_000).optional(), {
      label: "Custom script",
      help: "JavaScript run in the page after it loads and before it is printed (same as profiles.CustomScript).",
      advanced: true,
      widget: "textarea",
    }),
    ...printJobParams,
  }),
  input: "webpage",
  pageBase: 0,
  cost: { perCall: 1, perPage: 1 },
  resultFile: { name: "result.pdf", contentType: "application/pdf" },
  response: z.object({
    url: z.string().describe("URL of the PDF."),
  }),
});
