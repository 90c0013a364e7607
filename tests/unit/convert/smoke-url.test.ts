import { test, expect, afterAll } from "vitest";
import fs from "node:fs";
import { renderUrlToPdf } from "@/lib/engine/browser/render-url-to-pdf";
import { shutdownBrowserPool } from "@/lib/engine/browser/browser-pool";
import { setEgressPolicyForTests } from "@/lib/egress";
import { startServer, readPdf, renderPdfPage } from "@/tests/helpers/convert-fixtures";

afterAll(() => shutdownBrowserPool());
test("smoke", async () => {
  const canary = await startServer({ "/x.png": "CANARY" });
  const s = await startServer({
    "/": `<html><head><title>My Title</title><link rel="preconnect" href="${canary.origin}"><link rel="stylesheet" href="${canary.origin}/c.css"></head><body style="background:#f00"><h1>Hello Quire</h1><img src="${canary.origin}/x.png"><iframe src="${canary.origin}/"></iframe><script>fetch("${canary.origin}/f").catch(()=>{}); new WebSocket("ws://127.0.0.1:${canary.port}/ws");</script>${"<p>para</p>".repeat(80)}</body></html>`,
    "/r": { status: 302, headers: { location: "/" } },
  });
  setEgressPolicyForTests(`127.0.0.1:${s.port}`);
  const t0 = Date.now();
  const r = await renderUrlToPdf({ url: s.origin + "/r", header: '<span class="title"></span> <span class="date"></span>', footer: 'Page <span class="pageNumber"></span> of <span class="totalPages"></span> <span class="url"></span>', log: console.log });
  console.log(Date.now() - t0, r.finalUrl, r.title, r.blocked);
  fs.writeFileSync("/tmp/cvx/smoke.pdf", r.pdf);
  const info = readPdf(r.pdf);
  console.log(info.pageCount, info.sizes, info.texts);
  const p = renderPdfPage(r.pdf, 0, 50);
  fs.writeFileSync("/tmp/cvx/smoke.png", p.png);
  console.log("canary", canary.requests, canary.connections(), s.requests);
  await s.close(); await canary.close();
});
