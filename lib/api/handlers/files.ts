import "server-only";
import type { z } from "zod";
import { QuireError } from "@/lib/core/errors";
import { getConfig } from "@/lib/core/config";
import { getBalance } from "@/lib/credits/ledger";
import type { IncomingMessage } from "node:http";
import { Readable } from "node:stream";
import {
  createPendingUpload,
  deleteFileRow,
  getFileRow,
  openStoredFile,
  parseStorageLink,
  renameUpload,
  storeUpload,
  writeUpload,
} from "@/lib/storage/local-store";
import { log } from "@/lib/core/log";
import { contentDisposition, isInlineType } from "@/lib/storage/object-store";
import { corsHeaders, limitedBody, readWireRequest } from "../http";
import { decodeBase64, readBase64Json } from "../base64-body";
import { keepChosenParts, storePart } from "../uploads";
import type { RouteHandler } from "../define-route";
import type * as s from "../schemas";

type KeyHandler<R extends z.ZodType, I extends z.ZodObject | undefined = undefined> = RouteHandler<
  "api-key",
  I,
  R
>;

export const presignedUpload: KeyHandler<typeof s.presignedResponse, typeof s.presignedInput> = async ({
  caller,
  input,
}) => {
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

/** POST /v1/file/upload: the `file` part (else the first) streams to storage; `name` renames it. */
export const multipartUpload: KeyHandler<typeof s.uploadResponse, typeof s.multipartUploadInput> = async ({ req, url, caller }) => {
  const wire = await readWireRequest(req, url, getConfig().uploadMaxBytes, (part) => storePart(caller, part), (p) => deleteFileRow(p.id));
  const [file] = await keepChosenParts(wire.files, false);
  if (!file) throw new QuireError(400, "file: send the file as a multipart/form-data part named `file`");
  const wanted = wire.fields.name as string | undefined;
  const named = wanted ? await renameUpload(file, wanted) : file;
  return {
    url: named.url,
    name: named.name,
    error: false,
    status: 200,
    remainingCredits: await getBalance(caller.accountId),
  };
};

/**
 * POST /v1/file/upload/base64: `file` as base64 text or a data: URI, `name`. A JSON body is decoded
 * while it streams into storage (never whole in memory); form bodies, which carry little, are read whole.
 */
export const base64Upload: KeyHandler<typeof s.uploadResponse, typeof s.base64UploadInput> = async ({
  req,
  url,
  caller,
}) => {
  const max = Math.ceil(getConfig().uploadMaxBytes * 1.4);
  const type = (req.headers["content-type"] ?? "").toLowerCase();
  const store = (bytes: AsyncIterable<Uint8Array>, contentType: string) =>
    storeUpload(caller.accountId, "upload", contentType, bytes);
  const fields: Record<string, unknown> = Object.fromEntries(url.searchParams);
  let stored: Awaited<ReturnType<typeof store>> | undefined;
  const body = await peekBody(limitedBody(req, max));
  if (
    !type.startsWith("multipart/") &&
    !type.startsWith("application/x-www-form-urlencoded") &&
    (type.includes("json") || body.first === "{")
  ) {
    const r = await readBase64Json(body.chunks, store, (up) => deleteFileRow(up.id));
    Object.assign(fields, r.fields);
    stored = r.stored;
  } else {
    const wire = await readWireRequest(replay(req, body.chunks), url, max);
    Object.assign(fields, wire.fields);
  }
  if (!stored) {
    // A short `file` given outside a JSON body (a form field, the query string).
    const raw = String(fields.file ?? fields.File ?? "");
    if (!raw) throw new QuireError(400, "file: send the file as base64 text or a data: URI");
    const m = /^data:([^;,]*)(;base64)?,(.*)$/s.exec(raw);
    stored = await store(decodeBase64(m ? m[3] : raw, []), m?.[1] || "application/octet-stream");
  }
  if (stored.size === 0) {
    await deleteFileRow(stored.id);
    throw new QuireError(400, "file: the decoded file is empty");
  }
  const named = await renameUpload(stored, String(fields.name ?? fields.Name ?? "upload"));
  return {
    url: named.url,
    name: named.name,
    error: false,
    status: 200,
    remainingCredits: await getBalance(caller.accountId),
  };
};

/** Reads the first chunk to see how the body starts, keeping every chunk for whoever reads it next. */
async function peekBody(
  body: AsyncGenerator<Buffer>,
): Promise<{ first: string; chunks: AsyncIterable<Buffer> }> {
  const head = await body.next();
  const firstChunk = head.done ? undefined : head.value;
  async function* chunks() {
    if (firstChunk) yield firstChunk;
    yield* body;
  }
  return { first: firstChunk?.toString("latin1").trimStart().charAt(0) ?? "", chunks: chunks() };
}

/** The request again, its body now the given chunks (for a reader that takes a request). */
function replay(req: IncomingMessage, chunks: AsyncIterable<Buffer>): IncomingMessage {
  return Object.assign(Readable.from(chunks), {
    headers: req.headers,
    method: req.method,
  }) as unknown as IncomingMessage;
}

const GENERIC_TYPE = "application/octet-stream";

/**
 * The target of a presigned URL: a raw PUT with any or no Content-Type, streamed to disk. The
 * file is served later with the `contenttype` named when the link was made; the PUT's own
 * Content-Type counts only when none (or the generic application/octet-stream) was named.
 */
export const storagePut: RouteHandler<"signed-link", undefined, typeof s.storagePutResponse> = async ({ req, url }) => {
  const link = parseStorageLink(url.pathname, url.searchParams, "put");
  if (!link)
    throw new QuireError(403, "This upload link is invalid or has expired; ask for a new presigned URL.");
  const row = await getFileRow(link.id);
  if (!row || row.kind !== "upload") throw new QuireError(404, "upload not found");
  // One upload per link: a finished upload (perhaps already read by a job) is never replaced.
  if (row.complete)
    throw new QuireError(409, "This upload link was already used: the file is uploaded and cannot be replaced. Ask for a new presigned URL.");
  const named = row.contentType && row.contentType !== GENERIC_TYPE;
  const ct = named ? undefined : req.headers["content-type"];
  await writeUpload(link.id, row.name, limitedBody(req, getConfig().uploadMaxBytes, "upload"), ct || undefined);
  return { error: false, status: 200, name: row.name };
};

/** An upload or output through its signed link, streamed from the store; HTML and unknown types download instead of rendering. */
export const storageGet: RouteHandler<"signed-link", undefined, "binary"> = async ({ req, res, url }) => {
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
    return void res.end();
  }
  body.on("error", (e) => {
    log.warn(`reading stored file ${row.id} failed`, e);
    res.destroy();
  });
  body.pipe(res);
};
