import "server-only";
import net from "node:net";

/**
 * Address classification for the egress guard: which IPs Quire may connect to on a caller's
 * behalf. Only public unicast addresses pass. IPv6 forms that embed an IPv4 address
 * (IPv4-mapped, NAT64, 6to4, Teredo) are judged by the address they embed, so
 * `::ffff:127.0.0.1` is loopback however it is spelled. Ranges: IANA special-purpose address
 * registries (RFC 6890 and successors).
 */

export type AddressKind =
  | "public"
  | "loopback"
  | "private"
  | "shared (CGNAT)"
  | "link-local"
  | "multicast"
  | "broadcast"
  | "unspecified"
  | "this-network"
  | "unique-local"
  | "site-local"
  | "documentation"
  | "benchmarking"
  | "reserved"
  | "cloud metadata";

export interface AddressVerdict {
  /** The address as judged (canonical text). */
  address: string;
  family: 4 | 6;
  kind: AddressKind;
  /** The IPv4 address an IPv6 address embeds (mapped, NAT64, 6to4, Teredo), when that decided. */
  embedded?: string;
}

/** A CIDR block as bytes; used by the classifier and the operator allow-list. */
export interface Cidr {
  family: 4 | 6;
  bytes: Uint8Array;
  prefix: number;
}

/** Parses "a.b.c.d" or an IPv6 literal (brackets and zone ids allowed) into bytes; null if not an IP. */
export function parseIp(text: string): { family: 4 | 6; bytes: Uint8Array } | null {
  let s = text.trim();
  if (s.startsWith("[") && s.endsWith("]")) s = s.slice(1, -1);
  const zone = s.indexOf("%");
  if (zone >= 0) s = s.slice(0, zone);
  if (net.isIPv4(s)) return { family: 4, bytes: Uint8Array.from(s.split(".").map(Number)) };
  if (!net.isIPv6(s)) return null;
  return { family: 6, bytes: parseIpv6(s) };
}

function parseIpv6(s: string): Uint8Array {
  // Trailing dotted IPv4 ("::ffff:1.2.3.4") becomes two hextets first.
  const v4 = s.match(/(\d+\.\d+\.\d+\.\d+)$/);
  if (v4) {
    const b = v4[1].split(".").map(Number);
    s =
      s.slice(0, -v4[1].length) + ((b[0] << 8) | b[1]).toString(16) + ":" + ((b[2] << 8) | b[3]).toString(16);
  }
  const [head, tail] = s.includes("::") ? s.split("::") : [s, undefined];
  const headParts = head ? head.split(":") : [];
  const tailParts = tail ? tail.split(":") : [];
  const missing = 8 - headParts.length - tailParts.length;
  const parts = [...headParts, ...(tail !== undefined ? Array(missing).fill("0") : []), ...tailParts];
  const bytes = new Uint8Array(16);
  parts.forEach((p, i) => {
    const v = parseInt(p, 16);
    bytes[i * 2] = v >> 8;
    bytes[i * 2 + 1] = v & 0xff;
  });
  return bytes;
}

/** Canonical text of an address's bytes (dotted quad or compressed IPv6 as Node prints it). */
function formatIp(family: 4 | 6, bytes: Uint8Array): string {
  if (family === 4) return Array.from(bytes).join(".");
  const hextets: string[] = [];
  for (let i = 0; i < 16; i += 2) hextets.push(((bytes[i] << 8) | bytes[i + 1]).toString(16));
  // Let the URL parser compress it the standard way (RFC 5952).
  return new URL(`http://[${hextets.join(":")}]/`).hostname.slice(1, -1);
}

/** Parses "10.0.0.0/8", "fd00::/8" or a bare IP (a /32 or /128); null if malformed. */
export function parseCidr(text: string): Cidr | null {
  const [ipText, prefixText, ...rest] = text.trim().split("/");
  if (rest.length) return null;
  const ip = parseIp(ipText);
  if (!ip) return null;
  const max = ip.family === 4 ? 32 : 128;
  const prefix = prefixText === undefined ? max : Number(prefixText);
  if (
    !Number.isInteger(prefix) ||
    prefix < 0 ||
    prefix > max ||
    (prefixText !== undefined && !/^\d+$/.test(prefixText))
  )
    return null;
  return { family: ip.family, bytes: ip.bytes, prefix };
}

/** True if `bytes` (of the same family) lies inside the block. */
export function cidrContains(cidr: Cidr, family: 4 | 6, bytes: Uint8Array): boolean {
  if (cidr.family !== family) return false;
  let bits = cidr.prefix;
  for (let i = 0; bits > 0; i++, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
    if ((cidr.bytes[i] & mask) !== (bytes[i] & mask)) return false;
  }
  return true;
}

function table(rows: Array<[string, AddressKind]>): Array<[Cidr, AddressKind]> {
  return rows.map(([c, k]) => [parseCidr(c)!, k]);
}

// Order matters: the first match wins (more specific blocks first).
const ipv4Ranges = table([
  ["255.255.255.255/32", "broadcast"],
  ["0.0.0.0/32", "unspecified"],
  ["0.0.0.0/8", "this-network"],
  ["10.0.0.0/8", "private"],
  ["100.100.100.200/32", "cloud metadata"], // Alibaba Cloud
  ["100.64.0.0/10", "shared (CGNAT)"],
  ["127.0.0.0/8", "loopback"],
  ["169.254.169.254/32", "cloud metadata"], // AWS, GCP, Azure, OpenStack...
  ["169.254.0.0/16", "link-local"],
  ["172.16.0.0/12", "private"],
  ["192.0.0.0/24", "reserved"], // IETF protocol assignments
  ["192.0.2.0/24", "documentation"],
  ["192.31.196.0/24", "reserved"], // AS112-v4
  ["192.52.193.0/24", "reserved"], // AMT
  ["192.88.99.0/24", "reserved"], // deprecated 6to4 relay anycast
  ["192.168.0.0/16", "private"],
  ["192.175.48.0/24", "reserved"], // AS112 direct delegation
  ["198.18.0.0/15", "benchmarking"],
  ["198.51.100.0/24", "documentation"],
  ["203.0.113.0/24", "documentation"],
  ["224.0.0.0/4", "multicast"],
  ["240.0.0.0/4", "reserved"],
]);

const ipv6Ranges = table([
  ["::/128", "unspecified"],
  ["::1/128", "loopback"],
  ["fd00:ec2::254/128", "cloud metadata"], // AWS IMDS over IPv6
  ["100::/64", "reserved"], // discard-only
  ["2001:db8::/32", "documentation"],
  ["3fff::/20", "documentation"],
  ["2001:2::/48", "benchmarking"],
  ["2001::/23", "reserved"], // IETF protocol assignments (Teredo is unwrapped before this)
  ["fc00::/7", "unique-local"],
  ["fe80::/10", "link-local"],
  ["fec0::/10", "site-local"],
  ["ff00::/8", "multicast"],
]);

const globalUnicast = parseCidr("2000::/3")!;
const mapped = parseCidr("::ffff:0:0/96")!;
const compatible = parseCidr("::/96")!;
const nat64 = parseCidr("64:ff9b::/96")!;
const sixToFour = parseCidr("2002::/16")!;
const teredo = parseCidr("2001::/32")!;

function classifyV4(bytes: Uint8Array): AddressKind {
  for (const [cidr, kind] of ipv4Ranges) if (cidrContains(cidr, 4, bytes)) return kind;
  return "public";
}

function v4(bytes: Uint8Array, offset: number, xor = 0): Uint8Array {
  return Uint8Array.from(bytes.subarray(offset, offset + 4), (b) => b ^ xor);
}

/** Classifies an IP address; null when `text` is not an IP literal. */
export function classifyAddress(text: string): AddressVerdict | null {
  const ip = parseIp(text);
  if (!ip) return null;
  const address = formatIp(ip.family, ip.bytes);
  if (ip.family === 4) return { address, family: 4, kind: classifyV4(ip.bytes) };
  const b = ip.bytes;
  const fromV4 = (embeddedBytes: Uint8Array): AddressVerdict => {
    const embedded = formatIp(4, embeddedBytes);
    return { address, family: 6, kind: classifyV4(embeddedBytes), embedded };
  };
  if (cidrContains(mapped, 6, b)) return fromV4(v4(b, 12));
  if (cidrContains(nat64, 6, b)) return fromV4(v4(b, 12));
  if (cidrContains(sixToFour, 6, b)) return fromV4(v4(b, 2));
  if (cidrContains(teredo, 6, b)) {
    // Teredo: server IPv4 in bits 32-63, client IPv4 (inverted) in the last 32 bits; both must be public.
    const server = fromV4(v4(b, 4));
    if (server.kind !== "public") return server;
    return fromV4(v4(b, 12, 0xff));
  }
  for (const [cidr, kind] of ipv6Ranges) if (cidrContains(cidr, 6, b)) return { address, family: 6, kind };
  if (cidrContains(compatible, 6, b)) {
    // Deprecated IPv4-compatible form (::a.b.c.d): never public, but say what it embeds.
    const embedded = fromV4(v4(b, 12));
    return { ...embedded, kind: embedded.kind === "public" ? "reserved" : embedded.kind };
  }
  if (!cidrContains(globalUnicast, 6, b)) return { address, family: 6, kind: "reserved" };
  return { address, family: 6, kind: "public" };
}

/** True for a public unicast address (the only kind Quire fetches without an allow-list entry). */
export function isPublicAddress(text: string): boolean {
  return classifyAddress(text)?.kind === "public";
}

/** "a private address", "an unspecified address", "a cloud metadata address"... for messages. */
export function describeKind(kind: AddressKind): string {
  const label = kind === "this-network" ? "'this network' (0.0.0.0/8)" : kind;
  return `${/^[aeiou]/.test(label) ? "an" : "a"} ${label} address`;
}
