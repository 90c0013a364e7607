// Registered with `node --import ./scripts/node-hooks.mjs`: outside Next's bundler (custom server,
// workers, sandbox children, CLI) the `server-only` guard resolves to an empty module. Next's
// compiler still rejects it in client components, which is where the guard matters.
import { register } from "node:module";
register("./node-resolve-hook.mjs", import.meta.url);
