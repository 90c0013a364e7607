import { afterAll, beforeAll, describe, expect, it } from "vitest";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { QuireError, engineTrapCause } from "@/lib/core/errors";
import { createSandboxPool, type SandboxPool, type SandboxRunOptions } from "@/lib/jobs/sandbox/pool";
import { operationRunners } from "@/lib/operations/runners";
import { makePdf } from "@/tests/helpers/pdf-fixtures";

// Issue 20 §1: a child whose WASM engine traps answers the job (500, naming the cause), then
// is replaced; the next job — whatever it is — starts on a healthy child.

const noFetch: SandboxRunOptions["fetchUrl"] = async () => {
  throw new QuireError(400, "no fetch in this test");
};

let dir: string;
let pool: SandboxPool;
const logs: string[] = [];
let pdfPath: string;
const savedHooks = process.env.QUIRE_TEST_HOOKS;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "quire-trap-"));
  pdfPath = path.join(dir, "three.pdf");
  fs.writeFileSync(pdfPath, makePdf({ pages: 3 }));
  process.env.QUIRE_TEST_HOOKS = "1"; // read by the children the pool forks below
  // One child only: the call after a trap cannot land anywhere but on the replacement.
  pool = createSandboxPool({ size: 1, timeoutMs: 60_000, memoryMb: 1024, logger: (l) => logs.push(l) });
});
afterAll(async () => {
  await pool?.close();
  if (savedHooks === undefined) delete process.env.QUIRE_TEST_HOOKS;
  else process.env.QUIRE_TEST_HOOKS = savedHooks;
  fs.rmSync(dir, { recursive: true, force: true });
});

function source() {
  return {
    path: pdfPath,
    name: "three.pdf",
    contentType: "application/pdf",
    size: fs.statSync(pdfPath).size,
    url: "https://example.com/three.pdf",
  };
}

async function failure(p: Promise<unknown>): Promise<QuireError> {
  try {
    await p;
  } catch (e) {
    return e as QuireError;
  }
  throw new Error("expected the run to fail");
}

describe("engineTrapCause", () => {
  it("recognises WASM traps, also wrapped as a 442 message, and nothing else", () => {
    let trap: unknown;
    try {
      // (module (memory 1) (func (export "f") (result i32) i32.const 100000 i32.load))
      const bytes = new Uint8Array([
        0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 127, 3, 2, 1, 0, 5, 3, 1, 0, 1, 7, 5, 1, 1, 102, 0, 0,
        10, 11, 1, 9, 0, 65, 160, 141, 6, 40, 2, 0, 11,
      ]);
      (new WebAssembly.Instance(new WebAssembly.Module(bytes)).exports.f as () => number)();
    } catch (e) {
      trap = e;
    }
    expect(trap).toBeInstanceOf(WebAssembly.RuntimeError);
    expect(engineTrapCause(trap)).toBe("RuntimeError: memory access out of bounds");
    expect(
      engineTrapCause(
        new QuireError(
          442,
          "the file is not a PDF or is damaged beyond repair: memory access out of bounds.",
        ),
      ),
    ).toBe("RuntimeError: memory access out of bounds");
    expect(
      engineTrapCause(
        new QuireError(442, "the file is not a PDF or is damaged beyond repair: no objects found."),
      ),
    ).toBeUndefined();
    expect(engineTrapCause(new Error("connect EHOSTUNREACH: host unreachable"))).toBeUndefined();
    expect(engineTrapCause("memory access out of bounds")).toBeUndefined();
  });
});

describe("a sandbox child that traps", () => {
  const kinds = [...Object.keys(operationRunners), "pdf-preview", "work-budget"];

  it("is replaced after answering 500, and the next call succeeds, for every operation kind", async () => {
    for (const opId of kinds) {
      const startedBefore = pool.stats().started;
      const err = await failure(
        pool.run(
          { opId, params: { __quireTestTrap: true }, sources: [source()], workDir: dir },
          { fetchUrl: noFetch },
        ),
      );
      expect(err, opId).toBeInstanceOf(QuireError);
      expect(err.status, `${opId}: ${err.message}`).toBe(500);
      expect(err.message, opId).toMatch(/RuntimeError: memory access out of bounds/);
      expect(err.message, opId).toMatch(/replaced/);
      // The next call, on any file, lands on a fresh child and succeeds.
      const next = await pool.run(
        { opId: "pdf-info", params: {}, sources: [source()], workDir: dir },
        { fetchUrl: noFetch },
      );
      expect(next.pageCount, opId).toBe(3);
      expect(pool.stats().started, opId).toBe(startedBefore + 1);
    }
  }, 300_000);

  it("keeps a child whose job failed for an ordinary reason (a damaged file is 442, not a restart)", async () => {
    const bad = path.join(dir, "bad.pdf");
    fs.writeFileSync(bad, "%PDF-1.7\nthis is not really a pdf\n%%EOF\n");
    const startedBefore = pool.stats().started;
    const err = await failure(
      pool.run(
        {
          opId: "pdf-info",
          params: {},
          sources: [{ ...source(), path: bad, size: fs.statSync(bad).size }],
          workDir: dir,
        },
        { fetchUrl: noFetch },
      ),
    );
    expect(err.status).toBe(442);
    const next = await pool.run(
      { opId: "pdf-info", params: {}, sources: [source()], workDir: dir },
      { fetchUrl: noFetch },
    );
    expect(next.pageCount).toBe(3);
    expect(pool.stats().started).toBe(startedBefore);
  }, 60_000);
});
