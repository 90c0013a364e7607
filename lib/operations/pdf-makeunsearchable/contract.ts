import { z } from "zod";
import { common, encryptionProfileKeys, jobFields, meta, profileKeys, profiles } from "@/lib/operations/fields";
import { defineOperation } from "@/lib/operations/types";

/**
 * POST /v1/pdf/makeunsearchable — each selected page becomes one picture of itself (annotations
 * and form fields included), so no text can be extracted, searched or copied from it. Page sizes
 * and rotation stay. Cost: 1 per call + 1 per page of the document.
 */
export const operation = defineOperation({
  id: "pdf-makeunsearchable",
  path: "/v1/pdf/makeunsearchable",
  title: "Make PDF unsearchable",
  summary: "Turns pages into pictures so that no text can be extracted from them.",
  category: "convert",
  params: z.object({
    url: common.url,
    pages: common.pages0,
    ...jobFields,
    profiles: profiles({
      RenderResolution: meta(z.number().int().min(72).max(600).optional(), {
        label: "Resolution (dpi)",
        help: "Resolution of the page pictures, 72 to 600 (default 200).",
        advanced: true,
      }),
      JPEGQuality: meta(z.number().int().min(1).max(100).optional(), {
        label: "JPEG quality",
        help: "1 to 100 (default 85).",
        advanced: true,
      }),
      outputDataFormat: profileKeys.outputDataFormat,
      ...encryptionProfileKeys,
    }),
  }),
  input: "pdf",
  pageBase: 0,
  cost: { perCall: 1, perPage: 1 },
  resultFile: { name: "result.pdf", contentType: "application/pdf" },
  response: z.object({
    url: z.string().describe("URL of the unsearchable PDF."),
  }),
});
