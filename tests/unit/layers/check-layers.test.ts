import { afterAll, describe, expect, it } from "vitest";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { checkLayers, layerOf } from "@/scripts/check-layers";

const root = path.resolve(import.meta.dirname, "../../..");
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "quire-layers-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** A small project tree in a temporary directory: path → source. */
function project(files: Record<string, string>) {
  const dir = fs.mkdtempSync(path.join(tmp, "p-"));
  for (const [f, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
    fs.writeFileSync(path.join(dir, f), text);
  }
  return checkLayers(dir).violations.map((v) => `${v.file}:${v.line} ${v.message}`);
}

describe("layering check (scripts/check-layers.ts)", () => {
  it("passes on this repository", () => {
    const r = checkLayers(root);
    expect(r.violations).toEqual([]);
    expect(r.files).toBeGreaterThan(200);
  });

  it("every source folder of lib/ has a layer", () => {
    for (const d of fs.readdirSync(path.join(root, "lib"))) expect(layerOf(`lib/${d}/x.ts`), d).toBeTruthy();
  });

  it("flags imports that point up, with file and line, type-only ones too", () => {
    const v = project({
      "lib/engine/pdf.ts": 'import { x } from "@/lib/core/errors";\nimport { sendJson } from "@/lib/api/http";\n',
      "lib/core/errors.ts": 'import type { Caller } from "../api/auth";\nexport const x = 1;\n',
      "lib/api/http.ts": "export const sendJson = 1;\n",
      "lib/api/auth.ts": "export type Caller = {};\n",
      "lib/dashboard/nav.ts": 'import type { IconName } from "@/components/ui/icon";\n',
      "components/ui/icon.tsx": "export type IconName = string;\n",
    });
    expect(v).toEqual([
      "lib/core/errors.ts:1 imports lib/api/auth.ts (type only): core (lib/core) may not import api, a higher layer",
      "lib/dashboard/nav.ts:1 imports components/ui/icon.tsx (type only): dashboard (lib/dashboard) may not import components, a higher layer",
      "lib/engine/pdf.ts:2 imports lib/api/http.ts: engine (lib/engine) may not import api, a higher layer",
    ]);
  });

  it("flags peers of the same rank and private imports", () => {
    const v = project({
      "lib/server/main.ts": 'import { Nav } from "@/components/nav";\n',
      "components/nav.tsx": "export const Nav = 1;\n",
      "lib/auth/upstream.ts": "export const getProxyTarget = 1;\n",
      "lib/dashboard/server/forward.ts": 'import { getProxyTarget } from "@/lib/auth/upstream";\n',
      "lib/dashboard/server/upstream.ts": 'import { getProxyTarget } from "@/lib/auth/upstream";\n',
    });
    expect(v).toHaveLength(2);
    expect(v[0]).toMatch(/^lib\/server\/main.ts:1 .*same rank/);
    expect(v[1]).toMatch(/^lib\/dashboard\/server\/forward.ts:1 imports getProxyTarget/);
  });

  it("flags a cycle of runtime imports, not one closed by a type-only or a lazy import", () => {
    const v = project({
      "components/a.tsx": 'import { b } from "./b";\nexport const a = 1;\n',
      "components/b.tsx": 'import { a } from "./a";\nexport const b = 1;\n',
      "lib/api/routes.ts": 'export const routes = [() => import("./handlers")];\n',
      "lib/api/handlers.ts": 'import { routes } from "./routes";\nimport type { T } from "./types";\n',
      "lib/api/types.ts": 'import { routes } from "./routes";\nexport type T = 1;\n',
    });
    expect(v).toEqual(["components/a.tsx:1 import cycle: components/a.tsx → components/b.tsx → components/a.tsx"]);
  });
});
