import "server-only";
import { envNumber } from "@/lib/core/config";
import type { Page } from "playwright-core";
import { QuireError, isQuireError, toQuireError } from "@/lib/core/errors";
import { checkUrl, egressFetch, type EgressResponse } from "@/lib/egress";
import { getBrowserPool, type BrowserPool } from "./browser-pool";
import { routeThroughEgress, type EgressRouterState } from "./egress-router";
import { buildTemplate } from "./header-footer";
import { checkMarginsFit, parseMargins, parsePaperSize, type Margins } from "./print-options";

/** What to print and how (the public API's fields of /v1/pdf/convert/from/url, typed). */
export interface RenderUrlOptions {
  url: string;
  /**
   * Print this HTML instead of loading `url` (/v1/pdf/convert/from/html): the document is set as
   * the page's content, and everything it loads goes through the egress guard like a web page's.
   */
  html?: string;
  /** Run the page's scripts (default true; false for documents such as e-mails that must not run code). */
  javaScript?: boolean;
  margins?: string;
  paperSize?: string;
  orientation?: "Portrait" | "Landscape";
  printBackground?: boolean;
  mediaType?: "print" | "screen" | "none";
  doNotWaitFullLoad?: boolean;
  header?: string;
  footer?: string;
  /** profiles.CustomScript: JavaScript run in the page after it loads, before printing. */
  customScript?: string;
  limits?: Partial<RenderLimits>;
  /** A pool other than the process-wide one (tests). */
  pool?: BrowserPool;
  log?: (line: string) => void;
}

export interface RenderLimits {
  /** Navigation until load (or DOMContentLoaded with DoNotWaitFullLoad). */
  loadTimeoutMs: number;
  /** The whole job: queue, load, script and printing. */
  totalTimeoutMs: number;
  /** Extra wait for the network to go quiet after `load` (full-load mode). */
  settleMs: number;
  /** How long the network must stay quiet (no request in flight or starting) to count as idle. */
  idleMs: number;
  requestTimeoutMs: number;
  maxResponseBytes: number;
  maxTotalBytes: number;
  maxRequests: number;
}

export interface RenderUrlResult {
  pdf: Buffer;
  /** Final URL of the page and its title. */
  finalUrl: string;
  title: string;
  /** Requests the egress guard refused or that failed. */
  blocked: EgressRouterState["blocked"];
}

/** Limits from env: WEBPAGE_LOAD_TIMEOUT_MS (30 s), WEBPAGE_TIMEOUT_MS (90 s), WEBPAGE_MAX_BYTES (100 MiB), WEBPAGE_MAX_REQUESTS (1000). */
export function renderLimitsFromEnv(): RenderLimits {
  return {
    loadTimeoutMs: envNumber("WEBPAGE_LOAD_TIMEOUT_MS", 30_000),
    totalTimeoutMs: envNumber("WEBPAGE_TIMEOUT_MS", 90_000),
    settleMs: envNumber("WEBPAGE_SETTLE_MS", 5_000),
    idleMs: envNumber("WEBPAGE_IDLE_MS", 100),
    requestTimeoutMs: envNumber("WEBPAGE_REQUEST_TIMEOUT_MS", 30_000),
    maxResponseBytes: envNumber("WEBPAGE_MAX_RESPONSE_BYTES", 50 * 1024 * 1024),
    maxTotalBytes: envNumber("WEBPAGE_MAX_BYTES", 100 * 1024 * 1024),
    maxRequests: envNumber("WEBPAGE_MAX_REQUESTS", 1000),
  };
}

/** The browser's user agent, asked once per process (one round trip less per job). */
let userAgentOnce: Promise<string | undefined> | undefined;

/** Margins when the caller gives none: none at all, except room for a header or footer. */
function defaultMargins(hasHeader: boolean, hasFooter: boolean): Margins {
  const room = 0.5 * 96; // half an inch
  return { top: hasHeader ? room : 0, right: 0, bottom: hasFooter ? room : 0, left: 0 };
}

/**
 * Loads a web page in a fresh Chromium context whose every request goes through the egress
 * guard, and prints it to PDF with the caller's paper, margins, media type and header/footer.
 * Unreachable page → 400, forbidden address → 403, invalid URL → 452, load timeout → 408.
 */
export async function renderUrlToPdf(opts: RenderUrlOptions): Promise<RenderUrlResult> {
  const limits = { ...renderLimitsFromEnv(), ...opts.limits };
  const started = Date.now();
  const deadline = started + limits.totalTimeoutMs;
  const log = opts.log ?? (() => {});

  // Everything the caller can get wrong is checked before a browser is involved.
  const landscape = opts.orientation === "Landscape";
  const paper = parsePaperSize(opts.paperSize, landscape);
  const hasHeader = !!opts.header?.trim();
  const hasFooter = !!opts.footer?.trim();
  const margins = parseMargins(opts.margins, defaultMargins(hasHeader, hasFooter));
  checkMarginsFit(margins, paper);
  const checked = opts.html === undefined ? await checkUrl(opts.url, { field: "url" }) : undefined;
  const field = opts.html === undefined ? "url" : "html";

  const pool = opts.pool ?? getBrowserPool();
  const contextOptions = {
    serviceWorkers: "block" as const,
    acceptDownloads: false,
    javaScriptEnabled: opts.javaScript ?? true,
    locale: "en-US",
    viewport: { width: 1280, height: 800 },
  };

  return pool
    .withContext(contextOptions, deadline, async ({ context, page: blank, crashed }) => {
      const jobAbort = new AbortController();
      const state = await routeThroughEgress(context, {
        deadline,
        requestTimeoutMs: limits.requestTimeoutMs,
        maxResponseBytes: limits.maxResponseBytes,
        maxTotalBytes: limits.maxTotalBytes,
        maxRequests: limits.maxRequests,
        signal: jobAbort.signal,
        log,
      });
      // The egress routes above apply to the pages already open too (a spare page has loaded nothing).
      const page: Page = blank ?? (await context.newPage());
      // Popups and dialogs must not hold the job.
      context.on("page", (p) => {
        if (p !== page) void p.close().catch(() => {});
      });
      page.on("dialog", (d) => void d.dismiss().catch(() => {}));

      let timer: NodeJS.Timeout | undefined;
      const overall = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => {
            jobAbort.abort();
            reject(
              new QuireError(
                408,
                `${field}: converting the page took longer than ${Math.round(limits.totalTimeoutMs / 1000)} s.`,
              ),
            );
            void context.close().catch(() => {});
          },
          Math.max(0, deadline - Date.now()),
        );
      });
      try {
        return await Promise.race([overall, printPage()]);
      } catch (e) {
        if (crashed()) throw new QuireError(500, "The browser crashed while rendering the page; try again.");
        throw e;
      } finally {
        clearTimeout(timer);
        jobAbort.abort();
      }

      function throwIfNavigationFailed(): void {
        if (state.navigationError) throw state.navigationError;
        if (/^chrome-error:/i.test(page.url()))
          throw new QuireError(400, "url: the page navigated to an address that could not be loaded.");
      }

      async function printPage(): Promise<RenderUrlResult> {
        if (opts.mediaType === "screen") await page.emulateMedia({ media: "screen" });
        else if (opts.mediaType === "print" || opts.mediaType === undefined)
          await page.emulateMedia({ media: "print" });

        const loadTimeout = Math.min(limits.loadTimeoutMs, deadline - Date.now());
        const loadDeadline = Date.now() + loadTimeout;
        if (opts.html !== undefined || !checked) {
          await setHtml(opts.html ?? "", loadTimeout);
          return finish();
        }
        // The page itself is fetched first, through the guard, following (and checking) its
        // redirects: the browser then navigates straight to the final URL, so relative links
        // resolve as they would for a visitor, and an unreachable or failing page is a clear error.
        userAgentOnce ??= page
          .evaluate(() => navigator.userAgent)
          .catch(() => undefined)
          .then((ua) => {
            if (!ua) userAgentOnce = undefined; // asked again next time
            return ua;
          });
        const userAgent = await userAgentOnce;
        let first: EgressResponse;
        try {
          first = await egressFetch(checked.url.href, {
            headers: {
              ...(userAgent ? { "user-agent": userAgent } : {}),
              accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
              "accept-language": "en-US,en;q=0.9",
            },
            maxRedirects: 10,
            maxBytes: limits.maxResponseBytes,
            timeoutMs: Math.min(loadTimeout, limits.requestTimeoutMs),
            signal: jobAbort.signal,
            field: "url",
          });
        } catch (e) {
          const error = toQuireError(e);
          if (error.status === 408) {
            throw new QuireError(
              408,
              `url: the page did not answer within ${Math.round(Math.min(loadTimeout, limits.requestTimeoutMs) / 1000)} s.`,
            );
          }
          throw error;
        }
        state.prime(first.finalUrl, first);
        try {
          await page.goto(first.finalUrl, {
            waitUntil: opts.doNotWaitFullLoad ? "domcontentloaded" : "load",
            timeout: Math.max(1000, loadDeadline - Date.now()),
          });
        } catch (e) {
          if (state.navigationError) throw state.navigationError;
          if (isQuireError(e)) throw e;
          const message = (e as Error).message ?? "";
          if (/Timeout .*exceeded/i.test(message)) {
            throw new QuireError(
              408,
              `url: the page did not finish loading within ${Math.round(loadTimeout / 1000)} s` +
                (opts.doNotWaitFullLoad
                  ? "."
                  : "; set DoNotWaitFullLoad to print it without waiting for every resource."),
            );
          }
          log(`web page: navigation failed: ${message.split("\n")[0]}`);
          throw new QuireError(400, `url: the page could not be loaded (${firstLine(message)}).`);
        }

        return finish();
      }

      async function setHtml(html: string, loadTimeout: number): Promise<void> {
        try {
          await page.setContent(html, {
            waitUntil: opts.doNotWaitFullLoad ? "domcontentloaded" : "load",
            timeout: Math.max(1000, loadTimeout),
          });
        } catch (e) {
          if (isQuireError(e)) throw e;
          const message = (e as Error).message ?? "";
          if (/Timeout .*exceeded/i.test(message)) {
            throw new QuireError(
              408,
              `html: the document did not finish loading within ${Math.round(loadTimeout / 1000)} s` +
                (opts.doNotWaitFullLoad ? "." : "; set DoNotWaitFullLoad to print it without waiting for every resource."),
            );
          }
          throw new QuireError(400, `html: the document could not be loaded (${firstLine(message)}).`);
        }
      }

      async function finish(): Promise<RenderUrlResult> {
        if (!opts.doNotWaitFullLoad) {
          const settle = Math.min(limits.settleMs, deadline - Date.now() - 1000);
          if (settle > 0) await waitForQuiet(state, limits.idleMs, settle);
        }
        await waitForFonts(page, Math.min(3000, deadline - Date.now()));

        if (opts.customScript?.trim()) {
          try {
            await page.evaluate(opts.customScript);
          } catch (e) {
            if (crashed()) throw e;
            throw new QuireError(
              454,
              `profiles.CustomScript: the script failed in the page: ${firstLine((e as Error).message ?? String(e))}`,
            );
          }
          if (!opts.doNotWaitFullLoad) {
            const settle = Math.min(limits.settleMs, deadline - Date.now() - 1000);
            if (settle > 0) await waitForQuiet(state, limits.idleMs, settle);
          }
        }

        // The page may have navigated itself (a script, a meta refresh) after loading: a refused
        // address, or the browser's own error page, must not be printed and charged as a success.
        throwIfNavigationFailed();

        const displayHeaderFooter = hasHeader || hasFooter;
        const pdf = await page.pdf({
          width: `${paper.width}px`,
          height: `${paper.height}px`,
          landscape: false, // already applied to width/height
          printBackground: opts.printBackground ?? true,
          preferCSSPageSize: false,
          margin: {
            top: `${margins.top}px`,
            right: `${margins.right}px`,
            bottom: `${margins.bottom}px`,
            left: `${margins.left}px`,
          },
          displayHeaderFooter,
          headerTemplate: displayHeaderFooter ? buildTemplate(opts.header, margins) : undefined,
          footerTemplate: displayHeaderFooter ? buildTemplate(opts.footer, margins) : undefined,
        });
        throwIfNavigationFailed();
        const title = await page.title().catch(() => "");
        log(
          `web page: printed ${page.url().slice(0, 200)} in ${Date.now() - started} ms (${state.requests} requests, ${state.blocked.length} refused)`,
        );
        return { pdf, finalUrl: page.url(), title, blocked: state.blocked };
      }
    })
    .catch((e: unknown) => {
      if (isQuireError(e)) throw e;
      log(`web page: unexpected failure: ${(e as Error)?.stack ?? String(e)}`);
      throw toQuireError(e);
    });
}

/**
 * Waits until no request of the page has been in flight for `idleMs` (at most `timeoutMs`), from
 * the egress router's own counters: Playwright's "networkidle" always costs 500 ms, even for a
 * page that finished loading everything before `load`.
 */
async function waitForQuiet(state: EgressRouterState, idleMs: number, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const now = Date.now();
    if (now >= until) return;
    const quietFor = now - state.lastActivity;
    if (state.inFlight === 0 && quietFor >= idleMs) return;
    await new Promise((r) => setTimeout(r, Math.min(until - now, state.inFlight === 0 ? idleMs - quietFor : 25)));
  }
}

async function waitForFonts(page: Page, timeoutMs: number): Promise<void> {
  if (timeoutMs <= 0) return;
  await Promise.race([
    page.evaluate(() => document.fonts.ready.then(() => undefined)).catch(() => {}),
    new Promise((r) => setTimeout(r, timeoutMs)),
  ]);
}

function firstLine(message: string): string {
  return message
    .split("\n")[0]
    .replace(/^page\.\w+: /, "")
    .slice(0, 200);
}
