import { z } from "zod";
import { common, encryptionProfileKeys, jobFields, meta, profileKeys, profiles } from "@/lib/operations/fields";
import { defineOperation } from "@/lib/operations/types";

/**
 * The default `config` of POST /v2/pdf/compress, published in the OpenAPI document and
 * docs/compression.md. The public API fixes the colour defaults (150/225 ppi, JPEG quality 60) and
 * the monochrome resolutions (300/450 ppi); grayscale follows colour and monochrome uses
 * CCITT Group 4, the format made for 1-bit images.
 */
export const DEFAULT_COMPRESS_CONFIG = {
  images: {
    color: {
      skip: false,
      downsample: { skip: false, downsample_ppi: 150, threshold_ppi: 225 },
      compression: { skip: false, compression_format: "jpeg", compression_params: { quality: 60 } },
    },
    grayscale: {
      skip: false,
      downsample: { skip: false, downsample_ppi: 150, threshold_ppi: 225 },
      compression: { skip: false, compression_format: "jpeg", compression_params: { quality: 60 } },
    },
    monochrome: {
      skip: false,
      downsample: { skip: false, downsample_ppi: 300, threshold_ppi: 450 },
      compression: { skip: false, compression_format: "CCITTGroup4", compression_params: {} },
    },
  },
  save: { garbage: 4 },
} as const;

export const compressionFormats = ["jpeg", "jpeg2000", "CCITTGroup4", "CCITTGroup3", "zip"] as const;

const compressionParamsSchema = z.object({
  quality: z.number().min(0).max(100).optional().describe("jpeg: quality 0..100 (default 60)."),
  quality_mode: z.enum(["rates", "dB"]).optional().describe("jpeg2000: `rates` (default) or `dB`."),
  quality_layers: z
    .array(z.number().positive())
    .optional()
    .describe(
      "jpeg2000: compression ratios (rates, default [30]) or PSNR targets (dB, default [38, 34, 30]).",
    ),
});

type ClassDefaults =
  (typeof DEFAULT_COMPRESS_CONFIG)["images"][keyof (typeof DEFAULT_COMPRESS_CONFIG)["images"]];

/** One image class (`color`, `grayscale`, `monochrome`); every member has its default. */
function imageClassSchema(d: ClassDefaults, label: string) {
  return z
    .object({
      skip: z.boolean().default(d.skip).describe(`Leave ${label} images untouched.`),
      downsample: z
        .object({
          skip: z.boolean().default(d.downsample.skip).describe("Do not reduce resolution."),
          downsample_ppi: z
            .number()
            .positive()
            .max(10_000)
            .default(d.downsample.downsample_ppi)
            .describe("Target resolution (pixels per inch of the image's placed size on the page)."),
          threshold_ppi: z
            .number()
            .positive()
            .max(10_000)
            .default(d.downsample.threshold_ppi)
            .describe("Only images at or above this resolution are reduced to downsample_ppi."),
        })
        .prefault({}),
      compression: z
        .object({
          skip: z
            .boolean()
            .default(d.compression.skip)
            .describe("Keep the image's encoding (unless it is downsampled)."),
          compression_format: z
            .enum(compressionFormats)
            .default(d.compression.compression_format)
            .describe(
              "jpeg, jpeg2000 (written as JPEG: see docs), CCITTGroup4, CCITTGroup3 (1-bit; colour and gray images are thresholded), zip (lossless Flate).",
            ),
          compression_params: compressionParamsSchema.prefault(() => ({
            ...d.compression.compression_params,
          })),
        })
        .prefault({}),
    })
    .prefault({});
}

export const compressConfigSchema = z.object({
  images: z
    .object({
      color: imageClassSchema(DEFAULT_COMPRESS_CONFIG.images.color, "colour"),
      grayscale: imageClassSchema(DEFAULT_COMPRESS_CONFIG.images.grayscale, "grayscale"),
      monochrome: imageClassSchema(DEFAULT_COMPRESS_CONFIG.images.monochrome, "monochrome (1-bit)"),
    })
    .prefault({}),
  save: z
    .object({
      garbage: z
        .number()
        .int()
        .min(0)
        .max(4)
        .default(DEFAULT_COMPRESS_CONFIG.save.garbage)
        .describe(
          "0 none; 1 remove unreferenced objects; 2 also compact the xref table; 3 also merge duplicate objects; 4 also merge duplicate streams.",
        ),
    })
    .prefault({}),
});

export type CompressConfig = z.infer<typeof compressConfigSchema>;

/**
 * POST /v2/pdf/compress — downsamples and recompresses images by class, drops unused objects,
 * merges duplicates and writes object streams; never returns a file bigger than the input.
 * Cost: 1 per call + 1 per page.
 */
export const operation = defineOperation({
  id: "pdf-compress",
  path: "/v2/pdf/compress",
  title: "Compress PDF",
  summary: "Makes a PDF smaller: downsamples and recompresses images, removes unused and duplicate objects.",
  category: "optimize",
  params: z.object({
    url: common.url,
    config: meta(
      compressConfigSchema.default(
        () => structuredClone(DEFAULT_COMPRESS_CONFIG) as unknown as CompressConfig,
      ),
      {
        label: "Compression config",
        help:
          "images.color|grayscale|monochrome: skip, downsample {skip, downsample_ppi, threshold_ppi}, compression {skip, compression_format, compression_params}; save.garbage 0–4. " +
          "Members you leave out take their defaults. Default: " +
          JSON.stringify(DEFAULT_COMPRESS_CONFIG),
        widget: "json",
        example: DEFAULT_COMPRESS_CONFIG,
      },
    ),
    pages: meta(z.string().optional(), {
      label: "Pages",
      help: "0-based pages whose images are processed (0, 1-3, 5-, !0). Empty = all pages. The output always has every page.",
      widget: "pages",
    }),
    ...jobFields,
    profiles: profiles({
      outputDataFormat: profileKeys.outputDataFormat,
      JPEGQuality: meta(z.number().int().min(1).max(100).optional(), {
        label: "JPEG quality",
        help: "1..100. When sent, sets the JPEG quality of every image class (overrides compression_params.quality).",
      }),
      ...encryptionProfileKeys,
    }),
  }),
  input: "pdf",
  pageBase: 0,
  cost: { perCall: 1, perPage: 1 },
  resultFile: { name: "result.pdf", contentType: "application/pdf" },
  response: z.object({
    url: z.string().describe("URL of the compressed PDF."),
    inputFileSize: z.number().int().describe("Size of the source PDF in bytes."),
    compressionRatio: z.number().describe("fileSize / inputFileSize (1 when the original was kept)."),
  }),
});
