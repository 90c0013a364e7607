// vitest setup (unit project): register for MuPDF.js's raw module before any test loads mupdf,
// as the sandbox child and the tsx entry points do, so unit tests run the production fast paths.
import "@/lib/engine/pdf/mupdf-preload";
