import "server-only";
import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
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
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) throw new QuireError(413, `${what} is larger than ${maxBytes} bytes`);
    yield chunk as Buffer;
  }
}

export async function readBodyBuffer(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of limitedBody(req, maxBytes)) chunks.push(c);
  return Buffer.concat(chunks);
}

export interface WireFile {
  field: string;
  name: string;
  contentType: string;
  bytes: Buffer;
}

export interface WireRequest {
  fields: Record<string, unknown>;
  files: WireFile[];
}

/**
 * Reads parameters from the query string and the body (JSON, urlencoded or multipart); body
 * fields win over query fields with the same name.
 */
export async function readWireRequest(req: IncomingMessage, url: URL, maxBytes: number): Promise<WireRequest> {
  const fields: Record<string, unknown> = {};
  for (const [k, v] of url.searchParams) fields[k] = v;
  const files: WireFile[] = [];
  if (req.method === "GET" || req.method === "HEAD") return { fields, files };
  const type = (req.headers["content-type"] ?? "").toLowerCase();
  if (type.startsWith("multipart/form-data")) {
    const body = Readable.from(limitedBody(req, maxBytes)) as unknown as ReadableStream;
    let form: FormData;
    try {
      form = await new Request("http://local/", {
        method: "POST",
        headers: { "content-type": req.headers["content-type"]! },
        body: Readable.toWeb(body as unknown as Readable) as ReadableStream,
        duplex: "half",
      } as RequestInit).formData();
    } catch (e) {
      if (e instanceof QuireError) throw e;
      const cause = (e as { cause?: unknown }).cause;
      if (cause instanceof QuireError) throw cause;
      throw new QuireError(400, "the multipart body could not be read");
    }
    for (const [k, v] of form) {
      if (typeof v === "string") fields[k] = v;
      else files.push({ field: k, name: v.name || "upload", contentType: v.type, bytes: Buffer.from(await v.arrayBuffer()) });
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
