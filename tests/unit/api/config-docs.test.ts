import { describe, expect, it } from "vitest";
import fs from "node:fs";
import path from "node:path";
import { configDocs } from "@/lib/core/config";

describe("README configuration table", () => {
  it("lists every setting of lib/config with its default", () => {
    const readme = fs.readFileSync(path.resolve(import.meta.dirname, "../../../README.md"), "utf8");
    for (const [name, def] of configDocs) expect(readme).toContain(`| \`${name}\` | ${def} |`);
  });
});
