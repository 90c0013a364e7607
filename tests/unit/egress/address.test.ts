import { describe, expect, it } from "vitest";
import { classifyAddress, isPublicAddress, parseCidr, cidrContains, parseIp } from "@/lib/egress/address";

describe("egress address classification", () => {
  it.each([
    "8.8.8.8",
    "1.1.1.1",
    "93.184.216.34",
    "100.63.255.255",
    "100.128.0.0",
    "172.15.255.255",
    "172.32.0.0",
    "192.169.0.1",
    "198.20.0.1",
    "223.255.255.255",
    "2606:4700:4700::1111",
    "2001:4860:4860::8888",
    "::ffff:8.8.8.8",
    "64:ff9b::8.8.8.8",
    "2002:808:808::1",
    "2001:0:4136:e378:8000:63bf:f7f7:f7f7", // Teredo, client 8.8.8.8
  ])("%s is public", (ip) => {
    expect(classifyAddress(ip)?.kind).toBe("public");
    expect(isPublicAddress(ip)).toBe(true);
  });

  it.each([
    ["127.0.0.1", "loopback"],
    ["127.255.255.254", "loopback"],
    ["10.0.0.5", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["192.168.1.1", "private"],
    ["100.64.0.1", "shared (CGNAT)"],
    ["100.127.255.255", "shared (CGNAT)"],
    ["169.254.1.1", "link-local"],
    ["169.254.169.254", "cloud metadata"],
    ["100.100.100.200", "cloud metadata"],
    ["224.0.0.1", "multicast"],
    ["239.255.255.250", "multicast"],
    ["255.255.255.255", "broadcast"],
    ["240.0.0.1", "reserved"],
    ["0.0.0.0", "unspecified"],
    ["0.1.2.3", "this-network"],
    ["192.0.0.170", "reserved"],
    ["192.0.2.1", "documentation"],
    ["198.51.100.1", "documentation"],
    ["203.0.113.1", "documentation"],
    ["198.18.0.1", "benchmarking"],
    ["198.19.255.255", "benchmarking"],
    ["192.88.99.1", "reserved"],
    ["::1", "loopback"],
    ["::", "unspecified"],
    ["fe80::1", "link-local"],
    ["fe80::1%eth0", "link-local"],
    ["fc00::1", "unique-local"],
    ["fd12:3456::1", "unique-local"],
    ["fd00:ec2::254", "cloud metadata"],
    ["fec0::1", "site-local"],
    ["ff02::1", "multicast"],
    ["2001:db8::1", "documentation"],
    ["3fff::1", "documentation"],
    ["2001:2::1", "benchmarking"],
    ["2001:10::1", "reserved"],
    ["100::1", "reserved"],
    ["64:ff9b:1::1", "reserved"],
    ["4000::1", "reserved"],
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:7f00:1", "loopback"],
    ["::ffff:10.0.0.5", "private"],
    ["::ffff:169.254.169.254", "cloud metadata"],
    ["64:ff9b::127.0.0.1", "loopback"],
    ["64:ff9b::a00:5", "private"],
    ["2002:7f00:1::", "loopback"],
    ["2002:c0a8:101::1", "private"],
    ["2001:0:4136:e378:8000:63bf:80ff:fffe", "loopback"], // Teredo, client 127.0.0.1
    ["2001:0:a00:5:8000:63bf:f7f7:f7f7", "private"], // Teredo, server 10.0.0.5
    ["::127.0.0.1", "loopback"], // deprecated IPv4-compatible
    ["::8.8.8.8", "reserved"],
  ])("%s is %s", (ip, kind) => {
    expect(classifyAddress(ip)?.kind).toBe(kind);
    expect(isPublicAddress(ip)).toBe(false);
  });

  it("reports the IPv4 address an IPv6 address embeds", () => {
    expect(classifyAddress("::ffff:7f00:1")).toEqual({
      address: "::ffff:7f00:1",
      family: 6,
      kind: "loopback",
      embedded: "127.0.0.1",
    });
    expect(classifyAddress("2002:7f00:1::")?.embedded).toBe("127.0.0.1");
  });

  it("is null for non-IPs", () => {
    expect(classifyAddress("example.com")).toBeNull();
    expect(classifyAddress("127.1")).toBeNull(); // short forms are normalised by the URL parser, not here
    expect(classifyAddress("")).toBeNull();
  });

  it("parses CIDRs and tests membership", () => {
    const block = parseCidr("10.1.0.0/16")!;
    expect(cidrContains(block, 4, parseIp("10.1.200.3")!.bytes)).toBe(true);
    expect(cidrContains(block, 4, parseIp("10.2.0.1")!.bytes)).toBe(false);
    const v6 = parseCidr("fd00::/8")!;
    expect(cidrContains(v6, 6, parseIp("fd12::1")!.bytes)).toBe(true);
    expect(cidrContains(v6, 4, parseIp("10.1.0.1")!.bytes)).toBe(false);
    expect(parseCidr("10.0.0.0/33")).toBeNull();
    expect(parseCidr("10.0.0.0/x")).toBeNull();
    expect(parseCidr("nope/8")).toBeNull();
    expect(parseCidr("0.0.0.0/0")?.prefix).toBe(0);
  });
});
