/**
 * Header and footer HTML for printed web pages. Chromium's print templates fill elements with the
 * classes `date`, `title`, `url`, `pageNumber` and `totalPages` (the public API's classes), so the
 * caller's HTML is passed through — after removing anything that could load a resource, since
 * the public API only allows images given inline as base64 data.
 */

const blockedElements =
  "script|iframe|frame|frameset|object|embed|applet|noscript|video|audio|template|form|portal|fencedframe";
const blockedVoids = "link|meta|base|source|track|input|param";

/** Keeps the caller's markup but drops scripts, frames and every non-`data:` resource reference. */
export function sanitizeTemplate(html: string): string {
  let s = html;
  // Whole elements whose content is active or loads something.
  s = s.replace(new RegExp(`<(${blockedElements})\\b[\\s\\S]*?<\\/\\1\\s*>`, "gi"), "");
  s = s.replace(new RegExp(`<\\/?(${blockedElements}|${blockedVoids})\\b[^>]*>`, "gi"), "");
  // <img> only with a data:image source.
  s = s.replace(/<img\b[^>]*>/gi, (tag) => {
    const src = /\ssrc\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i.exec(tag);
    const value = (src?.[1] ?? src?.[2] ?? src?.[3] ?? "").trim();
    if (!/^data:image\/[a-z0-9.+-]+;base64,/i.test(value)) return "";
    return tag.replace(/\s(srcset|lowsrc|longdesc|usemap)\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+)/gi, "");
  });
  // Event handlers, and attributes that name other URLs.
  s = s.replace(
    /\s(on[a-z]+|href|xlink:href|action|formaction|background|poster|ping|srcdoc|data)\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+)/gi,
    "",
  );
  // CSS: no @import and no url() other than data:.
  s = s.replace(/@import[^;]*;?/gi, "");
  s = s.replace(/url\(\s*(?!['"]?\s*data:)[^)]*\)/gi, "none");
  s = s.replace(/image-set\([^)]*\)/gi, "none");
  // The same rules once more on what the browser will really read: CSS escapes (`u\72l(`,
  // `@\69mport`), comments and HTML character references (`u&#114;l(`) are decoded first, and a
  // style block or attribute that still names a resource is dropped whole.
  s = s.replace(/<style\b[^>]*>([\s\S]*?)<\/style\s*>/gi, (block, css: string) => (loadsResource(css) ? "" : block));
  s = s.replace(/\sstyle\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/gi, (attr, a?: string, b?: string, c?: string) =>
    loadsResource(decodeHtmlReferences(a ?? b ?? c ?? "")) ? "" : attr,
  );
  // A <style> left unclosed (or broken up so the regex above misses it) is not trusted at all.
  if (/<style\b/i.test(s.replace(/<style\b[^>]*>[\s\S]*?<\/style\s*>/gi, ""))) s = s.replace(/<\/?style\b[^>]*>/gi, "");
  return s;
}

/** Whether CSS, once its escapes and comments are decoded, loads anything other than data:. */
function loadsResource(css: string): boolean {
  const plain = decodeCssEscapes(css.replace(/\/\*[\s\S]*?(\*\/|$)/g, ""))
    .toLowerCase()
    .replace(/\s+/g, "");
  return (
    /url\((?!['"]?data:)/.test(plain) ||
    /@import/.test(plain) ||
    /image-set\(/.test(plain) ||
    /(^|[^a-z-])src\(/.test(plain) ||
    /expression\(/.test(plain) ||
    /@font-face/.test(plain) ||
    /-moz-binding|behavior:/.test(plain)
  );
}

function decodeCssEscapes(css: string): string {
  return css.replace(/\\(?:([0-9a-fA-F]{1,6})\s?|([\s\S]))/g, (_m, hex?: string, ch?: string) => {
    if (hex) {
      const cp = parseInt(hex, 16);
      return cp > 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : "\ufffd";
    }
    return ch === "\n" ? "" : (ch ?? "");
  });
}

function decodeHtmlReferences(s: string): string {
  const named: Record<string, string> = { colon: ":", lpar: "(", rpar: ")", sol: "/", bsol: "\\", quot: '"', apos: "'", amp: "&", lt: "<", gt: ">", commat: "@", period: ".", newline: "\n", tab: "\t" };
  return s.replace(/&(?:#x([0-9a-f]+)|#(\d+)|([a-z]+));?/gi, (m, hex?: string, dec?: string, name?: string) => {
    if (hex || dec) {
      const cp = hex ? parseInt(hex, 16) : Number(dec);
      return cp > 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : "\ufffd";
    }
    return named[name!.toLowerCase()] ?? m;
  });
}

/**
 * Wraps a header or footer so it is readable by default: Chromium lays templates out at a tiny
 * default size with no side padding, so we give 10 px text indented like the page body (the
 * side margins, and at least the 8 px a page body gets by default).
 * The caller's own inline styles still win.
 */
export function buildTemplate(
  html: string | undefined,
  sidePaddingPx: { left: number; right: number },
): string {
  if (!html || !html.trim()) return "<span></span>";
  const side = (n: number) => Math.max(8, n).toFixed(1);
  const pad = `padding:0 ${side(sidePaddingPx.right)}px 0 ${side(sidePaddingPx.left)}px`;
  return (
    `<div style="width:100%;box-sizing:border-box;${pad};font-size:10px;font-family:sans-serif;` +
    `-webkit-print-color-adjust:exact;print-color-adjust:exact">${sanitizeTemplate(html)}</div>`
  );
}
