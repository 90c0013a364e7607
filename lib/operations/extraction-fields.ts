import { z } from "zod";
import { meta } from "@/lib/operations/fields";

/**
 * Request fields and profile keys shared by the text/table extraction operations
 * (pdf-convert-to-csv, pdf-convert-to-html). Universal: no server-only imports.
 */
export const extractionFields = {
  rect: meta(z.string().optional(), {
    label: "Area (rect)",
    help: "Extraction area in points from the top-left corner: \"x y width height\" (e.g. \"51 180 500 300\").",
    example: "0 0 300 400",
    advanced: true,
  }),
  lang: meta(z.string().optional(), {
    label: "OCR language",
    help: "Language(s) of scanned text: eng (default), fra, or combined like eng+fra. More are added by dropping .traineddata files in the OCR language folder.",
    example: "eng",
  }),
  lineGrouping: meta(z.enum(["0", "1", "2", "3"]).optional(), {
    label: "Line grouping",
    help: "1 = group wrapped lines into rows, 2 = merge the lines of each column block, 3 = join orphaned one-cell lines into the row above. Empty or 0 = one line per row.",
    advanced: true,
  }),
  unwrap: meta(z.boolean().optional(), {
    label: "Unwrap cell lines",
    help: "Join the lines of a multi-line cell with a space instead of a line break (with lineGrouping 1).",
    advanced: true,
  }),
} as const;

const columnDetectionModes = ["ContentGroupsAndBorders", "ContentGroups", "Borders", "BorderedTables", "ContentGroupsAI"] as const;

/** Profile keys of table analysis beyond the shared OCR/line-grouping/column keys. */
export const tableProfileKeys = {
  ColumnDetectionMode: meta(z.enum(columnDetectionModes).optional(), {
    label: "Column detection",
    help: "ContentGroupsAndBorders (default): ruling lines where present, whitespace elsewhere. ContentGroups: whitespace only. Borders: ruling lines only. BorderedTables: only ruled tables are output. ContentGroupsAI: the most thorough analysis (also joins wrapped rows).",
    advanced: true,
  }),
  OCRAutoModeMinExistingTextLength: meta(z.number().int().min(0).optional(), {
    label: "OCR when text shorter than",
    help: "OCRMode Auto OCRs pages with fewer characters of text than this (default 8).",
    advanced: true,
  }),
  ConsiderFontSizes: meta(z.boolean().optional(), {
    label: "Consider font sizes",
    help: "A change of font size separates cells.",
    advanced: true,
  }),
  ExtractionArea: meta(z.array(z.number()).length(4).optional(), {
    label: "Extraction area",
    help: "[x, y, width, height] in points from the top-left corner (like rect).",
    advanced: true,
  }),
  ExtractShadowLikeText: meta(z.boolean().optional(), {
    label: "Extract shadow-like text",
    help: "Default true. False skips invisible text (such as an OCR layer) and requires OCRMode Auto.",
    advanced: true,
  }),
} as const;
