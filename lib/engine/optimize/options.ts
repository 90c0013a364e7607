/**
 * Options of the PDF optimizer in engine terms. The operations (/v2/pdf/compress,
 * /v1/pdf/optimize) translate their wire parameters into these. Universal (no server code) so
 * the contracts can share the type names.
 */

/** What an image is written as. jpeg2000 is accepted but written as JPEG (see docs/compression.md). */
export type ImageFormat = "jpeg" | "jpeg2000" | "ccitt-g4" | "ccitt-g3" | "zip";

/** Images are treated by class: colour (3+ components), grayscale (1 component, 2+ bits), monochrome (1 bit). */
export type ImageClass = "color" | "grayscale" | "monochrome";

export interface DownsampleOptions {
  skip: boolean;
  /** Resolution images are reduced to, in pixels per placed inch. */
  targetPpi: number;
  /** Only images whose resolution is at or above this are reduced. */
  thresholdPpi: number;
}

export interface CompressionOptions {
  skip: boolean;
  format: ImageFormat;
  /** JPEG quality 1..100 (also used for the JPEG written in place of JPEG 2000). */
  jpegQuality: number;
}

export interface ImageClassOptions {
  /** Leave images of this class exactly as they are. */
  skip: boolean;
  downsample: DownsampleOptions;
  compression: CompressionOptions;
}

export interface OptimizeOptions {
  images: Record<ImageClass, ImageClassOptions>;
  /**
   * Convert colour images before compressing: "gray" keeps one component, "mono" thresholds
   * to 1 bit (the v1 GrayscaleImages and ImageOptimizationFormat=Fax options). Grayscale images
   * follow "mono" too.
   */
  convertColor?: "gray" | "mono";
  /**
   * MuPDF's garbage collection level: 0 none, 1 drop unreferenced objects, 2 also compact the
   * xref, 3 also merge duplicate objects, 4 also merge duplicate streams.
   */
  garbage: 0 | 1 | 2 | 3 | 4;
  /** Pack objects into compressed object streams (PDF 1.5). */
  objectStreams: boolean;
  /** Recompress Flate streams (content, fonts, metadata) at the highest zlib level when that is smaller. */
  recompressFlate: boolean;
  /** 0-based pages whose images are processed; undefined = all pages. */
  pages?: number[];
  /** Password of an encrypted source. */
  password?: string;
}

const colorLike = (): ImageClassOptions => ({
  skip: false,
  downsample: { skip: false, targetPpi: 150, thresholdPpi: 225 },
  compression: { skip: false, format: "jpeg", jpegQuality: 60 },
});

/** The defaults of /v2/pdf/compress in engine terms (see DEFAULT_COMPRESS_CONFIG in its contract). */
export function defaultOptimizeOptions(): OptimizeOptions {
  return {
    images: {
      color: colorLike(),
      grayscale: colorLike(),
      monochrome: {
        skip: false,
        downsample: { skip: false, targetPpi: 300, thresholdPpi: 450 },
        compression: { skip: false, format: "ccitt-g4", jpegQuality: 60 },
      },
    },
    garbage: 4,
    objectStreams: true,
    recompressFlate: true,
  };
}

/** What the optimizer did, for the response message and the tests. */
export interface OptimizeReport {
  inputSize: number;
  outputSize: number;
  pageCount: number;
  /** True when the optimized file was not smaller and the original bytes were returned. */
  keptOriginal: boolean;
  images: {
    /** Image XObjects in the document. */
    found: number;
    /** Images rewritten (recompressed and/or downsampled). */
    rewritten: number;
    /** Of those, images whose pixel size was reduced. */
    downsampled: number;
    /** Images whose bytes could not be read and were kept as they were. */
    unreadable: number;
  };
  /** Human-readable notes: format fallbacks, kept original... */
  notes: string[];
}

export interface OptimizeResult {
  bytes: Uint8Array;
  report: OptimizeReport;
}
