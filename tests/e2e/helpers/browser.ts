import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import fs from "node:fs";
import path from "node:path";

/** Chromium for the e2e tests and the UI benchmark (CHROMIUM_PATH, else Debian's). */
export async function launchChromium(): Promise<Browser> {
  const executablePath = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
  return chromium.launch({
    executablePath,
    headless: true,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
}

/** Signs in through the real form and waits for the dashboard. */
export async function signIn(page: Page, baseUrl: string, email: string, password: string): Promise<void> {
  await page.goto(`${baseUrl}/sign-in`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL((u) => !u.pathname.startsWith("/sign-in"), { timeout: 30_000 });
}

export async function newContext(browser: Browser, opts: { dark?: boolean; width?: number; height?: number; timezoneId?: string; locale?: string } = {}): Promise<BrowserContext> {
  return browser.newContext({
    timezoneId: opts.timezoneId,
    locale: opts.locale,
    viewport: { width: opts.width ?? 1360, height: opts.height ?? 900 },
    colorScheme: opts.dark ? "dark" : "light",
    acceptDownloads: true,
  });
}

export const SHOT_DIR = path.resolve(import.meta.dirname, "../../../test-results/e2e");

/** Saves a screenshot under test-results/e2e/NAME.png and returns its path. */
export async function shoot(page: Page, name: string, fullPage = true): Promise<string> {
  fs.mkdirSync(SHOT_DIR, { recursive: true });
  const file = path.join(SHOT_DIR, `${name.replace(/[^a-z0-9-]+/gi, "-")}.png`);
  await page.screenshot({ path: file, fullPage });
  return file;
}

/** axe-core's serious and critical violations on the current page. */
export async function seriousAxeViolations(page: Page): Promise<{ id: string; impact: string; help: string; nodes: string[] }[]> {
  const axePath = path.resolve(import.meta.dirname, "../../../node_modules/axe-core/axe.min.js");
  await page.addScriptTag({ content: fs.readFileSync(axePath, "utf8") });
  const result = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: unknown, opts: unknown) => Promise<{ violations: { id: string; impact: string; help: string; nodes: { target: string[] }[] }[] }> } }).axe;
    return axe.run(document, { resultTypes: ["violations"] });
  });
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 5).map((n) => n.target.join(" ")) }));
}
