import { QuireError } from "@/lib/core/errors";
import type { Area } from "@/lib/engine/tables/extract-tables";
import type { ColumnDetectionMode, LineGrouping, TableOptions } from "@/lib/engine/tables/types";
import { renderedSize } from "@/lib/engine/text/page-frame";
import type { PageText } from "@/lib/engine/text/types";

/**
 * Turns the validated request fields and profile keys shared by the extraction operations
 * into engine options, with the cross-field checks zod cannot express (454 for bad values).
 */
export interface ExtractionParams {
  pages?: string;
  rect?: string;
  lang?: string;
  lineGrouping?: "0" | "1" | "2" | "3";
  unwrap?: boolean;
  password?: string;
  profiles?: {
    OCRMode?: "Auto" | "Never" | "Always" | "TextFromImagesOnly" | "TextFromVectors";
    OCRResolution?: number;
    RotationAngle?: number;
    LineGroupingMode?: LineGrouping;
    ConsiderFontColors?: boolean;
    DetectNewColumnBySpacesRatio?: string;
    AutoAlignColumnsToHeader?: boolean;
    "OCRImagePreprocessingFilters.AddGammaCorrection"?: string[];
    "OCRImagePreprocessingFilters.AddGrayscale"?: boolean;
    ColumnDetectionMode?: ColumnDetectionMode;
    OCRAutoModeMinExistingTextLength?: number;
    ConsiderFontSizes?: boolean;
    ExtractionArea?: number[];
    ExtractShadowLikeText?: boolean;
    SaveVectors?: boolean;
  };
}

export interface ResolvedExtraction {
  text: {
    password?: string;
    pages?: string;
    ocrMode: "Auto" | "Never" | "Always" | "TextFromImagesOnly" | "TextFromVectors";
    lang?: string;
    ocrResolution: number;
    minTextLength: number;
    /** Clockwise quarter turns; undefined = turn sideways text upright automatically. */
    rotation?: number;
    grayscale: boolean;
    gamma?: number[];
    includeInvisible: boolean;
    withRules: boolean;
  };
  table: TableOptions;
  area?: Area;
}

const GROUPING: Record<string, LineGrouping> = { "0": "None", "1": "GroupByRows", "2": "GroupByColumns", "3": "JoinOrphanedRows" };

export function resolveExtraction(p: ExtractionParams): ResolvedExtraction {
  const prof = p.profiles ?? {};
  const shadow = prof.ExtractShadowLikeText !== false;
  const explicitOcr = prof.OCRMode;
  if (!shadow && explicitOcr && explicitOcr !== "Auto") {
    throw new QuireError(454, `ExtractShadowLikeText: false requires OCRMode Auto (got ${explicitOcr}).`);
  }
  const ocrMode = explicitOcr ?? (prof.SaveVectors ? "TextFromVectors" : "Auto");
  const ocrResolution = prof.OCRResolution ?? 300;
  if (ocrResolution < 72 || ocrResolution > 1200) throw new QuireError(454, `OCRResolution: use 72 to 1200 dpi, got ${ocrResolution}.`);

  let spaceRatio: number | undefined;
  if (prof.DetectNewColumnBySpacesRatio !== undefined) {
    spaceRatio = Number.parseFloat(String(prof.DetectNewColumnBySpacesRatio).replace(",", "."));
    if (!Number.isFinite(spaceRatio) || spaceRatio <= 0 || spaceRatio > 100) {
      throw new QuireError(454, `DetectNewColumnBySpacesRatio: give a positive number like "1.2", got "${prof.DetectNewColumnBySpacesRatio}".`);
    }
  }
  let gamma: number[] | undefined;
  const rawGamma = prof["OCRImagePreprocessingFilters.AddGammaCorrection"];
  if (rawGamma !== undefined) {
    gamma = rawGamma.map((g) => Number.parseFloat(String(g).replace(",", ".")));
    if (gamma.some((g) => !Number.isFinite(g) || g <= 0 || g > 10)) {
      throw new QuireError(454, `OCRImagePreprocessingFilters.AddGammaCorrection: give gamma values between 0 and 10, e.g. ["1.4"].`);
    }
  }
  const mode = prof.ColumnDetectionMode ?? "ContentGroupsAndBorders";
  const lineGrouping = p.lineGrouping !== undefined ? GROUPING[p.lineGrouping] : (prof.LineGroupingMode ?? "None");
  const area = parseArea(p.rect, prof.ExtractionArea);
  return {
    text: {
      password: p.password,
      pages: p.pages,
      ocrMode,
      lang: p.lang,
      ocrResolution,
      minTextLength: prof.OCRAutoModeMinExistingTextLength ?? 8,
      rotation: prof.RotationAngle,
      grayscale: prof["OCRImagePreprocessingFilters.AddGrayscale"] === true,
      gamma,
      includeInvisible: shadow,
      withRules: mode !== "ContentGroups",
    },
    table: {
      mode,
      lineGrouping,
      unwrap: p.unwrap === true,
      considerFontColors: prof.ConsiderFontColors === true,
      considerFontSizes: prof.ConsiderFontSizes === true,
      spaceRatio,
      autoAlignToHeader: prof.AutoAlignColumnsToHeader !== false,
      wholeAreaIsTable: area !== undefined,
    },
    area,
  };
}

/** rect ("x y width height", spaces or commas) or ExtractionArea ([x, y, width, height]); rect wins. */
export function parseArea(rect: string | undefined, extractionArea: number[] | undefined): Area | undefined {
  let nums: number[] | undefined;
  let field = "rect";
  if (rect !== undefined && rect.trim() !== "") {
    nums = rect.trim().split(/[\s,;]+/).map(Number);
    if (nums.length !== 4 || nums.some((n) => !Number.isFinite(n))) {
      throw new QuireError(454, `rect: use "x y width height" in points, e.g. "51 180 500 300"; got "${rect}".`);
    }
  } else if (extractionArea) {
    nums = extractionArea;
    field = "ExtractionArea";
  }
  if (!nums) return undefined;
  const [x, y, width, height] = nums;
  if (x < 0 || y < 0) throw new QuireError(454, `${field}: x and y are points from the top-left corner and cannot be negative.`);
  if (width <= 0 || height <= 0) throw new QuireError(454, `${field}: width and height must be greater than 0.`);
  return { x, y, width, height };
}

/** 454 when the area misses a selected page entirely. */
export function checkAreaOnPages(area: Area | undefined, pages: Pick<PageText, "index" | "width" | "height">[], field = "rect"): void {
  if (!area) return;
  for (const p of pages) {
    const { width, height } = renderedSize(p);
    if (area.x >= width || area.y >= height) {
      throw new QuireError(
        454,
        `${field}: the area (${area.x}, ${area.y}, ${area.width} × ${area.height} pt) lies outside page ${p.index} (${Math.round(width)} × ${Math.round(height)} pt).`,
      );
    }
  }
}
