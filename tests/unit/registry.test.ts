import { describe, expect, it } from "vitest";
import fs from "node:fs";
import path from "node:path";
import { operations } from "@/lib/operations/registry";
import { buildOpenApi } from "@/lib/api/openapi";
import { shapeOf } from "@/lib/operations/wire";
import { buildFormModel, type FieldModel } from "@/lib/dashboard/operations/form-model";
import { categoryLabels } from "@/lib/dashboard/shell/nav";

/** Every field of a form model, array items' fields included, by dotted name. */
function allFields(fields: FieldModel[], prefix = ""): [string, FieldModel][] {
  return fields.flatMap((f) => [[prefix + f.name, f] as [string, FieldModel], ...allFields(f.itemFields ?? [], `${prefix}${f.name}[].`)]);
}

const root = path.resolve(import.meta.dirname, "../..");
const allTests = (dir: string) =>
  fs
    .readdirSync(path.join(root, dir), { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".test.ts"))
    .map((f) => fs.readFileSync(path.join(root, dir, f), "utf8"))
    .join("\n");

/** STYLE.md §12: every operation is complete — contract, runner, OpenAPI entry, form metadata, unit and API tests. */
describe("operation registry", () => {
  const openapi = buildOpenApi();
  const unitTests = allTests("tests/unit");
  const apiTests = allTests("tests/api");

  it("ids and paths are unique", () => {
    expect(new Set(operations.map((o) => o.id)).size).toBe(operations.length);
    expect(new Set(operations.map((o) => o.path)).size).toBe(operations.length);
  });

  for (const op of operations) {
    describe(op.id, () => {
      it("has a runner beside its contract", () => {
        const runner = path.join(root, "lib/operations", op.id, "runner.ts");
        expect(fs.existsSync(runner)).toBe(true);
        expect(fs.readFileSync(runner, "utf8")).toMatch(/export const run\b/);
      });
      it("has an OpenAPI entry", () => {
        expect((openapi.paths as Record<string, any>)[op.path]?.post?.operationId).toBe(op.id);
      });
      it("labels every field for the dashboard form", () => {
        const shape = shapeOf(op.params)!;
        for (const [key, field] of Object.entries(shape)) {
          const meta = (field as { meta(): Record<string, unknown> | undefined }).meta();
          expect(meta?.label, `${op.id}.${key} has no label`).toBeTruthy();
        }
      });
      it("gives every form field (array items' too) a human label and help text", () => {
        for (const [name, f] of allFields(buildFormModel(op).fields)) {
          // A plain word ("Worksheets") may be its own label; an API name (x, fontName, field_name) may not.
          const looksLikeCode = /^[a-z]|[a-z][A-Z]|[_.]/.test(f.key);
          expect(f.label !== f.key || !looksLikeCode, `${op.id}: ${name} is labelled with its API name "${f.key}"`).toBe(true);
          expect(f.help?.trim(), `${op.id}: ${name} has no help text`).toBeTruthy();
          // A box that shows unchecked while the API applies true says the opposite of what it does.
          if (f.kind === "boolean" && /\(default true\)|default: true/i.test(f.help ?? "")) expect(f.default, `${op.id}: ${name} says it defaults to true but declares no default`).toBe(true);
        }
      });
      it("has a human title and a category the dashboard lists", () => {
        expect(op.title).not.toMatch(/^[a-z0-9-]+$/);
        expect(Object.keys(categoryLabels)).toContain(op.category);
      });
      it("has unit tests and API tests", () => {
        expect(unitTests.includes(op.id) || unitTests.includes(`lib/operations/${op.id}`), `no unit test mentions ${op.id}`).toBe(true);
        expect(apiTests.includes(op.path), `no API test calls ${op.path}`).toBe(true);
      });
    });
  }
});

describe("runner registry (lib/operations/runners.ts)", () => {
  it("has exactly one runner per operation, and each loads its folder's `run`", async () => {
    const { operationRunners } = await import("@/lib/operations/runners");
    expect(Object.keys(operationRunners).sort()).toEqual(operations.map((o) => o.id).sort());
    for (const op of operations) {
      const mod = await import(`@/lib/operations/${op.id}/runner`);
      expect(await operationRunners[op.id](), op.id).toBe(mod.run);
    }
  });
});
