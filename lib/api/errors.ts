/**
 * The one error type of Quire. Every failure that reaches a caller is an ApiError with a
 * seed/API-COMPAT status code and a message that says what to fix. It crosses process
 * boundaries (sandboxed runners) as plain `{ status, message }`.
 */
export const errorCodes = {
  400: "Bad request",
  401: "Unauthorized",
  402: "Not enough credits",
  403: "Forbidden source",
  404: "Not found",
  405: "Method not allowed",
  408: "Timeout",
  413: "Too large",
  415: "Unsupported media type",
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
} as const;

export type ErrorStatus = keyof typeof errorCodes;

export class ApiError extends Error {
  readonly status: ErrorStatus;
  constructor(status: ErrorStatus, message: string) {
    super(message);
    this.name = "ApiError";
    this.status = status;
  }

  /** The JSON envelope of the seed: `{error: true, status, message}`. */
  toBody() {
    return { error: true as const, status: this.status, message: this.message };
  }
}

/** True for an ApiError, or an ApiError-shaped object that crossed a process boundary. */
export function isApiError(e: unknown): e is ApiError {
  return (
    e instanceof ApiError ||
    (typeof e === "object" &&
      e !== null &&
      (e as { name?: unknown }).name === "ApiError" &&
      typeof (e as { status?: unknown }).status === "number")
  );
}

/** Turns anything thrown into an ApiError; unknown causes become a 500 without leaking details. */
export function toApiError(e: unknown): ApiError {
  if (e instanceof ApiError) return e;
  if (isApiError(e)) return new ApiError(e.status, e.message);
  return new ApiError(500, "Internal error: the operation failed unexpectedly. It has been logged.");
}
