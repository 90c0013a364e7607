import type { RunResult, SourceFile } from "@/lib/operations/runner-types";

/**
 * Messages between the sandbox pool (parent) and a child (lib/jobs/sandbox/child-runtime.ts), sent
 * over the IPC channel with the "advanced" (structured clone) serialization.
 */

/** An error as it crosses the process boundary; QuireErrors keep their status. */
export interface WireError {
  name: string;
  message: string;
  status?: number;
  stack?: string;
}

export type ParentMessage =
  | {
      type: "run";
      jobId: number;
      /** The runner's id in the child's registry (an operation id, or an internal task such as "pdf-preview"). */
      opId: string;
      params: unknown;
      sources: SourceFile[];
      workDir: string;
    }
  | { type: "fetch-result"; reqId: number; ok: true; path: string; contentType: string; name: string }
  | { type: "fetch-result"; reqId: number; ok: false; error: WireError };

export type ChildMessage =
  | { type: "ready" }
  | { type: "log"; jobId: number; message: string }
  | { type: "fetch"; jobId: number; reqId: number; url: string }
  | { type: "done"; jobId: number; result: RunResult }
  /** `fatal`: the child is going down (uncaught exception) and must not get another job. */
  | { type: "error"; jobId: number; error: WireError; fatal?: boolean };
