import { afterEach, describe, expect, it } from "vitest";
import { parseTrustProxy, resetConfigForTests } from "@/lib/core/config";
import { publicUrlFor, resolveForwarded } from "@/lib/core/forwarded";

afterEach(() => {
  delete process.env.TRUST_PROXY;
  delete process.env.PUBLIC_URL;
  resetConfigForTests();
});

function withEnv(env: Record<string, string>) {
  Object.assign(process.env, env);
  resetConfigForTests();
}

describe("TRUST_PROXY", () => {
  it("reads addresses, CIDRs and the loopback/private names; IPv4-mapped IPv6 peers match", () => {
    const t = parseTrustProxy("10.1.2.3, 192.168.0.0/16, loopback, 2001:db8::/32");
    expect(t.has("10.1.2.3")).toBe(true);
    expect(t.has("10.1.2.4")).toBe(false);
    expect(t.has("192.168.44.5")).toBe(true);
    expect(t.has("::ffff:127.0.0.1")).toBe(true);
    expect(t.has("::1")).toBe(true);
    expect(t.has("2001:db8::7")).toBe(true);
    expect(t.has("203.0.113.1")).toBe(false);
    expect(parseTrustProxy("private").has("172.20.0.3")).toBe(true);
    expect(parseTrustProxy("").has("127.0.0.1")).toBe(false);
  });

  it("refuses what is not an address or CIDR", () => {
    expect(() => parseTrustProxy("proxy.example.org")).toThrow(/TRUST_PROXY/);
    expect(() => parseTrustProxy("10.0.0.0/33")).toThrow(/prefix length/);
  });
});

describe("forwarded headers", () => {
  const headers = {
    host: "10.0.0.5:3000",
    "x-forwarded-for": "198.51.100.7, 10.0.0.2",
    "x-forwarded-proto": "https",
    "x-forwarded-host": "docs.example.org",
  };

  it("are ignored from an untrusted peer", () => {
    withEnv({ TRUST_PROXY: "" });
    const f = resolveForwarded({ remoteAddress: "10.0.0.2", encrypted: false, headers });
    expect(f).toEqual({ clientIp: "10.0.0.2", proto: "http", host: "10.0.0.5:3000", viaTrustedProxy: false });
    expect(publicUrlFor(f)).toBe("http://10.0.0.5:3000");
  });

  it("from a trusted proxy give the client (rightmost untrusted hop), the scheme and the host", () => {
    withEnv({ TRUST_PROXY: "10.0.0.0/24" });
    const f = resolveForwarded({ remoteAddress: "10.0.0.2", encrypted: false, headers });
    expect(f).toEqual({
      clientIp: "198.51.100.7",
      proto: "https",
      host: "docs.example.org",
      viaTrustedProxy: true,
    });
    expect(publicUrlFor(f)).toBe("https://docs.example.org");
  });

  it("a client cannot spoof its address by sending X-Forwarded-For itself", () => {
    withEnv({ TRUST_PROXY: "10.0.0.2" });
    const f = resolveForwarded({
      remoteAddress: "10.0.0.2",
      encrypted: false,
      headers: { host: "q", "x-forwarded-for": "127.0.0.1, 203.0.113.9" },
    });
    expect(f.clientIp).toBe("203.0.113.9");
  });

  it("PUBLIC_URL fixes the host; https from the request upgrades its scheme", () => {
    withEnv({ TRUST_PROXY: "10.0.0.0/24", PUBLIC_URL: "http://quire.internal:8080" });
    expect(publicUrlFor(resolveForwarded({ remoteAddress: "10.0.0.2", encrypted: false, headers }))).toBe(
      "https://quire.internal:8080",
    );
    expect(publicUrlFor(resolveForwarded({ remoteAddress: "203.0.113.1", encrypted: false, headers }))).toBe(
      "http://quire.internal:8080",
    );
  });

  it("a malformed Host is not used for links", () => {
    withEnv({ TRUST_PROXY: "" });
    const f = resolveForwarded({
      remoteAddress: "127.0.0.1",
      encrypted: true,
      headers: { host: "evil.example/<x>" },
    });
    expect(f.host).toBeUndefined();
    expect(publicUrlFor(f)).toBe("http://localhost:3000");
  });
});
