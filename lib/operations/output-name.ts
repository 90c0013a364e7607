/** `name` if given (with `.pdf` added when missing, path separators dropped), else `result.pdf`. */
export function pdfOutputName(name: string | undefined, fallback = "result.pdf"): string {
  const base = (name?.trim() || fallback).replace(/[/\\]/g, "_");
  return /\.pdf$/i.test(base) ? base : `${base}.pdf`;
}

/** `name` if given (with `ext` added when it has no extension, path separators dropped), else `fallback` + `ext`. */
export function outputName(name: string | undefined, fallback: string, ext: string): string {
  const base = (name?.trim() || fallback + ext).replace(/[/\\]/g, "_");
  return /\.[a-z0-9]{1,5}$/i.test(base) ? base : `${base}${ext}`;
}

/**
 * `name` if given, else the source's base name, with `.ext` added when missing (path separators
 * dropped): the output name of the PDF → text/data/image conversions.
 */
export function convertedName(requested: string | undefined, sourceName: string, ext: string): string {
  const stem = sourceName ? sourceName.replace(/\.[^./\\]*$/, "") : "";
  const base = ((requested ?? "").trim() || `${stem.split(/[/\\]/).pop() || "result"}.${ext}`).replace(/[/\\]/g, "_");
  return base.toLowerCase().endsWith(`.${ext}`) ? base : `${base}.${ext}`;
}
