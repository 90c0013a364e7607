import "server-only";

/**
 * Sign-in rate limit: at most MAX_FAILURES failed attempts per (email, IP) and per email within
 * WINDOW_MS. Kept in memory (one process holds the dashboard in embedded mode); a success
 * clears the (email, IP) record.
 */
const WINDOW_MS = 15 * 60_000;
const MAX_FAILURES_PER_PAIR = 5;
const MAX_FAILURES_PER_EMAIL = 20;

const store = globalThis as unknown as { __quireSignInFailures?: Map<string, number[]> };
function failures(): Map<string, number[]> {
  store.__quireSignInFailures ??= new Map();
  return store.__quireSignInFailures;
}

function recent(key: string, now: number): number[] {
  const list = (failures().get(key) ?? []).filter((t) => now - t < WINDOW_MS);
  if (list.length) failures().set(key, list);
  else failures().delete(key);
  return list;
}

/** Seconds until this email may try again from this IP (0 = allowed now). */
export function signInRetryAfter(email: string, ip: string, now = Date.now()): number {
  const e = email.trim().toLowerCase();
  const pair = recent(`${e}|${ip}`, now);
  const all = recent(e, now);
  const blockedBy =
    pair.length >= MAX_FAILURES_PER_PAIR ? pair : all.length >= MAX_FAILURES_PER_EMAIL ? all : null;
  if (!blockedBy) return 0;
  return Math.max(1, Math.ceil((blockedBy[0] + WINDOW_MS - now) / 1000));
}

/** Records a failed attempt. */
export function recordSignInFailure(email: string, ip: string, now = Date.now()): void {
  const e = email.trim().toLowerCase();
  for (const key of [`${e}|${ip}`, e]) failures().set(key, [...recent(key, now), now]);
}

/** Clears the (email, IP) record after a successful sign-in. */
export function clearSignInFailures(email: string, ip: string): void {
  failures().delete(`${email.trim().toLowerCase()}|${ip}`);
}
