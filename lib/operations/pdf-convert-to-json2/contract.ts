import { defineOperation } from "@/lib/operations/types";
import { jsonResponse, structuredParams } from "@/lib/operations/structured-fields";

/**
 * POST /v1/pdf/convert/to/json2 — rows and cells of the tables and text of a PDF, scan or image
 * as JSON, numbers typed, with boxes, fonts and colours. docs/convert.md ("PDF → JSON, JSON2,
 * JSON-meta and XML"). Cost: 1 credit per call plus 1 per processed page.
 */
export const operation = defineOperation({
  id: "pdf-convert-to-json2",
  path: "/v1/pdf/convert/to/json2",
  title: "PDF to JSON (tables)",
  summary: "Rows and cells of the tables and text of a PDF, scan or image as JSON, numbers typed, with boxes, fonts and colours.",
  category: "convert",
  params: structuredParams,
  input: "document",
  pageBase: 0,
  cost: { perCall: 1, perPage: 1 },
  resultFile: { name: "result.json", contentType: "application/json" },
  response: jsonResponse,
});
