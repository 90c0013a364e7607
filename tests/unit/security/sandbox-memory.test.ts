import { afterAll, beforeAll, describe, expect, it } from "vitest";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { QuireError } from "@/lib/core/errors";
import { createSandboxPool, type SandboxPool, type SandboxRunOptions } from "@/lib/jobs/sandbox/pool";

// Issue 10 §4: a child keeps the WASM memory of its largest job; the next job must not inherit it.
const childModule = path.join(path.dirname(fileURLToPath(import.meta.url)), "../sandbox/fixtures/child.ts");
const noFetch: SandboxRunOptions["fetchUrl"] = async () => {
  throw new QuireError(400, "no fetch in this test");
};

let dir: string;
let pool: SandboxPool;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "quire-mem-"));
  pool = createSandboxPool({
    size: 1,
    timeoutMs: 30_000,
    memoryMb: 600,
    recycleAboveMb: 200,
    childModule,
    logger: () => {},
  });
});
afterAll(async () => {
  await pool?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("sandbox memory", () => {
  it("replaces a child after a job with a large peak, so the next job of the same size fits the cap", async () => {
    const run = () =>
      pool.run({ opId: "wasm-grow", params: { mb: 350 }, sources: [], workDir: dir }, { fetchUrl: noFetch });
    const first = await run();
    // Without the recycle the second job would start at ~350 MB and pass 600 MB: 413.
    const second = await run();
    expect(second.fields?.pid).not.toBe(first.fields?.pid);
    expect(pool.stats().started).toBeGreaterThanOrEqual(2);
  }, 60_000);

  it("keeps a child whose job's helper process (a browser, LibreOffice) was large: its memory went with it", async () => {
    const run = () =>
      pool.run({ opId: "big-helper", params: { mb: 300 }, sources: [], workDir: dir }, { fetchUrl: noFetch });
    const first = await run();
    const second = await run();
    expect(second.fields?.pid).toBe(first.fields?.pid);
  }, 60_000);
});

describe("sandbox priorities", () => {
  let p2: SandboxPool;
  beforeAll(() => {
    p2 = createSandboxPool({ size: 2, timeoutMs: 30_000, memoryMb: 512, childModule, logger: () => {} });
  });
  afterAll(async () => {
    await p2?.close();
  });

  it("a short interactive call does not wait behind long background jobs", async () => {
    // Warm both children first.
    await Promise.all(
      [0, 1].map((i) =>
        p2.run(
          { opId: "sleep", params: { ms: 10, id: `w${i}` }, sources: [], workDir: dir },
          { fetchUrl: noFetch },
        ),
      ),
    );
    const t0 = Date.now();
    const background = [0, 1, 2, 3].map((i) =>
      p2.run(
        { opId: "sleep", params: { ms: 2500, id: `b${i}` }, sources: [], workDir: dir },
        { fetchUrl: noFetch, priority: "background" },
      ),
    );
    await new Promise((r) => setTimeout(r, 100));
    const quick = await p2.run(
      { opId: "sleep", params: { ms: 10, id: "quick" }, sources: [], workDir: dir },
      { fetchUrl: noFetch },
    );
    expect(quick.fields?.id).toBe("quick");
    expect(Date.now() - t0).toBeLessThan(2000);
    const ends = (await Promise.all(background)).map((r) => r.fields?.id);
    expect(ends.sort()).toEqual(["b0", "b1", "b2", "b3"]);
  }, 60_000);
});
