import { afterAll, beforeAll, describe, expect, it } from "vitest";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { launchChromium, newContext, seriousAxeViolations, shoot, signIn } from "./helpers/browser";
import { startDashboardServer, type DashboardServer } from "./helpers/start-server";
import { makeParserInvoicePdf, parserInvoiceTemplate } from "@/tests/helpers/docparser-fixtures";

/** The Templates page as a user works it: built-in template, live preview, problems by line, a parser test. */
let srv: DashboardServer;
let browser: Browser;
let page: Page;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "quire-e2e-tpl-"));
const invoiceFile = path.join(tmp, "acme-invoice.pdf");

beforeAll(async () => {
  fs.writeFileSync(invoiceFile, makeParserInvoicePdf());
  srv = await startDashboardServer();
  browser = await launchChromium();
  page = await (await newContext(browser)).newPage();
  await signIn(page, srv.url, srv.email, srv.password);
}, 600_000);

afterAll(async () => {
  await browser?.close();
  await srv?.stop();
});

describe("Templates page", () => {
  it("opens the built-in invoice template, previews it live and saves an edited copy", async () => {
    await page.goto(`${srv.url}/templates`);
    await page.getByTestId("template-list").getByRole("button", { name: /Invoice/ }).click();
    const preview = page.frameLocator('[data-testid="template-preview"]');
    await expect.poll(() => preview.locator("body").textContent(), { timeout: 15_000 }).toContain("2026-0042");
    const editor = page.getByTestId("template-textarea");
    await editor.fill("<h1>{{title}}</h1>\n{{#items}}\n<p>{{.}}</p>");
    await expect.poll(() => page.getByTestId("template-problems").textContent(), { timeout: 10_000 }).toMatch(/Line 2: Unclosed section "items"/);
    await editor.fill("<h1>{{title}}</h1>\n{{#items}}<p>{{.}}</p>{{/items}}");
    await page.getByLabel("Sample data (JSON)").fill('{"title": "Hello e2e", "items": ["a", "b"]}');
    // The preview document (srcdoc) follows both edits; the frame showing it was checked above.
    await expect.poll(() => page.getByTestId("template-preview").getAttribute("srcdoc"), { timeout: 15_000 }).toContain("<h1>Hello e2e</h1>\n<p>a</p><p>b</p>");
    await page.getByLabel("Title").fill("E2E letter");
    await page.getByRole("button", { name: /Save template/ }).click();
    await expect.poll(() => page.getByText(/Saved as template #\d+/).count(), { timeout: 15_000 }).toBe(1);
    await expect.poll(() => page.getByTestId("template-list").textContent()).toContain("E2E letter");
    expect(await seriousAxeViolations(page)).toEqual([]);
    await shoot(page, "templates-html");
  });

  it("tests a document parser template on an uploaded invoice and lists what it found", async () => {
    await page.getByRole("tab", { name: "Document parser" }).click();
    await page.getByTestId("template-textarea").fill(parserInvoiceTemplate);
    await page.getByTestId("template-ok").waitFor();
    await page.getByTestId("file-input").first().setInputFiles(invoiceFile);
    await page.getByRole("button", { name: "Test template" }).click();
    const result = page.getByTestId("parse-result");
    await result.waitFor({ timeout: 60_000 });
    expect(await result.textContent()).toContain("INV-2026-0042");
    expect(await result.textContent()).toContain("Toner cartridge");
    await expect.poll(() => page.locator('[data-testid="pdf-page"] rect').count(), { timeout: 30_000 }).toBeGreaterThan(5);
    await expect.poll(() => page.locator('[data-testid="pdf-page"] img').evaluate((i: HTMLImageElement) => i.naturalWidth), { timeout: 30_000 }).toBeGreaterThan(0);
    // Columns in the template's order (not the order a JSON store gives object keys).
    expect(await result.locator("th").allTextContents()).toEqual(["Field", "Value", "description", "quantity", "unitPrice", "itemTotal"]);
    await shoot(page, "templates-parser");
  });

  it("works at phone width without sideways scrolling", async () => {
    const phone = await (await newContext(browser, { width: 390, height: 844 })).newPage();
    await signIn(phone, srv.url, srv.email, srv.password);
    await phone.goto(`${srv.url}/templates`);
    await phone.getByTestId("template-list").waitFor();
    // The starter template is previewed from the first paint.
    await expect.poll(() => phone.frameLocator('[data-testid="template-preview"]').locator("h1").textContent(), { timeout: 15_000 }).toBe("Hello Ada");
    const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    await shoot(phone, "templates-phone");
    expect(overflow).toBeLessThanOrEqual(1);
  });
});
