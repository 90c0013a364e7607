import { z } from "zod";
import { common, encryptionProfileKeys, jobFields, meta, profileKeys, profiles } from "@/lib/operations/fields";
import { defineOperation } from "@/lib/operations/types";

/** Defaults of the v1 optimize profile keys (public API: JPEG, 25, true, 120, false). */
export const DEFAULT_OPTIMIZE_SETTINGS = {
  ImageOptimizationFormat: "JPEG",
  JPEGQuality: 25,
  ResampleImages: true,
  ResamplingResolution: 120,
  GrayscaleImages: false,
} as const;

/**
 * POST /v1/pdf/optimize (deprecated; /v2/pdf/compress replaces it) — the same optimizer driven
 * by five profile keys. Answers `url` (the official samples read it; with `async` it is where the
 * PDF will be) and the same link as a one-item `urls` (the public API's documented field), and
 * `fileSize`. Cost: 1 per call + 1 per page.
 */
export const operation = defineOperation({
  id: "pdf-optimize",
  path: "/v1/pdf/optimize",
  title: "Optimize PDF (v1)",
  summary: "Deprecated: use Compress PDF. Recompresses and resamples images with one format for all.",
  category: "optimize",
  deprecated: true,
  params: z.object({
    url: common.url,
    ...jobFields,
    profiles: profiles({
      outputDataFormat: profileKeys.outputDataFormat,
      ImageOptimizationFormat: meta(z.enum(["JPEG", "Flate", "Fax"]).optional(), {
        label: "Image format",
        help: "JPEG (default; 1-bit images use CCITT G4), Flate (lossless), Fax (every image to 1-bit black and white, CCITT G4).",
      }),
      JPEGQuality: meta(z.number().int().min(1).max(100).optional(), {
        label: "JPEG quality",
        help: "1..100, default 25.",
      }),
      ResampleImages: meta(z.boolean().optional(), {
        label: "Resample images",
        help: "Reduce the resolution of images above 1.5 × ResamplingResolution (default true).",
        default: true,
      }),
      ResamplingResolution: meta(z.number().int().min(10).max(2400).optional(), {
        label: "Resampling resolution (dpi)",
        help: "Target resolution of resampled images, default 120 (1-bit images: twice this, at least 200).",
      }),
      GrayscaleImages: meta(z.boolean().optional(), {
        label: "Grayscale images",
        help: "Convert colour images to grayscale (default false).",
      }),
      ...encryptionProfileKeys,
    }),
  }),
  input: "pdf",
  pageBase: 0,
  cost: { perCall: 1, perPage: 1 },
  resultFile: { name: "result.pdf", contentType: "application/pdf", alsoUrls: true },
  response: z.object({
    url: z.string().describe("URL of the optimized PDF."),
    urls: z.array(z.string()).describe("The same URL as a one-item list (the public API documents `urls` here)."),
    inputFileSize: z.number().int().describe("Size of the source PDF in bytes."),
  }),
});
