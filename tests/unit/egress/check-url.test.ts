import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { checkUrl, type LookupFn } from "@/lib/egress/check-url";
import { egressFetch } from "@/lib/egress/fetch";
import { setEgressPolicyForTests } from "@/lib/egress/policy";
import { QuireError } from "@/lib/core/errors";
import { startLoopbackServer, type LoopbackServer } from "@/tests/helpers/loopback-server";

/** A resolver that never touches real DNS: names it does not know fail like NXDOMAIN. */
function fakeDns(table: Record<string, string[]>): LookupFn & { calls: string[] } {
  const calls: string[] = [];
  const fn = async (host: string) => {
    calls.push(host);
    const addrs = table[host];
    if (!addrs) throw Object.assign(new Error("not found"), { code: "ENOTFOUND" });
    return addrs.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  };
  return Object.assign(fn, { calls });
}

const noDns = fakeDns({});

async function refusal(p: Promise<unknown>): Promise<QuireError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(QuireError);
    return e as QuireError;
  }
  throw new Error("expected a refusal");
}

describe("checkUrl", () => {
  let target: LoopbackServer;
  beforeAll(async () => {
    delete process.env.EGRESS_ALLOW;
    setEgressPolicyForTests(undefined);
    target = await startLoopbackServer();
  });
  afterAll(() => target.close());
  afterEach(() => setEgressPolicyForTests(undefined));

  // Every spelling of a loopback/local address that URL parsing or IPv6 embedding allows.
  const spellings = [
    "http://127.0.0.1:PORT/",
    "http://2130706433:PORT/",
    "http://0177.0.0.1:PORT/",
    "http://0x7f.1:PORT/",
    "http://0x7f000001:PORT/",
    "http://017700000001:PORT/",
    "http://127.1:PORT/",
    "http://127.0.1:PORT/",
    "http://127.0.0.1.:PORT/",
    "http://%31%32%37.0.0.1:PORT/",
    "http://\uff11\uff12\uff17.\uff10.\uff10.\uff11:PORT/", // fullwidth digits
    "http://user:pw@127.0.0.1:PORT/",
    "http://0:PORT/",
    "http://0.0.0.0:PORT/",
    "http://[::]:PORT/",
    "http://[::1]:PORT/",
    "http://[0:0:0:0:0:0:0:1]:PORT/",
    "http://[::ffff:127.0.0.1]:PORT/",
    "http://[::ffff:7f00:1]:PORT/",
    "http://[0:0:0:0:0:ffff:127.0.0.1]:PORT/",
    "http://[::127.0.0.1]:PORT/",
    "http://[64:ff9b::127.0.0.1]:PORT/",
    "http://[64:ff9b::7f00:1]:PORT/",
    "http://[2002:7f00:1::]:PORT/",
    "http://[2001:0:4136:e378:8000:63bf:80ff:fffe]:PORT/",
    "http://localhost:PORT/",
    "http://LOCALHOST.:PORT/",
    "http://app.localhost:PORT/",
    "https://127.0.0.1:PORT/",
  ];

  it.each(spellings)("refuses %s without opening a socket", async (spelling) => {
    const url = spelling.replace("PORT", String(target.port));
    const err = await refusal(egressFetch(url, { lookup: noDns }));
    expect(err.status).toBe(403);
    expect(err.message).toMatch(/^url: .*; Quire only fetches public addresses \(an operator can allow it with EGRESS_ALLOW\)$/);
    expect(target.connections).toBe(0);
    expect(target.hits).toBe(0);
  });

  it("names the address and its kind", async () => {
    const err = await refusal(checkUrl("http://10.0.0.5/file.pdf", { lookup: noDns }));
    expect(err.status).toBe(403);
    expect(err.message).toBe("url: 10.0.0.5 is a private address; Quire only fetches public addresses (an operator can allow it with EGRESS_ALLOW)");
    const mapped = await refusal(checkUrl("http://[::ffff:127.0.0.1]/", { lookup: noDns }));
    expect(mapped.message).toBe(
      "url: ::ffff:7f00:1 embeds 127.0.0.1, a loopback address; Quire only fetches public addresses (an operator can allow it with EGRESS_ALLOW)",
    );
  });

  it.each([
    ["http://10.0.0.5/", "private"],
    ["http://172.16.8.1/", "private"],
    ["http://192.168.1.1/", "private"],
    ["http://100.64.0.1/", "shared (CGNAT)"],
    ["http://169.254.169.254/latest/meta-data/", "cloud metadata"],
    ["http://[fd00:ec2::254]/", "cloud metadata"],
    ["http://100.100.100.200/", "cloud metadata"],
    ["http://169.254.10.10/", "link-local"],
    ["http://[fe80::1]/", "link-local"],
    ["http://224.0.0.1/", "multicast"],
    ["http://[ff02::1]/", "multicast"],
    ["http://255.255.255.255/", "broadcast"],
    ["http://240.0.0.1/", "reserved"],
    ["http://0.1.2.3/", "this network"],
    ["http://[fc00::1]/", "unique-local"],
    ["http://192.0.2.1/", "documentation"],
    ["http://198.51.100.7/", "documentation"],
    ["http://203.0.113.9/", "documentation"],
    ["http://[2001:db8::1]/", "documentation"],
    ["http://198.18.0.1/", "benchmarking"],
    ["http://metadata.google.internal/computeMetadata/v1/", "cloud metadata host"],
    ["http://metadata/", "cloud metadata host"],
  ])("refuses %s (%s)", async (url, kind) => {
    const err = await refusal(checkUrl(url, { lookup: noDns }));
    expect(err.status).toBe(403);
    expect(err.message).toContain(kind);
  });

  it.each([
    "file:///etc/passwd",
    "ftp://example.com/a.pdf",
    "gopher://example.com/",
    "data:text/plain,hi",
    "javascript:alert(1)",
    "ws://example.com/",
  ])("refuses the scheme of %s with 452", async (url) => {
    const err = await refusal(checkUrl(url, { lookup: noDns }));
    expect(err.status).toBe(452);
    expect(err.message).toBe("url: only http and https URLs are allowed");
  });

  it.each(["", "not a url", "http//example.com/a.pdf", "http://", "http://exa mple.com/", "http://[::1/"])(
    "refuses the malformed URL %j with 452",
    async (url) => {
      const err = await refusal(checkUrl(url, { lookup: noDns }));
      expect(err.status).toBe(452);
    },
  );

  it("resolves a name once and refuses it when it resolves to a private address (rebinding)", async () => {
    const dns = fakeDns({ "rebind.example": ["10.0.0.5"] });
    const err = await refusal(checkUrl("http://rebind.example/a.pdf", { lookup: dns }));
    expect(err.status).toBe(403);
    expect(err.message).toBe(
      "url: rebind.example resolves to 10.0.0.5, a private address; Quire only fetches public addresses (an operator can allow it with EGRESS_ALLOW)",
    );
    expect(dns.calls).toEqual(["rebind.example"]);
  });

  it("refuses a name when any of its addresses is not public", async () => {
    const dns = fakeDns({ "mixed.example": ["93.184.216.34", "127.0.0.1"] });
    const err = await refusal(checkUrl("http://mixed.example/", { lookup: dns }));
    expect(err.message).toContain("resolves to 127.0.0.1, a loopback address");
  });

  it("refuses a name resolving to an IPv6 form that embeds a private address", async () => {
    const dns = fakeDns({ "six.example": ["::ffff:192.168.0.10"] });
    const err = await refusal(checkUrl("http://six.example/", { lookup: dns }));
    expect(err.message).toContain("which embeds 192.168.0.10, a private address");
  });

  it("accepts a public host and returns the address to pin", async () => {
    const dns = fakeDns({ "files.example": ["93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946"] });
    const checked = await checkUrl("https://files.example/doc.pdf?x=1", { lookup: dns });
    expect(checked).toMatchObject({ address: "93.184.216.34", family: 4 });
    expect(checked.url.href).toBe("https://files.example/doc.pdf?x=1");
    expect(await checkUrl("http://8.8.8.8/", { lookup: noDns })).toMatchObject({
      address: "8.8.8.8",
      family: 4,
    });
    expect(await checkUrl("http://[2606:4700::1111]/", { lookup: noDns })).toMatchObject({
      address: "2606:4700::1111",
      family: 6,
    });
    expect(noDns.calls).toEqual([]);
  });

  it("answers 400 when the host does not resolve", async () => {
    const err = await refusal(checkUrl("http://nowhere.invalid/", { lookup: noDns }));
    expect(err.status).toBe(400);
    expect(err.message).toBe("url: could not resolve host nowhere.invalid (ENOTFOUND)");
  });

  it("lets the allow-list through: CIDR, host, host:port", async () => {
    expect(await checkUrl("http://10.1.2.3/", { lookup: noDns, policy: "10.0.0.0/8" })).toMatchObject({
      address: "10.1.2.3",
    });
    const dns = fakeDns({ "minio.internal": ["10.0.0.9"], localhost: ["127.0.0.1"] });
    expect(
      await checkUrl("http://minio.internal:9000/b/k", { lookup: dns, policy: "minio.internal" }),
    ).toMatchObject({ address: "10.0.0.9" });
    expect(await checkUrl("http://localhost:8123/", { lookup: dns, policy: "localhost:8123" })).toMatchObject(
      { address: "127.0.0.1" },
    );
    expect(
      (await refusal(checkUrl("http://localhost:8124/", { lookup: dns, policy: "localhost:8123" }))).status,
    ).toBe(403);
    expect(
      (await refusal(checkUrl("http://10.1.2.3/", { lookup: noDns, policy: "10.9.0.0/16" }))).status,
    ).toBe(403);
  });

  it("reads EGRESS_ALLOW on each call", async () => {
    process.env.EGRESS_ALLOW = "127.0.0.1/32";
    try {
      expect(await checkUrl(`${target.origin}/`, { lookup: noDns })).toMatchObject({ address: "127.0.0.1" });
    } finally {
      delete process.env.EGRESS_ALLOW;
    }
    expect((await refusal(checkUrl(`${target.origin}/`, { lookup: noDns }))).status).toBe(403);
  });

  it("names the field in messages", async () => {
    const err = await refusal(checkUrl("http://10.0.0.1/hook", { lookup: noDns, field: "callback" }));
    expect(err.message).toMatch(/^callback: 10\.0\.0\.1 is a private address/);
  });
});
