import "server-only";
import type { IncomingMessage, ServerResponse } from "node:http";
import { z } from "zod";
import { QuireError, toQuireError } from "@/lib/core/errors";
import { corsHeaders, limitedBody, readWireRequest, sendError, sendJson, type WireFile } from "./http";
import { authenticate, type Caller } from "./auth";
import { coerceObject, parseParams } from "./wire";
import { redactParams, submitOperation } from "./submit";
import { buildOpenApi } from "./openapi";
import { getConfig } from "@/lib/core/config";
import { getBalance, getLedger } from "@/lib/credits/ledger";
import { getOperationByPath, getOperation } from "@/lib/operations/registry";
import { createPendingUpload, getFileRow, openStoredFile, parseStorageLink, writeUpload } from "@/lib/storage/local-store";
import { contentDisposition, isInlineType } from "@/lib/storage/object-store";
import { getJob, listDeliveries, listJobs, type JobRow } from "@/lib/jobs/job-store";
import { jobCheckResult, openPayload } from "@/lib/jobs/execute-job";
import { createApiKey, listApiKeys, revokeApiKey } from "@/lib/auth/api-keys";
import { getDb } from "@/lib/db/client";
import { accounts, users } from "@/lib/db/schema";
import { eq } from "drizzle-orm";
import { generateWebhookSecret } from "@/lib/webhooks";
import { log } from "@/lib/core/log";
import { enforceRateLimit } from "./rate-limit";
import { requestFingerprint, withIdempotency } from "./idempotency";

const JSON_MAX = 50 * 1024 * 1024;

/** True for the paths the engine serves (the rest goes to the dashboard). */
export function isEnginePath(pathname: string) {
  return pathname.startsWith("/v1/") || pathname.startsWith("/v2/") || pathname.startsWith("/files/") || pathname === "/healthz";
}

/** The engine's HTTP entry: one wrapper for CORS, auth, errors and logging around every route. */
export async function handleEngineRequest(req: IncomingMessage, res: ServerResponse) {
  const started = Date.now();
  const url = new URL(req.url ?? "/", "http://internal");
  try {
    if (req.method === "OPTIONS") {
      res.writeHead(204, corsHeaders);
      res.end();
      return;
    }
    if (url.pathname === "/healthz") return sendJson(res, 200, { ok: true });
    if (url.pathname.startsWith("/files/")) return await handleFiles(req, res, url);
    if (url.pathname === "/v1/openapi.json") return sendJson(res, 200, buildOpenApi());
    const caller = await authenticate(req);
    await enforceRateLimit(res, caller.keyId);
    await route(req, res, url, caller, started);
  } catch (e) {
    const err = toQuireError(e);
    if (err.status === 500) log.error(`${req.method} ${url.pathname} failed`, e);
    if (!res.headersSent) sendError(res, err);
    else res.destroy();
  }
}

async function route(req: IncomingMessage, res: ServerResponse, url: URL, caller: Caller, started: number) {
  const p = url.pathname.replace(/\/+$/, "");
  const m = req.method ?? "GET";
  if (p === "/v1/account/credit/balance" && m === "GET") {
    return sendJson(res, 200, { remainingCredits: caller.balance, error: false, status: 200 });
  }
  if (p === "/v1/job/check" && (m === "GET" || m === "POST")) return jobCheck(req, res, url, caller);
  if (p === "/v1/file/upload/get-presigned-url" && m === "GET") {
    const name = url.searchParams.get("name") ?? url.searchParams.get("Name") ?? "upload";
    const contentType = url.searchParams.get("contenttype") ?? url.searchParams.get("contentType") ?? "";
    const up = await createPendingUpload(caller.accountId, name, contentType);
    return sendJson(res, 200, {
      presignedUrl: up.presignedUrl,
      url: up.url,
      name: up.name,
      error: false,
      status: 200,
      remainingCredits: await getBalance(caller.accountId),
    });
  }
  if (p === "/v1/file/upload" && m === "POST") return uploadMultipart(req, res, url, caller);
  if (p === "/v1/file/upload/base64" && m === "POST") return uploadBase64(req, res, url, caller);
  if (p.startsWith("/v1/jobs") || p.startsWith("/v1/account")) return extension(req, res, url, caller, p, m);
  const op = getOperationByPath(p);
  if (op) {
    if (m !== "POST") throw new QuireError(405, `${p} takes POST with a JSON body`);
    const wire = await readWireRequest(req, url, JSON_MAX);
    const r = await withIdempotency(req, caller.accountId, () => requestFingerprint(p, wire), async () => {
      if (wire.files.length) wire.fields.url = await storeWireFiles(wire.files, caller, op.input === "images");
      const params = parseParams(wire.fields, op.params) as Record<string, unknown>;
      return submitOperation(op, params, caller, started);
    });
    return sendJson(res, r.status, r.body, r.headers);
  }
  throw new QuireError(404, `No such endpoint: ${m} ${p}. See /v1/openapi.json for the list.`);
}

/** A multipart `file` part stands in for `url`: it becomes an upload and its link the source. */
async function storeWireFiles(files: WireFile[], caller: Caller, several: boolean): Promise<string> {
  const chosen = several ? files : [files.find((f) => f.field.toLowerCase() === "file") ?? files[0]];
  const urls: string[] = [];
  for (const f of chosen) {
    const up = await createPendingUpload(caller.accountId, f.name, f.contentType);
    await writeUpload(up.id, up.name, (async function* () { yield f.bytes; })(), f.contentType);
    urls.push(up.url);
  }
  return urls.join(",");
}

const jobCheckSchema = z.object({ jobid: z.string().optional(), force: z.boolean().optional() });

async function jobCheck(req: IncomingMessage, res: ServerResponse, url: URL, caller: Caller) {
  const wire = await readWireRequest(req, url, 1024 * 1024);
  const f = coerceObject(wire.fields, jobCheckSchema);
  const jobId = f.jobid as string | undefined;
  if (!jobId) throw new QuireError(400, "jobid: required (the jobId an async call answered with)");
  const row = await getJob(jobId);
  if (!row || row.accountId !== caller.accountId) {
    if (f.force === true) return sendJson(res, 200, { status: "unknown", jobId, error: false, message: "Unknown job id" });
    return sendJson(res, 200, { status: "working", jobId, error: false, remainingCredits: await getBalance(caller.accountId) });
  }
  return sendJson(res, 200, await jobCheckResult(row));
}

async function uploadMultipart(req: IncomingMessage, res: ServerResponse, url: URL, caller: Caller) {
  const wire = await readWireRequest(req, url, getConfig().uploadMaxBytes);
  const file = wire.files.find((f) => f.field.toLowerCase() === "file") ?? wire.files[0];
  if (!file) throw new QuireError(400, "file: send the file as a multipart/form-data part named `file`");
  const name = (wire.fields.name as string | undefined) || file.name;
  const up = await createPendingUpload(caller.accountId, name, file.contentType);
  await writeUpload(up.id, up.name, (async function* () { yield file.bytes; })(), file.contentType);
  return sendJson(res, 200, { url: up.url, name: up.name, error: false, status: 200, remainingCredits: await getBalance(caller.accountId) });
}

async function uploadBase64(req: IncomingMessage, res: ServerResponse, url: URL, caller: Caller) {
  const wire = await readWireRequest(req, url, Math.ceil(getConfig().uploadMaxBytes * 1.4));
  const raw = String(wire.fields.file ?? wire.fields.File ?? "");
  if (!raw) throw new QuireError(400, "file: send the file as base64 text or a data: URI");
  const m = /^data:([^;,]*)(;base64)?,(.*)$/s.exec(raw);
  const contentType = m?.[1] || "application/octet-stream";
  const b64 = (m ? m[3] : raw).replace(/\s+/g, "");
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(b64)) throw new QuireError(400, "file: not valid base64");
  const bytes = Buffer.from(b64, "base64");
  if (bytes.length === 0) throw new QuireError(400, "file: the decoded file is empty");
  const name = String(wire.fields.name ?? wire.fields.Name ?? "upload");
  const up = await createPendingUpload(caller.accountId, name, contentType);
  await writeUpload(up.id, up.name, (async function* () { yield bytes; })(), contentType);
  return sendJson(res, 200, { url: up.url, name: up.name, error: false, status: 200, remainingCredits: await getBalance(caller.accountId) });
}

/** Signed storage links: GET an upload or output, PUT to a presigned upload. */
async function handleFiles(req: IncomingMessage, res: ServerResponse, url: URL) {
  if (req.method === "PUT") {
    const link = parseStorageLink(url.pathname, url.searchParams, "put");
    if (!link) throw new QuireError(403, "This upload link is invalid or has expired; ask for a new presigned URL.");
    const row = await getFileRow(link.id);
    if (!row || row.kind !== "upload") throw new QuireError(404, "upload not found");
    const ct = req.headers["content-type"];
    await writeUpload(link.id, row.name, limitedBody(req, getConfig().uploadMaxBytes, "upload"), ct || undefined);
    return sendJson(res, 200, { error: false, status: 200, name: row.name });
  }
  if (req.method !== "GET" && req.method !== "HEAD") throw new QuireError(405, "storage links take GET or PUT");
  const link = parseStorageLink(url.pathname, url.searchParams, "get");
  if (!link) throw new QuireError(404, "This link is invalid or has expired.");
  const { row, body, size } = await openStoredFile(link.id);
  res.writeHead(200, {
    ...corsHeaders,
    "content-type": row.contentType,
    "content-length": size,
    "content-disposition": contentDisposition(row.name, isInlineType(row.contentType)),
    "x-content-type-options": "nosniff",
    "content-security-policy": "sandbox; default-src 'none'; img-src data:; style-src 'unsafe-inline'",
    "cache-control": "private, max-age=60",
  });
  if (req.method === "HEAD" || !body) {
    body?.destroy();
    return res.end();
  }
  body.on("error", (e) => {
    log.warn(`reading stored file ${row.id} failed`, e);
    res.destroy();
  });
  body.pipe(res);
}

function publicJob(row: JobRow) {
  const r = (row.result ?? {}) as Record<string, unknown>;
  return {
    jobId: row.id,
    operation: row.operation,
    path: row.path,
    status: row.status,
    isAsync: row.isAsync,
    via: row.via,
    source: row.source,
    createdAt: row.createdAt,
    startedAt: row.startedAt,
    finishedAt: row.finishedAt,
    durationMs: row.durationMs,
    credits: row.credits,
    pageCount: row.pageCount,
    url: row.promisedUrl ?? r.url,
    urls: r.urls,
    message: row.message,
  };
}

/** Quire extensions used by the dashboard (documented in the OpenAPI document and README). */
async function extension(req: IncomingMessage, res: ServerResponse, url: URL, caller: Caller, p: string, m: string) {
  const db = await getDb();
  if (p === "/v1/jobs" && m === "GET") {
    const limit = Math.min(Math.max(Number(url.searchParams.get("limit") ?? 50) || 50, 1), 500);
    const rows = await listJobs(caller.accountId, {
      limit,
      status: url.searchParams.get("status") || undefined,
      q: url.searchParams.get("q") || undefined,
    });
    return sendJson(res, 200, { error: false, status: 200, jobs: rows.map(publicJob) });
  }
  let mm = /^\/v1\/jobs\/([\w-]+)(\/rerun)?$/.exec(p);
  if (mm) {
    const row = await getJob(mm[1]);
    if (!row || row.accountId !== caller.accountId) throw new QuireError(404, `job ${mm[1]} not found`);
    if (mm[2] && m === "POST") {
      const op = getOperation(row.operation)!;
      const { params } = openPayload(row.payload);
      const r = await withIdempotency(req, caller.accountId, () => requestFingerprint(p, { fields: {}, files: [] }), () =>
        submitOperation(op, params as Record<string, unknown>, caller),
      );
      return sendJson(res, r.status, r.body, r.headers);
    }
    if (m !== "GET") throw new QuireError(405, "use GET");
    const deliveries = await listDeliveries(row.id);
    return sendJson(res, 200, {
      error: false,
      status: 200,
      job: {
        ...publicJob(row),
        request: row.request,
        result: row.status === "working" ? null : await jobCheckResult(row),
        callbackUrl: row.callbackUrl,
        callbacks: deliveries.map((d) => ({ attempt: d.attempt, at: d.createdAt, ok: d.ok, httpStatus: d.httpStatus, error: d.error })),
      },
    });
  }
  if (p === "/v1/account" && m === "GET") {
    const [acc] = await db.select().from(accounts).where(eq(accounts.id, caller.accountId));
    const [user] = await db.select().from(users).where(eq(users.accountId, caller.accountId)).limit(1);
    return sendJson(res, 200, {
      error: false,
      status: 200,
      accountName: acc.name,
      email: user?.email ?? "",
      name: user?.name ?? "",
      remainingCredits: Number(acc.balance),
    });
  }
  if (p === "/v1/account/credit/ledger" && m === "GET") {
    const days = Math.min(Math.max(Number(url.searchParams.get("days") ?? 30) || 30, 1), 366);
    return sendJson(res, 200, { error: false, status: 200, ...(await getLedger(caller.accountId, days)) });
  }
  if (p === "/v1/account/keys") {
    if (m === "GET") return sendJson(res, 200, { error: false, status: 200, keys: await listApiKeys(caller.accountId) });
    if (m === "POST") {
      const wire = await readWireRequest(req, url, 64 * 1024);
      const name = String(wire.fields.name ?? "").trim().slice(0, 100) || "API key";
      const created = await createApiKey(caller.accountId, name);
      return sendJson(res, 200, { error: false, status: 200, key: created.key, secret: created.secret });
    }
  }
  mm = /^\/v1\/account\/keys\/([\w-]+)$/.exec(p);
  if (mm && m === "DELETE") {
    if (mm[1] === caller.keyId) throw new QuireError(400, "a key cannot revoke itself; use another key or the CLI");
    const ok = await revokeApiKey(caller.accountId, mm[1]);
    if (!ok) throw new QuireError(404, "key not found or already revoked");
    return sendJson(res, 200, { error: false, status: 200, revoked: mm[1] });
  }
  if (p === "/v1/account/webhook-secret" && m === "GET") {
    const [acc] = await db.select().from(accounts).where(eq(accounts.id, caller.accountId));
    return sendJson(res, 200, { error: false, status: 200, secret: acc.webhookSecret });
  }
  if (p === "/v1/account/webhook-secret/rotate" && m === "POST") {
    const secret = generateWebhookSecret();
    await db.update(accounts).set({ webhookSecret: secret }).where(eq(accounts.id, caller.accountId));
    return sendJson(res, 200, { error: false, status: 200, secret });
  }
  throw new QuireError(404, `No such endpoint: ${m} ${p}`);
}

export { redactParams };
