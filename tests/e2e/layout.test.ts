import { afterAll, beforeAll, describe, expect, it, onTestFailed } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { launchChromium, newContext, seriousAxeViolations, shoot, signIn } from "./helpers/browser";
import { startDashboardServer, type DashboardServer } from "./helpers/start-server";

/**
 * The dashboard on a phone (390×844) and a desktop (1440×900), for an account with a history:
 * 1,000 seeded jobs (and their ledger rows). No page is wider than the screen, the phone's
 * drawer works, lists load a page at a time, the ledger has a per-job view, operations are
 * grouped and searchable, and controls show the defaults the API applies.
 */
const SEEDED = 1000;
let srv: DashboardServer;
let browser: Browser;
const contexts: Record<"phone" | "desktop", { ctx: BrowserContext; page: Page }> = {} as never;

const PAGES = ["/", "/jobs", "/jobs/seed-0000001", "/jobs/no-such-job-0000", "/credits", "/keys", "/settings", "/rules", "/invoices", "/operations", "/operations/pdf-split", "/operations/pdf-edit-add", "/operations/pdf-classifier", "/files", "/templates", "/operations/pdf-documentparser"];

function screenshotOnFailure(page: () => Page, name: string) {
  onTestFailed(async () => {
    console.error("screenshot:", await shoot(page(), `failed-${name}`).catch(() => "(none)"));
  });
}

/** Elements sticking out to the right of the viewport (what makes a phone zoom out). */
async function overflow(page: Page) {
  return page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth,
    wide: [...document.querySelectorAll("body *")]
      .filter((e) => e.getBoundingClientRect().right > innerWidth + 1 && getComputedStyle(e).position !== "fixed")
      .filter((e) => !e.closest(".table-scroll, .overflow-x-auto, .overflow-auto"))
      .slice(0, 5)
      .map((e) => `${e.tagName.toLowerCase()}.${String(e.className).slice(0, 50)}`),
  }));
}

beforeAll(async () => {
  srv = await startDashboardServer();
  if (srv.server) {
    await srv.server.kill("SIGTERM");
    const seeded = await srv.server.script("tests/helpers/seed-history.ts", [String(SEEDED)]);
    expect(seeded.code, seeded.out).toBe(0);
    await srv.server.restart();
  }
  browser = await launchChromium();
  for (const [name, size] of [["phone", { width: 390, height: 844 }], ["desktop", { width: 1440, height: 900 }]] as const) {
    const ctx = await newContext(browser, size);
    const page = await ctx.newPage();
    await signIn(page, srv.url, srv.email, srv.password);
    contexts[name] = { ctx, page };
  }
}, 900_000);

afterAll(async () => {
  await browser?.close();
  await srv?.stop();
});

describe("dashboard layout (Chromium, 390×844 and 1440×900)", () => {
  for (const size of ["phone", "desktop"] as const) {
    it(`no page is wider than the ${size} screen, and none has serious axe violations`, async () => {
      const { page } = contexts[size];
      screenshotOnFailure(() => page, `layout-${size}`);
      const wide: Record<string, unknown> = {};
      const axe: Record<string, unknown> = {};
      for (const p of PAGES) {
        await page.goto(srv.url + p);
        await page.waitForLoadState("networkidle");
        const o = await overflow(page);
        if (o.scrollWidth > o.innerWidth) wide[p] = o;
        const v = await seriousAxeViolations(page);
        if (v.length) axe[p] = v;
        await shoot(page, `${size}${p === "/" ? "-home" : p}`);
      }
      expect(wide).toEqual({});
      expect(axe).toEqual({});
    });
  }

  it("phone: the menu opens a full-height drawer whose links are visible and work", async () => {
    const { page } = contexts.phone;
    screenshotOnFailure(() => page, "drawer");
    await page.goto(`${srv.url}/jobs`);
    await page.getByRole("button", { name: "Open navigation" }).click();
    const drawer = page.getByRole("dialog", { name: "Navigation" });
    await drawer.waitFor();
    const box = (await drawer.boundingBox())!;
    expect(box.height).toBeGreaterThanOrEqual(800);
    const credits = drawer.getByRole("link", { name: "Credits" });
    // The drawer scrolls when its links are taller than the screen: the last ones come into view.
    await credits.scrollIntoViewIfNeeded();
    const link = (await credits.boundingBox())!;
    expect(link.y + link.height).toBeLessThanOrEqual(844);
    // The link is the element on top at its own centre: nothing covers it.
    const onTop = await page.evaluate(([x, y]) => document.elementFromPoint(x!, y!)?.closest("a")?.textContent, [link.x + link.width / 2, link.y + link.height / 2]);
    expect(onTop).toContain("Credits");
    await shoot(page, "phone-drawer", false);
    await credits.click();
    await page.waitForURL(/\/credits$/);
    await expect.poll(() => drawer.count()).toBe(0);
  });

  it(`jobs: ${SEEDED} seeded jobs page 50 at a time with "Load more"; a date filter narrows them; the CSV export has them all`, async () => {
    const { page } = contexts.desktop;
    screenshotOnFailure(() => page, "jobs-paging");
    await page.goto(`${srv.url}/jobs`);
    const rows = page.locator('[data-testid="jobs-table"] tbody tr');
    await expect.poll(() => rows.count(), { timeout: 20_000 }).toBe(50);
    await expect.poll(() => rows.first().textContent()).toContain("Split PDF"); // human names, not slugs (seed-0000001 is a split)
    const more = page.getByRole("button", { name: "Load more" });
    const started = performance.now();
    while (await more.isVisible()) {
      const before = await rows.count();
      await more.click();
      await expect.poll(() => rows.count(), { timeout: 20_000 }).toBeGreaterThan(before);
    }
    console.log(`${SEEDED} jobs paged in ${Math.round(performance.now() - started)} ms`);
    expect(await rows.count()).toBe(SEEDED);
    await expect.poll(() => page.locator('tr[data-job-id="seed-0001000"]').count()).toBe(1);
    // One whole day (UTC) three days back holds no seeded job at all (they span ~17 hours back from an hour ago).
    const day = new Date(Date.now() - 3 * 86400_000).toISOString().slice(0, 10);
    await page.getByLabel("From").fill(day);
    await page.getByLabel("to", { exact: true }).fill(day);
    await expect.poll(() => page.getByText("No jobs match").count(), { timeout: 20_000 }).toBe(1);
    const csv = await page.request.get(`${srv.url}/api/export/jobs`);
    expect(csv.headers()["content-type"]).toMatch(/text\/csv/);
    const lines = (await csv.text()).trim().split(/\r\n/);
    expect(lines[0]).toMatch(/^job_id,operation,status,created_at/);
    expect(lines.length - 1).toBe(SEEDED);
  });

  it("credits: the ledger's per-job view nets reserve, capture and release; entries show the balance after each", async () => {
    const { page } = contexts.desktop;
    screenshotOnFailure(() => page, "ledger");
    await page.goto(`${srv.url}/credits`);
    const entries = page.getByTestId("ledger-table");
    await expect.poll(() => entries.locator("tbody tr").count(), { timeout: 20_000 }).toBe(50);
    const text = await entries.textContent();
    expect(text).toContain("Released");
    expect(text).not.toMatch(/\brelease\b/);
    await page.getByRole("button", { name: "Per job" }).click();
    const failed = page.locator('tr[data-ledger-job="seed-0000010"]');
    await failed.waitFor({ timeout: 20_000 });
    expect(await failed.locator("[data-net]").textContent()).toBe("0");
    expect(await page.locator('tr[data-ledger-job="seed-0000011"] [data-net]').textContent()).toBe("2");
    await shoot(page, "desktop-credits-per-job");
  });

  it("operations are grouped by category and found by search", async () => {
    const { page } = contexts.desktop;
    screenshotOnFailure(() => page, "catalog");
    await page.goto(`${srv.url}/operations`);
    const catalog = page.getByTestId("operation-catalog");
    for (const heading of ["Info", "Extract", "Convert", "Organise", "Secure"]) await catalog.getByRole("heading", { name: new RegExp(`^${heading}`) }).waitFor();
    await page.getByLabel("Search operations").fill("rotate");
    await expect.poll(() => catalog.getByRole("link").allTextContents()).toEqual([expect.stringContaining("Rotate pages"), expect.stringContaining("Auto-rotate pages")]);
    await page.getByLabel("Search operations").fill("/v1/pdf/split");
    await expect.poll(() => catalog.getByRole("link").count()).toBeGreaterThanOrEqual(1);
    // The sidebar's filter finds it too, and opens its category.
    await page.getByLabel("Find an operation").fill("password");
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Add password and permissions" }).waitFor();
  });

  it("boolean controls show the API's default: the classifier's case sensitivity is on, in its form and in the rules tester", async () => {
    const { page } = contexts.desktop;
    await page.goto(`${srv.url}/operations/pdf-classifier`);
    expect(await page.getByLabel("Case sensitive", { exact: true }).isChecked()).toBe(true);
    await page.goto(`${srv.url}/rules`);
    expect(await page.getByLabel("Case-sensitive keywords").isChecked()).toBe(true);
  });

  it("an unknown job id says so; /favicon.ico is an icon", async () => {
    const { page } = contexts.desktop;
    await page.goto(`${srv.url}/jobs/no-such-job-0000`);
    await page.getByTestId("no-such-job").waitFor({ timeout: 20_000 });
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("No such job");
    const icon = await page.request.get(`${srv.url}/favicon.ico`);
    expect(icon.status()).toBe(200);
    expect(icon.headers()["content-type"]).toMatch(/icon/);
  });
});
