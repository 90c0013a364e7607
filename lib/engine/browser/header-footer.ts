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
  return s;
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
