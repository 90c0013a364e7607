/**
 * npm run bench:ui — the dashboard's weight and speed:
 *  - first-load JS per page (gzip), from the production build: the root main files of
 *    .next/build-manifest.json plus every chunk the route's layouts and page load
 *    (entryJSFiles of its page_client-reference-manifest.js), each file counted once;
 *  - time to interactive of the main pages in Chromium: navigation start → React has hydrated
 *    the page (the header's user menu carries React's props), first (cold) load and the median
 *    of 5 warm loads.
 * Targets: < 200 KB gzip JS per page, < 1 s TTI.
 * Starts its own server (tests/e2e/helpers/start-server.ts, builds when stale), or uses
 * E2E_BASE_URL (then the build measured is the local .next).
 */
import fs from "node:fs";
import path from "node:path";
import vm from "node:vm";
import zlib from "node:zlib";
import { launchChromium, signIn } from "../tests/e2e/helpers/browser";
import { startDashboardServer } from "../tests/e2e/helpers/start-server";

const ROOT = path.resolve(import.meta.dirname, "..");
const NEXT = path.join(ROOT, ".next");
const BUDGET_KB = 200;
const BUDGET_MS = 1000;

/** Route → its app directory segment under .next/server/app (route groups included). */
const pages: { route: string; dir: string }[] = [
  { route: "/sign-in", dir: "sign-in" },
  { route: "/", dir: "(dashboard)" },
  { route: "/jobs", dir: "(dashboard)/jobs" },
  { route: "/jobs/[id]", dir: "(dashboard)/jobs/[id]" },
  { route: "/credits", dir: "(dashboard)/credits" },
  { route: "/keys", dir: "(dashboard)/keys" },
  { route: "/settings", dir: "(dashboard)/settings" },
  { route: "/rules", dir: "(dashboard)/rules" },
  { route: "/invoices", dir: "(dashboard)/invoices" },
  { route: "/invoices/[jobId]", dir: "(dashboard)/invoices/[jobId]" },
  { route: "/operations/[id]", dir: "(dashboard)/operations/[id]" },
];

const gzCache = new Map<string, number>();
function gzipSize(file: string): number {
  if (!gzCache.has(file)) gzCache.set(file, zlib.gzipSync(fs.readFileSync(path.join(NEXT, file)), { level: 9 }).byteLength);
  return gzCache.get(file)!;
}

/** The JS files a route loads on first visit (paths relative to .next). */
function firstLoadFiles(dir: string): string[] {
  const build = JSON.parse(fs.readFileSync(path.join(NEXT, "build-manifest.json"), "utf8")) as { rootMainFiles: string[] };
  const file = path.join(NEXT, "server/app", dir, "page_client-reference-manifest.js");
  const sandbox = { globalThis: {} as Record<string, unknown> };
  vm.runInNewContext(fs.readFileSync(file, "utf8"), sandbox);
  const manifests = (sandbox.globalThis.__RSC_MANIFEST ?? {}) as Record<string, { entryJSFiles?: Record<string, string[]> }>;
  const files = new Set(build.rootMainFiles);
  for (const m of Object.values(manifests))
    for (const [entry, chunks] of Object.entries(m.entryJSFiles ?? {}))
      // The app's own layouts and the page; error boundaries load only on error.
      if (entry.startsWith("[project]/app/")) for (const c of chunks) files.add(c.replace(/^\/?_next\//, ""));
  return [...files];
}

const weights = pages.map((p) => {
  const files = firstLoadFiles(p.dir);
  const bytes = files.reduce((s, f) => s + gzipSize(f), 0);
  return { ...p, files: files.length, kb: Math.round(bytes / 102.4) / 10 };
});

// Time to interactive, against a started server.
const srv = await startDashboardServer();
const browser = await launchChromium();
const ctx = await browser.newContext({ viewport: { width: 1360, height: 900 } });
// Runs before any page script: notes when React has hydrated the header (its props are attached).
// (A string, not a function: tsx would wrap named functions in a helper the page lacks.)
await ctx.addInitScript(`(() => {
  const check = () => {
    const el = document.querySelector("[data-testid=user-menu]");
    if (el && Object.keys(el).some((k) => k.startsWith("__reactProps$"))) window.__hydratedAt = performance.now();
    else setTimeout(check, 2);
  };
  check();
})();`);
const page = await ctx.newPage();
await signIn(page, srv.url, srv.email, srv.password);

// A real job, so the job and invoice pages have something to show.
const jobId = await page.evaluate(async () => {
  const r = await fetch("/api/proxy/v1/jobs?limit=1");
  return ((await r.json()) as { jobs: { jobId: string }[] }).jobs[0]?.jobId ?? "none";
});
const urlOf: Record<string, string> = { "/jobs/[id]": `/jobs/${jobId}`, "/invoices/[jobId]": `/invoices/${jobId}`, "/operations/[id]": "/operations/ai-invoice-parser" };

async function loadOnce(url: string): Promise<{ tti: number; load: number }> {
  await page.goto(url, { waitUntil: "load" });
  await page.waitForFunction(() => (window as unknown as { __hydratedAt?: number }).__hydratedAt !== undefined, null, { timeout: 15_000 });
  return page.evaluate(() => {
    const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming;
    return { tti: (window as unknown as { __hydratedAt: number }).__hydratedAt, load: nav.loadEventEnd };
  });
}

const rows: { route: string; files: number; kb: number; coldMs: number; ttiMs: number; loadMs: number }[] = [];
for (const p of weights) {
  if (p.route === "/sign-in") {
    rows.push({ route: p.route, files: p.files, kb: p.kb, coldMs: NaN, ttiMs: NaN, loadMs: NaN });
    continue;
  }
  const url = srv.url + (urlOf[p.route] ?? p.route);
  const cdp = await ctx.newCDPSession(page);
  await cdp.send("Network.clearBrowserCache");
  await cdp.detach();
  const cold = await loadOnce(url);
  const warm: { tti: number; load: number }[] = [];
  for (let i = 0; i < 5; i++) warm.push(await loadOnce(url));
  const med = (k: "tti" | "load") => warm.map((w) => w[k]).sort((a, b) => a - b)[2]!;
  rows.push({ route: p.route, files: p.files, kb: p.kb, coldMs: Math.round(cold.tti), ttiMs: Math.round(med("tti")), loadMs: Math.round(med("load")) });
}
await browser.close();
await srv.stop();

console.log(`\nDashboard: first-load JS (gzip, from .next) and time to interactive (hydrated; cold, then median of 5 warm loads)\n`);
console.log("page".padEnd(20), "JS KB".padStart(7), "files".padStart(6), "cold ms".padStart(8), "TTI ms".padStart(7), "load ms".padStart(8), "  budget");
let over = 0;
for (const r of rows) {
  const ok = r.kb < BUDGET_KB && !(r.ttiMs >= BUDGET_MS) && !(r.coldMs >= BUDGET_MS);
  if (!ok) over++;
  const n = (v: number) => (Number.isNaN(v) ? "—" : String(v));
  console.log(r.route.padEnd(20), String(r.kb).padStart(7), String(r.files).padStart(6), n(r.coldMs).padStart(8), n(r.ttiMs).padStart(7), n(r.loadMs).padStart(8), `  ${ok ? "ok" : "OVER"}`);
}
console.log(`\nBudget: < ${BUDGET_KB} KB gzip first-load JS, < ${BUDGET_MS} ms to interactive. ${over ? `${over} page(s) over.` : "All pages within budget."}`);
process.exitCode = over ? 1 : 0;
