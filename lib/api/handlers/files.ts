import "server-only";
import fs from "node:fs";
import type { z } from "zod";
import { QuireError } from "@/lib/core/errors";
import { getConfig } from "@/lib/core/config";
import { getBalance } from "@/lib/credits/ledger";
import { createPendingUpload, filePath, getFileRow, parseStorageLink, writeUpload } from "@/lib/storage/local-store";
import { corsHeaders, limitedBody, readWireRequest } from "../http";
import type { RouteHandler } from "../define-route";
import type * as s from "../schemas";

type KeyHandler<R extends z.ZodType, I extends z.ZodObject | undefined = undefined> = RouteHandler<"api-key", I, R>;

export const presignedUpload: KeyHandler<typeof s.presignedResponse, typeof s.presignedInput> = async ({ caller, input }) => {
  const f = await input();
  const up = await createPendingUpload(caller.accountId, f.name ?? "upload", f.contenttype ?? "");
  return {
    presignedUrl: up.presignedUrl,
    url: up.url,
    name: up.name,
    error: false,
    status: 200,
    remainingCredits: await getBalance(caller.accountId),
  };
};

export const multipartUpload: KeyHandler<typeof s.uploadResponse, typeof s.multipartUploadInput> = async ({ req, url, caller }) => {
  const wire = await readWireRequest(req, url, getConfig().uploadMaxBytes);
  const file = wire.files.find((f) => f.field.toLowerCase() === "file") ?? wire.files[0];
  if (!file) throw new QuireError(400, "file: send the file as a multipart/form-data part named `file`");
  const name = (wire.fields.name as string | undefined) || file.name;
  const up = await createPendingUpload(caller.accountId, name, file.contentType);
  await writeUpload(up.id, up.name, (async function* () { yield file.bytes; })(), file.contentType);
  return { url: up.url, name: up.name, error: false, status: 200, remainingCredits: await getBalance(caller.accountId) };
};

export const base64Upload: KeyHandler<typeof s.uploadResponse, typeof s.base64UploadInput> = async ({ req, url, caller }) => {
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
  return { url: up.url, name: up.name, error: false, status: 200, remainingCredits: await getBalance(caller.accountId) };
};

/** The target of a presigned URL: a raw PUT with any or no Content-Type, streamed to disk. */
export const storagePut: RouteHandler<"signed-link", undefined, typeof s.storagePutResponse> = async ({ req, url }) => {
  const link = parseStorageLink(url.pathname, url.searchParams, "put");
  if (!link) throw new QuireError(403, "This upload link is invalid or has expired; ask for a new presigned URL.");
  const row = await getFileRow(link.id);
  if (!row || row.kind !== "upload") throw new QuireError(404, "upload not found");
  const ct = req.headers["content-type"];
  await writeUpload(link.id, row.name, limitedBody(req, getConfig().uploadMaxBytes, "upload"), ct || undefined);
  return { error: false, status: 200, name: row.name };
};

const INLINE_TYPES = /^(application\/pdf|image\/(png|jpeg|gif|webp)|text\/(csv|plain)|application\/json)/;

/** An upload or output through its signed link; HTML and unknown types download instead of rendering. */
export const storageGet: RouteHandler<"signed-link", undefined, "binary"> = async ({ req, res, url }) => {
  const link = parseStorageLink(url.pathname, url.searchParams, "get");
  if (!link) throw new QuireError(404, "This link is invalid or has expired.");
  const row = await getFileRow(link.id);
  if (!row || row.expiresAt.getTime() < Date.now()) throw new QuireError(404, "This link has expired; the file was deleted.");
  if (!row.complete) throw new QuireError(404, "Not ready yet: the job that makes this file is still working (check /v1/job/check).");
  const file = filePath(row.id, row.name);
  const stat = await fs.promises.stat(file).catch(() => null);
  if (!stat) throw new QuireError(404, "file not found");
  const disposition = INLINE_TYPES.test(row.contentType) ? "inline" : "attachment";
  res.writeHead(200, {
    ...corsHeaders,
    "content-type": row.contentType,
    "content-length": stat.size,
    "content-disposition": `${disposition}; filename="${row.name.replace(/[^\x20-\x7e]/g, "_")}"; filename*=UTF-8''${encodeURIComponent(row.name)}`,
    "x-content-type-options": "nosniff",
    "content-security-policy": "sandbox; default-src 'none'; img-src data:; style-src 'unsafe-inline'",
    "cache-control": "private, max-age=60",
  });
  if (req.method === "HEAD") return void res.end();
  fs.createReadStream(file).pipe(res);
};
