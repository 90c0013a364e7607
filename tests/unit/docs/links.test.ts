import { describe, expect, it } from "vitest";
import fs from "node:fs";
import path from "node:path";

/**
 * The README and docs/ name only what a reader of the repository has: every relative link and
 * every file path written in code spans (`lib/…`, `docs/…`, `tests/…`…) exists in the checkout.
 */
const root = path.resolve(import.meta.dirname, "../../..");
const docs = ["README.md", ...fs.readdirSync(path.join(root, "docs")).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`)];
const repoDirs = ["lib", "app", "components", "docs", "tests", "scripts", "bench", "public", ".ci", "deploy"];

function referencedPaths(file: string): Array<{ ref: string; line: number }> {
  const text = fs.readFileSync(path.join(root, file), "utf8");
  const out: Array<{ ref: string; line: number }> = [];
  text.split("\n").forEach((line, i) => {
    for (const m of line.matchAll(/\]\(([^)\s#]+)(?:#[^)]*)?\)/g)) {
      const target = m[1];
      if (/^[a-z]+:/i.test(target) || target.startsWith("#")) continue;
      out.push({ ref: path.normalize(path.join(path.dirname(file), target)), line: i + 1 });
    }
    for (const m of line.matchAll(/`([^`\s]+)`/g)) {
      const token = m[1].replace(/[:,.;)]+$/, "").replace(/:\d+(-\d+)?$/, "");
      const first = token.split("/")[0];
      if (!token.includes("/") || !repoDirs.includes(first)) continue;
      if (/[<>*{}$[\]…]|\.\.\./.test(token)) continue; // a pattern or a placeholder, not a file
      out.push({ ref: token.replace(/\/$/, ""), line: i + 1 });
    }
  });
  return out;
}

describe("docs name only files the repository has", () => {
  for (const file of docs) {
    it(file, () => {
      const missing = referencedPaths(file)
        .filter(({ ref }) => !fs.existsSync(path.join(root, ref)))
        .map(({ ref, line }) => `${file}:${line} → ${ref}`);
      expect(missing).toEqual([]);
    });
  }

  it("the check sees the references (README and docs name many repository files)", () => {
    expect(docs.flatMap(referencedPaths).length).toBeGreaterThan(50);
  });

  it("no document cites files outside the repository (internal notes, style guides, seeds)", () => {
    const outside = /\b(API-COMPAT\.md|STYLE\.md|ARCHITECTURE\.md|DEVELOPERS\.md|the seed\b|the lead\b)/;
    const hits = docs.flatMap((file) =>
      fs
        .readFileSync(path.join(root, file), "utf8")
        .split("\n")
        .map((l, i) => (outside.test(l) ? `${file}:${i + 1}: ${l.trim().slice(0, 120)}` : ""))
        .filter(Boolean),
    );
    expect(hits).toEqual([]);
  });
});
