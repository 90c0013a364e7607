import { z } from "zod";

/**
 * Field builders shared by the operation contracts. Contracts use plain typed zod schemas
 * (boolean, number, string, enum, object, array); the lenient wire layer (lib/operations/wire.ts)
 * coerces what real clients send ("True", "10", JSON strings) into those types by looking at
 * the schema, so the same schema also drives the OpenAPI document and the dashboard forms.
 *
 * Metadata keys used by the form generator and OpenAPI: label, help, advanced (fold away),
 * example, widget ("textarea" | "json" | "pages" | "rules" | "color" | "password" | "files").
 */
export interface FieldMeta {
  label: string;
  help?: string;
  advanced?: boolean;
  example?: unknown;
  widget?: "textarea" | "json" | "pages" | "rules" | "color" | "password" | "files" | "url";
  /**
   * The value the API applies when the field is absent, for a field the schema keeps optional
   * (the runner tells absence apart): OpenAPI documents it and the form shows it (a box checked).
   */
  default?: unknown;
}

export function meta<T extends z.ZodType>(schema: T, m: FieldMeta): T {
  return schema.meta({ ...m, description: m.help }) as T;
}

/**
 * Labels (and help where `.describe()` gave none) for every field of an object schema's shape,
 * for arrays of objects whose items the dashboard edits field by field.
 */
export function labelFields<T extends Record<string, z.ZodType>>(shape: T, labels: { [K in keyof T]: string | [label: string, help: string] }): T {
  const out: Record<string, z.ZodType> = {};
  for (const [key, schema] of Object.entries(shape)) {
    const l = labels[key as keyof T];
    const [label, help] = Array.isArray(l) ? l : [l, schema.description];
    out[key] = meta(schema, { label, help });
  }
  return out as T;
}

/** An optional boolean with its label (meta on the optional itself, where the form reads it). */
const bool = (label: string, help: string, advanced = false, apiDefault?: boolean) =>
  meta(z.boolean().optional(), { label, help, advanced, ...(apiDefault === undefined ? {} : { default: apiDefault }) });

/** The common request attributes of the public API. Each operation picks those it supports. */
export const common = {
  url: meta(z.string().min(1, "url: give the URL of the source file"), {
    label: "Source URL",
    help: "URL of the source file (http/https, or a Quire upload URL).",
    widget: "url",
  }),
  callback: meta(z.string().url("callback: must be an http(s) URL").optional(), {
    label: "Callback URL",
    help: "Receives the job result by POST when async is true (signed with Standard Webhooks headers).",
    advanced: true,
  }),
  httpusername: meta(z.string().optional(), {
    label: "HTTP user name",
    help: "Basic-auth user for downloading the source URL.",
    advanced: true,
  }),
  httppassword: meta(z.string().optional(), {
    label: "HTTP password",
    help: "Basic-auth password for downloading the source URL.",
    advanced: true,
    widget: "password",
  }),
  password: meta(z.string().optional(), {
    label: "PDF password",
    help: "Password of an encrypted PDF.",
    widget: "password",
    advanced: true,
  }),
  async: bool("Run in background", "Answer at once with a jobId; poll /v1/job/check or receive the callback.", true),
  inline: bool("Inline result", "Return the result in the response body instead of a file URL."),
  name: meta(z.string().max(200).optional(), {
    label: "Output file name",
    help: "File name of the generated output.",
    advanced: true,
  }),
  expiration: meta(z.number().int().min(1).optional(), {
    label: "Link lifetime (minutes)",
    help: "Minutes the output link stays valid (default 60); the output is deleted after it.",
    advanced: true,
  }),
  pages0: meta(z.string().optional(), {
    label: "Pages",
    help: "0-based page selection: 0, 1-3, 5-, !0 (last page). Empty = all pages.",
    widget: "pages",
    example: "0-2",
  }),
  pages1: meta(z.string().optional(), {
    label: "Pages",
    help: "1-based page selection, one output per item: 1, 2-5, 7-, !1 (last page). Empty = every page separately.",
    widget: "pages",
    example: "1-2,3-",
  }),
} as const;

/**
 * The job fields most operations take in this order: the source's password, the output's name
 * and link lifetime, background running with its callback, and basic auth for the source URL.
 */
export const jobFields = {
  password: common.password,
  name: common.name,
  async: common.async,
  callback: common.callback,
  httpusername: common.httpusername,
  httppassword: common.httppassword,
  expiration: common.expiration,
} as const;

const aes = z.enum(["AES128", "AES192", "AES256"]);

/** Profile keys shared by several operations (inside `profiles`). */
export const profileKeys = {
  outputDataFormat: meta(z.enum(["base64"]).optional(), {
    label: "Output data format",
    help: "base64: the output file (or inline body) holds base64 text instead of raw bytes.",
    advanced: true,
  }),
  DataEncryptionAlgorithm: meta(aes.optional(), {
    label: "Encrypt output with",
    help: "AES-CBC key size for encrypting the output (PKCS#7 padding).",
    advanced: true,
  }),
  DataEncryptionKey: meta(z.string().optional(), {
    label: "Output encryption key",
    help: "Key as text (UTF-8, or hex/base64 of the exact key length).",
    advanced: true,
    widget: "password",
  }),
  DataEncryptionIV: meta(z.string().optional(), { label: "Output encryption IV", help: "16-byte IV.", advanced: true }),
  DataDecryptionAlgorithm: meta(aes.optional(), {
    label: "Decrypt source with",
    help: "AES-CBC key size for decrypting the downloaded source before processing.",
    advanced: true,
  }),
  DataDecryptionKey: meta(z.string().optional(), {
    label: "Source decryption key",
    help: "Key as text (UTF-8, or hex/base64 of the exact key length).",
    advanced: true,
    widget: "password",
  }),
  DataDecryptionIV: meta(z.string().optional(), { label: "Source decryption IV", help: "16-byte IV.", advanced: true }),
} as const;

export const encryptionProfileKeys = {
  DataEncryptionAlgorithm: profileKeys.DataEncryptionAlgorithm,
  DataEncryptionKey: profileKeys.DataEncryptionKey,
  DataEncryptionIV: profileKeys.DataEncryptionIV,
  DataDecryptionAlgorithm: profileKeys.DataDecryptionAlgorithm,
  DataDecryptionKey: profileKeys.DataDecryptionKey,
  DataDecryptionIV: profileKeys.DataDecryptionIV,
} as const;

/** OCR, line-grouping and column keys (public API: "the OCR, line grouping and column keys"). */
export const ocrProfileKeys = {
  OCRMode: meta(z.enum(["Auto", "Never", "Always", "TextFromImagesOnly", "TextFromVectors"]).optional(), {
    label: "OCR mode",
    help: "Auto: OCR pages with too little text; Never: text layer only; Always: OCR every page; TextFromImagesOnly: OCR the images, keep the text layer; TextFromVectors: render everything and OCR.",
    advanced: true,
  }),
  OCRResolution: meta(z.number().int().min(72).max(1200).optional(), {
    label: "OCR resolution (dpi)",
    help: "72 to 1200, default 300.",
    advanced: true,
  }),
  RotationAngle: meta(z.number().int().min(0).max(3).optional(), {
    label: "Rotation",
    help: "Rotate pages by N×90° before analysis (0–3).",
    advanced: true,
  }),
  LineGroupingMode: meta(z.enum(["None", "GroupByRows", "GroupByColumns", "JoinOrphanedRows"]).optional(), {
    label: "Line grouping mode",
    help: "How multi-line cells are merged.",
    advanced: true,
  }),
  ConsiderFontColors: bool("Consider font colours", "Use font colours when detecting table structure.", true),
  DetectNewColumnBySpacesRatio: meta(z.string().optional(), {
    label: "New column space ratio",
    help: "Gap (in space widths) above which text starts a new column; default 1.2.",
    advanced: true,
  }),
  AutoAlignColumnsToHeader: bool(
    "Align columns to header",
    "The row with the most columns is the header and other rows align to it (default true).",
    true,
    true,
  ),
  "OCRImagePreprocessingFilters.AddGammaCorrection": meta(z.array(z.string()).optional(), {
    label: "OCR gamma correction",
    help: 'Gamma before OCR, e.g. ["1.4"]. Also accepted as "OCRImagePreprocessingFilters.AddGammaCorrection()".',
    advanced: true,
  }),
  "OCRImagePreprocessingFilters.AddGrayscale": bool(
    "OCR grayscale",
    'Convert to grayscale before OCR. Also accepted as "OCRImagePreprocessingFilters.AddGrayscale()".',
    true,
  ),
} as const;

/** Builds the `profiles` field of a contract from its known keys (unknown keys are ignored). */
export function profiles<T extends z.ZodRawShape>(shape: T) {
  return meta(z.object(shape).optional(), {
    label: "Profiles",
    help: "Extra processing options as JSON.",
    advanced: true,
    widget: "json",
  });
}
