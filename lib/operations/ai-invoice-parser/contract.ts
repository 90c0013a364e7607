import { z } from "zod";
import { common, encryptionProfileKeys, meta, profiles } from "@/lib/operations/fields";
import { defineOperation } from "@/lib/operations/types";

/**
 * POST /v1/ai-invoice-parser — reads one invoice it has never seen (no templates): the public API's
 * invoice object in `body`. Always asynchronous: the call answers `status: "created"` with a
 * jobId; job check (or the callback) then carries status "success", message, pageCount, body.
 * Embedded e-invoices (Factur-X, ZUGFeRD, XRechnung, UBL) are read exactly. docs/intelligence.md
 * describes the analysis. Cost: 1 credit per call plus 1 per page.
 */
export const operation = defineOperation({
  id: "ai-invoice-parser",
  methods: ["POST"],
  path: "/v1/ai-invoice-parser",
  title: "AI invoice parser",
  summary:
    "Reads vendor, customer, invoice numbers and dates, totals, banking details and line items of any invoice, without templates.",
  category: "intelligence",
  params: z.object({
    url: common.url,
    customField: meta(z.string().max(2000).optional(), {
      label: "Custom fields",
      help: 'Extra fields to extract, camelCase names separated by commas (or a JSON array), e.g. "deliveryDate, purchaseOrderRef, customerReference". Found values appear in body under these names.',
      example: "deliveryDate, customerReference",
    }),
    password: common.password,
    callback: common.callback,
    httpusername: common.httpusername,
    httppassword: common.httppassword,
    profiles: profiles({
      IncludeFieldSources: meta(z.boolean().optional(), {
        label: "Include field sources",
        help: 'Quire extension: add a top-level "fieldSources" object giving, for each extracted field path (e.g. "vendor.name"), the page and box it was read from.',
        advanced: true,
      }),
      IncludeConfidence: meta(z.boolean().optional(), {
        label: "Include confidence",
        help: 'Quire extension: add a top-level "confidence" object giving, for the main fields (e.g. "vendor.name", "paymentDetails.total"), how sure the parser is, from 0 to 1 (1 = read from an embedded e-invoice; ≥ 0.9 = labelled and consistent; below 0.7 = a guess from position).',
        advanced: true,
      }),
      ...encryptionProfileKeys,
    }),
  }),
  input: "document",
  pageBase: 0,
  cost: { perCall: 1, perPage: 1 },
  alwaysAsync: true,
  response: z.object({
    body: z
      .record(z.string(), z.unknown())
      .describe("The invoice object (vendor, customer, invoice, paymentDetails, others, lineItems, custom fields)."),
    fieldSources: z
      .record(z.string(), z.unknown())
      .optional()
      .describe("With profile IncludeFieldSources: dotted field path → {page, x, y, width, height} in points."),
    confidence: z
      .record(z.string(), z.number())
      .optional()
      .describe("With profile IncludeConfidence: dotted field path → confidence 0–1."),
  }),
});
