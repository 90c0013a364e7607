import { z } from "zod";
import { common, encryptionProfileKeys, meta, ocrProfileKeys, profiles } from "@/lib/operations/fields";
import { defineOperation } from "@/lib/operations/types";

/**
 * POST /v1/pdf/classifier — classes of a PDF, JPG, PNG or TIFF document in `body.classes`
 * (always inline). With `rulescsv`/`rulescsvurl`: every class whose keywords match, in rule
 * order. Without rules: the built-in classification (document type; for an invoice its
 * sub-classes credit note, pro forma, utility bill; then the issuing organisation and the
 * country when the evidence agrees). docs/intelligence.md has the rules format and the
 * built-in types. Cost: 1 credit per call plus 1 per page.
 */
/** An optional profile switch; `(default true)` in its help makes the form show it checked. */
const bool = (label: string, help: string) =>
  meta(z.boolean().optional(), { label, help, advanced: true, ...(/\(default true\)/.test(help) ? { default: true } : {}) });

export const operation = defineOperation({
  id: "pdf-classifier",
  path: "/v1/pdf/classifier",
  title: "Document classifier",
  summary:
    "Classifies a document by your keyword rules (text or regex, OR/AND) or by Quire's built-in document types.",
  category: "intelligence",
  params: z.object({
    url: common.url,
    rulescsv: meta(z.string().max(200_000).optional(), {
      label: "Rules",
      help: "One class per line: className, logic (OR default, or AND), keyword1, keyword2, ... Keywords are text or /regex/ with optional flag i; the legacy form Class,kw1|kw2 also works. Leave empty for the built-in classification.",
      widget: "rules",
      example: "Invoice, OR, invoice, /inv(oice)?\\s*(no|#)/i\nContract, AND, agreement, signature",
    }),
    rulescsvurl: meta(z.string().optional(), {
      label: "Rules file URL",
      help: "URL of a CSV file holding the rules (used when rulescsv is empty).",
      widget: "url",
      advanced: true,
    }),
    caseSensitive: meta(z.boolean().default(true), {
      label: "Case sensitive",
      help: "Match keywords with case (default true). A regex with the i flag is always case-insensitive.",
    }),
    inline: common.inline,
    password: common.password,
    async: common.async,
    callback: common.callback,
    name: common.name,
    expiration: common.expiration,
    httpusername: common.httpusername,
    httppassword: common.httppassword,
    profiles: profiles({
      RenderTextObjects: bool(
        "Use text objects",
        "Read the PDF's text layer (default true). false: classify only text found by OCR of the rendered page.",
      ),
      RenderVectorObjects: bool(
        "Render vector objects",
        "Draw vector graphics when a page is rendered for OCR (default true).",
      ),
      RenderImageObjects: bool(
        "Use image objects",
        "OCR pages and images without a text layer (default true). false: text layer only.",
      ),
      TIFFCompression: meta(z.enum(["None", "LZW", "CCITT3", "CCITT4", "RLE"]).optional(), {
        label: "TIFF compression",
        help: "Accepted for compatibility (LZW default); Quire reads TIFF input of any compression and writes no TIFF.",
        advanced: true,
      }),
      ...ocrProfileKeys,
      IncludeMatchDetails: bool(
        "Include match details",
        'Quire extension: add a top-level "matches" list: per rule its class, logic, whether it matched and, per keyword, where it matched ({page, index, text}); for the built-in classification the scores per type.',
      ),
      ...encryptionProfileKeys,
    }),
  }),
  input: "document",
  pageBase: 0,
  cost: { perCall: 1, perPage: 1 },
  response: z.object({
    body: z
      .object({ classes: z.array(z.object({ class: z.string() })) })
      .describe("The matching classes in rule order, or the built-in type, its sub-classes (credit note, pro forma, utility bill), organisation and country."),
    matches: z
      .array(z.record(z.string(), z.unknown()))
      .optional()
      .describe(
        "With profile IncludeMatchDetails: per rule {class, logic, matched, keywords: [{keyword, matched, positions: [{page, index, text}]}]}.",
      ),
  }),
});
