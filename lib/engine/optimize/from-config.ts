import type { ImageClassOptions, ImageFormat, OptimizeOptions } from "./options";
import { defaultOptimizeOptions } from "./options";

/**
 * Wire configs → engine options. The v2 `config` and the v1 optimize profiles both land here so
 * the two endpoints cannot drift apart. Universal and pure.
 */

/** The shape of one image class of the v2 config after validation (defaults filled in). */
export interface V2ImageClass {
  skip: boolean;
  downsample: { skip: boolean; downsample_ppi: number; threshold_ppi: number };
  compression: {
    skip: boolean;
    compression_format: "jpeg" | "jpeg2000" | "CCITTGroup4" | "CCITTGroup3" | "zip";
    compression_params: { quality?: number; quality_mode?: "rates" | "dB"; quality_layers?: number[] };
  };
}

export interface V2Config {
  images: { color: V2ImageClass; grayscale: V2ImageClass; monochrome: V2ImageClass };
  save: { garbage: number };
}

const FORMAT: Record<V2ImageClass["compression"]["compression_format"], ImageFormat> = {
  jpeg: "jpeg",
  jpeg2000: "jpeg2000",
  CCITTGroup4: "ccitt-g4",
  CCITTGroup3: "ccitt-g3",
  zip: "zip",
};

/**
 * JPEG 2000 cannot be written (MuPDF and the bundled libvips have no encoder), so its
 * parameters pick the JPEG quality written instead: a PSNR target in dB maps linearly
 * (30 dB → 20, 38 dB → 60, 45 dB → 95); a compression ratio maps to 100 − 1.5 × ratio
 * (30:1 → 55). The best layer (highest dB, lowest ratio) decides.
 */
export function jpegQualityForJpeg2000(params: V2ImageClass["compression"]["compression_params"]): number {
  const mode = params.quality_mode ?? "rates";
  const layers = params.quality_layers?.length ? params.quality_layers : mode === "dB" ? [38, 34, 30] : [30];
  const q = mode === "dB" ? (Math.max(...layers) - 26) * 5 : 100 - 1.5 * Math.min(...layers);
  return clampQuality(q);
}

function clampQuality(q: number): number {
  return Math.max(1, Math.min(100, Math.round(q)));
}

function classOptions(c: V2ImageClass, jpegQualityOverride: number | undefined): ImageClassOptions {
  const format = FORMAT[c.compression.compression_format];
  const params = c.compression.compression_params ?? {};
  const quality =
    jpegQualityOverride ??
    (format === "jpeg2000" ? jpegQualityForJpeg2000(params) : clampQuality(params.quality ?? 60));
  return {
    skip: c.skip,
    downsample: {
      skip: c.downsample.skip,
      targetPpi: c.downsample.downsample_ppi,
      thresholdPpi: c.downsample.threshold_ppi,
    },
    compression: { skip: c.compression.skip, format, jpegQuality: quality },
  };
}

/** /v2/pdf/compress: `config` plus the JPEGQuality profile (which, when sent, sets every class's JPEG quality). */
export function optionsFromV2Config(config: V2Config, jpegQualityProfile?: number): OptimizeOptions {
  const base = defaultOptimizeOptions();
  return {
    ...base,
    images: {
      color: classOptions(config.images.color, jpegQualityProfile),
      grayscale: classOptions(config.images.grayscale, jpegQualityProfile),
      monochrome: classOptions(config.images.monochrome, jpegQualityProfile),
    },
    garbage: Math.max(0, Math.min(4, Math.round(config.save.garbage))) as OptimizeOptions["garbage"],
  };
}

/** The v1 optimize profile keys, after defaults. */
export interface V1Settings {
  ImageOptimizationFormat: "JPEG" | "Flate" | "Fax";
  JPEGQuality: number;
  ResampleImages: boolean;
  ResamplingResolution: number;
  GrayscaleImages: boolean;
}

/** Images are resampled when at least this many times above ResamplingResolution (as v2's 225/150). */
const V1_THRESHOLD_FACTOR = 1.5;

/**
 * /v1/pdf/optimize: one format for every image. JPEG and Flate keep 1-bit images 1-bit (CCITT
 * G4 with JPEG, Flate with Flate); Fax turns every image into 1-bit CCITT G4.
 */
export function optionsFromV1(s: V1Settings): OptimizeOptions {
  const base = defaultOptimizeOptions();
  const quality = clampQuality(s.JPEGQuality);
  const downsample = (ppi: number) => ({
    skip: !s.ResampleImages,
    targetPpi: ppi,
    thresholdPpi: ppi * V1_THRESHOLD_FACTOR,
  });
  const photoFormat: ImageFormat =
    s.ImageOptimizationFormat === "Flate" ? "zip" : s.ImageOptimizationFormat === "Fax" ? "ccitt-g4" : "jpeg";
  const monoFormat: ImageFormat = s.ImageOptimizationFormat === "Flate" ? "zip" : "ccitt-g4";
  const photo = (): ImageClassOptions => ({
    skip: false,
    downsample: downsample(s.ResamplingResolution),
    compression: { skip: false, format: photoFormat, jpegQuality: quality },
  });
  return {
    ...base,
    images: {
      color: photo(),
      grayscale: photo(),
      monochrome: {
        skip: false,
        // 1-bit images need about twice the resolution to stay legible.
        downsample: downsample(Math.max(s.ResamplingResolution * 2, 200)),
        compression: { skip: false, format: monoFormat, jpegQuality: quality },
      },
    },
    convertColor: s.ImageOptimizationFormat === "Fax" ? "mono" : s.GrayscaleImages ? "gray" : undefined,
  };
}
