import { QuireError } from "@/lib/core/errors";

/**
 * Date filters and keyset cursors shared by the list endpoints (/v1/jobs, the credit ledger).
 * A cursor is opaque to clients: base64url of the last row's sort key.
 */

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Reads a `from`/`to` bound. A bare date is the start of that day (UTC) for `from` and the start
 * of the next day for `to`, so `from=2026-11-01&to=2026-11-30` covers all of November.
 */
export function parseTimeBound(value: string | undefined, field: "from" | "to"): Date | undefined {
  const v = value?.trim();
  if (!v) return undefined;
  const d = new Date(DATE_ONLY.test(v) ? `${v}T00:00:00Z` : v);
  if (Number.isNaN(d.getTime())) throw new QuireError(400, `${field}: give an ISO 8601 date (2026-11-24) or date-time, not "${v.slice(0, 40)}"`);
  if (field === "to" && DATE_ONLY.test(v)) d.setUTCDate(d.getUTCDate() + 1);
  return d;
}

export function encodeCursor(key: readonly (string | number)[]): string {
  return Buffer.from(JSON.stringify(key)).toString("base64url");
}

/** The sort key a cursor carries, checked against the expected shape. */
export function decodeCursor<T extends readonly (string | number)[]>(cursor: string | undefined, shape: readonly ("string" | "number")[]): T | undefined {
  if (!cursor) return undefined;
  try {
    const key = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as unknown;
    if (Array.isArray(key) && key.length === shape.length && key.every((k, i) => typeof k === shape[i])) return key as unknown as T;
  } catch {
    // falls through to the error below
  }
  throw new QuireError(400, "cursor: not a cursor this endpoint answered; pass the previous page's nextCursor unchanged");
}
