import { describe, expect, it } from "vitest";
import { sanitizeTemplate } from "@/lib/engine/browser/header-footer";

// Issue 10 §8: the header/footer sanitiser is not bypassed by CSS escapes or HTML references.
describe("header/footer sanitiser", () => {
  it.each([
    `<div style="background:u\\72l(http://canary.test/a.png)">x</div>`,
    `<div style="background:\\75 rl(http://canary.test/a.png)">x</div>`,
    `<div style="background:u&#114;l(http://canary.test/a.png)">x</div>`,
    `<div style="background:u&#x72;l&lpar;http://canary.test/a.png)">x</div>`,
    `<div style="background:u/**/rl(http://canary.test/a.png)">x</div>`,
    `<style>@\\69mport "http://canary.test/a.css";</style><span class="pageNumber"></span>`,
    `<style>div{background:\\000075rl(http://canary.test/a.png)}</style>`,
    `<style>@font-face{font-family:x;src:\\75rl(http://canary.test/f.woff)}</style>`,
    `<style>div{background:image-set("http://canary.test/a.png" 1x)}</style>`,
    `<style>div{background:-webkit-image-s\\65t("http://canary.test/a.png" 1x)}</style>`,
    `<style>div{background:url(http://canary.test/a.png)`,
  ])("drops %s", (html) => {
    const out = sanitizeTemplate(html);
    expect(out).not.toMatch(/canary\.test/);
  });

  it("keeps ordinary styles, data: images and the print classes", () => {
    const html = `<div style="color:red;font-size:12px"><img src="data:image/png;base64,iVBORw0KGgo=" style="width:20px"> <span class="pageNumber"></span>/<span class="totalPages"></span></div><style>div{background:url(data:image/png;base64,AAAA)}</style>`;
    const out = sanitizeTemplate(html);
    expect(out).toContain(`style="color:red;font-size:12px"`);
    expect(out).toContain("data:image/png;base64,iVBORw0KGgo=");
    expect(out).toContain(`class="pageNumber"`);
    expect(out).toContain("<style>div{background:url(data:image/png;base64,AAAA)}</style>");
  });
});
