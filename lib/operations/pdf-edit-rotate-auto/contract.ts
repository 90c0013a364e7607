import { z } from "zod";
import { common, encryptionProfileKeys, jobFields, meta, profileKeys, profiles } from "@/lib/operations/fields";
import { defineOperation } from "@/lib/operations/types";

/**
 * POST /v1/pdf/edit/rotate/auto — sets every page upright: pages with text by the direction
 * their text runs, scanned pages by orientation detection. Only the pages' /Rotate changes.
 * Cost: 1 per call + 1 per page.
 */
export const operation = defineOperation({
  id: "pdf-edit-rotate-auto",
  path: "/v1/pdf/edit/rotate/auto",
  title: "Auto-rotate pages",
  summary: "Turns sideways and upside-down pages (scans included) upright.",
  category: "organize",
  params: z.object({
    url: common.url,
    lang: meta(z.string().optional(), {
      label: "OCR language",
      help: "Language of scanned pages, used when orientation is found by reading the page: eng (default), deu, fra..., or eng+deu.",
      advanced: true,
    }),
    ...jobFields,
    profiles: profiles({ outputDataFormat: profileKeys.outputDataFormat, ...encryptionProfileKeys }),
  }),
  input: "pdf",
  pageBase: 0,
  cost: { perCall: 1, perPage: 1 },
  resultFile: { name: "result.pdf", contentType: "application/pdf" },
  response: z.object({
    url: z.string().describe("URL of the PDF with every page upright."),
  }),
});
