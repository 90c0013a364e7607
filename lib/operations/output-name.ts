/** `name` if given (with `.pdf` added when missing, path separators dropped), else `result.pdf`. */
export function pdfOutputName(name: string | undefined, fallback = "result.pdf"): string {
  const base = (name?.trim() || fallback).replace(/[/\\]/g, "_");
  return /\.pdf$/i.test(base) ? base : `${base}.pdf`;
}
