/**
 * Development aid: signs in to a running Quire and screenshots the main pages (light, dark,
 * phone) into test-results/e2e/, printing serious axe violations.
 *   node --import tsx tests/e2e/helpers/shoot-pages.ts http://127.0.0.1:3000 email password [paths...]
 */
import { launchChromium, newContext, seriousAxeViolations, shoot, signIn } from "./browser";

const [base = "http://127.0.0.1:3000", email = "admin@quire.local", password = "", ...paths] = process.argv.slice(2);
const list = paths.length ? paths : ["/", "/jobs", "/credits", "/keys", "/settings", "/rules", "/invoices", "/operations/pdf-split", "/operations/pdf-info"];
const browser = await launchChromium();
for (const mode of ["light", "dark", "phone"] as const) {
  const ctx = await newContext(browser, { dark: mode === "dark", width: mode === "phone" ? 390 : 1360, height: mode === "phone" ? 844 : 900 });
  const page = await ctx.newPage();
  await signIn(page, base, email, password);
  for (const p of list) {
    await page.goto(base + p);
    await page.waitForLoadState("networkidle").catch(() => {});
    const file = await shoot(page, `${mode}${p === "/" ? "-home" : p}`);
    const v = mode === "phone" ? [] : await seriousAxeViolations(page);
    console.log(file, v.length ? JSON.stringify(v) : "axe: ok");
  }
  await ctx.close();
}
await browser.close();
