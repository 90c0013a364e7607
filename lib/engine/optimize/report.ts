import type { OptimizeReport } from "./options";

/** One sentence for the response `message`: sizes, what happened to images, and any notes. */
export function describeOptimize(r: OptimizeReport): string {
  const pct = r.inputSize > 0 ? Math.round((1 - r.outputSize / r.inputSize) * 1000) / 10 : 0;
  const parts = [
    r.keptOriginal
      ? `${r.inputSize} bytes, unchanged`
      : `${r.inputSize} → ${r.outputSize} bytes (${pct}% smaller)`,
  ];
  if (!r.keptOriginal && r.images.rewritten > 0) {
    parts.push(`${r.images.rewritten} image(s) recompressed, ${r.images.downsampled} downsampled`);
  }
  if (r.images.unreadable > 0)
    parts.push(`${r.images.unreadable} image(s) could not be decoded and were kept as they were`);
  return [parts.join("; "), ...r.notes].join(". ") + ".";
}

/** `name` if given (with .pdf added when missing), else result.pdf (the contract's resultFile). */
export function outputName(name: string | undefined): string {
  const base = (name?.trim() || "result.pdf").replace(/[/\\]/g, "_");
  return /\.pdf$/i.test(base) ? base : `${base}.pdf`;
}
