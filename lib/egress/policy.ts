import "server-only";
import { cidrContains, parseCidr, parseIp, type Cidr } from "./address";

/**
 * The operator's egress allow-list (env EGRESS_ALLOW, off by default): comma-separated
 * entries that Quire may reach even though they are not public, e.g. an internal MinIO or a
 * callback receiver on the same host.
 *
 *   10.0.0.0/8        any address in the block, any port
 *   127.0.0.1         one address (same as /32; "::1" is /128)
 *   localhost         that host name (any address it resolves to), any port
 *   *.corp.example    any subdomain of corp.example
 *   localhost:8123    that host name (or IP) on that port only; "[::1]:8123" for IPv6
 *
 * Host entries match the name in the URL, so they allow whatever that name resolves to: use
 * them only for names the operator controls.
 */
export interface EgressPolicy {
  cidrs: Cidr[];
  hosts: Array<{ host: string; port?: number }>;
}

let testPolicy: EgressPolicy | undefined;
let cache: { text: string; policy: EgressPolicy } | undefined;

/** Parses an EGRESS_ALLOW value; throws on an entry it cannot read (a typo must not widen access). */
export function parseEgressAllow(text: string | undefined): EgressPolicy {
  const policy: EgressPolicy = { cidrs: [], hosts: [] };
  for (const raw of (text ?? "").split(",")) {
    const entry = raw.trim().toLowerCase();
    if (!entry) continue;
    const cidr = parseCidr(entry);
    if (cidr) {
      policy.cidrs.push(cidr);
      continue;
    }
    const m = entry.match(/^(\[[0-9a-f:.]+\]|[^:/\s]+)(?::(\d{1,5}))?$/);
    const host = m?.[1].replace(/^\[|\]$/g, "").replace(/\.$/, "");
    const port = m?.[2] === undefined ? undefined : Number(m[2]);
    const hostOk =
      host &&
      (parseIp(host) ||
        /^(\*\.)?[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?)*$/.test(host));
    if (!m || !hostOk || (port !== undefined && (port < 1 || port > 65535))) {
      throw new Error(
        `EGRESS_ALLOW: cannot read the entry "${raw.trim()}" (expected a CIDR, a host or host:port)`,
      );
    }
    policy.hosts.push({ host: host!, port });
  }
  return policy;
}

/** The policy in force: the test override, else EGRESS_ALLOW read now (not at import time). */
export function getEgressPolicy(): EgressPolicy {
  if (testPolicy) return testPolicy;
  const text = process.env.EGRESS_ALLOW ?? "";
  if (cache?.text !== text) {
    try {
      cache = { text, policy: parseEgressAllow(text) };
    } catch (err) {
      throw new Error(`Quire: invalid configuration:\n  EGRESS_ALLOW: ${(err as Error).message}`);
    }
  }
  return cache.policy;
}

/** Tests: force a policy (a string is parsed like EGRESS_ALLOW); undefined restores the env. */
export function setEgressPolicyForTests(policy: EgressPolicy | string | undefined): void {
  testPolicy = typeof policy === "string" ? parseEgressAllow(policy) : policy;
}

/** True if the URL's host (and port) is named by a host entry. */
export function isHostAllowed(policy: EgressPolicy, hostname: string, port: number): boolean {
  const host = hostname
    .toLowerCase()
    .replace(/^\[|\]$/g, "")
    .replace(/\.$/, "");
  return policy.hosts.some((e) => {
    if (e.port !== undefined && e.port !== port) return false;
    if (e.host.startsWith("*.")) return host.endsWith(e.host.slice(1));
    if (e.host === host) return true;
    // IP entries match however the URL spelled the same address.
    const a = parseIp(e.host);
    const b = parseIp(host);
    return !!a && !!b && a.family === b.family && a.bytes.every((x, i) => x === b.bytes[i]);
  });
}

/** True if the address lies in an allowed CIDR. */
export function isAddressAllowed(policy: EgressPolicy, address: string): boolean {
  const ip = parseIp(address);
  return !!ip && policy.cidrs.some((c) => cidrContains(c, ip.family, ip.bytes));
}
