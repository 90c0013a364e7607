import { defineOperation } from "@/lib/operations/types";
import { jsonResponse, structuredParams } from "@/lib/operations/structured-fields";

/**
 * POST /v1/pdf/convert/to/json-meta — the text objects of a PDF as JSON plus the document's
 * metadata (title, author, dates, page size, permissions). docs/convert.md ("PDF → JSON, JSON2,
 * JSON-meta and XML"). Cost: 1 credit per call plus 1 per processed page.
 */
export const operation = defineOperation({
  id: "pdf-convert-to-json-meta",
  path: "/v1/pdf/convert/to/json-meta",
  title: "PDF to JSON with metadata",
  summary: "The text objects of a PDF as JSON plus the document's metadata (title, author, dates, page size, permissions).",
  category: "convert",
  params: structuredParams,
  input: "document",
  pageBase: 0,
  cost: { perCall: 1, perPage: 1 },
  resultFile: { name: "result.json", contentType: "application/json" },
  response: jsonResponse,
});
