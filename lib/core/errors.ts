/**
 * The one error type of Quire, in the neutral core: the engine, the infrastructure and the HTTP
 * adapter all throw it. It carries the public API's status code and a message that says what to
 * fix; only the HTTP adapter (lib/api) turns it into a response. It crosses process boundaries
 * (sandboxed runners) as plain `{ name: "QuireError", status, message }`.
 */
export const errorCodes = {
  400: "Bad request",
  401: "Unauthorized",
  402: "Not enough credits",
  403: "Forbidden source",
  404: "Not found",
  405: "Method not allowed",
  408: "Timeout",
  409: "Conflict",
  413: "Too large",
  415: "Unsupported media type",
  422: "Unprocessable request",
  429: "Rate limited",
  441: "Wrong or missing PDF password",
  442: "Damaged or wrong-type file",
  443: "Document permissions forbid this",
  444: "Profiles unreadable",
  445: "Use async: too long for a synchronous call",
  449: "Page index out of range",
  450: "Invalid page range",
  452: "Invalid URL",
  454: "Invalid parameters",
  500: "Internal error",
  503: "Not ready",
} as const;

export type ErrorStatus = keyof typeof errorCodes;

export class QuireError extends Error {
  readonly status: ErrorStatus;
  /** For 409/429/503-like answers: when the caller may try again (the Retry-After header). */
  readonly retryAfterSeconds?: number;
  constructor(status: ErrorStatus, message: string, opts: { retryAfterSeconds?: number } = {}) {
    super(message);
    this.name = "QuireError";
    this.status = status;
    if (opts.retryAfterSeconds !== undefined) this.retryAfterSeconds = Math.max(1, Math.ceil(opts.retryAfterSeconds));
  }

  /** The JSON envelope of the public API: `{error: true, status, message}`. */
  toBody() {
    return { error: true as const, status: this.status, message: this.message };
  }
}

/** True for a QuireError, or a QuireError-shaped object that crossed a process boundary. */
export function isQuireError(e: unknown): e is QuireError {
  return (
    e instanceof QuireError ||
    (typeof e === "object" &&
      e !== null &&
      (e as { name?: unknown }).name === "QuireError" &&
      typeof (e as { status?: unknown }).status === "number")
  );
}

/** Turns anything thrown into a QuireError; unknown causes become a 500 without leaking details. */
export function toQuireError(e: unknown): QuireError {
  if (e instanceof QuireError) return e;
  if (isQuireError(e)) return new QuireError(e.status, e.message);
  return new QuireError(500, "Internal error: the operation failed unexpectedly. It has been logged.");
}

/**
 * The same error, naming the field it came from by its full path: the egress guard and the
 * fetchers say `url: …`; a URL nested in a request (`images[0].url`) is reported as such.
 */
export function renameErrorField(e: unknown, field: string): unknown {
  if (!isQuireError(e) || !/^url: /.test(e.message)) return e;
  return new QuireError(e.status, `${field}: ${e.message.slice(5)}`, { retryAfterSeconds: e.retryAfterSeconds });
}

// What V8 says when WebAssembly code traps (MuPDF, Tesseract, PGlite are WASM). After a trap the
// module's memory may be corrupt, so the process that ran it must not be trusted with more work.
const wasmTrapMessages =
  /memory access out of bounds|table index is out of bounds|null function or function signature mismatch|(?:^|: )unreachable(?: executed)?\.?$|\(unreachable\)|divide by zero|remainder by zero|float unrepresentable in integer range|data segment out of bounds|element segment out of bounds|operation does not support unaligned accesses|dereferencing a null pointer|illegal cast|array element access out of bounds/i;

/**
 * The cause when `e` is (or wraps, by its message) a WebAssembly trap — `RuntimeError: memory
 * access out of bounds` and the like — else undefined. Engines that catch such an error and
 * re-throw it as "damaged file" (442) keep the trap's text, so the message is checked too.
 */
export function engineTrapCause(e: unknown): string | undefined {
  if (typeof e !== "object" || e === null) return undefined;
  const name = (e as { name?: unknown }).name;
  const message = String((e as { message?: unknown }).message ?? "");
  const isRuntimeError =
    (typeof WebAssembly !== "undefined" && e instanceof WebAssembly.RuntimeError) || name === "RuntimeError";
  if (isRuntimeError) return `RuntimeError: ${message || "WebAssembly trap"}`;
  const m = message.match(wasmTrapMessages);
  return m ? `RuntimeError: ${m[0].replace(/^[:\s(]+|[.)\s]+$/g, "")}` : undefined;
}
