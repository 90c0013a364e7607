import { afterAll, beforeAll, describe, expect, it } from "vitest";
import fs from "node:fs";
import sharp from "sharp";
import { setEgressPolicyForTests } from "@/lib/egress";
import { BrowserPool, shutdownBrowserPool } from "@/lib/engine/browser/browser-pool";
import { findChromium } from "@/lib/engine/browser/chromium-path";
import { renderUrlToPdf } from "@/lib/engine/browser/render-url-to-pdf";
import { run } from "@/lib/operations/pdf-convert-from-url/runner";
import {
  makeTempDir,
  near,
  readPdf,
  renderPdfPage,
  startServer,
  type TestServer,
} from "@/tests/helpers/convert-fixtures";

/**
 * pdf-convert-from-url against pages served on 127.0.0.1. The allowed server is put on the egress
 * allow-list (as an operator would with EGRESS_ALLOW); a second loopback server, the canary, is
 * not, and must never see a single connection whatever the pages reference.
 */
const hasChromium = !!findChromium().path;
if (!hasChromium)
  console.warn("pdf-convert-from-url tests skipped: no Chromium (install chromium or set CHROMIUM_PATH)");

const A4 = [595.28, 841.89];
const RED: [number, number, number] = [255, 0, 0];
const WHITE: [number, number, number] = [255, 255, 255];

describe.skipIf(!hasChromium)("pdf-convert-from-url", () => {
  let site: TestServer;
  let canary: TestServer;
  let closedPort: number;
  let redDot: string;

  const page = (body: string, head = "") =>
    `<!doctype html><html><head><meta charset="utf-8">${head}</head><body>${body}</body></html>`;
  const longBody = (n: number) =>
    Array.from({ length: n }, (_, i) => `<p style="margin:0;height:200px">Line ${i + 1}</p>`).join("");

  beforeAll(async () => {
    canary = await startServer({ "/": "CANARY PAGE", "/secret.txt": "CANARY SECRET" });
    const c = canary.origin;
    redDot =
      "data:image/png;base64," +
      (
        await sharp({ create: { width: 8, height: 8, channels: 3, background: "#f00" } })
          .png()
          .toBuffer()
      ).toString("base64");
    site = await startServer({
      "/hello": page("<h1>Hello Quire</h1><p>Second paragraph</p>", "<title>Hello title</title>"),
      "/red": page(
        "<div style='height:300px'>Red page</div>",
        "<style>html,body{background:#ff0000}</style>",
      ),
      "/media": page(
        "<p id='p'>PRINT-ONLY</p><p id='s'>SCREEN-ONLY</p>",
        "<style>@media print{#s{display:none}} @media screen{#p{display:none}}</style>",
      ),
      "/long": page(longBody(12), "<title>Long doc</title>"),
      "/script": page("<p id='x'>ORIGINAL</p>"),
      "/go": { status: 302, headers: { location: "/hello" } },
      "/to-canary": { status: 302, headers: { location: `${c}/secret.txt` } },
      "/missing": { status: 404, body: "nope" },
      "/slow": () => {
        /* never answers */
      },
      "/slow-image": page("<p>Text before a slow image</p><img src='/slow'>"),
      "/hostile": page(
        `<h1>Hostile page</h1>
         <img src="${c}/img.png"><img src="/to-canary">
         <iframe src="${c}/"></iframe><iframe src="file:///etc/passwd"></iframe>
         <object data="${c}/secret.txt"></object>
         <div style="background:url(${c}/bg.png)">bg</div>
         <video src="${c}/v.mp4"></video><audio src="${c}/a.mp3"></audio>
         <script src="${c}/s.js"></script>
         <script>
           fetch("${c}/secret.txt").then(r => r.text()).then(t => document.body.append(t)).catch(() => {});
           const x = new XMLHttpRequest(); x.open("GET", "${c}/xhr"); x.onload = () => document.body.append(x.responseText); x.send();
           try { new WebSocket("ws://127.0.0.1:${canary.port}/ws"); } catch (e) {}
           try { new EventSource("${c}/events"); } catch (e) {}
           navigator.sendBeacon && navigator.sendBeacon("${c}/beacon", "x");
           try { new Worker("${c}/w.js"); } catch (e) {}
           navigator.serviceWorker && navigator.serviceWorker.register("/sw.js").catch(() => {});
           fetch("file:///etc/hostname").catch(() => {});
         </script>`,
        `<link rel="preconnect" href="${c}"><link rel="dns-prefetch" href="${c}"><link rel="prefetch" href="${c}/pf">
         <link rel="stylesheet" href="${c}/style.css"><link rel="icon" href="${c}/favicon.ico">
         <style>@import url("${c}/import.css"); @font-face { font-family: X; src: url(${c}/font.woff2); } body { font-family: X, sans-serif; }</style>`,
      ),
      "/sw.js": {
        headers: { "content-type": "text/javascript" },
        body: "self.addEventListener('fetch', () => {});",
      },
    });
    const closed = await startServer();
    closedPort = closed.port;
    await closed.close();
    setEgressPolicyForTests(`127.0.0.1:${site.port},127.0.0.1:${closedPort}`);
  });

  afterAll(async () => {
    setEgressPolicyForTests(undefined);
    await shutdownBrowserPool();
    await site?.close();
    await canary?.close();
  });

  it("prints a page on A4 by default, with its text", async () => {
    const { pdf, title } = await renderUrlToPdf({ url: `${site.origin}/hello` });
    const info = readPdf(pdf);
    expect(info.pageCount).toBe(1);
    // Chromium rounds the paper to its own units: within a point of ISO A4.
    expect(Math.abs(info.sizes[0][0] - A4[0])).toBeLessThan(1.5);
    expect(Math.abs(info.sizes[0][1] - A4[1])).toBeLessThan(1.5);
    expect(info.texts[0]).toContain("Hello Quire");
    expect(info.texts[0]).toContain("Second paragraph");
    expect(title).toBe("Hello title");
  });

  it.each([
    ["Letter", "Portrait", 612, 792],
    ["Letter", "Landscape", 792, 612],
    ["legal", undefined, 612, 1008],
    ["A5", undefined, 419.53, 595.28],
    ["100mm 150mm", undefined, 283.46, 425.2],
    ["8.5in 5.5in", undefined, 612, 396],
  ] as const)("paperSize %s %s → %d×%d pt", async (paperSize, orientation, w, h) => {
    const { pdf } = await renderUrlToPdf({ url: `${site.origin}/hello`, paperSize, orientation });
    const [pw, ph] = readPdf(pdf).sizes[0];
    expect(Math.abs(pw - w)).toBeLessThan(1.5);
    expect(Math.abs(ph - h)).toBeLessThan(1.5);
  });

  it("printBackground true paints the page colour; false leaves it white", async () => {
    const withBg = renderPdfPage((await renderUrlToPdf({ url: `${site.origin}/red` })).pdf);
    expect(near(withBg.pixel(withBg.width / 2, withBg.height / 2), RED)).toBe(true);
    const without = renderPdfPage(
      (await renderUrlToPdf({ url: `${site.origin}/red`, printBackground: false })).pdf,
    );
    expect(near(without.pixel(without.width / 2, without.height / 2), WHITE)).toBe(true);
  });

  it("margins leave an unpainted border (one value and four values)", async () => {
    const one = await renderUrlToPdf({ url: `${site.origin}/red`, margins: "1in" });
    const r1 = renderPdfPage(one.pdf, 0, 72);
    expect(near(r1.pixel(36, 36), WHITE)).toBe(true); // inside the 1in margin
    expect(near(r1.pixel(r1.width / 2, r1.height / 2), RED)).toBe(true);
    const four = await renderUrlToPdf({ url: `${site.origin}/red`, margins: "0 0 0 50mm" });
    const r4 = renderPdfPage(four.pdf, 0, 72);
    expect(near(r4.pixel(100, 400), WHITE)).toBe(true); // left margin ≈ 142 pt
    expect(near(r4.pixel(160, 400), RED)).toBe(true);
    expect(near(r4.pixel(r4.width - 3, 3), RED)).toBe(true); // no top/right margin
  });

  it("mediaType print uses print styles, screen uses screen styles", async () => {
    const print = readPdf((await renderUrlToPdf({ url: `${site.origin}/media`, mediaType: "print" })).pdf)
      .texts[0];
    expect(print).toContain("PRINT-ONLY");
    expect(print).not.toContain("SCREEN-ONLY");
    const screen = readPdf((await renderUrlToPdf({ url: `${site.origin}/media`, mediaType: "screen" })).pdf)
      .texts[0];
    expect(screen).toContain("SCREEN-ONLY");
    expect(screen).not.toContain("PRINT-ONLY");
  });

  it("header and footer carry title, url, page number and total pages on every page", async () => {
    const { pdf } = await renderUrlToPdf({
      url: `${site.origin}/long`,
      paperSize: "Letter",
      header: `<div><img src="${redDot}" style="width:20px;height:20px"> <span class="title"></span> <img src="${canary.origin}/logo.png"></div>`,
      footer:
        '<div style="text-align:center">Page <span class="pageNumber"></span> of <span class="totalPages"></span> · <span class="url"></span></div>',
    });
    const info = readPdf(pdf);
    expect(info.pageCount).toBeGreaterThanOrEqual(3);
    for (let i = 0; i < info.pageCount; i++) {
      expect(info.texts[i]).toContain("Long doc");
      expect(info.texts[i]).toContain(`Page ${i + 1} of ${info.pageCount}`);
      expect(info.texts[i]).toContain(`${site.origin}/long`);
    }
    // The base64 image is drawn in the header area (top half inch, left side).
    const r = renderPdfPage(pdf, 1, 72);
    let redInHeader = false;
    for (let x = 0; x < 120 && !redInHeader; x++)
      for (let y = 0; y < 36; y++) if (near(r.pixel(x, y), RED, 40)) redInHeader = true;
    expect(redInHeader).toBe(true);
  });

  it("runs profiles.CustomScript before printing", async () => {
    const { pdf } = await renderUrlToPdf({
      url: `${site.origin}/script`,
      customScript: "document.getElementById('x').textContent = 'SCRIPTED ' + (1 + 1);",
    });
    const text = readPdf(pdf).texts[0];
    expect(text).toContain("SCRIPTED 2");
    expect(text).not.toContain("ORIGINAL");
  });

  it("a failing CustomScript is a 454 naming the script", async () => {
    await expect(
      renderUrlToPdf({ url: `${site.origin}/script`, customScript: "throw new Error('boom')" }),
    ).rejects.toMatchObject({
      status: 454,
      message: expect.stringContaining("CustomScript"),
    });
  });

  it("follows redirects of the page itself through the guard", async () => {
    const { pdf, finalUrl } = await renderUrlToPdf({ url: `${site.origin}/go` });
    expect(finalUrl).toBe(`${site.origin}/hello`);
    expect(readPdf(pdf).texts[0]).toContain("Hello Quire");
  });

  it("blocks every request to a forbidden address; the canary gets no connection and the PDF none of its content", async () => {
    const before = canary.connections();
    const { pdf, blocked } = await renderUrlToPdf({ url: `${site.origin}/hostile` });
    const text = readPdf(pdf).texts.join("\n");
    expect(text).toContain("Hostile page");
    expect(text).not.toContain("CANARY");
    expect(blocked.length).toBeGreaterThanOrEqual(5);
    expect(blocked.some((b) => b.url.includes("/to-canary"))).toBe(true); // redirect re-checked
    expect(blocked.some((b) => b.url.startsWith("ws://"))).toBe(true);
    expect(canary.connections() - before).toBe(0);
    expect(canary.requests).toEqual([]);
  });

  it("refuses a page on a forbidden address (403) without contacting it", async () => {
    await expect(renderUrlToPdf({ url: `${canary.origin}/` })).rejects.toMatchObject({ status: 403 });
    await expect(renderUrlToPdf({ url: `${site.origin}/to-canary` })).rejects.toMatchObject({ status: 403 });
    expect(canary.connections()).toBe(0);
  });

  it("invalid URLs are 452", async () => {
    await expect(renderUrlToPdf({ url: "not a url" })).rejects.toMatchObject({ status: 452 });
    await expect(renderUrlToPdf({ url: "file:///etc/passwd" })).rejects.toMatchObject({ status: 452 });
  });

  it("an unreachable page is a clear 400", async () => {
    await expect(renderUrlToPdf({ url: `http://127.0.0.1:${closedPort}/` })).rejects.toMatchObject({
      status: 400,
      message: expect.stringMatching(/^url: .*(connect|ECONNREFUSED)/),
    });
  });

  it("a page that answers 404 is a 400 naming the status", async () => {
    await expect(renderUrlToPdf({ url: `${site.origin}/missing` })).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining("404"),
    });
  });

  it("times out on a page that never finishes loading (408), and prints it with DoNotWaitFullLoad", async () => {
    const limits = { loadTimeoutMs: 1500, requestTimeoutMs: 3000, settleMs: 200 };
    await expect(renderUrlToPdf({ url: `${site.origin}/slow-image`, limits })).rejects.toMatchObject({
      status: 408,
      message: expect.stringContaining("DoNotWaitFullLoad"),
    });
    const { pdf } = await renderUrlToPdf({
      url: `${site.origin}/slow-image`,
      doNotWaitFullLoad: true,
      limits: { ...limits, totalTimeoutMs: 20_000 },
    });
    expect(readPdf(pdf).texts[0]).toContain("Text before a slow image");
    await expect(renderUrlToPdf({ url: `${site.origin}/slow`, limits })).rejects.toMatchObject({
      status: 408,
    });
  });

  it("rejects bad print settings before loading anything (454)", async () => {
    const n = site.requests.length;
    await expect(renderUrlToPdf({ url: `${site.origin}/hello`, paperSize: "B5" })).rejects.toMatchObject({
      status: 454,
    });
    await expect(renderUrlToPdf({ url: `${site.origin}/hello`, margins: "1 2 3 4 5" })).rejects.toMatchObject(
      { status: 454 },
    );
    await expect(
      renderUrlToPdf({ url: `${site.origin}/hello`, margins: "6in", paperSize: "A6" }),
    ).rejects.toMatchObject({ status: 454 });
    expect(site.requests.length).toBe(n);
  });

  it("the next job's context and page are opened ahead of it, fresh: nothing of the previous job is in them", async () => {
    const pool = new BrowserPool({ maxConcurrent: 1, maxJobsPerBrowser: 10, launchTimeoutMs: 30_000 });
    try {
      const opts = { javaScriptEnabled: true };
      const first = await pool.withContext(opts, Date.now() + 30_000, async ({ context, page }) => {
        // The pool's browser reaches no network by itself: the job serves its own page.
        await context.route("**/*", (r) => r.fulfill({ body: "<p>x</p>", contentType: "text/html" }));
        const p = page ?? (await context.newPage());
        await p.goto("http://quire.test/");
        await p.evaluate(() => localStorage.setItem("secret", "job one"));
        await context.addCookies([{ name: "session", value: "job-one", url: "http://quire.test/" }]);
        return { context, hadSpare: !!page };
      });
      expect(first.hadSpare).toBe(false); // a new pool has no spare yet
      await new Promise((r) => setTimeout(r, 1500)); // the spare opens in the background
      const second = await pool.withContext(opts, Date.now() + 30_000, async ({ context, page }) => {
        expect(page).toBeDefined();
        expect(page!.url()).toBe("about:blank");
        expect(context).not.toBe(first.context);
        await context.route("**/*", (r) => r.fulfill({ body: "<p>x</p>", contentType: "text/html" }));
        await page!.goto("http://quire.test/");
        return { stored: await page!.evaluate(() => localStorage.getItem("secret")), cookies: await context.cookies() };
      });
      expect(second.stored).toBeNull();
      expect(second.cookies).toEqual([]);
      // Other options: no spare of theirs, a new context.
      const other = await pool.withContext({ javaScriptEnabled: false }, Date.now() + 30_000, async ({ page }) => !!page);
      expect(other).toBe(false);
    } finally {
      await pool.shutdown();
    }
  });

  it("the pool queues jobs beyond its limit and restarts the browser after N jobs or a crash", async () => {
    const pool = new BrowserPool({ maxConcurrent: 1, maxJobsPerBrowser: 2, launchTimeoutMs: 30_000 });
    try {
      let active = 0;
      let peak = 0;
      const job = () =>
        pool.withContext({}, Date.now() + 30_000, async ({ context }) => {
          active++;
          peak = Math.max(peak, active);
          const p = await context.newPage();
          await p.setContent("<p>x</p>");
          await new Promise((r) => setTimeout(r, 50));
          active--;
          return context.browser()!;
        });
      const browsers = await Promise.all([job(), job(), job()]);
      expect(peak).toBe(1);
      expect(browsers[0]).toBe(browsers[1]);
      expect(browsers[2]).not.toBe(browsers[0]); // restarted after 2 jobs
      expect(pool.stats().generations).toBe(2);
      // A crash (the browser dies under a job) → the next job gets a fresh browser.
      await pool
        .withContext({}, Date.now() + 30_000, async ({ context }) => context.browser()!.close())
        .catch(() => {});
      const next = await job();
      expect(next.isConnected()).toBe(true);
      expect(pool.stats().generations).toBe(3);
      // The page path through a private pool works too.
      const { pdf } = await renderUrlToPdf({ url: `${site.origin}/hello`, pool });
      expect(readPdf(pdf).pageCount).toBe(1);
    } finally {
      await pool.shutdown();
    }
  });

  it("without Chromium the call fails with a message that says what to install", async () => {
    const saved = process.env.CHROMIUM_PATH;
    process.env.CHROMIUM_PATH = "/nonexistent/chromium";
    const pool = new BrowserPool({ maxConcurrent: 1, maxJobsPerBrowser: 10, launchTimeoutMs: 5000 });
    try {
      await expect(renderUrlToPdf({ url: `${site.origin}/hello`, pool })).rejects.toMatchObject({
        status: 500,
        message: expect.stringContaining("CHROMIUM_PATH"),
      });
    } finally {
      if (saved === undefined) delete process.env.CHROMIUM_PATH;
      else process.env.CHROMIUM_PATH = saved;
      await pool.shutdown();
    }
  });

  it("the pdf-convert-from-url runner writes result.pdf and reports its page count", async () => {
    const tmp = makeTempDir();
    try {
      const result = await run({
        params: {
          url: `${site.origin}/long`,
          paperSize: "A4",
          name: "report",
          footer: '<span class="pageNumber"></span>',
        },
        sources: [],
        workDir: tmp.dir,
        fetchUrl: async () => {
          throw new Error("not used");
        },
        log: () => {},
      });
      expect(result.outputs?.[0].name).toBe("report.pdf");
      expect(result.outputs?.[0].contentType).toBe("application/pdf");
      const info = readPdf(fs.readFileSync(result.outputs![0].path));
      expect(result.pageCount).toBe(info.pageCount);
      expect(info.pageCount).toBeGreaterThan(1);
    } finally {
      tmp.cleanup();
    }
  });
});
