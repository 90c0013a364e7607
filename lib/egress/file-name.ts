import "server-only";

/**
 * The file name a download should get: Content-Disposition (RFC 6266, `filename*` first),
 * else the last path segment of the requested URL, else of the final URL, else "download".
 * Reduced to a safe base name (no directories, no control characters).
 */
export function fileNameFromResponse(
  contentDisposition: string | undefined,
  url: string,
  finalUrl?: string,
): string {
  const fromHeader = contentDisposition ? parseContentDisposition(contentDisposition) : undefined;
  for (const candidate of [fromHeader, lastSegment(url), finalUrl && lastSegment(finalUrl)]) {
    const safe = candidate && sanitizeFileName(candidate);
    if (safe) return safe;
  }
  return "download";
}

function parseContentDisposition(value: string): string | undefined {
  const star = value.match(/filename\*\s*=\s*([^']*)'[^']*'([^;]+)/i);
  if (star) {
    try {
      return decodeURIComponent(star[2].trim().replace(/^"|"$/g, ""));
    } catch {
      /* fall through to filename= */
    }
  }
  const quoted = value.match(/filename\s*=\s*"((?:[^"\\]|\\.)*)"/i);
  if (quoted) return quoted[1].replace(/\\(.)/g, "$1");
  const token = value.match(/filename\s*=\s*([^;\s]+)/i);
  return token?.[1];
}

function lastSegment(url: string): string | undefined {
  try {
    const segment = new URL(url).pathname.split("/").filter(Boolean).pop();
    return segment ? decodeURIComponent(segment) : undefined;
  } catch {
    return undefined;
  }
}

/** Base name only, no control characters, at most 200 characters; "" if nothing usable is left. */
export function sanitizeFileName(name: string): string {
  const base = name.split(/[/\\]/).pop() ?? "";
  const clean = base.replace(/[\u0000-\u001f\u007f]/g, "").trim();
  if (clean === "." || clean === "..") return "";
  return clean.slice(0, 200);
}
