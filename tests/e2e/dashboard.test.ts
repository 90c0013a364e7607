import { afterAll, beforeAll, describe, expect, it, onTestFailed } from "vitest";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { launchChromium, newContext, seriousAxeViolations, shoot, signIn } from "./helpers/browser";
import { startDashboardServer, type DashboardServer } from "./helpers/start-server";
import { makePdf } from "@/tests/helpers/pdf-fixtures";
import { expectedOf, invoicePdf, renderPng, SPECS } from "@/tests/helpers/invoice-fixtures";
import { makeTablesPdf } from "@/tests/helpers/extract-fixtures";

let srv: DashboardServer;
let browser: Browser;
let ctx: BrowserContext;
let page: Page;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "quire-e2e-"));
const threePages = path.join(tmp, "three-pages.pdf");
const invoiceFile = path.join(tmp, "brightline-invoice.pdf");
const tablesFile = path.join(tmp, "price-list.pdf");
const imageFiles = [path.join(tmp, "scan-1.png"), path.join(tmp, "scan-2.png")];
const invoice = expectedOf(SPECS.usClassic!);
/** React's hydration errors (production: minified #418/#423/#425), from every page the tests open. */
const hydrationErrors: string[] = [];

/** Screenshots on failure, under test-results/e2e/failed-*.png. */
function screenshotOnFailure(name: string) {
  onTestFailed(async () => {
    if (page) console.error("screenshot:", await shoot(page, `failed-${name}`).catch(() => "(none)"));
  });
}

async function upload(p: Page, file: string | string[]) {
  const files = Array.isArray(file) ? file : [file];
  await p.getByTestId("file-input").first().setInputFiles(files);
  await expect.poll(() => p.getByRole("img", { name: "Uploaded" }).count(), { timeout: 30_000 }).toBe(files.length);
}

/** The job id a form run shows beside its result. */
async function runJobId(p: Page): Promise<string> {
  const link = p.getByTestId("run-result").locator('a[href^="/jobs/"]').first();
  await link.waitFor({ timeout: 30_000 });
  return (await link.textContent())!.trim();
}

beforeAll(async () => {
  fs.writeFileSync(threePages, makePdf({ pages: 3 }));
  fs.writeFileSync(invoiceFile, await invoicePdf(SPECS.usClassic!));
  fs.writeFileSync(
    tablesFile,
    makeTablesPdf([{ texts: [{ x: 50, y: 50, text: "Price list", size: 16, bold: true }], tables: [{ x: 50, y: 80, cols: [140, 80, 80], boldHeader: true, rows: [["Item", "Qty", "Price"], ["Apple", "3", "1.20"], ["Pear", "5", "0.80"], ["Quince", "2", "2.50"]] }] }]),
  );
  imageFiles.forEach((f, i) => fs.writeFileSync(f, renderPng(makePdf({ text: () => `Scan ${i + 1}` }), 0, 40)));
  srv = await startDashboardServer();
  browser = await launchChromium();
  // A time zone and locale unlike the server's, so dates formatted during SSR would mismatch.
  ctx = await newContext(browser, { timezoneId: "Pacific/Auckland", locale: "de-DE" });
  page = await ctx.newPage();
  page.on("console", (m) => {
    if (m.type() === "error" && /hydrat|#418|#423|#425/i.test(m.text())) hydrationErrors.push(`${page.url()}: ${m.text().slice(0, 300)}`);
  });
  page.on("pageerror", (e) => {
    if (/hydrat|#418|#423|#425/i.test(e.message)) hydrationErrors.push(`${page.url()}: ${e.message.slice(0, 300)}`);
  });
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
    // Plain words, the API's key in the row's title.
    expect(await table.locator('th[title="PageCount"]').textContent()).toBe("Pages");
    await shoot(page, "info-result");
  });

  it("rules editor: an error is shown on its line, fixed, saved", async () => {
    screenshotOnFailure("rules");
    await page.goto(`${srv.url}/rules`);
    const editor = page.getByTestId("rules-textarea");
    await editor.fill("invoice, OR, invoice, /inv(oice/\nreceipt");
    await expect.poll(() => page.getByTestId("rules-problems").textContent(), { timeout: 15_000 }).toMatch(/Line 1: invalid regex \/inv\(oice\/[\s\S]*Line 2: class "receipt" has no keywords/);
    expect(await page.locator("[data-error-line]").count()).toBe(2);
    await shoot(page, "rules-error");
    await editor.fill("invoice, OR, invoice, /inv(oice)?/i\nreceipt, AND, receipt, total");
    await page.getByTestId("rules-ok").waitFor();
    await page.getByLabel("Name").fill(`E2E rules ${Date.now()}`);
    await page.getByRole("button", { name: "Save rule set" }).click();
    await expect.poll(() => page.getByTestId("rule-set-list").textContent(), { timeout: 20_000 }).toMatch(/E2E rules/);
    await shoot(page, "rules-saved");
  });

  it("invoice: parse from the form, review beside the PDF, highlight where a field came from", async () => {
    screenshotOnFailure("invoice");
    await page.goto(`${srv.url}/operations/ai-invoice-parser`);
    await upload(page, invoiceFile);
    await page.getByRole("button", { name: /^Run ai invoice parser/i }).click();
    const jobId = await runJobId(page);
    await page.getByTestId("invoice-view").waitFor({ timeout: 60_000 });
    // The invoice list names the job by vendor, number and total, and links it to its own viewer page.
    await page.goto(`${srv.url}/invoices`);
    const listed = page.locator(`[data-testid="invoice-list"] tr[data-job="${jobId}"]`);
    expect(await listed.locator('[data-cell="vendor"]').textContent()).toBe(invoice.vendorName);
    expect(await listed.locator('[data-cell="number"]').textContent()).toBe(invoice.invoiceNo);
    expect(await listed.locator('[data-cell="total"]').textContent()).toContain(invoice.total);
    await page.locator(`a[href="/invoices/${encodeURIComponent(jobId)}"]`).click();
    await page.waitForURL(/\/invoices\/.+/);
    const view = page.getByTestId("invoice-view");
    await view.waitFor({ timeout: 30_000 });
    const field = (p: string) => view.locator(`[data-field="${p}"]`);
    expect(await field("vendor.name").textContent()).toContain(invoice.vendorName);
    expect(await field("customer.billTo.name").textContent()).toContain(invoice.customerName);
    expect(await field("invoice.invoiceNo").textContent()).toContain(invoice.invoiceNo);
    expect(await field("paymentDetails.total").textContent()).toContain(invoice.total);
    expect(await field("paymentDetails.subtotal").textContent()).toContain(invoice.subtotal);
    expect(await view.getByTestId("line-items").locator("tbody tr").count()).toBe(SPECS.usClassic!.items.length);
    // The US invoice has no IBAN: listed under "Not found", not shown as an empty value.
    expect(await field("paymentDetails.bankingInformation.iban").getAttribute("data-missing")).toBe("true");
    expect(await field("paymentDetails.bankingInformation.iban").textContent()).toContain("IBAN");
    // Field lists are definition lists of dt/dd pairs only; the line-item table scrolls by keyboard.
    expect(await seriousAxeViolations(page)).toEqual([]);

    // Where vendor.name was read (PDF points, top-left origin) → where the box must be drawn.
    const { src, pts } = await page.evaluate(async (id) => {
      const job = (await (await fetch(`/api/proxy/v1/jobs/${encodeURIComponent(id)}`)).json()).job;
      const info = await (await fetch(`/api/preview?info=1&url=${encodeURIComponent(job.request.url)}`)).json();
      return { src: job.result.fieldSources["vendor.name"], pts: info.pages[0] };
    }, jobId);
    expect(src).toMatchObject({ page: 0 });
    await page.getByTestId("pdf-page").locator("img").waitFor();
    await field("vendor.name").hover();
    const hl = page.getByTestId("highlight");
    await hl.waitFor({ state: "visible", timeout: 5_000 });
    const box = (await hl.boundingBox())!;
    const pg = (await page.getByTestId("pdf-page").boundingBox())!;
    const k = pg.width / pts.width;
    expect(Math.abs(box.x - (pg.x + (src.x - 2) * k))).toBeLessThan(3);
    expect(Math.abs(box.y - (pg.y + (src.y - 2) * k))).toBeLessThan(3);
    expect(Math.abs(box.width - (src.width + 4) * k)).toBeLessThan(3);
    await shoot(page, "invoice-highlight", false);
    // Clicking a line-item cell pins its box; it stays when the pointer leaves.
    const cell = view.getByTestId("line-items").locator("tbody tr").first().locator("td").first();
    await cell.click();
    await page.mouse.move(0, 0);
    await hl.waitFor({ state: "visible", timeout: 5_000 });
    const pinned = (await hl.boundingBox())!;
    expect(pinned.y).toBeGreaterThan(box.y);
  });

  it("rules: write, save, test against a document (classes and keyword matches), then use from the classifier form", async () => {
    screenshotOnFailure("rules-test");
    await page.goto(`${srv.url}/rules`);
    const name = `Mail room ${Date.now()}`;
    await page.getByRole("button", { name: "+ New" }).click();
    await page.getByTestId("rules-textarea").fill(
      ["# incoming mail", "invoice, OR, purchase order, /inv(oice)?\\s*(no|#)/i", "receipt, AND, receipt, thank you for your purchase", "dental, AND, Cedar Creek, /dental/i"].join("\n"),
    );
    await page.getByTestId("rules-ok").waitFor();
    await page.getByLabel("Name").fill(name);
    await page.getByRole("button", { name: "Save rule set" }).click();
    await expect.poll(() => page.getByTestId("rule-set-list").textContent(), { timeout: 20_000 }).toContain(name);
    await upload(page, invoiceFile);
    await page.getByRole("button", { name: "Test rules" }).click();
    const result = page.getByTestId("classifier-result");
    await result.waitFor({ timeout: 60_000 });
    expect(await result.getByTestId("matched-classes").locator("li").allTextContents()).toEqual(["invoice", "dental"]);
    const rule = (cls: string) => result.locator(`tr[data-rule-class="${cls}"]`);
    expect(await rule("receipt").getAttribute("data-matched")).toBe("false");
    expect(await rule("invoice").textContent()).toContain("(line 2)");
    expect(await rule("invoice").locator('[data-keyword="purchase order"]').getAttribute("data-matched")).toBe("false");
    const regex = rule("invoice").locator("[data-keyword^='/inv']");
    expect(await regex.getAttribute("data-matched")).toBe("true");
    expect(await regex.textContent()).toMatch(/p\.1 “/);
    expect(await rule("dental").locator('[data-keyword="Cedar Creek"]').getAttribute("data-matched")).toBe("true");
    await shoot(page, "rules-test");

    await page.goto(`${srv.url}/operations/pdf-classifier`);
    await upload(page, invoiceFile);
    await page.getByTestId("rule-set-picker").selectOption({ label: name });
    await expect.poll(() => page.getByTestId("rules-textarea").inputValue()).toContain("dental, AND, Cedar Creek");
    await page.getByRole("button", { name: /^Run document classifier/i }).click();
    const formResult = page.getByTestId("classifier-result");
    await formResult.waitFor({ timeout: 60_000 });
    expect(await formResult.getByTestId("matched-classes").locator("li").allTextContents()).toEqual(["invoice", "dental"]);
    expect(await formResult.locator('tr[data-rule-class="receipt"]').getAttribute("data-matched")).toBe("false");
  });

  it("PDF to CSV from its form shows the CSV table", async () => {
    screenshotOnFailure("pdf-to-csv");
    await page.goto(`${srv.url}/operations/pdf-convert-to-csv`);
    await upload(page, tablesFile);
    await page.getByRole("button", { name: /^Run pdf to csv/i }).click();
    const table = page.getByTestId("csv-table");
    await table.waitFor({ timeout: 60_000 });
    const text = await table.locator("table").textContent();
    for (const cell of ["Apple", "Pear", "Quince", "1.20", "2.50"]) expect(text).toContain(cell);
    await shoot(page, "pdf-to-csv");
  });

  it("images to PDF with two uploaded images gives a two-page PDF", async () => {
    screenshotOnFailure("images-to-pdf");
    await page.goto(`${srv.url}/operations/pdf-convert-from-image`);
    await upload(page, imageFiles);
    await page.getByRole("button", { name: /^Run images to pdf/i }).click();
    const preview = page.getByTestId("pdf-preview");
    await preview.waitFor({ timeout: 60_000 });
    await expect.poll(() => preview.textContent(), { timeout: 15_000 }).toContain("Page 1 of 2");
    await shoot(page, "images-to-pdf");
  });

  it("credits: the ledger lists the runs", async () => {
    screenshotOnFailure("credits");
    await page.goto(`${srv.url}/credits`);
    const ledger = page.getByTestId("ledger-table");
    await expect.poll(() => ledger.locator("tbody tr").count(), { timeout: 20_000 }).toBeGreaterThan(3);
    const text = await ledger.textContent();
    // Operations by their human names, not their ids.
    for (const op of ["AI invoice parser", "Document classifier", "PDF to CSV"]) expect(text).toContain(op);
    await shoot(page, "credits");
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

  it("pages hydrate without a mismatch (dates are formatted after mount)", async () => {
    for (const p of ["/jobs", "/keys", "/credits", "/rules", "/invoices"]) {
      await page.goto(srv.url + p);
      await page.waitForLoadState("networkidle");
    }
    expect(hydrationErrors).toEqual([]);
  });

  it("sign out ends the session", async () => {
    screenshotOnFailure("sign-out");
    // The session cookie as a thief would have copied it before the owner signed out.
    const copied = await ctx.cookies();
    await page.goto(`${srv.url}/`);
    await page.getByTestId("user-menu").click();
    await page.getByRole("menuitem", { name: "Sign out" }).click();
    await page.waitForURL(/\/sign-in/);
    await page.goto(`${srv.url}/jobs`);
    await page.waitForURL(/\/sign-in/);
    const res = await ctx.request.get(`${srv.url}/api/proxy/v1/account/credit/balance`);
    expect(res.status()).toBe(401);
    // Sign-out revoked the session server-side: the copied cookie no longer works either.
    const thief = await newContext(browser);
    try {
      await thief.addCookies(copied);
      const stolen = await thief.request.get(`${srv.url}/api/proxy/v1/account/credit/balance`);
      expect(stolen.status()).toBe(401);
    } finally {
      await thief.close();
    }
  });
});
