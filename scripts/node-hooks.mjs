// Registered with `node --import ./scripts/node-hooks.mjs`: outside Next's bundler (custom server,
// workers, sandbox children, CLI) the `server-only` guard resolves to an empty module. Next's
// compiler still rejects it in client components, which is where the guard matters.
import { register } from "node:module";
register("./node-resolve-hook.mjs", import.meta.url);
// MuPDF.js builds its WASM module on this object when it exists, which lets hot loops read its
// raw exports (lib/engine/pdf/mupdf-handle.ts); must be set before anything imports mupdf.
globalThis.$libmupdf_wasm_Module ??= {};
