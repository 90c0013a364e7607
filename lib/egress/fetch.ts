import "server-only";
import { envNumber } from "@/lib/core/config";
import http from "node:http";
import https from "node:https";
import fs from "node:fs";
import { pipeline } from "node:stream/promises";
import { Readable, Transform } from "node:stream";
import type { LookupFunction } from "node:net";
import { QuireError } from "@/lib/core/errors";
import { checkUrl, type CheckedUrl, type LookupFn } from "./check-url";
import type { EgressPolicy } from "./policy";
import { fileNameFromResponse } from "./file-name";

/** Options shared by egressFetch and egressDownloadToFile. */
export interface EgressFetchOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** Byte cap, counted while streaming (default env SOURCE_MAX_BYTES, else 100 MiB) → 413. */
  maxBytes?: number;
  /** Total time for DNS, connect, redirects and body (default env SOURCE_TIMEOUT_MS, else 60 s) → 408. */
  timeoutMs?: number;
  /** Redirects to follow, each re-checked (default 5). 0 = return the 3xx answer as is (callbacks). */
  maxRedirects?: number;
  /** Sent only to the origin of the first URL; dropped on cross-origin redirects. */
  basicAuth?: { username: string; password: string };
  /** Cancels the request; the promise rejects with the signal's reason. */
  signal?: AbortSignal;
  /** false (default): a non-2xx final answer is a 400 naming the status. true: return it. */
  acceptAnyStatus?: boolean;
  /** Parameter named in messages ("url", "callback"...). */
  field?: string;
  /** Injected resolver and allow-list (tests; see checkUrl). */
  lookup?: LookupFn;
  policy?: EgressPolicy | string;
}

export interface EgressResponse {
  status: number;
  headers: Record<string, string>;
  bytes: Buffer;
  finalUrl: string;
  contentType: string;
}

export interface EgressDownload {
  status: number;
  headers: Record<string, string>;
  finalUrl: string;
  contentType: string;
  /** From Content-Disposition, else the URL's last path segment, else "download". */
  name: string;
  size: number;
}

const MiB = 1024 * 1024;

/** SOURCE_MAX_BYTES read now (tests may set it), else 100 MiB. */
export function defaultMaxBytes(): number {
  return envNumber("SOURCE_MAX_BYTES", 100 * MiB);
}

/** SOURCE_TIMEOUT_MS read now, else 60 s. */
export function defaultTimeoutMs(): number {
  return envNumber("SOURCE_TIMEOUT_MS", 60_000);
}

/**
 * Fetches a caller-named URL through the egress guard and returns the body in memory.
 * The connection goes only to the address checkUrl approved (pinned, TLS still verified
 * against the host name), every redirect is checked again, and size and time are capped.
 */
export async function egressFetch(url: string, opts: EgressFetchOptions = {}): Promise<EgressResponse> {
  const flight = startFlight(opts);
  try {
    const { res, finalUrl } = await openResponse(url, opts, flight);
    const chunks: Buffer[] = [];
    await pipeline(res, byteCounter(opts), async function* (source) {
      for await (const chunk of source) chunks.push(chunk as Buffer);
    });
    const headers = flattenHeaders(res.headers);
    return {
      status: res.statusCode ?? 0,
      headers,
      bytes: Buffer.concat(chunks),
      finalUrl,
      contentType: headers["content-type"] ?? "",
    };
  } catch (e) {
    throw flight.explain(e, opts);
  } finally {
    flight.end();
  }
}

/**
 * Like egressFetch but streams the body to `filePath` while counting, for large sources.
 * A partial file is removed on failure.
 */
export async function egressDownloadToFile(
  url: string,
  filePath: string,
  opts: EgressFetchOptions = {},
): Promise<EgressDownload> {
  const flight = startFlight(opts);
  let opened = false;
  try {
    const { res, finalUrl } = await openResponse(url, opts, flight);
    opened = true;
    const counter = byteCounter(opts);
    await pipeline(res, counter, fs.createWriteStream(filePath));
    const headers = flattenHeaders(res.headers);
    return {
      status: res.statusCode ?? 0,
      headers,
      finalUrl,
      contentType: headers["content-type"] ?? "",
      name: fileNameFromResponse(headers["content-disposition"], url, finalUrl),
      size: counter.bytes,
    };
  } catch (e) {
    if (opened) await fs.promises.rm(filePath, { force: true });
    throw flight.explain(e, opts);
  } finally {
    flight.end();
  }
}

export interface EgressStreamOptions {
  method?: string;
  headers?: Record<string, string>;
  /** The request body; a stream is sent as it arrives (chunked unless `contentLength` is given). */
  body?: string | Uint8Array | AsyncIterable<Uint8Array>;
  /** Length of a streamed body, when the caller knows it. */
  contentLength?: number;
  /** Time until the answer's head arrives (default SOURCE_TIMEOUT_MS) → 408. The body is then the caller's. */
  timeoutMs?: number;
  /** Cancels the request or the body while it streams. */
  signal?: AbortSignal;
  field?: string;
  lookup?: LookupFn;
  policy?: EgressPolicy | string;
}

export interface EgressStream {
  status: number;
  headers: Record<string, string>;
  /** The answer's body, unread. */
  body: http.IncomingMessage;
  finalUrl: string;
}

/**
 * Sends one request through the egress guard — the address checked and the connection pinned to
 * it, as egressFetch does — and returns as soon as the answer's head arrives, with the body unread:
 * for a proxy that streams both ways. Redirects are not followed (a 3xx is returned as it is) and
 * any status is returned.
 */
export async function egressStream(url: string, opts: EgressStreamOptions = {}): Promise<EgressStream> {
  const field = opts.field ?? "url";
  const timeoutMs = opts.timeoutMs ?? defaultTimeoutMs();
  const ac = new AbortController();
  const onCallerAbort = () => ac.abort(opts.signal!.reason ?? new DOMException("The operation was aborted", "AbortError"));
  if (opts.signal?.aborted) onCallerAbort();
  else opts.signal?.addEventListener("abort", onCallerAbort, { once: true });
  const timer = setTimeout(
    () => ac.abort(new QuireError(408, `${field}: no answer within ${formatSeconds(timeoutMs)} s`)),
    timeoutMs,
  );
  try {
    const checked = await abortable(checkUrl(url, { lookup: opts.lookup, policy: opts.policy, field }), ac.signal);
    const headers = buildHeaders(opts.headers, undefined, true);
    if (opts.contentLength !== undefined && isStream(opts.body)) headers["content-length"] = String(opts.contentLength);
    const res = await sendOnce(checked, (opts.method ?? "GET").toUpperCase(), headers, opts.body, ac.signal);
    res.once("close", () => opts.signal?.removeEventListener("abort", onCallerAbort));
    return { status: res.statusCode ?? 0, headers: flattenHeaders(res.headers), body: res, finalUrl: checked.url.href };
  } catch (e) {
    opts.signal?.removeEventListener("abort", onCallerAbort);
    if (ac.signal.aborted) throw ac.signal.reason;
    if (e instanceof QuireError) throw e;
    throw new QuireError(400, `${field}: could not connect to host: ${(e as { code?: string }).code ?? (e as Error).message}`);
  } finally {
    clearTimeout(timer);
  }
}

function isStream(body: EgressStreamOptions["body"]): body is AsyncIterable<Uint8Array> {
  return body !== undefined && typeof body !== "string" && !(body instanceof Uint8Array);
}

/** The time limit and cancellation of one egress call, shared by every hop. */
interface Flight {
  signal: AbortSignal;
  end(): void;
  /** Maps whatever was thrown to the QuireError the caller should see. */
  explain(e: unknown, opts: EgressFetchOptions): unknown;
}

function startFlight(opts: EgressFetchOptions): Flight {
  const field = opts.field ?? "url";
  const timeoutMs = opts.timeoutMs ?? defaultTimeoutMs();
  const ac = new AbortController();
  const timeoutError = new QuireError(
    408,
    `${field}: the request took longer than ${formatSeconds(timeoutMs)} s`,
  );
  const timer = setTimeout(() => ac.abort(timeoutError), timeoutMs);
  const onCallerAbort = () =>
    ac.abort(opts.signal!.reason ?? new DOMException("The operation was aborted", "AbortError"));
  if (opts.signal?.aborted) onCallerAbort();
  else opts.signal?.addEventListener("abort", onCallerAbort, { once: true });
  return {
    signal: ac.signal,
    end() {
      clearTimeout(timer);
      opts.signal?.removeEventListener("abort", onCallerAbort);
    },
    explain(e) {
      if (ac.signal.aborted) return ac.signal.reason;
      if (e instanceof QuireError) return e;
      const code = (e as { code?: string }).code;
      if (code === "ERR_STREAM_PREMATURE_CLOSE" || code === "ECONNRESET")
        return new QuireError(400, `${field}: the server closed the connection early`);
      return new QuireError(400, `${field}: could not connect to host: ${code ?? (e as Error).message}`);
    },
  };
}

function formatSeconds(ms: number): string {
  return String(Math.round(ms / 100) / 10);
}

const redirectStatuses = new Set([301, 302, 303, 307, 308]);

/** Sends the request, following (and re-checking) redirects; returns the final response unread. */
async function openResponse(
  input: string,
  opts: EgressFetchOptions,
  flight: Flight,
): Promise<{ res: http.IncomingMessage; finalUrl: string }> {
  const field = opts.field ?? "url";
  const maxRedirects = opts.maxRedirects ?? 5;
  let method = (opts.method ?? "GET").toUpperCase();
  let body = opts.body;
  let current = input;
  let firstOrigin: string | undefined;
  let basicAuth = opts.basicAuth;
  for (let hop = 0; ; hop++) {
    const checked = await abortable(
      checkUrl(current, {
        lookup: opts.lookup,
        policy: opts.policy,
        field,
        context: hop ? "redirect refused," : undefined,
      }),
      flight.signal,
    );
    // Credentials in the URL itself count as basic auth for that origin.
    if (hop === 0) {
      firstOrigin = checked.url.origin;
      if (!basicAuth && (checked.url.username || checked.url.password)) {
        basicAuth = {
          username: decodeURIComponent(checked.url.username),
          password: decodeURIComponent(checked.url.password),
        };
      }
    }
    const sameOrigin = checked.url.origin === firstOrigin;
    const res = await sendOnce(
      checked,
      method,
      buildHeaders(opts.headers, sameOrigin ? basicAuth : undefined, sameOrigin),
      body,
      flight.signal,
    );
    const status = res.statusCode ?? 0;
    const location = res.headers.location;
    if (redirectStatuses.has(status) && location && maxRedirects > 0) {
      res.resume();
      if (hop >= maxRedirects)
        throw new QuireError(400, `${field}: too many redirects (more than ${maxRedirects})`);
      let next: URL;
      try {
        next = new URL(location, checked.url);
      } catch {
        throw new QuireError(400, `${field}: the server redirected to an invalid URL`);
      }
      // Browsers' rules: 303 (and 301/302 after POST) become GET without a body.
      if (status === 303 || ((status === 301 || status === 302) && method === "POST")) {
        method = method === "HEAD" ? "HEAD" : "GET";
        body = undefined;
      }
      current = next.href;
      continue;
    }
    if (!opts.acceptAnyStatus && (status < 200 || status > 299)) {
      res.resume();
      const extra = redirectStatuses.has(status) ? " (redirects are not followed here)" : "";
      throw new QuireError(
        400,
        `${field}: the server answered ${status} ${http.STATUS_CODES[status] ?? ""}`.trimEnd() + extra,
      );
    }
    const maxBytes = opts.maxBytes ?? defaultMaxBytes();
    const declared = Number(res.headers["content-length"]);
    if (Number.isFinite(declared) && declared > maxBytes) {
      res.destroy();
      throw tooLarge(field, maxBytes);
    }
    return { res, finalUrl: checked.url.href };
  }
}

function tooLarge(field: string, maxBytes: number) {
  return new QuireError(413, `${field}: source is larger than ${maxBytes} bytes`);
}

function buildHeaders(
  extra: Record<string, string> | undefined,
  basicAuth: { username: string; password: string } | undefined,
  sameOrigin: boolean,
): Record<string, string> {
  const headers: Record<string, string> = {
    "user-agent": "Quire/0.1",
    accept: "*/*",
    "accept-encoding": "identity",
  };
  for (const [k, v] of Object.entries(extra ?? {})) {
    const key = k.toLowerCase();
    // Credentials the caller set by hand follow the same rule as basicAuth.
    if (!sameOrigin && (key === "authorization" || key === "cookie" || key === "proxy-authorization"))
      continue;
    if (key === "host" || key === "content-length" || key === "transfer-encoding" || key === "connection")
      continue;
    headers[key] = v;
  }
  if (basicAuth) {
    headers.authorization =
      "Basic " + Buffer.from(`${basicAuth.username}:${basicAuth.password}`).toString("base64");
  }
  return headers;
}

/** One request to the pinned address. Resolves with the response head. */
function sendOnce(
  checked: CheckedUrl,
  method: string,
  headers: Record<string, string>,
  body: string | Uint8Array | AsyncIterable<Uint8Array> | undefined,
  signal: AbortSignal,
): Promise<http.IncomingMessage> {
  const { url, address, family } = checked;
  // The connection may only go to the checked address, whatever DNS says now.
  const pinned: LookupFunction = (_host, options, callback) => {
    if ((options as { all?: boolean }).all)
      (callback as (e: null, a: Array<{ address: string; family: number }>) => void)(null, [
        { address, family },
      ]);
    else (callback as (e: null, a: string, f: number) => void)(null, address, family);
  };
  const stream = isStream(body) ? body : undefined;
  const payload =
    body === undefined || stream ? undefined : typeof body === "string" ? Buffer.from(body) : Buffer.from(body as Uint8Array);
  if (payload) headers["content-length"] = String(payload.length);
  const mod = url.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const req = mod.request({
      protocol: url.protocol,
      hostname: url.hostname.replace(/^\[|\]$/g, ""),
      port: url.port || undefined,
      path: url.pathname + url.search,
      method,
      headers,
      lookup: pinned,
      agent: false,
      signal,
    });
    req.once("response", (res) => {
      // Destroy the body stream too when the deadline or the caller aborts mid-download.
      const onAbort = () => res.destroy(signal.reason);
      signal.addEventListener("abort", onAbort, { once: true });
      res.once("close", () => signal.removeEventListener("abort", onAbort));
      resolve(res);
    });
    req.once("error", reject);
    if (stream) pipeline(Readable.from(stream), req).catch((e: unknown) => req.destroy(e as Error));
    else req.end(payload);
  });
}

/** Counts bytes as they stream and fails past maxBytes (servers may lie or send no length). */
function byteCounter(opts: EgressFetchOptions): Transform & { bytes: number } {
  const maxBytes = opts.maxBytes ?? defaultMaxBytes();
  const field = opts.field ?? "url";
  const counter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      counter.bytes += chunk.length;
      if (counter.bytes > maxBytes) done(tooLarge(field, maxBytes));
      else done(null, chunk);
    },
  }) as Transform & { bytes: number };
  counter.bytes = 0;
  return counter;
}

function abortable<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener("abort", onAbort);
        resolve(v);
      },
      (e) => {
        signal.removeEventListener("abort", onAbort);
        reject(e);
      },
    );
  });
}

/** Response headers as one string per name (repeated headers joined with ", "). */
function flattenHeaders(h: http.IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(", ") : v;
  return out;
}
