import { defineOperation } from "@/lib/operations/types";
import { jsonResponse, structuredParams } from "@/lib/operations/structured-fields";

/**
 * POST /v1/pdf/convert/to/json — the text objects of a PDF, scan or image as JSON: each line's
 * content groups with their boxes, fonts and colours. docs/convert.md ("PDF → JSON, JSON2, JSON-
 * meta and XML"). Cost: 1 credit per call plus 1 per processed page.
 */
export const operation = defineOperation({
  id: "pdf-convert-to-json",
  path: "/v1/pdf/convert/to/json",
  title: "PDF to JSON",
  summary: "The text objects of a PDF, scan or image as JSON: each line's content groups with their boxes, fonts and colours.",
  category: "convert",
  params: structuredParams,
  input: "document",
  pageBase: 0,
  cost: { perCall: 1, perPage: 1 },
  resultFile: { name: "result.json", contentType: "application/json" },
  response: jsonResponse,
});
