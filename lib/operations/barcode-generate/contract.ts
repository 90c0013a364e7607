import { z } from "zod";
import { common, encryptionProfileKeys, meta, profileKeys, profiles } from "@/lib/operations/fields";
import { defineOperation } from "@/lib/operations/types";

/**
 * POST /v1/barcode/generate — a barcode image (PNG) of `value` as `type` (QRCode by default), made
 * by bwip-js; `decorationImage` puts a logo in the middle of a QR code. Answers `url` to the PNG,
 * or with `inline: true` the PNG as base64 in `body`. Cost: 1 per call.
 */
export const operation = defineOperation({
  id: "barcode-generate",
  path: "/v1/barcode/generate",
  title: "Generate barcode",
  summary: "Makes a barcode image from a value: 41 types, from QR Code, Data Matrix, Code 128, EAN and PDF417 to postal codes.",
  category: "barcodes",
  params: z.object({
    value: meta(z.string().min(1, "value: give the text to encode in the barcode").max(8000), {
      label: "Value",
      help: "The text or number encoded in the barcode (its rules depend on the type: digits for EAN/UPC, GS1 element strings such as (01)09521234543213 for DataBar).",
      example: "abcdef123456",
    }),
    type: meta(z.string().optional(), {
      label: "Barcode type",
      help: "QRCode (default), DataMatrix, Code128, Code39, Code93, EAN13, EAN8, UPCA, UPCE, PDF417, Aztec, MaxiCode, Interleaved2of5, ITF14, GS1DataBar…, Codabar, PostNet, IntelligentMail, RoyalMail… (see docs/barcodes.md).",
      example: "QRCode",
    }),
    decorationImage: meta(z.string().optional(), {
      label: "Logo image URL",
      help: "URL of an image (PNG, JPEG, GIF, WebP, SVG) put in the middle of a QR code (QRCode only); the code is then drawn with the highest error correction.",
      widget: "url",
      advanced: true,
    }),
    inline: meta(z.boolean().optional(), {
      label: "Inline result",
      help: "Answer the PNG as base64 in `body` instead of a link.",
    }),
    name: common.name,
    async: common.async,
    callback: common.callback,
    httpusername: common.httpusername,
    httppassword: common.httppassword,
    expiration: common.expiration,
    profiles: profiles({
      outputDataFormat: profileKeys.outputDataFormat,
      Angle: meta(z.number().int().optional(), { label: "Angle", help: "Rotation in degrees clockwise: 0, 90, 180 or 270.", advanced: true }),
      NarrowBarWidth: meta(z.number().int().min(1).max(20).optional(), {
        label: "Narrow bar width",
        help: "Pixels per narrow bar or module (default 3).",
        advanced: true,
      }),
      ...encryptionProfileKeys,
    }),
  }),
  input: "none",
  pageBase: 0,
  cost: { perCall: 1, perPage: 0 },
  resultFile: { name: "barcode.png", contentType: "image/png" },
  response: z.object({
    url: z.string().optional().describe("Link to the PNG image (absent with inline: true)."),
    body: z.string().optional().describe("With inline: true, the PNG image as base64."),
  }),
});
