import "server-only";
import { envNumber } from "@/lib/core/config";

/**
 * Sign-in throttling, in memory (one process holds the dashboard in embedded mode). The client
 * address is the socket's, or the one a trusted proxy (TRUST_PROXY) reports — never a header the
 * client sent itself (lib/core/forwarded.ts rewrites X-Forwarded-For before the dashboard sees it).
 *
 * - per (email, address): SIGN_IN_MAX_FAILURES (5) failures in 15 min → that address waits,
 *   doubling with each further failure (at most 15 min);
 * - per address, whatever the emails: 4 × that many → the address waits (spraying many accounts);
 * - per email from everywhere: never a lock-out (an attacker must not lock the owner out); past
 *   10 failures each attempt on that email is slowed by a delay that grows to 5 s, which costs the
 *   owner a moment and a distributed guesser most of its rate.
 */
const WINDOW_MS = 15 * 60_000;

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

function maxPerPair(): number {
  return envNumber("SIGN_IN_MAX_FAILURES", 5);
}

/** Seconds this address must wait before trying this email again (0 = allowed now). */
export function signInRetryAfter(email: string, ip: string, now = Date.now()): number {
  const e = email.trim().toLowerCase();
  const pair = recent(`pair|${e}|${ip}`, now);
  const addr = recent(`ip|${ip}`, now);
  const max = maxPerPair();
  let until = 0;
  if (pair.length >= max) {
    const backoff = Math.min(WINDOW_MS, 30_000 * 2 ** (pair.length - max));
    until = Math.max(until, pair[pair.length - 1] + backoff);
  }
  if (addr.length >= max * 4) {
    const backoff = Math.min(WINDOW_MS, 60_000 * 2 ** (addr.length - max * 4));
    until = Math.max(until, addr[addr.length - 1] + backoff);
  }
  return until > now ? Math.max(1, Math.ceil((until - now) / 1000)) : 0;
}

/** Milliseconds to hold an attempt on this email (failures from everywhere), before checking it. */
export function signInDelayMs(email: string, now = Date.now()): number {
  const n = recent(`email|${email.trim().toLowerCase()}`, now).length;
  return n < 10 ? 0 : Math.min(5_000, 250 * 2 ** (n - 10));
}

/** Records a failed attempt. */
export function recordSignInFailure(email: string, ip: string, now = Date.now()): void {
  const e = email.trim().toLowerCase();
  for (const key of [`pair|${e}|${ip}`, `ip|${ip}`, `email|${e}`]) failures().set(key, [...recent(key, now), now]);
}

/** Clears the (email, address) record after a successful sign-in. */
export function clearSignInFailures(email: string, ip: string): void {
  failures().delete(`pair|${email.trim().toLowerCase()}|${ip}`);
}

/** Tests: forget every record. */
export function resetSignInLimitsForTests(): void {
  failures().clear();
}
