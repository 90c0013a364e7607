// `npm run build` (with `next build`): compiles the server entry points and the sandbox child from
// TypeScript to JavaScript in dist/, so a production process and its sandbox children start from
// plain JS and never compile at run time. Project code is bundled, split into shared chunks (each
// operation's runner, a dynamic import of lib/operations/runners.ts, becomes a chunk the child
// loads when it first runs that operation); npm packages stay external, loaded from node_modules.
import { build } from "esbuild";
import fs from "node:fs";
import path from "node:path";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
process.chdir(root);
const started = Date.now();
fs.rmSync("dist", { recursive: true, force: true });
await build({
  entryPoints: [
    "lib/server/main.ts",
    "lib/server/worker-main.ts",
    "lib/server/cli.ts",
    "lib/jobs/sandbox/child.ts",
  ],
  outdir: "dist",
  outbase: ".",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node22",
  packages: "external",
  // The `server-only` guard matters to Next's client bundles; on the server it is empty.
  alias: { "server-only": "./scripts/empty-module.mjs" },
  sourcemap: "linked",
  logLevel: "warning",
  // Some CommonJS-era code paths call require(); ESM output needs one defined.
  banner: {
    js: "import { createRequire as __quireRequire } from 'node:module'; const require = __quireRequire(import.meta.url);",
  },
});
fs.writeFileSync("dist/BUILD", `${new Date().toISOString()}\n`);
console.error(`quire: compiled the server to dist/ in ${Date.now() - started} ms`);
