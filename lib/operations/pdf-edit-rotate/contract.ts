import { z } from "zod";
import { common, encryptionProfileKeys, jobFields, meta, profileKeys, profiles } from "@/lib/operations/fields";
import { defineOperation } from "@/lib/operations/types";

/**
 * POST /v1/pdf/edit/rotate — turns the pages of `pages` (0-based; empty = all) clockwise by
 * `angle` on top of their current rotation. Only the pages' /Rotate changes; everything else of
 * the file stays. Cost: 1 per call + 1 per page of the document.
 */
export const operation = defineOperation({
  id: "pdf-edit-rotate",
  path: "/v1/pdf/edit/rotate",
  title: "Rotate pages",
  summary: "Turns pages by 90, 180 or 270 degrees clockwise.",
  category: "organize",
  params: z.object({
    url: common.url,
    angle: meta(
      z
        .number()
        .int("angle: use 90, 180 or 270")
        .refine((a) => a % 90 === 0 && Math.abs(a) <= 3600, "angle: use 90, 180 or 270 (clockwise; a negative multiple of 90 turns anticlockwise)")
        .optional(),
      {
        label: "Angle",
        help: "Degrees clockwise: 90, 180 or 270 (added to each page's current rotation; -90 turns anticlockwise). 0 or empty leaves the pages as they are.",
        example: 90,
      },
    ),
    pages: meta(z.string().optional(), {
      label: "Pages",
      help: "0-based pages to turn: 0, 1-3, 5-, !0 (the last page), comma-separated. Empty = every page.",
      widget: "pages",
      example: "0-2,4",
    }),
    ...jobFields,
    profiles: profiles({ outputDataFormat: profileKeys.outputDataFormat, ...encryptionProfileKeys }),
  }),
  input: "pdf",
  pageBase: 0,
  cost: { perCall: 1, perPage: 1 },
  resultFile: { name: "result.pdf", contentType: "application/pdf" },
  response: z.object({
    url: z.string().describe("URL of the rotated PDF."),
  }),
});
