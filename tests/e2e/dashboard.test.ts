import { afterAll, beforeAll, describe, expect, it, onTestFailed } from "vitest";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { launchChromium, newContext, seriousAxeViolations, shoot, signIn } from "./helpers/browser";
import { startDashboardServer, type DashboardServer } from "./helpers/start-server";
import { makePdf } from "@/tests/helpers/pdf-fixtures";

let srv: DashboardServer;
let browser: Browser;
let ctx: BrowserContext;
let page: Page;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "quire-e2e-"));
const threePages = path.join(tmp, "three-pages.pdf");

/** Screenshots on failure, under test-results/e2e/failed-*.png. */
function screenshotOnFailure(name: string) {
  onTestFailed(async () => {
    if (page) console.error("screenshot:", await shoot(page, `failed-${name}`).catch(() => "(none)"));
  });
}

async function upload(p: Page, file: string) {
  await p.getByTestId("file-input").first().setInputFiles(file);
  await p.getByRole("img", { name: "Uploaded" }).first().waitFor({ timeout: 30_000 });
}

beforeAll(async () => {
  fs.writeFileSync(threePages, makePdf({ pages: 3 }));
  srv = await startDashboardServer();
  browser = await launchChromium();
  ctx = await newContext(browser);
  page = await ctx.newPage();
}, 600_000);

afterAll(async () => {
  await browser?.close();
  await srv?.stop();
});

describe("dashboard (Chromium)", () => {
  it("sign in: a wrong password is refused, the right one opens the dashboard", async () => {
    screenshotOnFailure("sign-in");
    await page.goto(`${srv.url}/jobs`);
    await page.waitForURL(/\/sign-in/);
    await page.getByLabel("Email").fill(srv.email);
    await page.getByLabel("Password").fill("not the password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect.poll(() => page.locator("#sign-in-error").textContent(), { timeout: 15_000 }).toMatch(/wrong/i);
    await signIn(page, srv.url, srv.email, srv.password);
    await expect.poll(() => page.getByTestId("balance").textContent(), { timeout: 15_000 }).toMatch(/\d/);
  });

  it("Split PDF from the form with an uploaded file shows the output list", async () => {
    screenshotOnFailure("split");
    await page.goto(`${srv.url}/operations/pdf-split`);
    await upload(page, threePages);
    await page.getByLabel("Pages", { exact: true }).fill("1-2,3");
    await page.getByRole("button", { name: /^Run split pdf/i }).click();
    const list = page.getByTestId("url-list");
    await list.waitFor({ timeout: 60_000 });
    await expect.poll(() => list.locator("li").count(), { timeout: 15_000 }).toBe(2);
    await shoot(page, "split-result");
  });

  it("the form shows the contract's validation messages", async () => {
    screenshotOnFailure("validation");
    await page.goto(`${srv.url}/operations/pdf-split`);
    await page.getByRole("button", { name: /^Run split pdf/i }).click();
    await expect.poll(() => page.getByText("url: give the URL of the source file").count(), { timeout: 15_000 }).toBeGreaterThan(0);
  });

  it("PDF info shows the document info table", async () => {
    screenshotOnFailure("info");
    await page.goto(`${srv.url}/operations/pdf-info`);
    await upload(page, threePages);
    await page.getByRole("button", { name: /^Run pdf info/i }).click();
    const table = page.getByTestId("info-table");
    await table.waitFor({ timeout: 60_000 });
    expect(await table.textContent()).toContain("PageCount");
    await shoot(page, "info-result");
  });

  it("rules editor: an error is shown on its line, fixed, saved", async () => {
    screenshotOnFailure("rules");
    await page.goto(`${srv.url}/rules`);
    const editor = page.getByTestId("rules-textarea");
    await editor.fill("invoice, OR, invoice, /inv(oice/\nreceipt");
    await expect.poll(() => page.getByTestId("rules-problems").textContent(), { timeout: 15_000 }).toMatch(/Line 1: Regex[\s\S]*Line 2: "receipt" has no keywords/);
    expect(await page.locator("[data-error-line]").count()).toBe(2);
    await shoot(page, "rules-error");
    await editor.fill("invoice, OR, invoice, /inv(oice)?/i\nreceipt, AND, receipt, total");
    await page.getByTestId("rules-ok").waitFor();
    await page.getByLabel("Name").fill(`E2E rules ${Date.now()}`);
    await page.getByRole("button", { name: "Save rule set" }).click();
    await expect.poll(() => page.getByTestId("rule-set-list").textContent(), { timeout: 20_000 }).toMatch(/E2E rules/);
    await shoot(page, "rules-saved");
  });

  it("a background job goes from working to success in the job list without reload", async () => {
    screenshotOnFailure("jobs");
    await page.goto(`${srv.url}/jobs`);
    const started = await page.evaluate(async () => {
      const q = new URLSearchParams({ name: "bg.pdf", contenttype: "application/pdf" });
      const pre = await (await fetch(`/api/proxy/v1/file/upload/get-presigned-url?${q}`)).json();
      return pre.url as string;
    });
    const bytes = fs.readFileSync(threePages).toString("base64");
    const jobId = await page.evaluate(
      async ({ b64 }) => {
        const q = new URLSearchParams({ name: "bg.pdf", contenttype: "application/pdf" });
        const pre = await (await fetch(`/api/proxy/v1/file/upload/get-presigned-url?${q}`)).json();
        await fetch(pre.presignedUrl, { method: "PUT", body: Uint8Array.from(atob(b64), (c) => c.charCodeAt(0)) });
        const res = await (await fetch("/api/proxy/v1/pdf/split", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ url: pre.url, async: true }) })).json();
        return res.jobId as string;
      },
      { b64: bytes },
    );
    expect(started).toBeTruthy();
    expect(jobId).toBeTruthy();
    const row = page.locator(`tr[data-job-id="${jobId}"]`);
    await row.waitFor({ timeout: 5_000 });
    await expect.poll(() => row.locator("[data-status]").getAttribute("data-status"), { timeout: 30_000 }).toBe("success");
    await row.getByRole("link").first().click();
    await page.waitForURL(/\/jobs\//);
    await page.getByRole("heading", { name: "Request" }).waitFor();
    await shoot(page, "job-detail");
  });

  it("API keys: create (shown once), then revoke", async () => {
    screenshotOnFailure("keys");
    await page.goto(`${srv.url}/keys`);
    const name = `e2e-${Date.now()}`;
    await page.getByLabel("New key name").fill(name);
    await page.getByRole("button", { name: "Create key" }).click();
    const secret = await page.getByTestId("new-key-secret").textContent();
    expect(secret).toMatch(/^qk_/);
    const row = page.locator(`tr[data-key-name="${name}"]`);
    await row.waitFor();
    await row.getByRole("button", { name: `Revoke ${name}` }).click();
    await row.getByRole("button", { name: "Confirm revoke" }).click();
    await expect.poll(() => row.textContent(), { timeout: 15_000 }).toMatch(/revoked/);
    const res = await fetch(`${srv.url}/v1/account/credit/balance`, { headers: { "x-api-key": secret! } });
    expect(res.status).toBe(401);
  });

  it("no serious or critical axe violations, in light and dark mode", async () => {
    screenshotOnFailure("axe");
    const paths = ["/", "/jobs", "/credits", "/keys", "/settings", "/rules", "/invoices", "/operations/pdf-split", "/operations/pdf-info"];
    const found: Record<string, unknown> = {};
    for (const dark of [false, true]) {
      await page.emulateMedia({ colorScheme: dark ? "dark" : "light" });
      await page.evaluate((d) => localStorage.setItem("quire-theme", d ? "dark" : "light"), dark);
      for (const p of paths) {
        await page.goto(srv.url + p);
        await page.waitForLoadState("networkidle");
        const v = await seriousAxeViolations(page);
        if (v.length) found[`${dark ? "dark" : "light"} ${p}`] = v;
      }
    }
    await page.evaluate(() => localStorage.removeItem("quire-theme"));
    expect(found).toEqual({});
  });

  it("no API key in the served HTML", async () => {
    const res = await ctx.request.get(`${srv.url}/keys`);
    const html = await res.text();
    expect(html).not.toMatch(/qk_[A-Za-z0-9]{20,}/);
    if (srv.apiKey) expect(html).not.toContain(srv.apiKey);
  });

  it("state-changing proxy calls need a same-origin Origin", async () => {
    const res = await ctx.request.post(`${srv.url}/api/proxy/v1/account/keys`, { data: { name: "x" }, headers: { origin: "https://evil.example" } });
    expect(res.status()).toBe(403);
  });

  it("sign out ends the session", async () => {
    screenshotOnFailure("sign-out");
    await page.goto(`${srv.url}/`);
    await page.getByTestId("user-menu").click();
    await page.getByRole("menuitem", { name: "Sign out" }).click();
    await page.waitForURL(/\/sign-in/);
    await page.goto(`${srv.url}/jobs`);
    await page.waitForURL(/\/sign-in/);
    const res = await ctx.request.get(`${srv.url}/api/proxy/v1/account/credit/balance`);
    expect(res.status()).toBe(401);
  });
});
