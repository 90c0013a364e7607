import { defineOperation } from "@/lib/operations/types";
import { xmlResponse, structuredParams } from "@/lib/operations/structured-fields";

/**
 * POST /v1/pdf/convert/to/xml — the text objects of a PDF, scan or image as XML: each line's
 * content groups with their boxes, fonts and colours. docs/convert.md ("PDF → JSON, JSON2, JSON-
 * meta and XML"). Cost: 1 credit per call plus 1 per processed page.
 */
export const operation = defineOperation({
  id: "pdf-convert-to-xml",
  path: "/v1/pdf/convert/to/xml",
  title: "PDF to XML",
  summary: "The text objects of a PDF, scan or image as XML: each line's content groups with their boxes, fonts and colours.",
  category: "convert",
  params: structuredParams,
  input: "document",
  pageBase: 0,
  cost: { perCall: 1, perPage: 1 },
  resultFile: { name: "result.xml", contentType: "application/xml" },
  response: xmlResponse,
});
