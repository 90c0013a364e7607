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
      /** Other children this job may ask to run part of its work (RunContext.besideSlots). */
      besideSlots?: number;
    }
  | { type: "fetch-result"; reqId: number; ok: true; path: string; contentType: string; name: string }
  /** The answer to a "beside" request: the part's result, its error, or `busy` (no child was free: do it yourself). */
  | { type: "beside-result"; reqId: number; ok: true; result: RunResult }
  | { type: "beside-result"; reqId: number; ok: false; busy?: boolean; error?: WireError }
  | { type: "fetch-result"; reqId: number; ok: false; error: WireError };

export type ChildMessage =
  | { type: "ready" }
  | { type: "log"; jobId: number; message: string }
  | { type: "fetch"; jobId: number; reqId: number; url: string }
  /** Run an internal task (`opId`) on another free child, on this job's sources and budgets. */
  | { type: "beside"; jobId: number; reqId: number; opId: string; params: unknown }
  | { type: "done"; jobId: number; result: RunResult }
  /** `fatal`: the child is going down (uncaught exception) and must not get another job. */
  | { type: "error"; jobId: number; error: WireError; fatal?: boolean };
