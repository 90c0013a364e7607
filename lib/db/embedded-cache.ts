import "server-only";

/**
 * In embedded mode one process owns the database (PGlite), and every write to API keys and
 * balances goes through this process (the CLI too, via the admin socket), so it may keep them
 * in memory and answer the hot path (key check, balance) without a query. With PostgreSQL
 * (several nodes) nothing is cached: revocation and balances must be seen by every node at once.
 */
const g = globalThis as unknown as {
  __quireCache?: { enabled: boolean; keys: Map<string, unknown>; balances: Map<string, number>; finishedJobs: Map<string, unknown> };
};

function cache() {
  g.__quireCache ??= { enabled: false, keys: new Map(), balances: new Map(), finishedJobs: new Map() };
  return g.__quireCache;
}

export function enableEmbeddedCache() {
  cache().enabled = true;
}

export function cachedKey<T>(hash: string): T | undefined {
  const c = cache();
  return c.enabled ? (c.keys.get(hash) as T | undefined) : undefined;
}

export function rememberKey(hash: string, row: unknown) {
  const c = cache();
  if (c.enabled) c.keys.set(hash, row);
}

/** Any revocation empties the key cache (rare; correctness over cleverness). */
export function forgetKeys() {
  cache().keys.clear();
}

export function cachedBalance(accountId: string): number | undefined {
  const c = cache();
  return c.enabled ? c.balances.get(accountId) : undefined;
}

/** Called after a ledger transaction committed, with the balance it left. */
export function rememberBalance(accountId: string, balance: number) {
  const c = cache();
  if (c.enabled) c.balances.set(accountId, balance);
}

const FINISHED_JOBS_MAX = 10_000;

/** A finished job never changes: its row may be kept (bounded, oldest dropped first). */
export function cachedFinishedJob<T>(id: string): T | undefined {
  const c = cache();
  return c.enabled ? (c.finishedJobs.get(id) as T | undefined) : undefined;
}

export function rememberFinishedJob(id: string, row: unknown) {
  const c = cache();
  if (!c.enabled) return;
  if (c.finishedJobs.size >= FINISHED_JOBS_MAX) c.finishedJobs.delete(c.finishedJobs.keys().next().value!);
  c.finishedJobs.set(id, row);
}
