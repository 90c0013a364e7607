import "server-only";
import fsp from "node:fs/promises";
import path from "node:path";
import crypto from "node:crypto";
import { getConfig } from "@/lib/core/config";
import { QuireError, isQuireError, toQuireError } from "@/lib/core/errors";
import { openSecret, sealSecret } from "@/lib/auth/secret-box";
import { captureCredits, extendReservation, getBalance, releaseCredits } from "@/lib/credits/ledger";
import { getOperation } from "@/lib/operations/registry";
import { validateParams } from "@/lib/operations/wire";
import { takesSeveralFiles, type OperationDefinition } from "@/lib/operations/types";
import type { RunResult, SourceFile } from "@/lib/operations/runner-types";
import { fillReservedOutput, resolveOwnFile, resolveOwnFiles, safeFileName, storeOutputs } from "@/lib/storage/local-store";
import { fileLinkOf, findAccountFileByUrl } from "@/lib/storage/files";
import { egressDownloadToFile, egressFetch, fileNameFromResponse } from "@/lib/egress";
import { decryptData, encryptData } from "@/lib/engine/crypto/aes-data";
import { getSandboxPool } from "./sandbox-pool";
import { adoptJob, claimJob, handBackJob, leaseSettings, releaseJob, shutdownSignal } from "./lease";
import { finishJob, getJob, type JobRow } from "./job-store";
import { log } from "@/lib/core/log";
import { metrics } from "@/lib/core/metrics";
import { getRequestContext, runWithContext } from "@/lib/core/request-context";

/** What the worker needs besides the public request: kept sealed in jobs.payload (it holds passwords). */
export interface JobPayload {
  params: Record<string, unknown>;
  promised?: { id: string; name: string };
  /** The request that made the job (its logs follow it to the worker). */
  requestId?: string;
  /** The base URL the caller reached Quire at: the job's output links are built from it. */
  publicUrl?: string;
}

export function sealPayload(p: JobPayload): string {
  return sealSecret(JSON.stringify(p), "job-payload");
}

export function openPayload(sealed: string): JobPayload {
  return JSON.parse(openSecret(sealed, "job-payload")) as JobPayload;
}

type Profiles = Record<string, unknown> | undefined;

/** Sources fetched at once for an operation that takes several (downloads and storage copies). */
const SOURCE_CONCURRENCY = 6;

/**
 * Runs one job to its end, once: fetch sources (egress or own storage), decrypt, run the
 * operation in the sandbox, post-process and store outputs, capture or release credits,
 * record the result. Never throws for a job failure: the failure is the job's result.
 */
export async function executeJob(jobId: string, signal?: AbortSignal): Promise<JobRow> {
  const row = await getJob(jobId);
  if (!row) throw new Error(`job ${jobId} not found`);
  if (row.status !== "working") return row;
  return executeRow(row, signal, false);
}

/**
 * executeJob for a row this process inserted already owned (owner, heartbeat and start time set
 * in the transaction of its reservation: a synchronous call), without reading it back or claiming it.
 */
export function executeClaimedJob(row: JobRow, signal?: AbortSignal): Promise<JobRow> {
  return executeRow(row, signal, true);
}

function executeRow(row: JobRow, signal: AbortSignal | undefined, claimed: boolean): Promise<JobRow> {
  const jobId = row.id;
  let ctx: { requestId?: string; publicUrl?: string } = {};
  try {
    ctx = openPayload(row.payload);
  } catch {
    /* runJob reports the unreadable payload as the job's failure */
  }
  const outer = getRequestContext();
  return runWithContext(
    { requestId: ctx.requestId ?? outer?.requestId ?? `job-${jobId}`, publicUrl: ctx.publicUrl ?? outer?.publicUrl, jobId },
    () => runJob(row, signal, claimed),
  );
}

async function runJob(row: JobRow, signal: AbortSignal | undefined, claimed: boolean): Promise<JobRow> {
  const jobId = row.id;
  // This process owns the job now (heartbeat, start time); another run of it already ended → nothing to do.
  const started = claimed ? (row.startedAt?.getTime() ?? Date.now()) : Date.now();
  if (claimed) adoptJob(jobId);
  else if (!(await claimJob(jobId, new Date(started)))) return (await getJob(jobId)) ?? row;
  log.info(`job started: ${row.operation}`);
  const cfg = getConfig();
  // Every job ends: past JOB_DEADLINE_MS it is stopped whatever it is waiting for; on SIGTERM
  // past the grace period, it is handed back to the queue (async) or failed (sync).
  const { deadlineMs } = leaseSettings();
  const deadline = new AbortController();
  const deadlineTimer = setTimeout(
    () => deadline.abort(new QuireError(408, `the job took longer than ${Math.round(deadlineMs / 1000)} s and was stopped.`)),
    deadlineMs,
  );
  const stopping = shutdownSignal();
  const runSignal = AbortSignal.any([deadline.signal, stopping, ...(signal ? [signal] : [])]);
  const workDir = path.join(cfg.dataDir, "tmp", `${jobId}-${crypto.randomBytes(4).toString("hex")}`);
  await fsp.mkdir(workDir, { recursive: true });
  let payload: JobPayload | undefined;
  // The row as this run finished it: not read back (an inline result can be megabytes of JSON).
  let finished: JobRow | null = null;
  try {
    payload = openPayload(row.payload);
    const op = operationOf(row);
    // A trust boundary: the stored request is checked against the contract as it is now.
    const params = storedParams(op, payload.params);
    const profiles = params.profiles as Profiles;
    const sources = await fetchSources(op, params, workDir, profiles, row.accountId);
    const auth = basicAuthOf(params);
    await checkBudgetAndReserve(op, row, params, sources, workDir, runSignal);
    const result = await getSandboxPool().run(
      { opId: op.id, params, sources, workDir },
      {
        signal: runSignal,
        fetchUrl: (url: string) => fetchSecondary(url, auth),
        priority: row.isAsync ? "background" : "interactive",
      },
    );
    if (signal?.aborted) throw new QuireError(445, "the call took too long; it was stopped. Send it again with async: true.");
    // Paid for before the output is stored: a result larger than the reservation (a printed web
    // page, a converted document) takes the rest now or fails 402 uncharged, its output dropped.
    const pages = Math.max(1, result.pagesProcessed ?? result.pageCount ?? 1);
    const cost = op.cost.perCall + op.cost.perPage * pages;
    const what = op.cost.perPage > 0 ? `the result has ${pages} page${pages === 1 ? "" : "s"}` : "";
    const { charged, remaining } = await captureCredits(row.accountId, jobId, cost, op.id, what);
    const body = await buildSuccess(op, row, params, result, payload);
    const duration = Date.now() - started;
    metrics().creditsCharged.inc({ operation: op.id }, charged);
    metrics().jobSeconds.observe({ operation: op.id, status: "success" }, duration / 1000);
    log.info(`job finished: ${op.id} success in ${duration} ms, ${charged} credits`);
    const envelope = { ...body, credits: charged, remainingCredits: remaining, duration };
    const values = {
      status: "success" as const,
      result: envelope,
      message: (result.message as string | undefined) ?? null,
      credits: charged,
      pageCount: result.pageCount ?? null,
      finishedAt: new Date(),
      durationMs: duration,
    };
    if (await finishJob(jobId, values)) finished = { ...row, startedAt: new Date(started), ...values };
  } catch (e) {
    if (stopping.aborted && row.isAsync && !signal?.aborted && !deadline.signal.aborted) {
      // SIGTERM: the job is not failed; the queue runs it again (here after a restart, or on another node).
      await handBackJob(jobId).catch(() => {});
      log.info(`job handed back: ${row.operation} (shutting down)`);
      throw new JobHandedBack(jobId);
    }
    const err = signal?.aborted && !(e instanceof QuireError && e.status !== 500)
      ? new QuireError(445, "the call took longer than the synchronous limit; it was stopped. Send it again with async: true.")
      : toQuireError(e);
    if (err.status === 500) log.error(`job ${jobId} (${row.operation}) failed`, e);
    const remaining = await releaseCredits(row.accountId, jobId);
    const duration = Date.now() - started;
    metrics().jobSeconds.observe({ operation: row.operation, status: err.status === 445 ? "aborted" : "failed" }, duration / 1000);
    log.info(`job finished: ${row.operation} failed (${err.status}) in ${duration} ms`);
    // The promised URL holds the error before job check says "failed", as it holds the output
    // before it says "success": a client that fetches it at once never gets 404.
    if (payload?.promised) {
      await fillReservedOutput(payload.promised.id, payload.promised.name, JSON.stringify(err.toBody()), "application/json").catch(() => {});
    }
    await finishJob(jobId, {
      status: err.status === 445 ? "aborted" : "failed",
      result: { ...err.toBody(), credits: 0, remainingCredits: remaining, duration },
      message: err.message,
      credits: 0,
      finishedAt: new Date(),
      durationMs: duration,
    });
  } finally {
    clearTimeout(deadlineTimer);
    releaseJob(jobId);
    // Not awaited: the answer does not wait for the folder to go (a crash leaves it to the
    // start-up sweep of DATA_DIR/tmp).
    void fsp.rm(workDir, { recursive: true, force: true }).catch(() => {});
  }
  return finished ?? (await getJob(jobId))!;
}

/** Thrown by executeJob when a shutdown handed the job back: the queue must run it again. */
export class JobHandedBack extends Error {
  constructor(readonly jobId: string) {
    super(`job ${jobId} was handed back to the queue (shutdown)`);
    this.name = "JobHandedBack";
  }
}

/** From this many sources on, the work budget is measured by two sandbox children at once. */
const BUDGET_SPLIT_AT = 8;

/**
 * Before the work: the sources are measured in the sandbox (pages of PDFs, images and frames of
 * images from their headers, inflated bytes, image sizes; a bomb or a document past MAX_PAGES is
 * refused with 413 in a moment), and a per-page operation's reservation is raised to its cost
 * (perCall + perPage × pages) — 402, uncharged, when the balance cannot cover it. A source whose
 * pages are only known after the work (a word-processor file, an e-mail, a sheet) counts as one
 * page here; the capture settles the real count before the output is stored.
 */
async function checkBudgetAndReserve(
  op: OperationDefinition,
  row: JobRow,
  params: Record<string, unknown>,
  sources: SourceFile[],
  workDir: string,
  signal: AbortSignal,
): Promise<void> {
  if (!sources.length) return;
  const passwords = Array.isArray(params.passwords) ? (params.passwords as unknown[]).map((p) => (typeof p === "string" ? p : "")) : undefined;
  const budgetParams = { password: typeof params.password === "string" ? params.password : undefined, passwords };
  const measure = (first: number, part: SourceFile[]) =>
    getSandboxPool().run(
      { opId: "work-budget", params: { ...budgetParams, first, of: sources.length }, sources: part, workDir },
      {
        signal,
        fetchUrl: async () => {
          throw new QuireError(500, "Internal error: the work budget fetches nothing.");
        },
        priority: row.isAsync ? "background" : "interactive",
      },
    );
  // Many sources (a merge) are measured by two sandbox children at once; the first failure in
  // source order is the answer, as when one child measures them all.
  const half = sources.length >= BUDGET_SPLIT_AT ? Math.ceil(sources.length / 2) : sources.length;
  const parts = half < sources.length ? [sources.slice(0, half), sources.slice(half)] : [sources];
  const settled = await Promise.allSettled(parts.map((part, k) => measure(k * half, part)));
  const failed = settled.find((r) => r.status === "rejected");
  if (failed) throw failed.reason;
  if (op.cost.perPage <= 0) return;
  const counted = settled.flatMap((r) =>
    r.status === "fulfilled" ? ((r.value.fields?.pages as Array<number | null> | undefined) ?? []) : [],
  );
  const known = counted.filter((n): n is number => typeof n === "number");
  if (!known.length) return;
  const total = known.reduce((a, b) => a + b, 0);
  const estimated = total + (sources.length - known.length);
  const cost = op.cost.perCall + op.cost.perPage * Math.max(1, estimated);
  const what = `${total} page${total === 1 ? "" : "s"}${estimated > total ? ` (and ${estimated - total} document${estimated - total === 1 ? "" : "s"} counted as one page until converted)` : ""}`;
  await extendReservation(row.accountId, row.id, cost, op.id, what);
}

/** The operation a job names; a job of an operation this server no longer has fails cleanly. */
export function operationOf(row: JobRow): OperationDefinition {
  const op = getOperation(row.operation);
  if (!op) throw new QuireError(400, `this job's operation (${row.operation}) is not available on this server`);
  return op;
}

/**
 * A job's stored params parsed again through its operation's contract (a queued job, a re-run):
 * what fails answers which field and why, and nothing runs or is charged.
 */
export function storedParams(op: OperationDefinition, params: Record<string, unknown>): Record<string, unknown> {
  try {
    return validateParams(params, op.params) as Record<string, unknown>;
  } catch (e) {
    if (!isQuireError(e)) throw e;
    throw new QuireError(e.status, `the stored request no longer fits ${op.path}: ${e.message}. Send the request again.`);
  }
}

function basicAuthOf(params: Record<string, unknown>) {
  const username = params.httpusername as string | undefined;
  const password = params.httppassword as string | undefined;
  return username || password ? { username: username ?? "", password: password ?? "" } : undefined;
}

async function fetchSources(
  op: OperationDefinition,
  params: Record<string, unknown>,
  workDir: string,
  profiles: Profiles,
  accountId: string,
): Promise<SourceFile[]> {
  if (op.input === "webpage" || op.input === "none") return [];
  const raw = String(params.url ?? "");
  const several = takesSeveralFiles(op.input);
  const urls = several ? raw.split(",").map((u) => u.trim()).filter(Boolean) : [raw.trim()];
  if (urls.length === 0) throw new QuireError(400, "url: give the URL of the source file");
  if (urls.length > 500) throw new QuireError(454, `url: at most 500 ${op.input === "images" ? "images" : "files"} per call`);
  const auth = basicAuthOf(params);
  // Quire's own links, all looked up at once (one query for a merge of many stored files).
  const owned = await resolveOwnFiles(urls.map((u) => (/^filetoken:\/\//i.test(u) ? "" : u)));
  const fetchOne = async (i: number, url: string): Promise<SourceFile> => {
    const dest = path.join(workDir, `source-${i}`);
    const own = /^filetoken:\/\//i.test(url) ? await ownStoredFile(accountId, url) : owned[i];
    let name: string, contentType: string;
    if (own) {
      // Sources are only read (a decrypted one is written anew, replaceFile): a link, no copy.
      await own.linkTo(dest);
      name = own.row.name;
      contentType = own.row.contentType;
    } else {
      const cfg = getConfig();
      try {
        const got = await egressDownloadToFile(url, dest, {
          basicAuth: auth,
          maxBytes: cfg.sourceMaxBytes,
          timeoutMs: cfg.sourceTimeoutMs,
        });
        name = got.name;
        contentType = got.contentType;
      } catch (e) {
        // With several URLs the caller needs to know which one failed.
        if (urls.length < 2 || !isQuireError(e)) throw e;
        throw new QuireError(e.status, `url #${i + 1} (${url.slice(0, 120)}): ${e.message.replace(/^url: /, "")}`);
      }
    }
    if (profiles?.DataDecryptionAlgorithm) {
      const bytes = await fsp.readFile(dest);
      const plain = decryptData(bytes, {
        algorithm: profiles.DataDecryptionAlgorithm as "AES128",
        key: String(profiles.DataDecryptionKey ?? ""),
        iv: String(profiles.DataDecryptionIV ?? ""),
      });
      await replaceFile(dest, plain);
    }
    const size = (await fsp.stat(dest)).size;
    return { path: dest, name: safeFileName(name, `source-${i}`), contentType, size, url };
  };
  // Several sources are fetched a few at a time (merge of many files: storage copies and
  // downloads overlap); with one failing, no new one starts and the first failure in URL order
  // is the answer.
  const out = new Array<SourceFile>(urls.length);
  const failures = new Map<number, unknown>();
  let next = 0;
  const lanes = Array.from({ length: Math.min(SOURCE_CONCURRENCY, urls.length) }, async () => {
    while (next < urls.length && failures.size === 0) {
      const i = next++;
      try {
        out[i] = await fetchOne(i, urls[i]);
      } catch (e) {
        failures.set(i, e);
      }
    }
  });
  await Promise.all(lanes);
  if (failures.size > 0) throw failures.get(Math.min(...failures.keys()));
  return out;
}

/**
 * Writes a file under a new inode (write beside, rename over): a source can be a hard link to a
 * stored file (the disk store's linkTo), and writing through that link would change the stored file.
 */
async function replaceFile(file: string, bytes: Uint8Array): Promise<void> {
  await fsp.writeFile(`${file}.new`, bytes);
  await fsp.rename(`${file}.new`, file);
}

/** A `filetoken://TOKEN` source: one of the account's stored files (404 for any other token). */
async function ownStoredFile(accountId: string, url: string) {
  const row = await findAccountFileByUrl(accountId, url);
  if (!row) throw new QuireError(404, `url: no stored file of this account has the token in ${url.slice(0, 80)}`);
  return resolveOwnFile(await fileLinkOf(row));
}

async function fetchSecondary(url: string, basicAuth?: { username: string; password: string }) {
  const own = await resolveOwnFile(url);
  if (own) return { bytes: await own.read(), contentType: own.row.contentType, name: own.row.name };
  const cfg = getConfig();
  const r = await egressFetch(url, { basicAuth, maxBytes: cfg.sourceMaxBytes, timeoutMs: cfg.sourceTimeoutMs });
  return { bytes: r.bytes, contentType: r.contentType, name: fileNameFromResponse(r.headers["content-disposition"], url, r.finalUrl) };
}

/** Output encryption and base64 (profiles), applied to file outputs and inline text alike. */
function transformOutput(bytes: Buffer, profiles: Profiles): { bytes: Buffer; transformed: boolean } {
  let out = bytes;
  let transformed = false;
  if (profiles?.DataEncryptionAlgorithm) {
    out = encryptData(out, {
      algorithm: profiles.DataEncryptionAlgorithm as "AES128",
      key: String(profiles.DataEncryptionKey ?? ""),
      iv: String(profiles.DataEncryptionIV ?? ""),
    });
    transformed = true;
  }
  if (profiles?.outputDataFormat === "base64") {
    out = Buffer.from(out.toString("base64"), "utf8");
    transformed = true;
  }
  return { bytes: out, transformed };
}

async function buildSuccess(
  op: OperationDefinition,
  row: JobRow,
  params: Record<string, unknown>,
  result: RunResult,
  payload: JobPayload,
): Promise<Record<string, unknown>> {
  const cfg = getConfig();
  const profiles = params.profiles as Profiles;
  const minutes = Math.min(Number(params.expiration ?? cfg.outputLinkDefaultMinutes), cfg.outputLinkMaxMinutes);
  const expiresAt = new Date(Date.now() + minutes * 60_000);
  const body: Record<string, unknown> = { ...(result.fields ?? {}) };
  if (result.pageCount !== undefined) body.pageCount = result.pageCount;
  if (result.message) body.message = result.message;
  const outputs = result.outputs ?? [];
  const wantsInline = params.inline === true && result.inlineText !== undefined;
  if (wantsInline) {
    const { bytes, transformed } = transformOutput(Buffer.from(result.inlineText!, "utf8"), profiles);
    body.body = transformed && profiles?.DataEncryptionAlgorithm && profiles?.outputDataFormat !== "base64"
      ? bytes.toString("base64")
      : bytes.toString("utf8");
  }
  const stored: Array<{ url: string; name: string; size: number }> = [];
  if (!wantsInline) {
    // Outputs are read back only when a profile transforms them (encryption, base64).
    const transforms = !!profiles?.DataEncryptionAlgorithm || profiles?.outputDataFormat === "base64";
    const toStore = [];
    for (const o of outputs) {
      let contentType = o.contentType;
      if (transforms) {
        const { bytes, transformed } = transformOutput(await fsp.readFile(o.path), profiles);
        if (transformed) {
          await replaceFile(o.path, bytes);
          contentType = profiles?.outputDataFormat === "base64" ? "text/plain" : "application/octet-stream";
        }
      }
      toStore.push({ accountId: row.accountId, jobId: row.id, srcPath: o.path, name: o.name, contentType, expiresAt });
    }
    for (const s of await storeOutputs(toStore)) stored.push({ url: s.url, name: s.name, size: s.size });
  }
  const multiple = result.multiple || op.resultFile?.multiple || stored.length > 1;
  if (stored.length > 0 || (multiple && !wantsInline)) {
    if (multiple) body.urls = stored.map((s) => s.url);
    else body.url = stored[0].url;
    body.name = stored[0]?.name ?? (params.name as string | undefined) ?? "";
    body.outputLinkValidTill = expiresAt.toISOString();
    if (stored.length === 1 && body.fileSize === undefined) body.fileSize = stored[0].size;
  }
  // The promised async URL: the output itself, a JSON list of URLs, or the JSON result.
  if (payload.promised) {
    const p = payload.promised;
    if (multiple) {
      await fillReservedOutput(p.id, p.name, JSON.stringify(body.urls ?? []), "application/json");
    } else if (stored.length === 1) {
      const own = await resolveOwnFile(stored[0].url);
      if (own) await fillReservedOutput(p.id, p.name, await own.read(), own.row.contentType);
    } else {
      await fillReservedOutput(p.id, p.name, JSON.stringify({ error: false, status: 200, ...body }), "application/json");
    }
    if (!multiple && stored.length === 1) body.url = row.promisedUrl ?? body.url;
  }
  if (op.resultFile?.alsoUrls && !multiple && typeof body.url === "string") body.urls = [body.url];
  return { ...body, error: false, status: 200 };
}

/** The job-check object for a finished or running job (also the callback body). */
export async function jobCheckResult(row: JobRow) {
  if (row.status === "working") {
    return {
      status: "working",
      jobId: row.id,
      error: false,
      remainingCredits: await getBalance(row.accountId),
      ...(row.startedAt ? { jobDuration: Date.now() - row.startedAt.getTime() } : {}),
    };
  }
  const r = (row.result ?? {}) as Record<string, unknown>;
  const jobDuration = row.durationMs ?? 0;
  if (row.status === "success") {
    const { error: _e, status: _s, ...rest } = r;
    return {
      ...rest,
      status: "success",
      jobId: row.id,
      error: false,
      message: row.message ?? "Success",
      url: row.promisedUrl ?? rest.url,
      jobDuration,
      duration: jobDuration,
    };
  }
  return {
    status: row.status,
    jobId: row.id,
    error: true,
    message: row.message ?? "failed",
    errorCode: r.status,
    credits: 0,
    remainingCredits: r.remainingCredits ?? (await getBalance(row.accountId)),
    jobDuration,
    duration: jobDuration,
  };
}
