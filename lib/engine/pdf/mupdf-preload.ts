/**
 * Import first thing in a process entry point, before anything imports `mupdf`: MuPDF.js then
 * builds its WASM module on this object, and lib/engine/pdf/mupdf-handle.ts can reach its raw
 * exports for hot loops. Without it everything still works, a little slower. Sandbox children
 * also get scripts/mupdf-preload.mjs through `--import` (the compiled bundle may load mupdf from
 * a chunk before the entry's own code runs).
 */
const g = globalThis as { $libmupdf_wasm_Module?: object };
g.$libmupdf_wasm_Module ??= {};
export {};
