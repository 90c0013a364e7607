import "server-only";
import type { IncomingHttpHeaders } from "node:http";
import { getConfig } from "./config";

export interface Forwarded {
  /** The client's address: the peer, or behind trusted proxies the last untrusted X-Forwarded-For entry. */
  clientIp: string;
  /** The scheme the client used. */
  proto: "http" | "https";
  /** The host the client asked for (Host, :authority, or a trusted proxy's X-Forwarded-Host). */
  host: string | undefined;
  /** The request came through a trusted proxy (TRUST_PROXY) or Quire's own internal listener. */
  viaTrustedProxy: boolean;
}

function first(v: string | string[] | undefined): string | undefined {
  const s = Array.isArray(v) ? v[0] : v;
  return s?.split(",")[0]?.trim() || undefined;
}

const HOST = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)(:\d{1,5})?$/;

/**
 * Who is calling and how, believing X-Forwarded-* only from trusted proxies (TRUST_PROXY). Walks
 * X-Forwarded-For from the right, skipping trusted hops, so a client cannot spoof its address by
 * sending the header itself.
 */
export function resolveForwarded(req: {
  remoteAddress: string | undefined;
  encrypted: boolean;
  headers: IncomingHttpHeaders;
  /** The peer is trusted regardless of TRUST_PROXY (Quire's internal loopback listener). */
  trusted?: boolean;
}): Forwarded {
  const trust = getConfig().trustProxy;
  const peer = req.remoteAddress ?? "";
  const viaTrustedProxy = Boolean(req.trusted) || trust.has(peer);
  const ownHost = req.headers.host ?? (req.headers[":authority"] as string | undefined);
  if (!viaTrustedProxy) {
    return {
      clientIp: peer,
      proto: req.encrypted ? "https" : "http",
      host: HOST.test(ownHost ?? "") ? ownHost : undefined,
      viaTrustedProxy,
    };
  }
  const chain = String(req.headers["x-forwarded-for"] ?? "")
    .split(",")
    .map((x) => x.trim())
    .filter(Boolean);
  let clientIp = peer;
  for (let i = chain.length - 1; i >= 0; i--) {
    clientIp = chain[i];
    if (!trust.has(chain[i])) break;
  }
  const fp = first(req.headers["x-forwarded-proto"])?.toLowerCase();
  const proto = fp === "https" || fp === "http" ? fp : req.encrypted ? "https" : "http";
  const fh = first(req.headers["x-forwarded-host"]);
  const host = [fh, ownHost].find((h) => h && HOST.test(h));
  return { clientIp, proto, host, viaTrustedProxy };
}

/**
 * The base URL for links in the answer to this request: PUBLIC_URL when set (upgraded to https
 * when the request came over https), else the scheme and host the client used.
 */
export function publicUrlFor(f: Forwarded): string {
  const cfg = getConfig();
  if (cfg.publicUrlExplicit) {
    return f.proto === "https" && cfg.publicUrl.startsWith("http://")
      ? "https://" + cfg.publicUrl.slice(7)
      : cfg.publicUrl;
  }
  return f.host ? `${f.proto}://${f.host}` : cfg.publicUrl;
}
