import { z } from "zod";
import { common, encryptionProfileKeys, jobFields, meta, ocrProfileKeys, profileKeys, profiles } from "@/lib/operations/fields";
import { defineOperation } from "@/lib/operations/types";

/**
 * POST /v1/pdf/makesearchable — OCR of scanned pages: the page stays exactly as it is and an
 * invisible text layer (render mode 3) is written over it, each word on its printed word, so
 * the text can be searched, selected and copied. Pages that already have text are left alone
 * unless `profiles.OCRMode` is `Always`. Cost: 1 per call + 1 per page of the document.
 */
export const operation = defineOperation({
  id: "pdf-makesearchable",
  path: "/v1/pdf/makesearchable",
  title: "Make PDF searchable (OCR)",
  summary: "Adds an invisible OCR text layer over scanned pages so their text can be searched and copied.",
  category: "convert",
  params: z.object({
    url: common.url,
    lang: meta(z.string().optional(), {
      label: "OCR language",
      help: "Language of the scanned text: eng (default), deu, fra, spa, ita, por, nld…, or several joined by + (eng+deu).",
    }),
    pages: common.pages0,
    rect: meta(z.string().optional(), {
      label: "Area",
      help: 'Only text inside this area is added: "x y width height" in points from the top-left corner (commas also work). Empty = the whole page.',
      advanced: true,
      example: "0 0 612 200",
    }),
    ...jobFields,
    profiles: profiles({
      OCRMode: meta(z.enum(["Auto", "Always"]).optional(), {
        label: "OCR mode",
        help: "Auto (default): OCR only pages without a text layer; Always: every selected page, also those with text.",
        advanced: true,
      }),
      OCRResolution: ocrProfileKeys.OCRResolution,
      outputDataFormat: profileKeys.outputDataFormat,
      ...encryptionProfileKeys,
    }),
  }),
  input: "pdf",
  pageBase: 0,
  cost: { perCall: 1, perPage: 1 },
  resultFile: { name: "result.pdf", contentType: "application/pdf" },
  response: z.object({
    url: z.string().describe("URL of the searchable PDF."),
  }),
});
