import "server-only";
import type { z } from "zod";
import { QuireError } from "@/lib/core/errors";
import { getBalance } from "@/lib/credits/ledger";
import { getJob, listDeliveries, listJobs as listJobRows, type JobRow } from "@/lib/jobs/job-store";
import { invoiceHeadline } from "@/lib/operations/ai-invoice-parser/headline";
import { jobCheckResult, openPayload, operationOf, storedParams } from "@/lib/jobs/execute-job";
import { JsonReply, type RouteHandler } from "../define-route";
import { submitOperation } from "../submit";
import { decodeCursor, encodeCursor, parseTimeBound } from "../paging";
import type * as s from "../schemas";
import { requestFingerprint, withIdempotency } from "../idempotency";

type KeyHandler<R extends z.ZodType, I extends z.ZodObject | undefined = undefined> = RouteHandler<
  "api-key",
  I,
  R
>;
type JobCheck = z.input<typeof s.jobCheckResponse>;

/** /v1/job/check: POST with a body, POST with ?jobid= and GET ?jobid= all work. */
export const jobCheck: KeyHandler<typeof s.jobCheckResponse, typeof s.jobCheckInput> = async ({
  caller,
  input,
}) => {
  const { jobid: jobId, force } = await input();
  if (!jobId) throw new QuireError(400, "jobid: required (the jobId an async call answered with)");
  const row = await getJob(jobId);
  if (!row || row.accountId !== caller.accountId) {
    // An unknown id answers `working` (clients keep polling a job another node has not written yet) unless forced.
    if (force === true) return { status: "unknown", jobId, error: false, message: "Unknown job id" };
    return { status: "working", jobId, error: false, remainingCredits: await getBalance(caller.accountId) };
  }
  return (await jobCheckResult(row)) as JobCheck;
};

export const listJobs: KeyHandler<typeof s.jobsResponse, typeof s.jobsInput> = async ({ caller, input }) => {
  const f = await input();
  const limit = Math.min(Math.max(Number(f.limit ?? 50) || 50, 1), 500);
  const before = decodeCursor<[string, string]>(f.cursor, ["string", "string"]);
  const rows = await listJobRows(caller.accountId, {
    limit: limit + 1,
    status: f.status || undefined,
    q: f.q || undefined,
    from: parseTimeBound(f.from, "from"),
    to: parseTimeBound(f.to, "to"),
    before: before ? { at: before[0], id: before[1] } : undefined,
  });
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    error: false,
    status: 200,
    jobs: page.map(jobSummary),
    nextCursor: rows.length > limit && last ? encodeCursor([last.cursorAt, last.id]) : null,
  };
};

export const jobDetail: KeyHandler<typeof s.jobDetailResponse> = async ({ caller, pathParams }) => {
  const row = await ownJob(pathParams.jobId, caller.accountId);
  const deliveries = await listDeliveries(row.id);
  return {
    error: false,
    status: 200,
    job: {
      ...jobSummary(row),
      request: row.request as Record<string, unknown>,
      result: row.status === "working" ? null : ((await jobCheckResult(row)) as JobCheck),
      callbackUrl: row.callbackUrl,
      callbacks: deliveries.map((d) => ({
        attempt: d.attempt,
        at: d.createdAt.toISOString(),
        ok: d.ok,
        httpStatus: d.httpStatus,
        error: d.error,
      })),
    },
  };
};

export const rerunJob: KeyHandler<typeof s.rerunResponse> = async ({ req, res, caller, pathParams }) => {
  const row = await ownJob(pathParams.jobId, caller.accountId);
  const op = operationOf(row);
  // Checked again through the contract: a request stored under an older contract answers 400/454 naming the field.
  const params = storedParams(op, openPayload(row.payload).params);
  const r = await withIdempotency(
    req,
    caller.accountId,
    () => requestFingerprint(`rerun:${row.id}`, {}),
    () => submitOperation(op, params, caller),
  );
  for (const [k, v] of Object.entries(r.headers ?? {})) res.setHeader(k, v);
  return new JsonReply(r.status, r.body);
};

async function ownJob(jobId: string, accountId: string): Promise<JobRow> {
  const row = await getJob(jobId);
  if (!row || row.accountId !== accountId) throw new QuireError(404, `job ${jobId} not found`);
  return row;
}

function jobSummary(row: JobRow): z.input<typeof s.jobSummarySchema> {
  const r = (row.result ?? {}) as Record<string, unknown>;
  return {
    jobId: row.id,
    operation: row.operation,
    path: row.path,
    status: row.status,
    isAsync: row.isAsync,
    via: row.via,
    source: row.source,
    createdAt: row.createdAt.toISOString(),
    startedAt: row.startedAt?.toISOString() ?? null,
    finishedAt: row.finishedAt?.toISOString() ?? null,
    durationMs: row.durationMs,
    credits: row.credits,
    pageCount: row.pageCount,
    url: row.promisedUrl ?? (r.url as string | undefined),
    urls: r.urls as string[] | undefined,
    message: row.message,
    invoice: row.operation === "ai-invoice-parser" && row.status === "success" ? invoiceHeadline(r) : undefined,
  };
}
