import "server-only";
import { envNumber } from "@/lib/core/config";
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from "playwright-core";
import { QuireError } from "@/lib/core/errors";
import { openBlackhole, type Blackhole } from "./blackhole-proxy";
import { requireChromium } from "./chromium-path";

/**
 * One warm Chromium per process, a fresh incognito context per job, at most `maxConcurrent`
 * jobs at a time (the rest wait in a FIFO queue), and a new browser after `maxJobsPerBrowser`
 * jobs or as soon as the old one crashes or disconnects. Memory leaks and a page that wedges
 * the renderer therefore cost at most one browser generation.
 *
 * Opening a page (a renderer process) is the largest part of printing a simple page, so after
 * each job the pool opens the next job's context and blank page ahead of time, with the options
 * of the job just done. The spare has loaded nothing and is used by one job only; a job with
 * other options, or of another browser generation, gets a new context as before.
 */
export interface BrowserPoolOptions {
  maxConcurrent: number;
  maxJobsPerBrowser: number;
  launchTimeoutMs: number;
}

/** Defaults from env: BROWSER_CONCURRENCY (2), BROWSER_RESTART_AFTER (50 jobs), BROWSER_LAUNCH_TIMEOUT_MS (30 s). */
function browserPoolOptionsFromEnv(): BrowserPoolOptions {
  return {
    maxConcurrent: envNumber("BROWSER_CONCURRENCY", 2),
    maxJobsPerBrowser: envNumber("BROWSER_RESTART_AFTER", 50),
    launchTimeoutMs: envNumber("BROWSER_LAUNCH_TIMEOUT_MS", 30_000),
  };
}

/** Flags for a headless, quiet Chromium that phones nowhere on its own. */
const chromiumArgs = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-domain-reliability",
  "--disable-breakpad",
  "--disable-features=Translate,OptimizationHints,MediaRouter,DialMediaRouteProvider,InterestFeedContentSuggestions,AutofillServerCommunication,CertificateTransparencyComponentUpdater",
  "--no-first-run",
  "--no-default-browser-check",
  "--no-pings",
  "--metrics-recording-only",
  "--mute-audio",
  "--disable-dev-shm-usage",
  // No UDP: WebRTC's ICE agent (STUN/TURN, connectivity checks) and QUIC/WebTransport open
  // sockets the request router never sees. With a proxy set, "disable_non_proxied_udp" leaves
  // WebRTC only TCP through the proxy, which is a dead end; the init script below also removes
  // the APIs from every page, and QUIC is off.
  "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
  "--webrtc-ip-handling-policy=disable_non_proxied_udp",
  "--enforce-webrtc-ip-permission-check",
  "--disable-quic",
];

/**
 * Runs before any script of every page and frame of a job's context: removes the browser APIs
 * that talk to the network outside HTTP(S) requests (WebRTC, WebTransport), so a printed page
 * cannot send a single UDP packet even if a flag above stops working in a future Chromium.
 */
export const noRawNetworkScript = `(() => {
  const names = [
    "RTCPeerConnection", "webkitRTCPeerConnection", "RTCDataChannel", "RTCSessionDescription",
    "RTCIceCandidate", "RTCRtpSender", "RTCRtpReceiver", "RTCRtpTransceiver", "RTCDtlsTransport",
    "RTCIceTransport", "RTCSctpTransport", "RTCCertificate", "RTCPeerConnectionIceEvent",
    "RTCDataChannelEvent", "RTCTrackEvent", "WebTransport", "WebTransportError", "WebTransportBidirectionalStream",
    "WebTransportDatagramDuplexStream", "DirectSocket", "TCPSocket", "UDPSocket", "TCPServerSocket"
  ];
  for (const name of names) {
    try { delete globalThis[name]; } catch (e) {}
    try { Object.defineProperty(globalThis, name, { value: undefined, writable: false, configurable: false }); } catch (e) {}
  }
  try {
    if (navigator.mediaDevices) Object.defineProperty(navigator, "mediaDevices", { value: undefined, configurable: false });
  } catch (e) {}
})();`;

interface Generation {
  id: number;
  browser: Browser;
  blackhole: Blackhole;
  jobs: number;
  active: number;
  retiring: boolean;
}

/** A browser context leased to one job; `crashed()` tells whether the browser died under it. */
export interface Lease {
  context: BrowserContext;
  /** A blank page of the context opened ahead of the job (the job opens its own when absent). */
  page?: Page;
  crashed(): boolean;
}

interface SpareContext {
  gen: Generation;
  key: string;
  ready: Promise<{ context: BrowserContext; page: Page } | undefined>;
}

export class BrowserPool {
  private live: Generation | undefined;
  private launching: Promise<Generation> | undefined;
  private running = 0;
  private readonly waiting: Array<() => void> = [];
  private generations = 0;
  private closed = false;
  private spare: SpareContext | undefined;

  constructor(private readonly options: BrowserPoolOptions) {}

  /** Jobs running now and jobs queued behind them (for logs and tests). */
  stats() {
    return { running: this.running, queued: this.waiting.length, generations: this.generations };
  }

  /**
   * Runs `job` with a fresh context of the warm browser, once a slot is free. The context is
   * closed afterwards whatever happens; `deadline` (epoch ms) bounds the wait in the queue.
   */
  async withContext<T>(
    contextOptions: BrowserContextOptions,
    deadline: number,
    job: (lease: Lease) => Promise<T>,
  ): Promise<T> {
    if (this.closed) throw new QuireError(500, "The browser pool is shut down.");
    await this.takeSlot(deadline);
    let generation: Generation | undefined;
    let context: BrowserContext | undefined;
    let page: Page | undefined;
    try {
      for (let attempt = 0; ; attempt++) {
        generation = await this.generation();
        generation.jobs++;
        generation.active++;
        if (generation.jobs >= this.options.maxJobsPerBrowser) this.retire(generation);
        try {
          const spare = await this.takeSpare(generation, contextOptions);
          if (spare) {
            ({ context, page } = spare);
            break;
          }
          context = await generation.browser.newContext(contextOptions);
          await context.addInitScript({ content: noRawNetworkScript });
          break;
        } catch (e) {
          // The browser died between jobs: retire it and try once more with a fresh one.
          generation.active--;
          this.retire(generation);
          generation = undefined;
          if (attempt >= 1) throw e;
        }
      }
      const gen = generation;
      return await job({ context, page, crashed: () => !gen.browser.isConnected() });
    } finally {
      await context?.close().catch(() => {});
      if (generation) {
        generation.active--;
        if (generation.retiring && generation.active === 0) void this.dispose(generation);
        else this.prepareSpare(generation, contextOptions);
      }
      this.releaseSlot();
    }
  }

  /** Opens the next job's context and blank page in the background (one spare at a time). */
  private prepareSpare(gen: Generation, contextOptions: BrowserContextOptions): void {
    if (this.closed || gen.retiring || !gen.browser.isConnected()) return;
    const key = JSON.stringify(contextOptions);
    if (this.spare) {
      if (this.spare.gen === gen && this.spare.key === key) return;
      this.dropSpare();
    }
    const ready = (async () => {
      const context = await gen.browser.newContext(contextOptions);
      try {
        await context.addInitScript({ content: noRawNetworkScript });
        return { context, page: await context.newPage() };
      } catch (e) {
        await context.close().catch(() => {});
        throw e;
      }
    })().catch(() => undefined);
    this.spare = { gen, key, ready };
  }

  /** The spare for a job of `gen` with these options (taken: it serves this job only). */
  private async takeSpare(gen: Generation, contextOptions: BrowserContextOptions) {
    const spare = this.spare;
    if (!spare || spare.gen !== gen || spare.key !== JSON.stringify(contextOptions)) return undefined;
    this.spare = undefined;
    const got = await spare.ready;
    if (got && gen.browser.isConnected() && !got.page.isClosed()) return got;
    await got?.context.close().catch(() => {});
    return undefined;
  }

  private dropSpare(): void {
    const spare = this.spare;
    this.spare = undefined;
    void spare?.ready.then((got) => got?.context.close().catch(() => {}));
  }

  /** Closes the browser and refuses new jobs (process shutdown, tests). */
  async shutdown(): Promise<void> {
    this.closed = true;
    this.dropSpare();
    const gen = this.live ?? (await this.launching?.catch(() => undefined));
    this.live = undefined;
    if (gen) await this.dispose(gen);
    for (const wake of this.waiting.splice(0)) wake();
  }

  private takeSlot(deadline: number): Promise<void> {
    if (this.running < this.options.maxConcurrent) {
      this.running++;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const wake = () => {
        clearTimeout(timer);
        if (this.closed) return reject(new QuireError(500, "The browser pool is shut down."));
        this.running++;
        resolve();
      };
      const timer = setTimeout(
        () => {
          const i = this.waiting.indexOf(wake);
          if (i >= 0) this.waiting.splice(i, 1);
          reject(
            new QuireError(
              408,
              "The server is busy rendering other web pages; the job timed out in the queue. Try again later.",
            ),
          );
        },
        Math.max(0, deadline - Date.now()),
      );
      this.waiting.push(wake);
    });
  }

  private releaseSlot(): void {
    this.running--;
    const next = this.waiting.shift();
    if (next) next();
  }

  /** The live browser generation, launching one when there is none or the last one died. */
  private generation(): Promise<Generation> {
    const live = this.live;
    if (live && !live.retiring && live.browser.isConnected()) return Promise.resolve(live);
    if (live) this.retire(live);
    if (!this.launching) {
      const launching: Promise<Generation> = this.launch()
        .then((gen) => {
          if (this.closed) {
            void this.dispose(gen);
            throw new QuireError(500, "The browser pool is shut down.");
          }
          this.live = gen;
          return gen;
        })
        .finally(() => {
          if (this.launching === launching) this.launching = undefined;
        });
      this.launching = launching;
    }
    return this.launching;
  }

  private async launch(): Promise<Generation> {
    const executablePath = requireChromium();
    const blackhole = await openBlackhole();
    let browser: Browser;
    try {
      browser = await chromium.launch({
        executablePath,
        args: chromiumArgs,
        // SOCKS to a dead end: Chromium then also stops resolving host names itself.
        proxy: { server: blackhole.server },
        timeout: this.options.launchTimeoutMs,
        handleSIGINT: false,
        handleSIGTERM: false,
        handleSIGHUP: false,
      });
    } catch (e) {
      await blackhole.close();
      const why = (e as Error).message?.split("\n")[0] ?? String(e);
      throw new QuireError(
        500,
        `Web page conversion is unavailable: Chromium at ${executablePath} failed to start (${why}).`,
      );
    }
    const gen: Generation = {
      id: ++this.generations,
      browser,
      blackhole,
      jobs: 0,
      active: 0,
      retiring: false,
    };
    browser.on("disconnected", () => {
      // A crash: the next job launches a fresh browser.
      this.retire(gen);
      void gen.blackhole.close();
    });
    return gen;
  }

  private retire(gen: Generation): void {
    gen.retiring = true;
    if (this.spare?.gen === gen) this.dropSpare();
    if (this.live === gen) this.live = undefined;
    if (gen.active === 0) void this.dispose(gen);
  }

  private async dispose(gen: Generation): Promise<void> {
    gen.retiring = true;
    await gen.browser.close().catch(() => {});
    await gen.blackhole.close().catch(() => {});
  }
}

const key = Symbol.for("quire.browserPool");
type WithPool = typeof globalThis & { [key]?: BrowserPool };

/** The process-wide pool (kept on globalThis so dev reloads and tests share one browser). */
export function getBrowserPool(): BrowserPool {
  const g = globalThis as WithPool;
  g[key] ??= new BrowserPool(browserPoolOptionsFromEnv());
  return g[key];
}

/** Shuts the process-wide pool down; the next getBrowserPool() starts a new one. */
export async function shutdownBrowserPool(): Promise<void> {
  const g = globalThis as WithPool;
  const pool = g[key];
  g[key] = undefined;
  await pool?.shutdown();
}
