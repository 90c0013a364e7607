/**
 * The MuPDF.js WASM module's raw exports, when this process registered for them before MuPDF.js
 * loaded (import "@/lib/engine/pdf/mupdf-preload" first thing in an entry point; MuPDF.js builds
 * its module on `globalThis.$libmupdf_wasm_Module` when that object exists). Hot loops (the
 * per-character walk of structured text) read MuPDF's structures through it without a wrapper
 * object and array per character. Null when unavailable: callers then use the public API.
 */
export interface MupdfRaw {
  HEAPF32: Float32Array;
  HEAP32: Int32Array;
  HEAPU32: Uint32Array;
  _wasm_stext_page_get_first_block(p: number): number;
  _wasm_stext_block_get_next(b: number): number;
  _wasm_stext_block_get_type(b: number): number;
  _wasm_stext_block_get_first_line(b: number): number;
  _wasm_stext_line_get_next(l: number): number;
  _wasm_stext_line_get_dir(l: number): number;
  _wasm_stext_line_get_bbox(l: number): number;
  _wasm_stext_line_get_wmode(l: number): number;
  _wasm_stext_line_get_first_char(l: number): number;
  _wasm_stext_char_get_next(c: number): number;
  _wasm_stext_char_get_c(c: number): number;
  _wasm_stext_char_get_origin(c: number): number;
  _wasm_stext_char_get_quad(c: number): number;
  _wasm_stext_char_get_size(c: number): number;
  _wasm_stext_char_get_font(c: number): number;
  _wasm_stext_char_get_argb(c: number): number;
}

const NEEDED = [
  "_wasm_stext_page_get_first_block",
  "_wasm_stext_block_get_next",
  "_wasm_stext_block_get_type",
  "_wasm_stext_block_get_first_line",
  "_wasm_stext_line_get_next",
  "_wasm_stext_line_get_dir",
  "_wasm_stext_line_get_bbox",
  "_wasm_stext_line_get_wmode",
  "_wasm_stext_line_get_first_char",
  "_wasm_stext_char_get_next",
  "_wasm_stext_char_get_c",
  "_wasm_stext_char_get_origin",
  "_wasm_stext_char_get_quad",
  "_wasm_stext_char_get_size",
  "_wasm_stext_char_get_font",
  "_wasm_stext_char_get_argb",
] as const;

let cached: MupdfRaw | null | undefined;

/** See the top of this file. Call only after MuPDF.js is loaded (it is, wherever `mupdf` is imported). */
export function mupdfRaw(): MupdfRaw | null {
  if (cached !== undefined) return cached;
  const m = (globalThis as { $libmupdf_wasm_Module?: Record<string, unknown> }).$libmupdf_wasm_Module;
  const ok = !!m && m.HEAPF32 instanceof Float32Array && m.HEAP32 instanceof Int32Array && m.HEAPU32 instanceof Uint32Array && NEEDED.every((k) => typeof m[k] === "function");
  cached = ok ? (m as unknown as MupdfRaw) : null;
  return cached;
}
