import "server-only";
import { getConfig } from "@/lib/core/config";
import { engineBaseUrl, getTarget } from "./backend";
import { resolveOwnFile } from "@/lib/storage/local-store";
import type { SessionUser } from "@/lib/auth/next-auth";

export interface FetchedOutput {
  status: number;
  contentType: string;
  bytes: Uint8Array;
}

const MAX_BYTES = 100 * 1024 * 1024;

/**
 * Reads an output file for the previewers. Quire's own links (its signed /files links under any
 * host name, or the object store's presigned URLs) are read from storage directly; other https
 * links only when the account uses a remote upstream, and then through the egress guard
 * (public addresses only).
 */
export async function fetchOutput(user: SessionUser, rawUrl: string): Promise<FetchedOutput> {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw new OutputError(452, "url: not a valid URL");
  }
  const stored = await resolveOwnFile(url.toString()).catch(() => null);
  if (stored) {
    if (stored.row.size > MAX_BYTES) throw new OutputError(413, "url: the file is too large to preview");
    return { status: 200, contentType: stored.row.contentType, bytes: new Uint8Array(await stored.read()) };
  }
  const own = [new URL(getConfig().publicUrl).origin, new URL(engineBaseUrl()).origin];
  if (own.includes(url.origin)) {
    const internal = engineBaseUrl().replace(/\/+$/, "") + url.pathname + url.search;
    const res = await fetch(internal, { cache: "no-store", signal: AbortSignal.timeout(60_000) });
    const bytes = new Uint8Array(await res.arrayBuffer());
    return { status: res.status, contentType: res.headers.get("content-type") ?? "application/octet-stream", bytes };
  }
  const target = await getTarget(user.accountId);
  if (!target.isRemote || url.protocol !== "https:") throw new OutputError(403, "url: only output links of your upstream can be previewed");
  const { egressFetch } = await import("@/lib/egress");
  const res = await egressFetch(url.toString(), { maxBytes: MAX_BYTES, timeoutMs: 60_000, acceptAnyStatus: true, field: "url" });
  return { status: res.status, contentType: res.contentType || "application/octet-stream", bytes: new Uint8Array(res.bytes) };
}

export class OutputError extends Error {
  constructor(
    public status: number,
    message: string,
  ) {
    super(message);
  }
}

/** A small in-memory cache of recently previewed PDFs so page-by-page renders download once. */
const g = globalThis as unknown as { __quirePreviewCache?: Map<string, { at: number; out: FetchedOutput }> };
export async function fetchOutputCached(user: SessionUser, url: string): Promise<FetchedOutput> {
  g.__quirePreviewCache ??= new Map();
  const cache = g.__quirePreviewCache;
  const key = `${user.accountId}|${url}`;
  const hit = cache.get(key);
  if (hit && Date.now() - hit.at < 5 * 60_000) return hit.out;
  const out = await fetchOutput(user, url);
  if (out.status === 200) {
    cache.set(key, { at: Date.now(), out });
    let total = 0;
    for (const [k, v] of [...cache.entries()].reverse()) {
      total += v.out.bytes.byteLength;
      if (total > 200 * 1024 * 1024) cache.delete(k);
    }
  }
  return out;
}
