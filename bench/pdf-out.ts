/**
 * The PDF → text and PDF → PNG figures of `npm run bench` (bench/api.ts calls convertFigures):
 *  - POST /v1/pdf/convert/to/text on a generated 50-page text PDF (two columns of 45 lines per
 *    page) against `pdftotext -layout`, as pages/s (target: Quire ≥ 1× pdftotext);
 *  - POST /v1/pdf/convert/to/png at 150 dpi on 20 of those pages against `pdftoppm -r 150 -png`
 *    (target: Quire within 1.5× pdftoppm's time).
 *  - POST /v1/pdf/convert/from/url of a simple local page (warm: the browser is running) against
 *    a warm Playwright `page.pdf()` of the same page in the same Chromium build (new page, goto,
 *    pdf, close; target: Quire within 1.5× its time). webFigures needs the server started with
 *    EGRESS_ALLOW naming the local site (`webSite()` gives it before the server starts).
 * Quire's figures include HTTP, fetching the source from storage, the sandbox and storing the
 * outputs; the tools read and write local files. Each pair is timed alternately, the tools at
 * Quire's work priority (bench/side-by-side.ts).
 */
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import type { QuireServer } from "../tests/helpers/quire-server";
import { uploadBytes } from "../tests/helpers/api-client";
import { makeTablesPdf, type PageSpec } from "../tests/helpers/extract-fixtures";
import { hasTool, niceChromium, runTool, sideBySide } from "./side-by-side";

function median(xs: number[]) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

async function timeIt(fn: () => Promise<unknown> | unknown, runs: number) {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  return median(times);
}

/** A text-heavy page: a heading and two columns of 45 lines. */
function textPage(n: number): PageSpec {
  const texts: PageSpec["texts"] = [{ x: 56, y: 50, text: `Chapter ${n}: measured reading of generated pages`, size: 14 }];
  for (let i = 0; i < 45; i++) {
    texts.push({ x: 56, y: 80 + i * 15, text: `Line ${i + 1} of the left column, page ${n}, with some words.` });
    texts.push({ x: 316, y: 80 + i * 15, text: `Line ${i + 1} of the right column holds ${i * 37 + n} units.` });
  }
  return { texts };
}

/** Appends the figures as rows [what, Quire, tool, target]. */
export async function convertFigures(q: QuireServer, rows: string[][]): Promise<void> {
  const pages = 50;
  const pdf = makeTablesPdf(Array.from({ length: pages }, (_, i) => textPage(i + 1)));
  const src = await uploadBytes(q, pdf, "text-50.pdf", "application/pdf");
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "quire-bench-out-"));
  const file = path.join(tmp, "text-50.pdf");
  fs.writeFileSync(file, pdf);
  const ok = async (p: Promise<{ status: number; body: any }>) => {
    const r = await p;
    if (r.status !== 200) throw new Error(`benchmark call failed: ${JSON.stringify(r.body).slice(0, 300)}`);
  };
  try {
    const text = () => ok(q.api("/v1/pdf/convert/to/text", { json: { url: src } }));
    const png = () => ok(q.api("/v1/pdf/convert/to/png", { json: { url: src, pages: "0-19", profiles: { RenderingResolution: 150 } } }));
    // One warm-up call per sandbox worker.
    await Promise.all([text(), text()]);
    await Promise.all([png(), png()]);
    const pdftotext = () => runTool("pdftotext", ["-layout", file, path.join(tmp, "out.txt")]);
    const pdftoppm = () => runTool("pdftoppm", ["-r", "150", "-png", "-f", "1", "-l", "20", file, path.join(tmp, "p")]);
    const haveText = hasTool("pdftotext");
    const havePpm = hasTool("pdftoppm");
    const t1 = haveText ? await sideBySide(text, pdftotext, 5) : { quire: await timeIt(text, 5), tool: 0 };
    const t2 = havePpm ? await sideBySide(png, pdftoppm, 3) : { quire: await timeIt(png, 3), tool: 0 };
    const tText = t1.quire;
    const tPng = t2.quire;
    const quireText = `${((pages * 1000) / tText).toFixed(0)} pages/s (${tText.toFixed(0)} ms)`;
    const textTool = haveText
      ? `pdftotext -layout ${((pages * 1000) / t1.tool).toFixed(0)} pages/s (Quire/pdftotext ${(t1.tool / tText).toFixed(2)}× its speed)`
      : "pdftotext not installed";
    rows.push([`POST /v1/pdf/convert/to/text, ${pages} pages`, quireText, textTool, "target ≥ 1× pdftotext pages/s"]);
    const pngTool = havePpm ? `pdftoppm -r 150 -png ${t2.tool.toFixed(0)} ms (Quire/pdftoppm ${(tPng / t2.tool).toFixed(2)}× its time)` : "pdftoppm not installed";
    rows.push(["POST /v1/pdf/convert/to/png, 20 pages at 150 dpi", `${tPng.toFixed(0)} ms`, pngTool, "target ≤ 1.5× pdftoppm"]);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

const PAGE_HTML = `<!doctype html><html><head><meta charset="utf-8"><title>Bench page</title>
<style>body{font-family:sans-serif;margin:40px}h1{color:#234}td{border:1px solid #999;padding:4px}</style></head>
<body><h1>Quarterly report</h1>${"<p>This paragraph stands for the body of a simple page: a few lines of text, a heading and a table.</p>".repeat(8)}
<table>${Array.from({ length: 12 }, (_, i) => `<tr><td>Row ${i + 1}</td><td>${(i * 13.7).toFixed(2)}</td><td>EUR</td></tr>`).join("")}</table></body></html>`;

/** A loopback site serving the bench page; start it before the server (EGRESS_ALLOW). */
export async function webSite(): Promise<{ origin: string; hostPort: string; close: () => Promise<void> }> {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(PAGE_HTML);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const port = (server.address() as { port: number }).port;
  return { origin: `http://127.0.0.1:${port}`, hostPort: `127.0.0.1:${port}`, close: () => new Promise((r) => server.close(() => r())) };
}

/** Appends the web page → PDF row (warm API call against a warm Playwright page.pdf()). */
export async function webFigures(q: QuireServer, site: { origin: string }, rows: string[][]): Promise<void> {
  const url = `${site.origin}/report`;
  const call = async () => {
    const r = await q.api("/v1/pdf/convert/from/url", { json: { url } });
    if (r.status !== 200) throw new Error(`benchmark call failed: ${JSON.stringify(r.body).slice(0, 300)}`);
  };
  await Promise.all([call(), call()]); // warm: one browser per sandbox worker
  await call();
  let tQuire: number;
  let tool = "chromium not found";
  const { findChromium } = await import("../lib/engine/browser/chromium-path");
  const exe = findChromium().path;
  if (exe) {
    const { chromium } = await import("playwright-core");
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "quire-bench-web-"));
    const browser = await chromium.launch({ executablePath: niceChromium(exe, tmp), args: ["--no-sandbox"] });
    try {
      const once = async () => {
        const context = await browser.newContext();
        const page = await context.newPage();
        await page.goto(url, { waitUntil: "load" });
        await page.pdf({ printBackground: true });
        await context.close();
      };
      await once();
      await once();
      const t = await sideBySide(call, once, 7);
      tQuire = t.quire;
      tool = `warm playwright page.pdf() ${t.tool.toFixed(0)} ms (Quire/playwright ${(t.quire / t.tool).toFixed(2)}× its time)`;
    } finally {
      await browser.close();
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  } else {
    tQuire = await timeIt(call, 5);
  }
  rows.push(["POST /v1/pdf/convert/from/url, simple local page (warm)", `${tQuire.toFixed(0)} ms`, tool, "target ≤ 1.5× playwright"]);
}
