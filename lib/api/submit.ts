import "server-only";
import crypto from "node:crypto";
import type { z } from "zod";
import { QuireError, isQuireError } from "@/lib/core/errors";
import { checkUrl } from "@/lib/egress";
import { isOwnLink } from "@/lib/storage/files";
import { takesSeveralFiles } from "@/lib/operations/types";
import { applyStoredTemplate } from "@/lib/templates/store";
import type { Caller } from "./auth";
import type { OperationDefinition } from "@/lib/operations/types";
import { getConfig } from "@/lib/core/config";
import { releaseCredits, reserveCredits } from "@/lib/credits/ledger";
import { reserveOutput } from "@/lib/storage/local-store";
import { countWorkingJobs, insertJob, type JobRow } from "@/lib/jobs/job-store";
import { instanceId } from "@/lib/jobs/lease";
import { metrics } from "@/lib/core/metrics";
import { executeClaimedJob, sealPayload } from "@/lib/jobs/execute-job";
import { enqueueJob } from "@/lib/jobs/queue";
import { getRequestContext } from "@/lib/core/request-context";

const SECRET_KEYS = /password|key|iv$|secret/i;

/** `user:password@` in the URLs of a string, masked (job records and lists show the URL, not its secret). */
export function redactUrlCredentials(s: string): string {
  return s.replace(/([a-z][a-z0-9+.-]*:\/\/)[^/\s@,?#]*@/gi, "$1••••••@");
}

/** The request as shown in job lists: secrets masked. */
function redactParams(params: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(params)) {
    if (k === "profiles" && v && typeof v === "object") out[k] = redactParams(v as Record<string, unknown>);
    else if (!SECRET_KEYS.test(k)) out[k] = typeof v === "string" ? redactUrlCredentials(v) : v;
    else if (Array.isArray(v)) out[k] = v.map((x) => (x ? "••••••" : x)); // merge's passwords per input
    else out[k] = typeof v === "string" && v ? "••••••" : v;
  }
  return out;
}

/**
 * ACCOUNT_MAX_CONCURRENT_JOBS, checked when a job is submitted: an account with that many jobs
 * still working gets 429 until one finishes.
 */
async function checkConcurrentJobs(accountId: string) {
  const cap = getConfig().accountMaxConcurrentJobs;
  if (!cap) return;
  const working = await countWorkingJobs(accountId);
  if (working >= cap) {
    metrics().rateLimited.inc({ reason: "concurrent-jobs" });
    throw new QuireError(
      429,
      `Too many jobs at once: this account has ${working} jobs running and may have ${cap} (ACCOUNT_MAX_CONCURRENT_JOBS). Wait for one to finish (/v1/job/check).`,
      { retryAfterSeconds: 5 },
    );
  }
}

/**
 * Every URL a job would fetch, with the field that names it: the source(s) in `url` (a list for
 * operations that take several files, and e-mail send's attachments), `callback`, and the
 * secondary fields (classifier rules, stamp and logo images). `data:` URIs fetch nothing.
 */
export function urlFieldsOf(op: OperationDefinition, params: Record<string, unknown>): Array<{ field: string; url: string }> {
  const out: Array<{ field: string; url: string }> = [];
  const list = (v: unknown, field: string, several: boolean) => {
    if (typeof v !== "string") return;
    const urls = several ? v.split(",").map((u) => u.trim()).filter(Boolean) : [v.trim()].filter(Boolean);
    for (const [i, url] of urls.entries()) out.push({ field: urls.length > 1 ? `${field} #${i + 1}` : field, url });
  };
  list(params.url, "url", takesSeveralFiles(op.input) || op.id === "email-send");
  list(params.callback, "callback", false);
  for (const key of ["rulescsvurl", "replaceImage", "decorationImage"]) list(params[key], key, false);
  if (Array.isArray(params.images)) {
    for (const [i, img] of (params.images as Array<{ url?: unknown }>).entries()) list(img?.url, `images[${i}].url`, false);
  }
  return out.filter((u) => !/^data:/i.test(u.url));
}

async function checkUrlsAtSubmit(op: OperationDefinition, params: Record<string, unknown>) {
  // Only what the guard refuses for good (403 forbidden address, 452 not http/https); a host that
  // does not resolve right now is left to the job, as before.
  for (const { field, url } of urlFieldsOf(op, params)) {
    if (field !== "callback" && (await isOwnLink(url))) continue;
    try {
      await checkUrl(url, { field: field.replace(/ #\d+$/, "") });
    } catch (e) {
      if (!isQuireError(e) || (e.status !== 403 && e.status !== 452)) continue;
      throw new QuireError(e.status, `${field}: ${e.message.replace(/^[\w[\].]+: /, "")}`);
    }
  }
}

export interface Submitted {
  status: number;
  body: Record<string, unknown>;
  headers?: Record<string, string>;
}

/**
 * Accepts a validated operation request: reserve credits, record the job, then either queue it
 * (async, invoice parser) or run it now through the same sandboxed workers, waiting up to
 * SYNC_TIMEOUT_MS (longer → 445, use async).
 */
export async function submitOperation(
  op: OperationDefinition,
  params: z.infer<OperationDefinition["params"]> & Record<string, unknown>,
  caller: Caller,
  started = Date.now(),
): Promise<Submitted> {
  const cfg = getConfig();
  // HTML templates: `templateId` + `templateData` become the `html` the job renders (the
  // sandboxed runner never reads the database); an unknown id is 404, a bad template 400.
  if (op.templates) params = await applyStoredTemplate(op.templates, caller.accountId, params);
  if (params.expiration !== undefined && Number(params.expiration) > cfg.outputLinkMaxMinutes) {
    throw new QuireError(454, `expiration: at most ${cfg.outputLinkMaxMinutes} minutes on this server.`);
  }
  const isAsync = Boolean(op.alwaysAsync || params.async === true);
  // An async call answers before anything is fetched: a URL the egress guard refuses is refused
  // now (403/452), not reported later as a failed job.
  if (isAsync) await checkUrlsAtSubmit(op, params);
  await checkConcurrentJobs(caller.accountId);
  const jobId = crypto.randomUUID();
  const reserve = op.cost.perCall + op.cost.perPage;
  const jobValues = (promised?: { id: string; name: string; url: string }) => ({
    id: jobId,
    accountId: caller.accountId,
    apiKeyId: caller.keyId,
    operation: op.id,
    path: op.path,
    status: "working" as const,
    isAsync,
    via: caller.via,
    source: typeof params.url === "string" ? redactUrlCredentials(params.url).slice(0, 2000) : null,
    request: redactParams(params),
    payload: sealPayload({
      params,
      promised: promised && { id: promised.id, name: promised.name },
      requestId: getRequestContext()?.requestId,
      publicUrl: getRequestContext()?.publicUrl,
    }),
    callbackUrl: isAsync && typeof params.callback === "string" ? params.callback : null,
    promisedUrl: promised?.url ?? null,
  });
  if (!isAsync) {
    // A call answered now: the reservation and the job's row, already owned by this process,
    // in one transaction, and the job runs here at once.
    const now = new Date();
    let inserted: JobRow | undefined;
    await reserveCredits(caller.accountId, jobId, reserve, op.id, async (tx) => {
      inserted = await insertJob({ ...jobValues(), owner: instanceId(), heartbeatAt: now, startedAt: now }, tx);
    });
    const ac = new AbortController();
    const timer = setTimeout(() => ac.abort(), cfg.syncTimeoutMs);
    let row;
    try {
      // The row as the job left it (executeJob reads it back only when it did not finish it itself).
      row = await executeClaimedJob(inserted!, ac.signal);
    } finally {
      clearTimeout(timer);
    }
    const result = { ...(row.result as Record<string, unknown>) };
    result.duration = Date.now() - started;
    return { status: typeof result.status === "number" ? result.status : 200, body: result };
  }
  const remaining = await reserveCredits(caller.accountId, jobId, reserve, op.id);
  try {
    const minutes = Math.min(Number(params.expiration ?? cfg.outputLinkDefaultMinutes), cfg.outputLinkMaxMinutes);
    const rf = op.resultFileFor?.(params) ?? op.resultFile;
    const multiple = op.resultFile?.multiple;
    const name = multiple
      ? `${(params.name as string | undefined)?.replace(/\.[^.]*$/, "") || "result"}-urls.json`
      : op.resultFileFor
        ? rf!.name
        : (params.name as string | undefined) || rf?.name || "result.json";
    const promised = await reserveOutput(
      caller.accountId,
      jobId,
      name,
      rf && !multiple ? rf.contentType : "application/json",
      new Date(Date.now() + minutes * 60_000),
    );
    await insertJob(jobValues(promised));
    await enqueueJob(jobId);
    return {
      status: 200,
      body: {
        jobId,
        ...(op.alwaysAsync ? {} : { url: promised.url, name: promised.name }),
        error: false,
        status: op.alwaysAsync ? "created" : 200,
        message: op.alwaysAsync ? "Created" : undefined,
        credits: reserve,
        remainingCredits: remaining,
        duration: Date.now() - started,
      },
    };
  } catch (e) {
    await releaseCredits(caller.accountId, jobId);
    throw e;
  }
}
