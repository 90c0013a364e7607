import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { RunResult, Runner, SourceFile } from "@/lib/operations/runner-types";

/** A temporary work directory with sources written into it, removed by `cleanup`. */
export function workspace(prefix = "quire-pages-") {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  let n = 0;
  return {
    dir,
    source(name: string, bytes: Uint8Array, contentType = ""): SourceFile {
      const p = path.join(dir, `source-${n++}`);
      fs.writeFileSync(p, bytes);
      return { path: p, name, contentType, size: bytes.length, url: `https://example.test/${name}` };
    },
    cleanup: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

/** Runs a runner as the sandbox child does; returns its result and the bytes of each output. */
export async function runRunner<P>(
  run: Runner<P>,
  params: P,
  sources: SourceFile[],
  dir: string,
): Promise<RunResult & { files: Buffer[] }> {
  const workDir = fs.mkdtempSync(path.join(dir, "work-"));
  const result = await run({
    params,
    sources,
    workDir,
    fetchUrl: async () => {
      throw new Error("no secondary URLs in these tests");
    },
    log: () => {},
  });
  return { ...result, files: (result.outputs ?? []).map((o) => fs.readFileSync(o.path)) };
}

/** The status of the QuireError a promise rejects with (undefined when it resolves). */
export async function statusOf(p: Promise<unknown>): Promise<number | undefined> {
  try {
    await p;
  } catch (e) {
    return (e as { status?: number }).status;
  }
  return undefined;
}

/** The message of the error a promise rejects with. */
export async function messageOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    return (e as Error).message;
  }
  return "";
}
