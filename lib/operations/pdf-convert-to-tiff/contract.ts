import { imageParams, imageResponse } from "@/lib/operations/image-fields";
import { defineOperation } from "@/lib/operations/types";

/**
 * POST /v1/pdf/convert/to/tiff — the selected pages of a PDF as one multi-page TIFF (LZW by
 * default), rendered by MuPDF and encoded by sharp. docs/convert.md ("PDF → images").
 * Cost: 1 credit per call plus 1 per page.
 */
export const operation = defineOperation({
  id: "pdf-convert-to-tiff",
  path: "/v1/pdf/convert/to/tiff",
  title: "PDF to TIFF",
  summary: "The pages of a PDF as one multi-page TIFF image.",
  category: "convert",
  params: imageParams("tiff"),
  input: "pdf",
  pageBase: 0,
  cost: { perCall: 1, perPage: 1 },
  resultFile: { name: "result.tiff", contentType: "image/tiff" },
  response: imageResponse("tiff"),
});
