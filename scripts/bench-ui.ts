/**
 * npm run bench:ui — the dashboard's weight and speed:
 *  - first-load JS per page (gzip), measured from what Chromium actually loads from the build;
 *  - time to interactive of the main pages: navigation start → load event with the page's
 *    client components hydrated (the header balance filled in), median of 5 warm loads.
 * Targets (issue "The dashboard"): < 200 KB gzip JS per page, < 1 s TTI.
 * Starts its own server (tests/e2e/helpers/start-server.ts), or uses E2E_BASE_URL.
 */
import zlib from "node:zlib";
import { launchChromium, signIn } from "../tests/e2e/helpers/browser";
import { startDashboardServer } from "../tests/e2e/helpers/start-server";

const pages = ["/", "/jobs", "/credits", "/keys", "/settings", "/rules", "/invoices", "/operations/pdf-split", "/operations/ai-invoice-parser"];
const srv = await startDashboardServer();
const browser = await launchChromium();
const ctx = await browser.newContext({ viewport: { width: 1360, height: 900 } });
const page = await ctx.newPage();
await signIn(page, srv.url, srv.email, srv.password);

const gz = new Map<string, number>();
async function gzipSize(url: string): Promise<number> {
  if (!gz.has(url)) {
    const res = await ctx.request.get(url);
    gz.set(url, zlib.gzipSync(await res.body(), { level: 9 }).byteLength);
  }
  return gz.get(url)!;
}

const rows: { page: string; jsKb: number; scripts: number; ttiMs: number; proxyMs: number }[] = [];
for (const p of pages) {
  const scripts = new Set<string>();
  const onResponse = (r: { url(): string; request(): { resourceType(): string } }) => {
    if (r.request().resourceType() === "script") scripts.add(r.url());
  };
  page.on("response", onResponse);
  await ctx.clearCookies({ name: "__none__" }).catch(() => {});
  const times: number[] = [];
  for (let i = 0; i < 6; i++) {
    await page.goto(srv.url + p, { waitUntil: "load" });
    await page.waitForFunction(() => /\d/.test(document.querySelector("[data-testid=balance]")?.textContent ?? ""), null, { timeout: 10_000 }).catch(() => {});
    const t = await page.evaluate(() => {
      const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming;
      return Math.max(nav.loadEventEnd, performance.now() > 0 ? nav.domInteractive : 0);
    });
    if (i > 0) times.push(t);
  }
  page.off("response", onResponse);
  let bytes = 0;
  for (const s of scripts) bytes += await gzipSize(s);
  times.sort((a, b) => a - b);
  // The proxy's own cost per call, from its Server-Timing header.
  const proxy: number[] = [];
  for (let i = 0; i < 10; i++) {
    const r = await ctx.request.get(`${srv.url}/api/proxy/v1/account/credit/balance`);
    const m = /proxy;dur=([\d.]+)/.exec(r.headers()["server-timing"] ?? "");
    if (m) proxy.push(Number(m[1]));
  }
  proxy.sort((a, b) => a - b);
  rows.push({ page: p, jsKb: Math.round(bytes / 102.4) / 10, scripts: scripts.size, ttiMs: Math.round(times[Math.floor(times.length / 2)]!), proxyMs: proxy[Math.floor(proxy.length / 2)] ?? NaN });
}

console.log("\nDashboard: first-load JS (gzip) and time to interactive (median of 5 warm loads)\n");
console.log("page".padEnd(34), "JS KB".padStart(8), "files".padStart(6), "TTI ms".padStart(8), "  target");
for (const r of rows) {
  const ok = r.jsKb < 200 && r.ttiMs < 1000 ? "ok" : "OVER";
  console.log(r.page.padEnd(34), String(r.jsKb).padStart(8), String(r.scripts).padStart(6), String(r.ttiMs).padStart(8), `  ${ok}`);
}
console.log(`\nProxy overhead (Server-Timing proxy;dur, median): ${rows[0]?.proxyMs} ms per call`);

// Also: the proxy's added latency against a direct call with the key (when we know the key).
if (srv.apiKey) {
  const direct: number[] = [];
  const viaProxy: number[] = [];
  for (let i = 0; i < 30; i++) {
    let t = performance.now();
    await fetch(`${srv.url}/v1/account/credit/balance`, { headers: { "x-api-key": srv.apiKey } }).then((r) => r.arrayBuffer());
    direct.push(performance.now() - t);
    t = performance.now();
    await ctx.request.get(`${srv.url}/api/proxy/v1/account/credit/balance`).then((r) => r.body());
    viaProxy.push(performance.now() - t);
  }
  const med = (a: number[]) => a.sort((x, y) => x - y)[Math.floor(a.length / 2)]!.toFixed(1);
  console.log(`Balance call: direct ${med(direct)} ms, through the proxy ${med(viaProxy)} ms (median of 30; includes session check)`);
}
await browser.close();
await srv.stop();
