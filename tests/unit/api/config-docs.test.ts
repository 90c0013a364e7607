import { describe, expect, it } from "vitest";
import fs from "node:fs";
import path from "node:path";
import { configDocs, internalEnv } from "@/lib/core/config";

const root = path.resolve(import.meta.dirname, "../../..");

/** Every source file the server, the worker and the dashboard run. */
function sources(dir: string, out: string[] = []): string[] {
  for (const e of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = path.join(dir, e.name);
    if (e.isDirectory()) sources(rel, out);
    else if (/\.(ts|tsx|mjs|js)$/.test(e.name)) out.push(rel);
  }
  return out;
}

/** Names of the environment variables the code reads: process.env.X, env.X, envNumber("X"…), the schema's keys. */
function settingsReadByCode(): Map<string, string> {
  const found = new Map<string, string>();
  const patterns = [
    /process\.env\.([A-Z][A-Z0-9_]+)/g,
    /process\.env\[\s*["']([A-Z][A-Z0-9_]+)["']\s*\]/g,
    /\benv\.([A-Z][A-Z0-9_]+)/g,
    /\benv(?:Number|Flag|String|Bool)\(\s*["']([A-Z][A-Z0-9_]+)["']/g,
  ];
  for (const file of [...sources("lib"), ...sources("app"), ...sources("scripts")]) {
    const text = fs.readFileSync(path.join(root, file), "utf8");
    for (const re of patterns) for (const m of text.matchAll(re)) if (!found.has(m[1])) found.set(m[1], file);
  }
  // The schema's keys (lib/core/config.ts): `NAME: z.…`
  const config = fs.readFileSync(path.join(root, "lib/core/config.ts"), "utf8");
  const schema = config.slice(config.indexOf("const envSchema"), config.indexOf("});", config.indexOf("const envSchema")));
  for (const m of schema.matchAll(/^\s+([A-Z][A-Z0-9_]+):/gm)) if (!found.has(m[1])) found.set(m[1], "lib/core/config.ts");
  return found;
}

describe("configuration docs", () => {
  it("the README's table lists every setting of configDocs with its default", () => {
    const readme = fs.readFileSync(path.join(root, "README.md"), "utf8");
    for (const [name, def] of configDocs) expect(readme).toContain(`| \`${name}\` | ${def} |`);
  });

  it("every environment variable the code reads is documented (or named internal, with a reason)", () => {
    const documented = new Set(configDocs.map(([name]) => name));
    const internal = new Set(Object.keys(internalEnv));
    const read = settingsReadByCode();
    expect(read.size).toBeGreaterThan(40); // the scan itself works
    const missing = [...read].filter(([name]) => !documented.has(name) && !internal.has(name)).map(([n, f]) => `${n} (${f})`);
    expect(missing).toEqual([]);
    // …and nothing is documented that the code no longer reads.
    const stale = [...documented].filter((name) => !read.has(name));
    expect(stale).toEqual([]);
  });
});
