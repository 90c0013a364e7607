// Loaded with `node --import` into sandbox children (lib/jobs/sandbox/pool.ts), compiled or not:
// MuPDF.js builds its WASM module on this object when it exists before MuPDF.js loads, which lets
// hot loops read its raw exports (lib/engine/pdf/mupdf-handle.ts). In the compiled bundle an
// import inside the entry could run after a chunk has already loaded mupdf, hence a preload.
globalThis.$libmupdf_wasm_Module ??= {};
