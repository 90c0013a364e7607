import { z } from "zod";
import { common, encryptionProfileKeys, meta, profileKeys, profiles } from "@/lib/operations/fields";

/** The image formats the PDF → image operations write. */
export type ImageFormatId = "png" | "jpg" | "webp" | "tiff";

/**
 * Request fields of the PDF → image operations (png, jpg, webp, tiff). Universal: no
 * server-only imports. docs/convert.md ("PDF → images") describes them.
 */
export function imageParams(format: ImageFormatId) {
  // Only the keys of this format appear in its form and OpenAPI entry; the runner reads them by name.
  const extra: z.ZodRawShape = {
    png: {},
    jpg: {
      JPEGQuality: meta(z.number().int().min(1).max(100).optional(), {
        label: "JPEG quality",
        help: "1 (smallest) to 100 (best), default 85.",
        advanced: true,
      }),
    },
    webp: {
      WebPQuality: meta(z.number().int().min(1).max(100).optional(), {
        label: "WebP quality",
        help: "1 (smallest) to 100 (best), default 80.",
        advanced: true,
      }),
    },
    tiff: {
      TIFFCompression: meta(z.enum(["LZW", "Deflate", "JPEG", "CCITT", "None"]).optional(), {
        label: "TIFF compression",
        help: "LZW (default, lossless), Deflate, JPEG, CCITT (black and white, Group 4 fax) or None.",
        advanced: true,
      }),
    },
  }[format];
  return z.object({
    url: common.url,
    pages: common.pages0,
    rect: meta(z.string().optional(), {
      label: "Area (rect)",
      help: 'Only this area of each page, in points from the top-left corner: "x y width height".',
      example: "0 0 300 400",
      advanced: true,
    }),
    inline: meta(z.boolean().optional(), {
      label: "Inline result",
      help: "Also return the images as base64 in body: a string for one image (or the TIFF), a list for several pages.",
    }),
    password: common.password,
    async: common.async,
    name: common.name,
    expiration: common.expiration,
    callback: common.callback,
    httpusername: common.httpusername,
    httppassword: common.httppassword,
    profiles: profiles({
      RenderingResolution: meta(z.number().min(10).max(1200).optional(), {
        label: "Resolution (dpi)",
        help: "Dots per inch of the images, default 150 (a Letter page is 1275×1650 pixels).",
        advanced: true,
      }),
      ...extra,
      outputDataFormat: profileKeys.outputDataFormat,
      ...encryptionProfileKeys,
    }),
  });
}

/** The answer of the PDF → image operations. */
export function imageResponse(format: ImageFormatId) {
  return format === "tiff"
    ? z.object({
        url: z.string().optional().describe("URL of the multi-page TIFF file."),
        body: z.string().optional().describe("The TIFF file in base64 (inline: true)."),
      })
    : z.object({
        urls: z.array(z.string()).optional().describe("One image URL per page, in page order."),
        body: z
          .union([z.string(), z.array(z.string())])
          .optional()
          .describe("inline: true: the image in base64 (one page), or one base64 image per page in page order."),
      });
}
