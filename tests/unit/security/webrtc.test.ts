import { afterAll, beforeAll, describe, expect, it } from "vitest";
import dgram from "node:dgram";
import { setEgressPolicyForTests } from "@/lib/egress";
import { shutdownBrowserPool } from "@/lib/engine/browser/browser-pool";
import { findChromium } from "@/lib/engine/browser/chromium-path";
import { renderHtmlToPdf } from "@/lib/engine/browser/render-html-to-pdf";
import { renderUrlToPdf } from "@/lib/engine/browser/render-url-to-pdf";
import { readPdf, startServer, type TestServer } from "@/tests/helpers/convert-fixtures";

/**
 * Issue 10 §1: a page printed by web page → PDF must not reach the network over anything but the
 * egress guard. WebRTC (STUN/TURN, ICE connectivity checks) and WebTransport (QUIC) speak UDP,
 * which the request router never sees: UDP canaries on loopback must receive nothing, and a TCP
 * canary not a single connection, whatever the page tries, also from a fresh iframe.
 */
const hasChromium = !!findChromium().path;

interface UdpCanary {
  port: number;
  packets: Buffer[];
  close(): Promise<void>;
}

async function udpCanary(): Promise<UdpCanary> {
  const socket = dgram.createSocket("udp4");
  const packets: Buffer[] = [];
  socket.on("message", (m) => packets.push(m));
  await new Promise<void>((resolve) => socket.bind(0, "127.0.0.1", resolve));
  return {
    port: socket.address().port,
    packets,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}

function attackScript(udpPort: number, stunPort: number, tcpPort: number): string {
  return `
  (async () => {
    const log = (t) => { const p = document.createElement("p"); p.textContent = t; document.body.append(p); };
    const ice = [
      { urls: "stun:127.0.0.1:${stunPort}" },
      { urls: "turn:127.0.0.1:${stunPort}?transport=udp", username: "u", credential: "ATTACKER-TEXT" },
      { urls: "turn:127.0.0.1:${tcpPort}?transport=tcp", username: "u", credential: "p" },
    ];
    async function attack(PC, label) {
      if (typeof PC !== "function") { log(label + ": no RTCPeerConnection"); return; }
      try {
        const pc = new PC({ iceServers: ice });
        pc.createDataChannel("x");
        await pc.setLocalDescription(await pc.createOffer());
        const remote = new PC();
        remote.createDataChannel("y");
        await remote.setRemoteDescription(pc.localDescription);
        await remote.setLocalDescription(await remote.createAnswer());
        await pc.setRemoteDescription(remote.localDescription);
        await pc.addIceCandidate({
          candidate: "candidate:1 1 udp 2122260223 127.0.0.1 ${udpPort} typ host",
          sdpMid: "0", sdpMLineIndex: 0,
        });
        log(label + ": peer connection made");
      } catch (e) { log(label + ": " + e); }
    }
    await attack(window.RTCPeerConnection, "top");
    await attack(window.webkitRTCPeerConnection, "webkit");
    const f = document.createElement("iframe");
    document.body.append(f);
    await attack(f.contentWindow && f.contentWindow.RTCPeerConnection, "iframe");
    try {
      const wt = new WebTransport("https://127.0.0.1:${udpPort}/wt");
      wt.ready.catch(() => {});
      log("webtransport made");
    } catch (e) { log("webtransport: " + e); }
    try { new WebSocket("ws://127.0.0.1:${tcpPort}/"); } catch (e) {}
    try { await fetch("http://127.0.0.1:${tcpPort}/x"); } catch (e) {}
    document.title = "done";
  })();`;
}

describe.skipIf(!hasChromium)("web page → PDF sends no UDP and opens no connection of its own", () => {
  let site: TestServer;
  let tcp: TestServer;
  let udp: UdpCanary;
  let stun: UdpCanary;

  beforeAll(async () => {
    udp = await udpCanary();
    stun = await udpCanary();
    tcp = await startServer({ "/": "TCP CANARY" });
    const page = `<!doctype html><html><body><h1>WebRTC page</h1>
      <script>${attackScript(udp.port, stun.port, tcp.port)}</script>
      <img src="/slow.png"></body></html>`;
    site = await startServer({
      "/webrtc": page,
      "/navigate-away": `<!doctype html><html><body><h1>Leaving</h1>
        <script>setTimeout(() => { location.href = "http://127.0.0.1:${tcp.port}/"; }, 50);</script></body></html>`,
      "/refresh-away": `<!doctype html><html><head><meta http-equiv="refresh" content="0;url=http://127.0.0.1:${tcp.port}/"></head><body><h1>Refresh</h1></body></html>`,
      // Holds the load event for 2 s, while the ICE agent would gather and check candidates.
      "/slow.png": (_req, res) => void setTimeout(() => res.writeHead(404).end(), 2000),
    });
    setEgressPolicyForTests(`127.0.0.1:${site.port}`);
  });

  afterAll(async () => {
    setEgressPolicyForTests(undefined);
    await shutdownBrowserPool();
    await Promise.all([site?.close(), tcp?.close(), udp?.close(), stun?.close()]);
  });

  it("URL → PDF: WebRTC, TURN, WebTransport, WebSocket and fetch leave every canary at zero", async () => {
    const { pdf } = await renderUrlToPdf({ url: `${site.origin}/webrtc` });
    const text = readPdf(pdf).texts.join("\n");
    expect(text).toContain("WebRTC page");
    expect(text).not.toContain("peer connection made");
    await new Promise((r) => setTimeout(r, 1000)); // late packets
    expect(udp.packets.length).toBe(0);
    expect(stun.packets.length).toBe(0);
    expect(tcp.connections()).toBe(0);
  }, 120_000);

  it.each(["/navigate-away", "/refresh-away"])(
    "a page that navigates itself to a forbidden address fails with 403 (%s), no PDF of the error page",
    async (route) => {
      const err = await renderUrlToPdf({ url: `${site.origin}${route}` }).then(
        () => undefined,
        (e: unknown) => e as { status: number; message: string },
      );
      expect(err?.status).toBe(403);
      expect(tcp.connections()).toBe(0);
    },
    60_000,
  );

  it("HTML → PDF: the same page as HTML leaves every canary at zero", async () => {
    const html = `<!doctype html><html><body><h1>WebRTC html</h1><script>${attackScript(udp.port, stun.port, tcp.port)}</script></body></html>`;
    const pdf = await renderHtmlToPdf({ html, allowNetwork: true });
    expect(readPdf(pdf).texts.join("\n")).toContain("WebRTC html");
    await new Promise((r) => setTimeout(r, 2500));
    expect(udp.packets.length).toBe(0);
    expect(stun.packets.length).toBe(0);
    expect(tcp.connections()).toBe(0);
  }, 120_000);
});
