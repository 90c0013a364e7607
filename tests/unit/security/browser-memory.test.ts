import { afterAll, beforeAll, describe, expect, it } from "vitest";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { QuireError } from "@/lib/core/errors";
import { findChromium } from "@/lib/engine/browser/chromium-path";
import { createSandboxPool, descendantPids, readTreeRssKb, type SandboxPool } from "@/lib/jobs/sandbox/pool";
import { readPdf, startServer, type TestServer } from "@/tests/helpers/convert-fixtures";

/**
 * Issue 10 §4: Chromium's memory counts. The memory cap is on the sandbox child and everything it
 * started, so a page that takes gigabytes in the renderer fails with 413 and its browser dies with it.
 */
const hasChromium = !!findChromium().path;

describe.skipIf(!hasChromium)("memory of the browser a job starts", () => {
  let site: TestServer;
  let pool: SandboxPool;
  let dir: string;
  const savedAllow = process.env.EGRESS_ALLOW;

  beforeAll(async () => {
    site = await startServer({
      "/small": "<!doctype html><p>Small page</p>",
      "/hog": `<!doctype html><p>Hog page</p><script>
        window.keep = [];
        for (let i = 0; i < 40; i++) window.keep.push(new Uint8Array(64 * 1024 * 1024).fill(i + 1));
      </script>`,
    });
    process.env.EGRESS_ALLOW = `127.0.0.1:${site.port}`; // read by the children forked below
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "quire-browser-mem-"));
    pool = createSandboxPool({ size: 1, timeoutMs: 90_000, memoryMb: 1500, logger: () => {} });
  });
  afterAll(async () => {
    await pool?.close();
    await site?.close();
    if (savedAllow === undefined) delete process.env.EGRESS_ALLOW;
    else process.env.EGRESS_ALLOW = savedAllow;
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const run = (url: string) =>
    pool.run(
      { opId: "pdf-convert-from-url", params: { url }, sources: [], workDir: dir },
      {
        fetchUrl: async () => {
          throw new QuireError(400, "none");
        },
      },
    );

  it("counts the browser's processes and kills the whole tree past the cap (413)", async () => {
    const small = await run(`${site.origin}/small`);
    const out = small.outputs![0].path;
    expect(readPdf(fs.readFileSync(out)).texts[0]).toContain("Small page");

    const err = await run(`${site.origin}/hog`).then(
      () => undefined,
      (e: QuireError) => e,
    );
    expect(err?.status).toBe(413);
    expect(err?.message).toMatch(/more than 1500 MB/);

    // The killed tree took its browser with it: the next job gets a fresh child and browser.
    const after = await run(`${site.origin}/small`);
    expect(readPdf(fs.readFileSync(after.outputs![0].path)).texts[0]).toContain("Small page");
  }, 180_000);

  it("readTreeRssKb sums a process and its descendants", async () => {
    const own = await readTreeRssKb(process.pid);
    expect(own).toBeGreaterThan(10_000);
    expect(Array.isArray(await descendantPids(process.pid))).toBe(true);
  });
});
