import { z } from "zod";
import { common, encryptionProfileKeys, meta, ocrProfileKeys, profiles } from "@/lib/operations/fields";
import { defineOperation } from "@/lib/operations/types";

/**
 * POST /v1/pdf/documentparser — fields and tables read from a PDF or scan by a document parser
 * template (`template` text in YAML or JSON, or a stored template's `templateId`): static values,
 * expressions with macros such as {{Number}} and {{Date}} over the page's text laid out as on
 * the page, rectangles, tables between a start and an end expression. docs/templates.md has the
 * format. Answers JSON (default), CSV or XML, as a file or `inline`. Cost: 1 per call + 1 per page.
 */
export const operation = defineOperation({
  id: "pdf-documentparser",
  path: "/v1/pdf/documentparser",
  title: "Document parser",
  summary: "Reads fields and tables from documents of a known layout with a template (anchors, expressions with macros, rectangles, tables).",
  category: "intelligence",
  templates: "documentparser",
  params: z.object({
    url: common.url,
    template: meta(z.string().max(5_000_000).optional(), {
      label: "Template",
      help: "The template (YAML or JSON): templateName, detectionRules.keywords, fields (static, regex, rectangle; dataType, dateFormat), tables (start, end, row with named groups, columns). Or use a stored template's id.",
      widget: "textarea",
      example: "templateName: Invoice\nfields:\n  total:\n    expression: 'Total{{Spaces}}({{Number}})'\n    dataType: decimal\n",
    }),
    templateId: meta(z.union([z.number().int(), z.string()]).optional(), {
      label: "Template id",
      help: "Id of one of the account's document parser templates (GET /v1/documentparser/templates).",
    }),
    outputFormat: meta(z.enum(["JSON", "CSV", "XML"]).optional(), {
      label: "Output format",
      help: "JSON (default), CSV (fields as name,value lines, then each table) or XML.",
    }),
    generateCsvHeaders: meta(z.boolean().optional(), {
      label: "CSV headers",
      help: "With CSV: a header line before the fields and before each table's rows (default true).",
      default: true,
    }),
    pages: common.pages0,
    lang: meta(z.string().optional(), {
      label: "OCR language",
      help: "Language of scanned pages (eng default; deu, fra, ... or eng+deu).",
      advanced: true,
    }),
    inline: common.inline,
    password: common.password,
    async: common.async,
    callback: common.callback,
    name: common.name,
    expiration: common.expiration,
    httpusername: common.httpusername,
    httppassword: common.httppassword,
    profiles: profiles({ ...ocrProfileKeys, ...encryptionProfileKeys }),
  }),
  input: "document",
  pageBase: 0,
  cost: { perCall: 1, perPage: 1 },
  resultFile: { name: "result.json", contentType: "application/json" },
  response: z.object({
    url: z.string().optional().describe("URL of the result file (without inline)."),
    body: z
      .union([z.string(), z.record(z.string(), z.unknown())])
      .optional()
      .describe("inline: the result: for JSON {templateName, templateVersion, detected, objects: [{name, objectType: field, value, pageIndex, x, y, width, height} | {name, objectType: table, rows: [{column: {value, pageIndex, x, y, width, height}}]}]}; CSV or XML text."),
  }),
});
