import "server-only";
import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import busboy from "busboy";
import { QuireError } from "@/lib/core/errors";

/** CORS for browser clients calling the API directly with x-api-key. */
export const corsHeaders: Record<string, string> = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "GET, POST, PUT, DELETE, OPTIONS",
  "access-control-allow-headers": "x-api-key, content-type, authorization, idempotency-key, x-request-id",
  "access-control-expose-headers": "content-disposition, content-length, retry-after, ratelimit, ratelimit-policy, x-request-id, idempotent-replayed",
  "access-control-max-age": "86400",
};

/** Sends compact JSON in one write (some Node clients parse only the first chunk). */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(text),
    "cache-control": "no-store",
    ...corsHeaders,
    ...headers,
  });
  res.end(text);
}

export function sendError(res: ServerResponse, e: QuireError) {
  sendJson(res, e.status, e.toBody(), e.retryAfterSeconds ? { "retry-after": String(e.retryAfterSeconds) } : {});
}

/** Yields the request body while counting bytes; throws 413 past `maxBytes`. */
export async function* limitedBody(req: IncomingMessage, maxBytes: number, what = "request body") {
  let size = 0;
  // Stopping early (a reader's error, 413) must not destroy the request: the error answer still
  // has to reach the client (the router closes the connection after it).
  for await (const chunk of req.iterator({ destroyOnReturn: false })) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) throw new QuireError(413, `${what} is larger than ${maxBytes} bytes`);
    yield chunk as Buffer;
  }
}

async function readBodyBuffer(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of limitedBody(req, maxBytes)) chunks.push(c);
  return Buffer.concat(chunks);
}

/** A file part of a multipart body, streaming while it arrives: consume `stream` to the end. */
export interface FilePart {
  field: string;
  name: string;
  contentType: string;
  stream: Readable;
}

export interface WireRequest<F = never> {
  fields: Record<string, unknown>;
  /** What `onFile` made of each file part, in order (file parts are drained when there is no `onFile`). */
  files: F[];
}

/**
 * Reads parameters from the query string and the body (JSON, urlencoded or multipart); body
 * fields win over query fields with the same name. Multipart file parts are never held in memory:
 * each is handed to `onFile` as a stream (to storage), the whole body counted against `maxBytes`;
 * when the body fails, what `onFile` made is handed to `onDiscard`.
 */
export async function readWireRequest<F = never>(
  req: IncomingMessage,
  url: URL,
  maxBytes: number,
  onFile?: (part: FilePart) => Promise<F>,
  onDiscard?: (file: F) => Promise<void>,
): Promise<WireRequest<F>> {
  const fields: Record<string, unknown> = {};
  for (const [k, v] of url.searchParams) fields[k] = v;
  const files: F[] = [];
  if (req.method === "GET" || req.method === "HEAD") return { fields, files };
  const type = (req.headers["content-type"] ?? "").toLowerCase();
  if (type.startsWith("multipart/form-data")) {
    try {
      await readMultipart(req, maxBytes, fields, async (part, index) => {
        if (onFile) files[index] = await onFile(part);
        else part.stream.resume();
      });
    } catch (e) {
      // The body failed after some parts were stored: they go too.
      for (const f of files) if (f !== undefined) await onDiscard?.(f).catch(() => {});
      throw e;
    }
    return { fields, files };
  }
  const buf = await readBodyBuffer(req, maxBytes);
  const text = buf.toString("utf8").trim();
  if (text === "") return { fields, files };
  if (type.startsWith("application/x-www-form-urlencoded")) {
    for (const [k, v] of new URLSearchParams(text)) fields[k] = v;
    return { fields, files };
  }
  // JSON (also when the client forgot the content type).
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    if (!type.includes("json") && text.includes("=") && !text.startsWith("{")) {
      for (const [k, v] of new URLSearchParams(text)) fields[k] = v;
      return { fields, files };
    }
    throw new QuireError(400, "the request body is not valid JSON");
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw new QuireError(400, "the request body must be a JSON object");
  }
  Object.assign(fields, parsed);
  return { fields, files };
}

/**
 * Streams a multipart/form-data body through busboy: text fields into `fields`, each file part to
 * `onPart` while it arrives (parts one after the other, each consumed before the next is read).
 */
async function readMultipart(
  req: IncomingMessage,
  maxBytes: number,
  fields: Record<string, unknown>,
  onPart: (part: FilePart, index: number) => Promise<void>,
): Promise<void> {
  let parser: busboy.Busboy;
  try {
    // Text fields may be as large as the body allows (some clients send base64 in one).
    parser = busboy({ headers: req.headers, limits: { fieldSize: maxBytes } });
  } catch {
    throw new QuireError(400, "the multipart body could not be read (no boundary in Content-Type)");
  }
  const parts: Promise<void>[] = [];
  const streams: Readable[] = [];
  let failure: unknown;
  parser.on("field", (name, value) => (fields[name] = value));
  parser.on("file", (field, stream, info) => {
    const part = { field, name: info.filename || "upload", contentType: info.mimeType, stream };
    // Its reader sees an error through its own iteration; this keeps one with no reader left from
    // becoming an uncaught 'error' event.
    stream.on("error", () => {});
    streams.push(stream);
    parts.push(
      onPart(part, parts.length).catch((e: unknown) => {
        failure ??= e;
        stream.resume(); // keep the parser moving; the first failure is reported
      }),
    );
  });
  try {
    await pipeline(Readable.from(limitedBody(req, maxBytes)), parser);
  } catch (e) {
    failure ??= e;
    // A part still streaming will never end now: stop it so its consumer cleans up.
    for (const st of streams) if (!st.readableEnded) st.destroy(e instanceof Error ? e : new Error(String(e)));
  }
  await Promise.all(parts);
  if (failure) {
    if (failure instanceof QuireError) throw failure;
    throw new QuireError(400, "the multipart body could not be read");
  }
}
