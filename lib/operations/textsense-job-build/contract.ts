import { z } from "zod";
import { common, encryptionProfileKeys, meta, profileKeys, profiles } from "@/lib/operations/fields";
import { defineOperation } from "@/lib/operations/types";

/** TextSense output types: JSON (pages, lines and words with their boxes), plain text, searchable PDF. */
export const textSenseOutputTypes = { json: "application/json", txt: "text/plain", pdf: "application/pdf" } as const;
export type TextSenseOutputType = keyof typeof textSenseOutputTypes;

export interface TextSenseJob {
  outputType: TextSenseOutputType;
  /** 1-based page numbers and ranges ("1-3,5"), as TextSense numbers pages; undefined: every page. */
  pageRange?: string;
  /** OCR languages from reqOption.lang (a Quire extension), e.g. "deu" or "eng+fra". */
  lang?: string;
}

const OUTPUT_ALIASES: Record<string, TextSenseOutputType> = { json: "json", txt: "txt", text: "txt", pdf: "pdf" };
const PAGE_RANGE = /^\s*(\d+\s*(-\s*\d*)?)(\s*,\s*\d+\s*(-\s*\d*)?)*\s*$/;

const asObject = (v: unknown): Record<string, unknown> | undefined => {
  if (typeof v === "string" && v.trim()) {
    try {
      return asObject(JSON.parse(v));
    } catch {
      return undefined;
    }
  }
  if (Array.isArray(v)) return asObject(v[0]);
  return v && typeof v === "object" ? (v as Record<string, unknown>) : undefined;
};

/** A key of `o` in any letter case (the public API's clients vary). */
const pick = (o: Record<string, unknown> | undefined, name: string) =>
  o ? Object.entries(o).find(([k]) => k.toLowerCase() === name.toLowerCase())?.[1] : undefined;

/**
 * Reads `options.extraJobs.option` ({reqType: "Document", reqOption: {}, outputType, pageRange}).
 * Problems come back as [path, message] pairs so the contract reports them at submit (454).
 */
export function readTextSenseOptions(options: unknown): { job: TextSenseJob; problems: Array<[string, string]> } {
  const problems: Array<[string, string]> = [];
  const job: TextSenseJob = { outputType: "json" };
  if (options === undefined || options === "") return { job, problems };
  const o = asObject(options);
  if (!o) return { job, problems: [["options", 'give an object: {"extraJobs": {"type": "textSense", "option": {"reqType": "Document", "reqOption": {}, "outputType": "json"}}}']] };
  const extra = asObject(pick(o, "extraJobs"));
  if (!extra) return { job, problems };
  const type = pick(extra, "type");
  if (type !== undefined && String(type).toLowerCase() !== "textsense") problems.push(["options.extraJobs.type", 'use "textSense" (the only job type)']);
  const option = asObject(pick(extra, "option"));
  if (!option) return { job, problems };
  const reqType = pick(option, "reqType");
  if (reqType !== undefined && String(reqType).toLowerCase() !== "document") problems.push(["options.extraJobs.option.reqType", 'use "Document" (the only recognition logic)']);
  const out = pick(option, "outputType");
  if (out !== undefined && out !== "") {
    const t = OUTPUT_ALIASES[String(out).trim().toLowerCase()];
    if (t) job.outputType = t;
    else problems.push(["options.extraJobs.option.outputType", `one of json, txt, pdf (got ${JSON.stringify(out)})`]);
  }
  const range = pick(option, "pageRange");
  if (range !== undefined && range !== "" && String(range).toLowerCase() !== "all") {
    if (PAGE_RANGE.test(String(range)) && !/(^|[,-]\s*)0(\s|,|-|$)/.test(String(range))) job.pageRange = String(range).replace(/\s+/g, "");
    else problems.push(["options.extraJobs.option.pageRange", `1-based pages and ranges such as "1-3,5" or "2-" (got ${JSON.stringify(range)})`]);
  }
  const req = pick(option, "reqOption");
  if (req !== undefined && req !== "" && !asObject(req)) problems.push(["options.extraJobs.option.reqOption", "give an object ({} for basic recognition)"]);
  const lang = pick(asObject(req), "lang");
  if (typeof lang === "string" && lang.trim()) job.lang = lang.trim();
  return { job, problems };
}

/** The output's name without extension: `name` (its extension dropped) or "result". */
export function textSenseBaseName(name: string | undefined): string {
  return (name?.trim() || "result").replace(/\.[^.]*$/, "") || "result";
}

/** TextSense's 1-based pageRange as Quire's 0-based `pages` ("1-3,5" → "0-2,4"). */
export function pageRangeToPages(range: string | undefined): string | undefined {
  if (!range) return undefined;
  return range
    .split(",")
    .map((part) => part.replace(/\d+/g, (n) => String(Number(n) - 1)))
    .join(",");
}

/**
 * POST /v1/textsense/job/build — the public API's TextSense OCR job: the document at `inputUri`
 * (a PDF or an image) is read by OCR and the result stored as JSON (pages, lines, words with their
 * boxes and confidence), plain text or a searchable PDF (`options.extraJobs.option.outputType`).
 * Always asynchronous: the call answers a jobId; /v1/job/check (or the callback) then gives the
 * URL of the output. docs/convert.md ("TextSense OCR"). Cost: 1 per call + 1 per page read.
 */
export const operation = defineOperation({
  id: "textsense-job-build",
  methods: ["POST"],
  path: "/v1/textsense/job/build",
  title: "TextSense OCR job",
  summary: "OCRs a scanned PDF or image in the background into JSON with word boxes, plain text or a searchable PDF.",
  category: "convert",
  params: z.object({
    url: meta(common.url, {
      label: "Input URI",
      help: "The PDF or image (PNG, JPEG, TIFF, BMP) to read; the public API calls it inputUri (both names work).",
      example: "https://example.com/scan.pdf",
    }),
    options: meta(z.union([z.string().max(20_000), z.record(z.string(), z.unknown())]).optional().superRefine((v, ctx) => {
      for (const [path, message] of readTextSenseOptions(v).problems) ctx.addIssue({ code: "custom", message: `${path}: ${message}` });
    }), {
      label: "Options (JSON)",
      help: 'The job: {"extraJobs": {"type": "textSense", "option": {"reqType": "Document", "reqOption": {}, "outputType": "json" | "txt" | "pdf", "pageRange": "1-3"}}}. pageRange is 1-based; reqOption.lang (Quire extension) names the OCR language(s), e.g. "deu" or "eng+fra".',
      example: '{"extraJobs":{"type":"textSense","option":{"reqType":"Document","reqOption":{},"outputType":"json"}}}',
    }),
    password: common.password,
    name: common.name,
    expiration: common.expiration,
    callback: common.callback,
    httpusername: common.httpusername,
    httppassword: common.httppassword,
    profiles: profiles({ outputDataFormat: profileKeys.outputDataFormat, ...encryptionProfileKeys }),
  }),
  wireAliases: { inputUri: "url" },
  input: "document",
  pageBase: 0,
  alwaysAsync: true,
  cost: { perCall: 1, perPage: 1 },
  resultFileFor: (p) => {
    const t = readTextSenseOptions(p.options).job.outputType;
    return { name: `${textSenseBaseName(p.name)}.${t}`, contentType: textSenseOutputTypes[t] };
  },
  response: z.object({
    url: z
      .string()
      .optional()
      .describe("URL of the output (json, txt or pdf as outputType asks): in /v1/job/check's answer (and the callback's) once the job succeeded."),
  }),
});
