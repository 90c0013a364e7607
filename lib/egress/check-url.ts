import "server-only";
import dns from "node:dns";
import { QuireError } from "@/lib/core/errors";
import { classifyAddress, describeKind, parseIp } from "./address";
import {
  getEgressPolicy,
  isAddressAllowed,
  isHostAllowed,
  parseEgressAllow,
  type EgressPolicy,
} from "./policy";

/** Resolves a host name to all its addresses; injectable so tests never touch real DNS. */
export type LookupFn = (hostname: string) => Promise<Array<{ address: string; family: number }>>;

export interface CheckUrlOptions {
  /** Resolver (default: dns.lookup with all: true, the OS resolver the connection would use). */
  lookup?: LookupFn;
  /** Allow-list to apply instead of EGRESS_ALLOW (a string is parsed like the env value). */
  policy?: EgressPolicy | string;
  /** The parameter named in messages ("url", "callback"...). */
  field?: string;
  /** Words put before a refusal, e.g. "redirect refused,". */
  context?: string;
}

export interface CheckedUrl {
  url: URL;
  /** The one address the connection must go to (pinned). */
  address: string;
  family: 4 | 6;
}

const defaultLookup: LookupFn = (hostname) => dns.promises.lookup(hostname, { all: true, order: "verbatim" });

// Names that reach the machine itself or a cloud metadata service whatever DNS says.
const localNames = /^(localhost|localhost\.localdomain|ip6-localhost|ip6-loopback)$|\.localhost$/;
const metadataNames = new Set([
  "metadata",
  "metadata.google.internal",
  "metadata.goog",
  "instance-data",
  "instance-data.ec2.internal",
  "metadata.azure.internal",
]);

const defaultPorts: Record<string, number> = { "http:": 80, "https:": 443 };

/**
 * Checks a caller-supplied URL before Quire fetches it: http(s) only, host resolved once, every
 * address public unicast unless the operator allow-listed it (EGRESS_ALLOW). Returns the address
 * to pin the connection to, so a second DNS answer (rebinding) can never be used.
 */
export async function checkUrl(input: string, opts: CheckUrlOptions = {}): Promise<CheckedUrl> {
  const field = opts.field ?? "url";
  const url = parseHttpUrl(input, field);
  const policy =
    typeof opts.policy === "string" ? parseEgressAllow(opts.policy) : (opts.policy ?? getEgressPolicy());
  const hostname = url.hostname.replace(/^\[|\]$/g, "");
  const bareName = hostname.toLowerCase().replace(/\.$/, "");
  const port = url.port ? Number(url.port) : defaultPorts[url.protocol];
  const hostAllowed = isHostAllowed(policy, hostname, port);
  const refuse = (what: string) =>
    new QuireError(
      403,
      `${field}: ${opts.context ? opts.context + " " : ""}${what}; Quire only fetches public addresses (an operator can allow it with EGRESS_ALLOW)`,
    );

  let addresses: Array<{ address: string; family: number }>;
  if (parseIp(hostname)) {
    addresses = [{ address: hostname, family: hostname.includes(":") ? 6 : 4 }];
  } else {
    if (!hostAllowed && localNames.test(bareName)) throw refuse(`${bareName} is a local host name`);
    if (!hostAllowed && metadataNames.has(bareName)) throw refuse(`${bareName} is a cloud metadata host`);
    try {
      addresses = await (opts.lookup ?? defaultLookup)(hostname);
    } catch (e) {
      const code = (e as { code?: string }).code ?? "ENOTFOUND";
      throw new QuireError(400, `${field}: could not resolve host ${hostname} (${code})`);
    }
    if (!addresses.length)
      throw new QuireError(400, `${field}: could not resolve host ${hostname} (no address)`);
  }

  for (const { address } of addresses) {
    const verdict = classifyAddress(address);
    if (!verdict)
      throw new QuireError(400, `${field}: could not resolve host ${hostname} (bad address ${address})`);
    if (verdict.kind === "public" || hostAllowed || isAddressAllowed(policy, verdict.address)) continue;
    const desc = describeKind(verdict.kind);
    const embeds = verdict.embedded ? ` embeds ${verdict.embedded},` : "";
    throw refuse(
      parseIp(hostname)
        ? `${verdict.address}${embeds || " is"} ${desc}`
        : `${hostname} resolves to ${verdict.address},${embeds ? " which" + embeds : ""} ${desc}`,
    );
  }
  const chosen = addresses[0];
  return { url, address: chosen.address, family: chosen.address.includes(":") ? 6 : 4 };
}

/** Parses an absolute http(s) URL or throws 452 naming the field. */
export function parseHttpUrl(input: string, field = "url"): URL {
  let url: URL;
  try {
    url = new URL(String(input).trim());
  } catch {
    throw new QuireError(452, `${field}: "${String(input).slice(0, 200)}" is not a valid URL`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new QuireError(452, `${field}: only http and https URLs are allowed`);
  }
  if (!url.hostname) throw new QuireError(452, `${field}: the URL has no host`);
  return url;
}
