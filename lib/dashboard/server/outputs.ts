import "server-only";
import type { SessionUser } from "@/lib/auth/users";
import { fetchUpstreamLink, UpstreamError } from "./upstream";

export interface FetchedOutput {
  status: number;
  contentType: string;
  bytes: Uint8Array;
}

const MAX_BYTES = 100 * 1024 * 1024;

/**
 * Reads an output file for the viewers through lib/dashboard/server/upstream.ts: Quire's own
 * links from the engine, a remote upstream's https links through the egress guard. At most 100 MB.
 */
export async function fetchOutput(user: SessionUser, rawUrl: string): Promise<FetchedOutput> {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw new UpstreamError(452, "url: not a valid URL");
  }
  const { response } = await fetchUpstreamLink(user, url, { timeoutMs: 60_000 });
  return {
    status: response.status,
    contentType: response.headers.get("content-type") ?? "application/octet-stream",
    bytes: await readCapped(response, MAX_BYTES),
  };
}

async function readCapped(res: Response, max: number): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (res.body) {
    for await (const chunk of res.body) {
      size += chunk.byteLength;
      if (size > max) {
        await res.body.cancel().catch(() => {});
        throw new UpstreamError(413, `url: the file is larger than ${max} bytes`);
      }
      chunks.push(chunk);
    }
  }
  return Buffer.concat(chunks);
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
