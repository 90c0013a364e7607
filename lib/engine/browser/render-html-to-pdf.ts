import "server-only";
import { QuireError, isQuireError, toQuireError } from "@/lib/core/errors";
import { getBrowserPool, type BrowserPool } from "./browser-pool";
import { routeThroughEgress } from "./egress-router";
import { renderLimitsFromEnv, type RenderLimits } from "./render-url-to-pdf";

/** An HTML document (not a URL) printed to PDF in a fresh context of the warm browser. */
export interface RenderHtmlOptions {
  html: string;
  landscape?: boolean;
  /**
   * Let the document load its images, styles and fonts through the egress guard (an uploaded
   * HTML file). Off, every request is refused: the HTML is self-contained (one Quire made).
   */
  allowNetwork?: boolean;
  limits?: Partial<RenderLimits>;
  pool?: BrowserPool;
  log?: (line: string) => void;
}

/**
 * Prints HTML on A4 with 12 mm margins and backgrounds, as a browser's "Save as PDF" does.
 * Time and byte limits are those of web page → PDF (WEBPAGE_TIMEOUT_MS...); over time → 408.
 */
export async function renderHtmlToPdf(opts: RenderHtmlOptions): Promise<Buffer> {
  const limits = { ...renderLimitsFromEnv(), ...opts.limits };
  const deadline = Date.now() + limits.totalTimeoutMs;
  const log = opts.log ?? (() => {});
  const pool = opts.pool ?? getBrowserPool();
  const contextOptions = {
    serviceWorkers: "block" as const,
    acceptDownloads: false,
    javaScriptEnabled: opts.allowNetwork === true,
    locale: "en-US",
    viewport: { width: 1280, height: 800 },
  };
  return pool
    .withContext(contextOptions, deadline, async ({ context, page: blank, crashed }) => {
      const jobAbort = new AbortController();
      let timer: NodeJS.Timeout | undefined;
      try {
        if (opts.allowNetwork) {
          await routeThroughEgress(context, {
            deadline,
            requestTimeoutMs: limits.requestTimeoutMs,
            maxResponseBytes: limits.maxResponseBytes,
            maxTotalBytes: limits.maxTotalBytes,
            maxRequests: limits.maxRequests,
            signal: jobAbort.signal,
            log,
          });
        } else {
          await context.route("**/*", (route) => {
            const url = route.request().url();
            return url.startsWith("data:") ? route.continue().catch(() => {}) : route.abort("blockedbyclient").catch(() => {});
          });
        }
        const page = blank ?? (await context.newPage());
        page.on("dialog", (d) => void d.dismiss().catch(() => {}));
        const overall = new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => {
              jobAbort.abort();
              reject(new QuireError(408, `converting the document took longer than ${Math.round(limits.totalTimeoutMs / 1000)} s.`));
              void context.close().catch(() => {});
            },
            Math.max(0, deadline - Date.now()),
          );
        });
        const print = async () => {
          await page.emulateMedia({ media: "print" });
          await page.setContent(opts.html, { waitUntil: "load", timeout: Math.max(1000, Math.min(limits.loadTimeoutMs, deadline - Date.now())) });
          return page.pdf({
            format: "A4",
            landscape: opts.landscape ?? false,
            printBackground: true,
            margin: { top: "12mm", right: "12mm", bottom: "12mm", left: "12mm" },
          });
        };
        return await Promise.race([overall, print()]);
      } catch (e) {
        if (crashed()) throw new QuireError(500, "The browser crashed while printing the document; try again.");
        throw e;
      } finally {
        clearTimeout(timer);
        jobAbort.abort();
      }
    })
    .catch((e: unknown) => {
      if (isQuireError(e)) throw e;
      log(`html: unexpected failure: ${(e as Error)?.stack ?? String(e)}`);
      throw toQuireError(e);
    });
}
