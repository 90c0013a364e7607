import { z } from "zod";
import { meta } from "@/lib/operations/fields";
import { defineOperation } from "@/lib/operations/types";
import { printJobParams, printParams } from "@/lib/operations/print-params";

/**
 * POST /v1/pdf/convert/from/url — prints a web page to PDF in Chromium. Every request the page
 * makes goes through the egress guard (docs/conversion.md). Cost: 1 per call + 1 per output page.
 */
export const operation = defineOperation({
  id: "pdf-convert-from-url",
  path: "/v1/pdf/convert/from/url",
  title: "Web page to PDF",
  summary:
    "Loads a web page in a headless browser and prints it to PDF, with paper size, margins, header and footer.",
  category: "convert",
  params: z.object({
    url: meta(z.string().min(1, "url: give the address of the web page"), {
      label: "Web page URL",
      help: "http(s) address of the page to print. Only public addresses are fetched, for the page and everything it loads.",
      widget: "url",
      example: "https://example.com/",
    }),
    ...printParams,
    ...printJobParams,
  }),
  input: "webpage",
  pageBase: 0,
  cost: { perCall: 1, perPage: 1 },
  resultFile: { name: "result.pdf", contentType: "application/pdf" },
  response: z.object({
    url: z.string().describe("URL of the PDF."),
  }),
});
