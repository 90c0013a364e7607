import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { launchChromium, newContext, seriousAxeViolations, shoot, signIn } from "./helpers/browser";
import { startDashboardServer, type DashboardServer } from "./helpers/start-server";

/**
 * In Chromium: the Files page (upload, list, make public, copy link, delete) and the barcode
 * operations' results (the generated image shown; the barcodes read listed in a table).
 */

let srv: DashboardServer;
let browser: Browser;
let ctx: BrowserContext;
let page: Page;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "quire-e2e-files-"));
const file = path.join(tmp, "notes-for-files-page.txt");

beforeAll(async () => {
  fs.writeFileSync(file, "files page e2e\n");
  srv = await startDashboardServer();
  browser = await launchChromium();
  ctx = await newContext(browser);
  await ctx.grantPermissions(["clipboard-read", "clipboard-write"], { origin: srv.url });
  page = await ctx.newPage();
  await signIn(page, srv.url, srv.email, srv.password);
}, 600_000);

afterAll(async () => {
  await browser?.close();
  await srv?.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe("Files page (Chromium)", () => {
  it("upload → listed; public → downloads without a key; copy link; delete → gone", async () => {
    onTestFailed(async () => console.error("screenshot:", await shoot(page, "failed-files").catch(() => "(none)")));
    await page.goto(`${srv.url}/files`);
    await page.getByTestId("files-input").setInputFiles(file);
    const row = page.locator('tr[data-file-name="notes-for-files-page.txt"]');
    await row.waitFor({ timeout: 30_000 });
    const all = await (await fetch(`${srv.url}/v1/file/all`, { headers: { "x-api-key": srv.apiKey } })).json();
    const stored = all.files.find((f: { name: string }) => f.name === "notes-for-files-page.txt");
    expect(stored.size).toBe(15);

    expect((await fetch(`${srv.url}/v1/file/download/${stored.token}`)).status).toBe(404);
    await row.getByRole("button", { name: "Make notes-for-files-page.txt public" }).click();
    await expect.poll(() => row.textContent(), { timeout: 15_000 }).toMatch(/public/);
    const open = await fetch(`${srv.url}/v1/file/download/${stored.token}`);
    expect(open.status).toBe(200);
    expect(await open.text()).toBe("files page e2e\n");

    await row.getByRole("button", { name: "Copy link" }).click();
    // The button's feedback, then the link itself: what was copied downloads the file.
    await row.getByRole("button", { name: /Copied/ }).waitFor({ timeout: 5_000 });
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toMatch(/^https?:\/\//);
    const got = await fetch(copied);
    expect(got.status).toBe(200);
    expect(await got.text()).toBe("files page e2e\n");

    expect(await seriousAxeViolations(page)).toEqual([]);
    await shoot(page, "files");

    await row.getByRole("button", { name: "Delete notes-for-files-page.txt" }).click();
    await row.getByRole("button", { name: "Confirm delete" }).click();
    await expect.poll(() => row.count(), { timeout: 15_000 }).toBe(0);
    expect((await fetch(`${srv.url}/v1/file/download/${stored.token}`)).status).toBe(404);
  });

  it("barcode-generate shows the PNG; barcode-read-from-url lists what it read", async () => {
    onTestFailed(async () => console.error("screenshot:", await shoot(page, "failed-barcodes").catch(() => "(none)")));
    await page.goto(`${srv.url}/operations/barcode-generate`);
    await page.getByLabel(/^Value/).fill("https://example.org/e2e");
    await page.getByRole("button", { name: /^Run generate barcode/i }).click();
    const img = page.getByTestId("image-gallery").locator("img").first();
    await img.waitFor({ timeout: 60_000 });
    await expect.poll(() => img.evaluate((el) => (el as HTMLImageElement).naturalWidth), { timeout: 15_000 }).toBeGreaterThan(50);
    const src = await img.getAttribute("src");
    await shoot(page, "barcode-generate");

    await page.goto(`${srv.url}/operations/barcode-read-from-url`);
    await page.getByRole("tab", { name: "From a URL" }).click();
    // The gallery shows the image through the dashboard's output proxy; the file's own link is its `url`.
    const shown = new URL(src!, srv.url);
    await page.locator("#source-url").fill(shown.searchParams.get("url") ?? shown.href);
    await page.getByRole("button", { name: /^Run read barcodes/i }).click();
    const table = page.getByTestId("barcodes-table");
    await table.waitFor({ timeout: 60_000 });
    expect(await table.textContent()).toContain("https://example.org/e2e");
    expect(await table.textContent()).toContain("QRCode");
    expect(await seriousAxeViolations(page)).toEqual([]);
    await shoot(page, "barcode-read");
  });
});
