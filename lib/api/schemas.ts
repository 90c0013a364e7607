import { z } from "zod";

/**
 * Request and response schemas of the endpoints that are not operations (the route table in
 * lib/api/routes.ts names them). Universal: the dashboard derives its types from them (z.infer),
 * the OpenAPI document its schemas, and the API tests check every real answer against them.
 * Response objects are strict, so a field the server sends but the schema does not declare fails
 * a test instead of drifting silently.
 */

const ok = { error: z.literal(false), status: z.literal(200) };
const isoTime = z.string().describe("ISO 8601 date-time (UTC)");
const credits = z.number().int();

/** The error body of every endpoint: `{error: true, status, message}` with the same HTTP status. */
export const errorResponse = z
  .strictObject({
    error: z.literal(true),
    status: z.number().int(),
    message: z.string(),
    // A synchronous operation that failed while running also reports what it cost (nothing) and took.
    credits: credits.optional(),
    remainingCredits: credits.optional(),
    duration: z.number().int().optional(),
  })
  .describe("The error envelope");

// ---- account -------------------------------------------------------------------------------

export const balanceResponse = z.strictObject({ remainingCredits: credits, ...ok });

export const accountResponse = z.strictObject({
  ...ok,
  accountName: z.string(),
  email: z.string(),
  name: z.string(),
  remainingCredits: credits,
});

export const ledgerInput = z.object({
  days: z.number().optional().catch(undefined).describe("Days back when `from` is not given (1–366, default 30)."),
  from: z.string().optional().describe("Only rows at or after this time (ISO 8601 date or date-time)."),
  to: z.string().optional().describe("Only rows before this time (ISO 8601; a bare date means the end of that day)."),
  view: z.enum(["entries", "jobs"]).optional().catch(undefined).describe("`entries` (default): one row per ledger entry with the balance after it; `jobs`: one row per job (reserved, extra, released, net)."),
  jobId: z.string().optional().describe("Only the entries of this job."),
  limit: z.number().optional().catch(undefined).describe("At most this many rows (1–500, default 100)."),
  cursor: z.string().optional().describe("The `nextCursor` of the previous page."),
  daily: z.boolean().optional().catch(undefined).describe("false leaves out `daily` (the use per day), for a caller that only pages through rows."),
});

export const ledgerEntrySchema = z.strictObject({
  id: z.number().int(),
  at: z.string(),
  kind: z.enum(["grant", "reserve", "extend", "capture", "release"]),
  amount: z.number().int(),
  jobId: z.string().nullable(),
  operation: z.string().nullable(),
  note: z.string().nullable(),
  balanceAfter: z.number().int().describe("The balance right after this entry."),
});

export const ledgerJobSchema = z.strictObject({
  jobId: z.string(),
  operation: z.string().nullable(),
  at: z.string(),
  reserved: z.number().int(),
  extra: z.number().int().describe("Charged on capture beyond the reservation."),
  released: z.number().int(),
  net: z.number().int().describe("What the job cost: reserved + extra − released."),
});

export const dailyUseSchema = z.strictObject({ day: z.string(), operation: z.string(), credits });

export const ledgerResponse = z.strictObject({
  ...ok,
  entries: z.array(ledgerEntrySchema),
  jobs: z.array(ledgerJobSchema).optional().describe("With view=jobs: the page of jobs (entries is then empty)."),
  daily: z.array(dailyUseSchema),
  nextCursor: z.string().nullable(),
});

export const apiKeySchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  prefix: z.string(),
  kind: z.enum(["user", "dashboard"]),
  createdAt: isoTime,
  lastUsedAt: isoTime.nullable(),
  revokedAt: isoTime.nullable(),
});

export const keysResponse = z.strictObject({ ...ok, keys: z.array(apiKeySchema) });

export const createKeyInput = z.object({
  name: z.string().optional().catch(undefined).describe("A label for the key (default \"API key\")."),
});

export const createKeyResponse = z.strictObject({
  ...ok,
  key: apiKeySchema,
  secret: z.string().describe("The key itself, shown once."),
});

export const revokeKeyResponse = z.strictObject({ ...ok, revoked: z.string() });

export const webhookSecretResponse = z.strictObject({ ...ok, secret: z.string() });

// ---- jobs ----------------------------------------------------------------------------------

export const jobStatusSchema = z.enum(["working", "success", "failed", "aborted"]);

export const jobCheckInput = z.object({
  jobid: z.string().optional().describe("The jobId an async call answered with."),
  force: z
    .boolean()
    .optional()
    .catch(undefined)
    .describe("true: answer `unknown` (not `working`) for an id this account does not have."),
});

/** The job-check object: also the body of a callback, and `result` in a job's detail. */
export const jobCheckResponse = z.union([
  z.strictObject({
    status: z.literal("working"),
    jobId: z.string(),
    error: z.literal(false),
    remainingCredits: credits,
    jobDuration: z.number().int().optional().describe("ms since the job started"),
  }),
  z.strictObject({
    status: z.literal("unknown"),
    jobId: z.string(),
    error: z.literal(false),
    message: z.string(),
  }),
  // The operation's own answer (info, body, urls...) plus the job's fields.
  z.looseObject({
    status: z.literal("success"),
    jobId: z.string(),
    error: z.literal(false),
    message: z.string(),
    url: z.string().optional(),
    credits,
    remainingCredits: credits,
    jobDuration: z.number().int(),
    duration: z.number().int(),
  }),
  z.strictObject({
    status: z.enum(["failed", "aborted"]),
    jobId: z.string(),
    error: z.literal(true),
    message: z.string(),
    errorCode: z.number().int().optional().describe("The status the operation failed with (e.g. 449)."),
    credits: z.literal(0),
    remainingCredits: credits,
    jobDuration: z.number().int(),
    duration: z.number().int(),
  }),
]);

export const jobsInput = z.object({
  limit: z.number().optional().catch(undefined).describe("At most this many (1–500, default 50)."),
  status: z.string().optional().describe("Only jobs in this status (working, success, failed, aborted)."),
  q: z.string().optional().describe("Text found in the operation, the source URL or the job id."),
  from: z.string().optional().describe("Only jobs created at or after this time (ISO 8601 date or date-time)."),
  to: z.string().optional().describe("Only jobs created before this time (ISO 8601; a bare date means the end of that day)."),
  cursor: z.string().optional().describe("The `nextCursor` of the previous page: continues after its last job."),
});

export const jobSummarySchema = z.strictObject({
  jobId: z.string(),
  operation: z.string(),
  path: z.string(),
  status: jobStatusSchema,
  isAsync: z.boolean(),
  via: z.string(),
  source: z.string().nullable(),
  createdAt: isoTime,
  startedAt: isoTime.nullable(),
  finishedAt: isoTime.nullable(),
  durationMs: z.number().int().nullable(),
  credits,
  pageCount: z.number().int().nullable(),
  url: z.string().optional(),
  urls: z.array(z.string()).optional(),
  message: z.string().nullable(),
  invoice: z
    .strictObject({
      vendor: z.string().optional(),
      invoiceNo: z.string().optional(),
      invoiceDate: z.string().optional(),
      total: z.string().optional(),
      currency: z.string().optional(),
    })
    .optional()
    .describe("Quire extension, finished ai-invoice-parser jobs only: what names the parsed invoice (vendor name, invoice number, ISO date, total, currency), each when found."),
});

export const jobsResponse = z.strictObject({
  ...ok,
  jobs: z.array(jobSummarySchema),
  nextCursor: z.string().nullable().describe("Pass as `cursor` for the next page; null on the last page."),
});

export const callbackDeliverySchema = z.strictObject({
  attempt: z.number().int(),
  at: isoTime,
  ok: z.boolean(),
  httpStatus: z.number().int().nullable(),
  error: z.string().nullable(),
});

export const jobDetailSchema = jobSummarySchema.extend({
  request: z.record(z.string(), z.unknown()).describe("The request's parameters, secrets masked."),
  result: jobCheckResponse.nullable(),
  callbackUrl: z.string().nullable(),
  callbacks: z.array(callbackDeliverySchema),
});

export const jobDetailResponse = z.strictObject({ ...ok, job: jobDetailSchema });

/** A re-run answers like the operation itself: its result, the async acceptance, or its error. */
export const rerunResponse = z.looseObject({
  error: z.boolean(),
  status: z.union([z.number().int(), z.literal("created")]),
});

// ---- files ---------------------------------------------------------------------------------

export const presignedInput = z.object({
  name: z.string().optional().describe("File name (default \"upload\")."),
  contenttype: z.string().optional().describe("Content type of the file."),
});

export const presignedResponse = z.strictObject({
  presignedUrl: z.string().describe("PUT the raw bytes here (any or no Content-Type)."),
  url: z.string().describe("The file's URL for the operations' `url`."),
  name: z.string(),
  ...ok,
  remainingCredits: credits,
});

export const uploadResponse = z.strictObject({
  url: z.string(),
  name: z.string(),
  ...ok,
  remainingCredits: credits,
});

export const base64UploadInput = z.object({
  file: z.string().describe("The file as base64 text or a data: URI."),
  name: z.string().optional().describe("File name (default \"upload\")."),
});

export const multipartUploadInput = z.object({
  file: z.string().describe("The file, as a multipart/form-data part named `file`."),
  name: z.string().optional().describe("File name (default: the part's file name)."),
});

export const storagePutResponse = z.strictObject({ ...ok, name: z.string() });

// ---- service -------------------------------------------------------------------------------

export const healthResponse = z.strictObject({ ok: z.literal(true) });

/** Readiness: every dependency "ok" (else 503 in the error envelope, naming what failed). */
export const readyResponse = z.strictObject({
  ok: z.literal(true),
  checks: z.strictObject({ database: z.string(), queue: z.string(), storage: z.string() }),
});

export const openApiResponse = z.looseObject({
  openapi: z.literal("3.1.0"),
  info: z.looseObject({ title: z.string(), version: z.string() }),
  paths: z.record(z.string(), z.unknown()),
});

// ---- templates -----------------------------------------------------------------------------

export const templateSummarySchema = z.strictObject({
  id: z.number().int(),
  type: z.enum(["system", "user"]).describe("system: built in, read-only; user: the account's own"),
  title: z.string(),
  description: z.string(),
});

export const templateListResponse = z.strictObject({
  ...ok,
  templates: z.array(templateSummarySchema),
  remainingCredits: credits,
  credits,
});

export const templateResponse = z.strictObject({
  ...ok,
  id: z.number().int(),
  type: z.enum(["system", "user"]),
  title: z.string(),
  description: z.string(),
  test_json: z.string().describe("Sample data (JSON text) the template is previewed with"),
  updated_at: z.string().nullable(),
  body: z.string().describe("The template itself"),
  remainingCredits: credits,
  credits,
});

export const templateUpdateInput = z.object({
  title: z.string().optional().catch(undefined).describe("The template's title."),
  description: z.string().optional().catch(undefined).describe("What the template is for."),
  body: z.string().optional().catch(undefined).describe("The template (HTML with Mustache tags, or a document parser template). A syntax error answers 400 naming its line."),
  test_json: z
    .preprocess((v) => (v !== undefined && typeof v !== "string" ? JSON.stringify(v) : v), z.string().optional())
    .catch(undefined)
    .describe("Sample data (a JSON object) for previews."),
  testJson: z
    .preprocess((v) => (v !== undefined && typeof v !== "string" ? JSON.stringify(v) : v), z.string().optional())
    .catch(undefined)
    .describe("Same as test_json."),
});

export const templateDeleteResponse = z.strictObject({ ...ok, deleted: z.number().int() });

// ---- the account's stored files (/v1/file/*) --------------------------------------------------

export const fileUrlInput = z.object({
  url: z.string().describe("The file: a Quire file link (or filetoken://TOKEN) for hash/delete; any http(s) URL for upload/url and hash."),
  name: z.string().optional().describe("File name to store it under (upload/url; default: the name the server gives)."),
  httpusername: z.string().optional().describe("Basic-auth user for downloading `url`."),
  httppassword: z.string().optional().describe("Basic-auth password for downloading `url`."),
});

export const storedFileSchema = z.strictObject({
  token: z.string().describe("The file's token: /v1/file/download/{token}, /v1/file/options/{token}, filetoken://{token} as an operation's url."),
  name: z.string(),
  url: z.string().describe("A fresh signed link to the file."),
  size: z.number().int(),
  contentType: z.string(),
  accessMode: z.enum(["private", "public"]).describe("private: only this account (x-api-key); public: anyone with the download link."),
  createdAt: isoTime,
  expiresAt: isoTime,
});

export const uploadUrlResponse = z.strictObject({
  url: z.string(),
  name: z.string(),
  token: z.string(),
  size: z.number().int(),
  ...ok,
  remainingCredits: credits,
});

export const fileHashResponse = z.strictObject({
  hash: z.string().describe("SHA-256 of the file's bytes, lower-case hex."),
  algorithm: z.literal("SHA-256"),
  size: z.number().int(),
  ...ok,
  remainingCredits: credits,
});

export const fileDeleteResponse = z.strictObject({
  name: z.string().describe("The deleted file's name."),
  message: z.string(),
  ...ok,
  remainingCredits: credits,
});

export const fileAllInput = z.object({
  limit: z.number().int().min(1).max(1000).optional().describe("Files per page (default 100)."),
  offset: z.number().int().min(0).optional().describe("Files to skip (default 0)."),
});

export const fileAllResponse = z.strictObject({
  files: z.array(storedFileSchema).describe("The account's uploaded files that are still stored, newest first."),
  ...ok,
  remainingCredits: credits,
});

export const fileDownloadInput = z.object({
  asattachment: z.boolean().optional().describe("Send Content-Disposition: attachment (download) instead of inline."),
  link: z.boolean().optional().describe("Answer JSON with a signed link instead of the bytes."),
});

export const fileLinkResponse = z.strictObject({ url: z.string(), name: z.string(), ...ok });

export const fileOptionsInput = z.object({
  accessmode: z.enum(["private", "public"]).optional().describe("Set who may download the file by token; absent: answer the current mode."),
});

export const fileOptionsResponse = z.strictObject({
  token: z.string(),
  name: z.string(),
  accessMode: z.enum(["private", "public"]),
  ...ok,
});

// ---- the data store (/v1/data/store) ------------------------------------------------------------

export const dataKeyInput = z.object({
  jobid: z.string().optional().describe("The key: 1–200 letters, digits and . _ : @ - (typically a job's id). GET without it lists the keys."),
});

export const dataPutInput = z.object({
  jobid: z.string().describe("The key to store the data under (1–200 letters, digits and . _ : @ -)."),
  body: z.unknown().describe("The data: any JSON value (an object, an array, a string...), at most DATA_STORE_MAX_BYTES as JSON text."),
});

const dataEntry = {
  jobId: z.string().describe("The key."),
  size: z.number().int().describe("Bytes of the stored JSON text."),
  createdAt: isoTime,
  updatedAt: isoTime,
};

export const dataStoreResponse = z.strictObject({
  ...dataEntry,
  body: z.unknown().optional().describe("The stored value (GET with jobid; POST answers without it)."),
  ...ok,
  remainingCredits: credits,
});

export const dataListResponse = z.strictObject({
  items: z.array(z.strictObject(dataEntry)).describe("The account's keys, oldest first (without their values)."),
  ...ok,
  remainingCredits: credits,
});

export const dataGetResponse = z.union([dataStoreResponse, dataListResponse]);

export const dataDeleteResponse = z.strictObject({ jobId: z.string(), deleted: z.literal(true), ...ok, remainingCredits: credits });
