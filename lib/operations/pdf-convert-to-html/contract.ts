import { z } from "zod";
import { common, encryptionProfileKeys, meta, ocrProfileKeys, profileKeys, profiles } from "@/lib/operations/fields";
import { extractionFields, tableProfileKeys } from "@/lib/operations/extraction-fields";
import { defineOperation } from "@/lib/operations/types";

/**
 * POST /v1/pdf/convert/to/html — PDF, scan or image pages as one HTML document: each page
 * reproduced with positioned text over its drawing (default), or as flowing text with `simple`
 * (and side-by-side text columns with `columns`). docs/extraction.md describes every option.
 * Cost: 1 credit per call plus 1 per processed page.
 */
export const operation = defineOperation({
  id: "pdf-convert-to-html",
  path: "/v1/pdf/convert/to/html",
  title: "PDF to HTML",
  summary: "PDF, scan or image pages as HTML: positioned text with fonts and colours over the page drawing, tables as <table>, OCR for scans.",
  category: "convert",
  params: z.object({
    url: common.url,
    pages: common.pages0,
    ...extractionFields,
    simple: meta(z.boolean().optional(), {
      label: "Simple (flowing text)",
      help: "Text flow without absolute positioning: headings, paragraphs, tables and images in reading order.",
    }),
    columns: meta(z.boolean().optional(), {
      label: "Keep columns",
      help: "Flowing text that keeps the page's text columns side by side (implies simple).",
    }),
    inline: common.inline,
    password: common.password,
    async: common.async,
    name: common.name,
    expiration: common.expiration,
    callback: common.callback,
    httpusername: common.httpusername,
    httppassword: common.httppassword,
    profiles: profiles({
      ...ocrProfileKeys,
      ...tableProfileKeys,
      OptimizeImages: meta(z.boolean().optional(), {
        label: "Optimize images",
        help: "Default true: images more than twice their displayed size are scaled down to that; a page drawn as one image is a JPEG at display size. False keeps images as they are in the PDF (and a page image as PNG at twice the display resolution).",
        advanced: true,
      }),
      EmbedFonts: meta(z.boolean().optional(), {
        label: "Embed fonts",
        help: "Default true: text is set in the document's own fonts (rebuilt from the PDF, or metric-compatible Liberation fonts for fonts the PDF does not embed), embedded in the HTML. False: local fonts (Arial, Times New Roman, Courier New) scaled to each word's width; smaller output.",
        advanced: true,
      }),
      VectorGraphics: meta(z.boolean().optional(), {
        label: "Vector graphics",
        help: "Default true: lines, boxes, fills and images of PDF pages as inline SVG under the text, crisp at any zoom. False: the page drawing as one image (JPEG, or PNG with OptimizeImages false). Both false gives the lightweight output.",
        advanced: true,
      }),
      OutputPageWidth: meta(z.number().int().min(100).max(10000).optional(), {
        label: "Page width (px)",
        help: "Width of each page in pixels (default 1024); the height follows the page's ratio.",
        advanced: true,
      }),
      AdditionalCssStyles: meta(z.string().max(100_000).optional(), {
        label: "Additional CSS",
        help: "CSS added to the output's style sheet.",
        advanced: true,
        widget: "textarea",
      }),
      saveImages: meta(z.number().int().min(0).max(2).optional(), {
        label: "Save images",
        help: "0: no images (text only); 1 (default): images embedded as data: URIs; 2: images as separate output files referenced by name.",
        advanced: true,
      }),
      outputDataFormat: profileKeys.outputDataFormat,
      ...encryptionProfileKeys,
    }),
  }),
  input: "document",
  pageBase: 0,
  cost: { perCall: 1, perPage: 1 },
  resultFile: { name: "result.html", contentType: "text/html" },
  response: z.object({
    url: z.string().optional().describe("URL of the HTML file (without inline)."),
    body: z.string().optional().describe("The HTML text (inline: true)."),
  }),
});
