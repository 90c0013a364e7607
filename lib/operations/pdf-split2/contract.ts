import { z } from "zod";
import { common, encryptionProfileKeys, jobFields, meta, profileKeys, profiles } from "@/lib/operations/fields";
import { caseSensitiveField, regexSearchField } from "@/lib/operations/search-fields";
import { defineOperation } from "@/lib/operations/types";

/**
 * POST /v1/pdf/split2 — splits a PDF where a page contains `searchString` (text, a regular
 * expression, or a `[[barcode:types value]]` macro): each such key page starts a new part.
 * Answers like split: `urls`, names `result_page1-3.pdf`. Scanned pages are read by OCR (`lang`).
 * Cost: 1 per call + 1 per page of the source (every page is searched).
 */
export const operation = defineOperation({
  id: "pdf-split2",
  path: "/v1/pdf/split2",
  title: "Split PDF by text or barcode",
  summary: "Splits a PDF before every page that contains a text, matches a pattern or carries a barcode.",
  category: "organize",
  params: z.object({
    url: common.url,
    searchString: meta(z.string().min(1, "searchString: give the text (or [[barcode:…]] macro) that marks the first page of each part"), {
      label: "Search text",
      help: 'Each page containing it starts a new part. Text (white space matches any white space), a regular expression with regexSearch, or a barcode macro: [[barcode:qrcode,datamatrix /regex/]], [[barcode:code128 value]], [[barcode:qrcode]].',
      example: "invoice number",
    }),
    regexSearch: regexSearchField("searchString"),
    caseSensitive: caseSensitiveField(false),
    excludeKeyPages: meta(z.boolean().optional(), {
      label: "Leave out key pages",
      help: "Drop the pages that matched from the parts (separator sheets). Default false: each key page is the first page of its part.",
    }),
    lang: meta(z.string().optional(), {
      label: "OCR language",
      help: "Language of scanned pages (pages without a text layer are read by OCR): eng (default), deu, fra..., or two joined by + (eng+deu).",
      advanced: true,
    }),
    ...jobFields,
    profiles: profiles({ outputDataFormat: profileKeys.outputDataFormat, ...encryptionProfileKeys }),
  }),
  input: "pdf",
  pageBase: 0,
  cost: { perCall: 1, perPage: 1 },
  resultFile: { name: "result.pdf", contentType: "application/pdf", multiple: true },
  response: z.object({
    urls: z.array(z.string()).describe("One URL per part, in page order (one URL, the whole file, when nothing matched)."),
  }),
});
