import { afterEach, describe, expect, it } from "vitest";
import {
  getEgressPolicy,
  isAddressAllowed,
  isHostAllowed,
  parseEgressAllow,
  setEgressPolicyForTests,
} from "@/lib/egress/policy";

describe("EGRESS_ALLOW", () => {
  afterEach(() => {
    delete process.env.EGRESS_ALLOW;
    setEgressPolicyForTests(undefined);
  });

  it("is empty by default", () => {
    delete process.env.EGRESS_ALLOW;
    expect(getEgressPolicy()).toEqual({ cidrs: [], hosts: [] });
  });

  it("reads CIDRs, bare IPs, hosts, wildcards and host:port", () => {
    const p = parseEgressAllow(
      " 127.0.0.1/32, 10.0.0.0/8 ,::1, fd00::/8, localhost:8123, MinIO.internal, *.corp.example, [::1]:9000,",
    );
    expect(p.cidrs).toHaveLength(4);
    expect(p.hosts).toEqual([
      { host: "localhost", port: 8123 },
      { host: "minio.internal", port: undefined },
      { host: "*.corp.example", port: undefined },
      { host: "::1", port: 9000 },
    ]);
    expect(isAddressAllowed(p, "10.9.8.7")).toBe(true);
    expect(isAddressAllowed(p, "192.168.0.1")).toBe(false);
    expect(isAddressAllowed(p, "fd12::1")).toBe(true);
    expect(isHostAllowed(p, "localhost", 8123)).toBe(true);
    expect(isHostAllowed(p, "localhost", 80)).toBe(false);
    expect(isHostAllowed(p, "minio.internal.", 443)).toBe(true);
    expect(isHostAllowed(p, "a.b.corp.example", 80)).toBe(true);
    expect(isHostAllowed(p, "corp.example", 80)).toBe(false);
    expect(isHostAllowed(p, "evilcorp.example", 80)).toBe(false);
    expect(isHostAllowed(p, "[::1]", 9000)).toBe(true);
    expect(isHostAllowed(p, "[0:0::1]", 9000)).toBe(true);
  });

  it.each(["10.0.0.0/33", "http://x", "a b", "host:99999", "host:", "*.", "/8"])(
    "refuses the unreadable entry %j",
    (entry) => {
      expect(() => parseEgressAllow(entry)).toThrow(/EGRESS_ALLOW: cannot read/);
    },
  );

  it("is read when asked, not at import time", () => {
    process.env.EGRESS_ALLOW = "127.0.0.1/32";
    expect(isAddressAllowed(getEgressPolicy(), "127.0.0.1")).toBe(true);
    process.env.EGRESS_ALLOW = "";
    expect(isAddressAllowed(getEgressPolicy(), "127.0.0.1")).toBe(false);
  });

  it("can be overridden for tests", () => {
    setEgressPolicyForTests("192.168.0.0/16");
    expect(isAddressAllowed(getEgressPolicy(), "192.168.3.4")).toBe(true);
    setEgressPolicyForTests(undefined);
    expect(isAddressAllowed(getEgressPolicy(), "192.168.3.4")).toBe(false);
  });
});
