/**
 * The dashboard proxy's added latency: the same GET /v1/account/credit/balance called directly
 * with the API key and through /api/proxy with a session cookie (signed in through next-auth's
 * credentials endpoint), N sequential calls each (interleaved, after a warm-up), p50/p99 of
 * both and the difference, plus the proxy's own Server-Timing (proxy;dur, upstream;dur).
 * Run: npx tsx --import ./scripts/node-hooks.mjs bench/proxy.ts  (PROXY_N, default 300).
 * Starts its own server (tests/e2e/helpers/start-server.ts, builds when stale), or uses
 * E2E_BASE_URL + E2E_EMAIL + E2E_PASSWORD + E2E_API_KEY.
 */
import { startDashboardServer } from "../tests/e2e/helpers/start-server";

const N = Number(process.env.PROXY_N ?? 300);
const WARMUP = 30;

/** Signs in with email + password; returns the Cookie header of the session. */
async function sessionCookie(base: string, email: string, password: string): Promise<string> {
  const jar = new Map<string, string>();
  const keep = (res: Response) => {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(";");
      const i = pair!.indexOf("=");
      jar.set(pair!.slice(0, i), pair!.slice(i + 1));
    }
  };
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
  const csrfRes = await fetch(`${base}/api/auth/csrf`);
  keep(csrfRes);
  const { csrfToken } = (await csrfRes.json()) as { csrfToken: string };
  const res = await fetch(`${base}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookie(), origin: base },
    body: new URLSearchParams({ csrfToken, email, password, json: "true" }),
  });
  keep(res);
  if (![...jar.keys()].some((k) => k.includes("session-token"))) throw new Error(`sign-in failed (${res.status})`);
  return cookie();
}

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
}

const srv = await startDashboardServer();
try {
  if (!srv.apiKey) throw new Error("no API key: set E2E_API_KEY with E2E_BASE_URL");
  const cookie = await sessionCookie(srv.url, srv.email, srv.password);
  const directUrl = `${srv.url}/v1/account/credit/balance`;
  const proxyUrl = `${srv.url}/api/proxy/v1/account/credit/balance`;

  async function timed(url: string, headers: Record<string, string>): Promise<{ ms: number; timing: string }> {
    const t = performance.now();
    const res = await fetch(url, { headers });
    await res.arrayBuffer();
    const ms = performance.now() - t;
    if (res.status !== 200) throw new Error(`${url}: HTTP ${res.status}`);
    return { ms, timing: res.headers.get("server-timing") ?? "" };
  }

  for (let i = 0; i < WARMUP; i++) {
    await timed(directUrl, { "x-api-key": srv.apiKey });
    await timed(proxyUrl, { cookie });
  }
  const direct: number[] = [];
  const proxied: number[] = [];
  const own: number[] = [];
  const upstream: number[] = [];
  for (let i = 0; i < N; i++) {
    direct.push((await timed(directUrl, { "x-api-key": srv.apiKey })).ms);
    const p = await timed(proxyUrl, { cookie });
    proxied.push(p.ms);
    const m = /proxy;dur=([\d.]+)/.exec(p.timing);
    const u = /upstream;dur=([\d.]+)/.exec(p.timing);
    if (m) own.push(Number(m[1]));
    if (u) upstream.push(Number(u[1]));
  }
  const f = (n: number) => n.toFixed(2).padStart(8);
  console.log(`\nGET /v1/account/credit/balance, ${N} sequential calls each (interleaved, ${WARMUP} warm-up), loopback\n`);
  console.log("".padEnd(34), "p50 ms".padStart(8), "p99 ms".padStart(8));
  console.log("direct (x-api-key)".padEnd(34), f(pct(direct, 50)), f(pct(direct, 99)));
  console.log("through /api/proxy (session)".padEnd(34), f(pct(proxied, 50)), f(pct(proxied, 99)));
  console.log("added by the proxy".padEnd(34), f(pct(proxied, 50) - pct(direct, 50)), f(pct(proxied, 99) - pct(direct, 99)));
  if (own.length) console.log("Server-Timing proxy;dur".padEnd(34), f(pct(own, 50)), f(pct(own, 99)));
  if (upstream.length) console.log("Server-Timing upstream;dur".padEnd(34), f(pct(upstream, 50)), f(pct(upstream, 99)));
} finally {
  await srv.stop();
}
