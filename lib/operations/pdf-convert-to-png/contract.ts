import { imageParams, imageResponse } from "@/lib/operations/image-fields";
import { defineOperation } from "@/lib/operations/types";

/**
 * POST /v1/pdf/convert/to/png — each selected page of a PDF as a PNG image (`urls`, one per
 * page, or base64 in `body` with inline), rendered by MuPDF and encoded by sharp.
 * docs/convert.md ("PDF → images"). Cost: 1 credit per call plus 1 per page.
 */
export const operation = defineOperation({
  id: "pdf-convert-to-png",
  path: "/v1/pdf/convert/to/png",
  title: "PDF to PNG",
  summary: "Each page of a PDF as a PNG image, at the resolution you choose, optionally cropped to an area.",
  category: "convert",
  params: imageParams("png"),
  input: "pdf",
  pageBase: 0,
  cost: { perCall: 1, perPage: 1 },
  resultFile: { name: "result.json", contentType: "image/png", multiple: true },
  response: imageResponse("png"),
});
