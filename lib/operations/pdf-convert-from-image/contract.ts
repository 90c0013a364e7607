import { z } from "zod";
import { common, encryptionProfileKeys, meta, profileKeys, profiles } from "@/lib/operations/fields";
import { defineOperation } from "@/lib/operations/types";

/**
 * POST /v1/pdf/convert/from/image — one PDF page per image (per page of a multi-page TIFF), sized
 * to the image at its resolution. Cost: 1 per call + 1 per output page.
 */
export const operation = defineOperation({
  id: "pdf-convert-from-image",
  path: "/v1/pdf/convert/from/image",
  title: "Images to PDF",
  summary: "Combines PNG, JPEG, GIF, WebP, TIFF and BMP images into one PDF, one page per image.",
  category: "convert",
  params: z.object({
    url: meta(z.string().min(1, "url: give the URL of one or more images"), {
      label: "Image URLs",
      help: "One or more image URLs separated by commas, in page order. PNG, JPEG, GIF, WebP, TIFF (every page) and BMP.",
      widget: "files",
      example: "https://example.com/page1.jpg,https://example.com/page2.png",
    }),
    pages: meta(z.string().optional(), {
      label: "Pages",
      help: "0-based selection over all images' pages in order: 0, 1-3, 5-, !0 (last). Empty = every page.",
      widget: "pages",
      advanced: true,
    }),
    name: common.name,
    expiration: common.expiration,
    async: common.async,
    callback: common.callback,
    httpusername: common.httpusername,
    httppassword: common.httppassword,
    profiles: profiles({ outputDataFormat: profileKeys.outputDataFormat, ...encryptionProfileKeys }),
  }),
  input: "images",
  pageBase: 0,
  cost: { perCall: 1, perPage: 1 },
  resultFile: { name: "result.pdf", contentType: "application/pdf" },
  response: z.object({
    url: z.string().describe("URL of the PDF."),
  }),
});
