import { imageParams, imageResponse } from "@/lib/operations/image-fields";
import { defineOperation } from "@/lib/operations/types";

/**
 * POST /v1/pdf/convert/to/webp — each selected page of a PDF as a WebP image (`urls`, one per
 * page, or base64 in `body` with inline), rendered by MuPDF and encoded by sharp.
 * docs/convert.md ("PDF → images"). Cost: 1 credit per call plus 1 per page.
 */
export const operation = defineOperation({
  id: "pdf-convert-to-webp",
  path: "/v1/pdf/convert/to/webp",
  title: "PDF to WebP",
  summary: "Each page of a PDF as a WebP image, at the resolution you choose, optionally cropped to an area.",
  category: "convert",
  params: imageParams("webp"),
  input: "pdf",
  pageBase: 0,
  cost: { perCall: 1, perPage: 1 },
  resultFile: { name: "result.json", contentType: "image/webp", multiple: true },
  response: imageResponse("webp"),
});
