import "server-only";
import crypto from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import type { z } from "zod";
import { getConfig } from "@/lib/core/config";
import { QuireError } from "@/lib/core/errors";
import { log } from "@/lib/core/log";
import { getBalance } from "@/lib/credits/ledger";
import { egressDownloadToFile } from "@/lib/egress";
import {
  deleteFileRow,
  describeAccountFile,
  findAccountFile,
  findAccountFileByUrl,
  findPublicFile,
  listAccountFiles,
  openFileBytes,
  resolveOwnFile,
  safeFileName,
  setFileAccess,
  storeUpload,
  type FileRow,
} from "@/lib/storage/files";
import { contentDisposition, isInlineType } from "@/lib/storage/object-store";
import { authenticate } from "../auth";
import { corsHeaders } from "../http";
import { enforceRateLimit } from "../rate-limit";
import type { RouteHandler } from "../define-route";
import type * as s from "../schemas";

/**
 * The account's stored files (/v1/file/*): a file's token is its id. Every lookup is scoped to the
 * caller's account; a token or link of another account answers the same 404 as one that never
 * existed, so nothing about other accounts' files is revealed.
 */

type KeyHandler<R extends z.ZodType, I extends z.ZodObject | undefined = undefined> = RouteHandler<"api-key", I, R>;

const NOT_FOUND = "No stored file of this account has this link or token (it may have expired or been deleted).";

/** The caller's file behind a link, or 404. */
async function ownFileOrThrow(accountId: string, url: string): Promise<FileRow> {
  const row = await findAccountFileByUrl(accountId, url);
  if (!row) throw new QuireError(404, `url: ${NOT_FOUND}`);
  return row;
}

function basicAuth(f: { httpusername?: string; httppassword?: string }) {
  return f.httpusername || f.httppassword ? { username: f.httpusername ?? "", password: f.httppassword ?? "" } : undefined;
}

/** A private temporary file beside the store's data (removed by the caller). */
async function tempPath() {
  const dir = path.join(getConfig().dataDir, "tmp");
  await fsp.mkdir(dir, { recursive: true });
  return path.join(dir, `fetch-${crypto.randomBytes(12).toString("hex")}`);
}

/**
 * Fetches `url` into a temporary file: the caller's own stored file straight from the store, any
 * other URL through the egress guard (checked, pinned, size and time capped). Another account's
 * Quire link is fetched like any URL would be: through its signed link, which is what it grants.
 */
async function fetchToTemp(accountId: string, f: z.infer<typeof s.fileUrlInput>) {
  const dest = await tempPath();
  const token = /^filetoken:\/\//i.test(f.url.trim());
  if (token) {
    const row = await ownFileOrThrow(accountId, f.url);
    const { body } = await openFileBytes(row);
    await fsp.writeFile(dest, body);
    return { dest, name: row.name, contentType: row.contentType };
  }
  const own = await resolveOwnFile(f.url.trim());
  if (own) {
    await own.saveTo(dest);
    return { dest, name: own.row.name, contentType: own.row.contentType };
  }
  const cfg = getConfig();
  const got = await egressDownloadToFile(f.url.trim(), dest, {
    basicAuth: basicAuth(f),
    maxBytes: Math.min(cfg.sourceMaxBytes, cfg.uploadMaxBytes),
    timeoutMs: cfg.sourceTimeoutMs,
  });
  if (got.status >= 400) {
    await fsp.rm(dest, { force: true });
    throw new QuireError(400, `url: the server answered ${got.status} for ${f.url.slice(0, 200)}`);
  }
  return { dest, name: got.name, contentType: got.contentType.split(";")[0].trim() };
}

/** POST /v1/file/upload/url: a remote file (or a Quire link) copied into this account's storage. */
export const uploadFromUrl: KeyHandler<typeof s.uploadUrlResponse, typeof s.fileUrlInput> = async ({ caller, input }) => {
  const f = await input();
  const got = await fetchToTemp(caller.accountId, f);
  try {
    const name = safeFileName(f.name || got.name || "upload", "upload");
    const stored = await storeUpload(caller.accountId, name, got.contentType || "application/octet-stream", fs.createReadStream(got.dest));
    return {
      url: stored.url,
      name: stored.name,
      token: stored.id,
      size: stored.size,
      error: false,
      status: 200,
      remainingCredits: await getBalance(caller.accountId),
    };
  } finally {
    await fsp.rm(got.dest, { force: true });
  }
};

/** POST /v1/file/hash: SHA-256 of the bytes, streamed (never whole in memory). */
export const hashFile: KeyHandler<typeof s.fileHashResponse, typeof s.fileUrlInput> = async ({ caller, input }) => {
  const f = await input();
  const hash = crypto.createHash("sha256");
  let size = 0;
  const row = /^filetoken:\/\//i.test(f.url.trim()) ? await ownFileOrThrow(caller.accountId, f.url) : await findAccountFileByUrl(caller.accountId, f.url);
  if (row) {
    const { body } = await openFileBytes(row);
    for await (const c of body) {
      hash.update(c as Buffer);
      size += (c as Buffer).length;
    }
  } else {
    const got = await fetchToTemp(caller.accountId, f);
    try {
      for await (const c of fs.createReadStream(got.dest)) {
        hash.update(c as Buffer);
        size += (c as Buffer).length;
      }
    } finally {
      await fsp.rm(got.dest, { force: true });
    }
  }
  return { hash: hash.digest("hex"), algorithm: "SHA-256", size, error: false, status: 200, remainingCredits: await getBalance(caller.accountId) };
};

/** POST /v1/file/delete: the caller's own file, bytes and row. */
export const deleteFile: KeyHandler<typeof s.fileDeleteResponse, typeof s.fileUrlInput> = async ({ caller, input }) => {
  const f = await input();
  const row = await ownFileOrThrow(caller.accountId, f.url);
  await deleteFileRow(row.id);
  return { name: row.name, message: `${row.name} was deleted`, error: false, status: 200, remainingCredits: await getBalance(caller.accountId) };
};

/** GET /v1/file/all: the account's uploads still stored. */
export const listFiles: KeyHandler<typeof s.fileAllResponse, typeof s.fileAllInput> = async ({ caller, input }) => {
  const f = await input();
  return {
    files: await listAccountFiles(caller.accountId, { limit: f.limit, offset: f.offset }),
    error: false,
    status: 200,
    remainingCredits: await getBalance(caller.accountId),
  };
};

/**
 * GET /v1/file/download/{token}: a public file for anyone; a private one only with its account's
 * key. Every other case (no such token, another account's private file, no key) is the same 404.
 */
export const downloadFile: RouteHandler<"none", typeof s.fileDownloadInput, "binary"> = async ({ req, res, pathParams, input }) => {
  const token = (pathParams.token ?? "").toLowerCase();
  let row = await findPublicFile(token);
  if (!row && req.headers["x-api-key"]) {
    const caller = await authenticate(req);
    await enforceRateLimit(res, caller.keyId);
    row = await findAccountFile(caller.accountId, token);
  }
  if (!row) throw new QuireError(404, `${NOT_FOUND} A private file needs the x-api-key of its account.`);
  const f = await input();
  if (f.link) {
    const d = await describeAccountFile(row);
    res.writeHead(200, { ...corsHeaders, "content-type": "application/json; charset=utf-8", "cache-control": "no-store" });
    return void res.end(JSON.stringify({ url: d.url, name: d.name, error: false, status: 200 }));
  }
  const { body, size } = await openFileBytes(row);
  res.writeHead(200, {
    ...corsHeaders,
    "content-type": row.contentType,
    "content-length": size,
    "content-disposition": contentDisposition(row.name, !f.asattachment && isInlineType(row.contentType)),
    "x-content-type-options": "nosniff",
    "content-security-policy": "sandbox; default-src 'none'; img-src data:; style-src 'unsafe-inline'",
    "cache-control": row.access === "public" ? "public, max-age=60" : "private, max-age=60",
  });
  if (req.method === "HEAD") {
    body.destroy();
    return void res.end();
  }
  body.on("error", (e) => {
    log.warn(`reading stored file ${row.id} failed`, e);
    res.destroy();
  });
  body.pipe(res);
};

/** GET|POST /v1/file/options/{token}: read or set the access mode of the caller's file. */
export const fileOptions: RouteHandler<"api-key", typeof s.fileOptionsInput, typeof s.fileOptionsResponse> = async ({ caller, pathParams, input }) => {
  const row = await findAccountFile(caller.accountId, (pathParams.token ?? "").toLowerCase());
  if (!row) throw new QuireError(404, `token: ${NOT_FOUND}`);
  const f = await input();
  const accessMode = f.accessmode ?? row.access;
  if (accessMode !== row.access) await setFileAccess(row.id, accessMode);
  return { token: row.id, name: row.name, accessMode, error: false, status: 200 };
};
