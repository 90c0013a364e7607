import { z } from "zod";
import { common, encryptionProfileKeys, jobFields, meta, profiles } from "@/lib/operations/fields";
import { defineOperation } from "@/lib/operations/types";

const foundBarcode = z.object({
  Value: z.string().describe("The decoded text."),
  TypeName: z.string().describe("Barcode type, in the names /v1/barcode/generate takes (QRCode, Code128, EAN13...)."),
  Page: z.number().int().describe("0-based page (or image frame) it was found on."),
  Rect: z.string().describe("Bounding box as {X=..,Y=..,Width=..,Height=..}: PDF points from the page's top-left corner, or pixels of an image."),
  Box: z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() }).describe("The same box as numbers."),
  Confidence: z.number().describe("1 for a decode whose checks passed (only those are answered)."),
  File: z.string().describe("Name of the source file."),
});

/**
 * POST /v1/barcode/read/from/url — every barcode on the pages of a PDF (rendered at 200 dpi) or in
 * an image (PNG, JPEG, TIFF pages...), read by ZXing: its type, value, page and box. `types` (or
 * `type`) narrows the search; empty reads every type. Cost: 1 per call + 1 per page read.
 */
export const operation = defineOperation({
  id: "barcode-read-from-url",
  path: "/v1/barcode/read/from/url",
  title: "Read barcodes",
  summary: "Finds and decodes the barcodes on PDF pages or in images: type, value, page and position.",
  category: "barcodes",
  params: z.object({
    url: common.url,
    types: meta(z.string().optional(), {
      label: "Barcode types",
      help: "Comma-separated types to look for: QRCode, DataMatrix, Code128, Code39, EAN13, UPCA, PDF417, Aztec, Interleaved2of5... Empty: every type ZXing reads.",
      example: "QRCode,Code128",
    }),
    type: meta(z.string().optional(), {
      label: "Barcode type",
      help: "One type (the same as types with one name); types wins when both are given.",
      advanced: true,
    }),
    pages: common.pages0,
    ...jobFields,
    profiles: profiles({ ...encryptionProfileKeys }),
  }),
  input: "document",
  pageBase: 0,
  cost: { perCall: 1, perPage: 1 },
  response: z.object({
    barcodes: z.array(foundBarcode).describe("Every barcode found, page by page, top to bottom."),
  }),
});
