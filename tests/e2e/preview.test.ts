import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDashboardServer, type DashboardServer } from "./helpers/start-server";
import { makePdf } from "@/tests/helpers/pdf-fixtures";
import { makeInflationBombPdf } from "@/tests/helpers/bomb-fixtures";

let srv: DashboardServer;
let cookie = "";

/** Signs in through next-auth's credentials flow and keeps the session cookie. */
async function signIn() {
  const jar = new Map<string, string>();
  const keep = (r: Response) => {
    for (const c of r.headers.getSetCookie()) {
      const [pair] = c.split(";");
      const i = pair.indexOf("=");
      jar.set(pair.slice(0, i), pair.slice(i + 1));
    }
  };
  const header = () => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
  const csrf = await fetch(`${srv.url}/api/auth/csrf`);
  keep(csrf);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const r = await fetch(`${srv.url}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: header(), "x-auth-return-redirect": "1" },
    body: new URLSearchParams({ csrfToken, email: srv.email, password: srv.password, json: "true" }),
  });
  keep(r);
  cookie = header();
  expect(cookie).toMatch(/session-token/);
}

async function upload(bytes: Buffer, name: string): Promise<string> {
  const pre = await fetch(`${srv.url}/v1/file/upload/get-presigned-url?name=${name}&contenttype=application/pdf`, { headers: { "x-api-key": srv.apiKey } });
  const { presignedUrl, url } = (await pre.json()) as { presignedUrl: string; url: string };
  expect((await fetch(presignedUrl, { method: "PUT", body: new Uint8Array(bytes) })).status).toBe(200);
  return url;
}

const preview = (url: string, query: string) => fetch(`${srv.url}/api/preview?url=${encodeURIComponent(url)}&${query}`, { headers: { cookie } });

beforeAll(async () => {
  srv = await startDashboardServer({ env: { PREVIEW_TIMEOUT_MS: "4000" } });
  await signIn();
});
afterAll(async () => srv?.stop());

describe("the dashboard's PDF preview runs in the sandbox", () => {
  it("page sizes and a page as PNG", async () => {
    const url = await upload(makePdf({ pages: 2 }), "two.pdf");
    const info = await preview(url, "info=1");
    expect(info.status).toBe(200);
    expect(await info.json()).toEqual({ pageCount: 2, pages: [{ width: 612, height: 792 }, { width: 612, height: 792 }] });
    const png = await preview(url, "page=1&dpi=48");
    expect(png.status).toBe(200);
    expect(png.headers.get("content-type")).toBe("image/png");
    const bytes = Buffer.from(await png.arrayBuffer());
    expect(bytes.subarray(1, 4).toString()).toBe("PNG");
    expect(bytes.readUInt32BE(16)).toBe(Math.ceil((612 * 48) / 72)); // width in the IHDR chunk
    expect((await preview(url, "page=5")).status).toBe(449);
  });

  it("a page that inflates to more than 1 GB answers 408/413 in time and never delays the API", async () => {
    const bomb = await makeInflationBombPdf(1200 * 1024 * 1024);
    expect(bomb.length).toBeLessThan(2 * 1024 * 1024);
    const url = await upload(bomb, "bomb.pdf");
    const started = Date.now();
    let done = false;
    const rendering = preview(url, "page=0").then(async (r) => {
      done = true;
      return { status: r.status, body: await r.json(), ms: Date.now() - started };
    });
    const latencies: number[] = [];
    while (!done) {
      const t = performance.now();
      const r = await fetch(`${srv.url}/v1/account/credit/balance`, { headers: { "x-api-key": srv.apiKey } });
      expect(r.status).toBe(200);
      await r.arrayBuffer();
      latencies.push(performance.now() - t);
      await new Promise((s) => setTimeout(s, 50));
    }
    const result = await rendering;
    expect([408, 413]).toContain(result.status);
    expect(result.body).toMatchObject({ error: true, status: result.status });
    expect(result.ms).toBeLessThan(4000 + 10_000);
    // The work budget refuses the bomb in about a second: a few calls are all that fit meanwhile.
    expect(latencies.length).toBeGreaterThan(0);
    const took = `balance calls took ${latencies.map(Math.round).join(", ")} ms`;
    const sorted = [...latencies].sort((a, b) => a - b);
    expect(sorted[Math.floor(sorted.length / 2)], took).toBeLessThan(100);
    expect(sorted[sorted.length - 1], took).toBeLessThan(500);
  }, 120_000);
});
