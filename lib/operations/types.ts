import type { z } from "zod";

/** How the spine obtains the operation's input before the runner starts. */
export type InputKind =
  | "pdf" // one file from `url`, expected to be a PDF
  | "document" // one file from `url`: PDF or image (PNG, JPEG, TIFF...)
  | "images" // several files: `url` holds comma-separated URLs
  | "sheet" // one spreadsheet file (.xls, .xlsx, .ods, .csv)
  | "office" // one word-processor file (.doc, .docx, .rtf, .odt)
  | "email" // one e-mail file (.eml, .msg)
  | "webpage" // nothing is downloaded: the runner loads `url` in the browser through the egress guard
  | "pdfs" // several PDFs: `url` holds comma-separated URLs (merge)
  | "files" // several documents of any kind the operation converts: comma-separated URLs (merge2)
  | "file" // one file of any kind the runner reads itself (an e-mail: .eml or .msg)
  | "none"; // no source file: the runner makes its output from the params (barcode generate, e-mail send)

/** Whether `url` holds several comma-separated URLs (and a multipart call may send several files). */
export function takesSeveralFiles(kind: InputKind | string): boolean {
  return kind === "images" || kind === "pdfs" || kind === "files";
}

/**
 * The contract of one operation: declared once, used by the wire parser, the job re-check,
 * the OpenAPI document, the dashboard form and the tests. Universal (client + server).
 */
export interface OperationDefinition<S extends z.ZodObject = z.ZodObject, R extends z.ZodObject = z.ZodObject> {
  /** One id per operation (kebab-case): folder, route, form, job payload and test names. */
  id: string;
  /**
   * The methods the path accepts (default GET and POST: the public API takes the parameters in the
   * query string of a GET as well as in a POST body). The invoice parser takes POST only.
   */
  methods?: readonly ("GET" | "POST")[];
  /** The wire path, e.g. "/v1/pdf/split". */
  path: string;
  title: string;
  summary: string;
  /** The group it is listed under in the dashboard (sidebar, overview, search). */
  category: "info" | "extract" | "convert" | "intelligence" | "optimize" | "edit" | "organize" | "secure" | "files" | "barcodes" | "email";
  /** Request fields (profiles included as a nested object). */
  params: S;
  input: InputKind;
  /** Base of `pages` for this operation (split is 1-based, the rest 0-based). */
  pageBase: 0 | 1;
  /** Credits: perCall + perPage × processed pages. perCall is reserved on accept. */
  cost: { perCall: number; perPage: number };
  /** The invoice parser answers `status: "created"` and always runs in the background. */
  alwaysAsync?: boolean;
  deprecated?: boolean;
  /**
   * The file an async call's promised `url` will hold: its default name and type. Operations
   * without file outputs (info, classifier, invoice) leave it out; their URL then holds the JSON result.
   */
  resultFile?: {
    name: string;
    contentType: string;
    multiple?: boolean;
    /** One file answered as `url` and also as a one-item `urls` (v1 optimize: clients read either). */
    alsoUrls?: boolean;
  };
  /**
   * The result file decided by the params (TextSense: its outputType), for the URL an async call
   * promises; wins over `resultFile`'s name and type.
   */
  resultFileFor?: (params: z.infer<S>) => { name: string; contentType: string };
  /**
   * Other wire names of a field (`{ inputUri: "url" }`: TextSense names its source inputUri); the
   * canonical field wins when both are sent.
   */
  wireAliases?: Record<string, keyof z.infer<S> & string>;
  /**
   * The fields this operation adds to the success envelope (info, body, url or urls...), each with
   * a description. The common fields (error, status, credits, duration...) come from
   * lib/operations/response.ts; together they make the answer's schema (OpenAPI, API tests).
   */
  response: R;
  /**
   * The operation takes the account's stored templates by `templateId`: HTML templates are
   * rendered with `templateData` into `html`, document parser templates become `template`; both
   * before the job is recorded (the sandboxed runner never reads the database).
   */
  templates?: "html" | "documentparser";
}

/** Identity function that keeps the schema types. */
export function defineOperation<S extends z.ZodObject, R extends z.ZodObject>(def: OperationDefinition<S, R>): OperationDefinition<S, R> {
  return def;
}
