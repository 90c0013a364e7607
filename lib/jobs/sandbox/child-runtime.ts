import "server-only";
import fs from "node:fs/promises";
import { QuireError, isQuireError } from "@/lib/core/errors";
import type { RunContext, Runner } from "@/lib/operations/runner-types";
import type { ChildMessage, ParentMessage, WireError } from "./protocol";

/** Finds the runner of an id (an operation or an internal task); undefined when there is none. */
export type FindRunner = (id: string) => (() => Promise<Runner<never>>) | undefined;

/**
 * The life of one sandbox child process (forked by pool.ts): it runs one job at a time, looks the
 * runner up by id through `findRunner`, calls it and reports back over IPC. It has no database
 * access; secondary URLs are fetched by the parent (ctx.fetchUrl) and handed over as files.
 * lib/jobs/sandbox/child.ts starts it with Quire's runner registry; tests start it with fixtures.
 */
export function startSandboxChild(findRunner: FindRunner): void {
  let currentJob: number | undefined;
  let nextReqId = 0;
  const pendingFetches = new Map<
    number,
    { resolve: (v: { bytes: Buffer; contentType: string; name: string }) => void; reject: (e: unknown) => void }
  >();

  function send(msg: ChildMessage, then?: () => void): void {
    process.send!(msg, undefined, undefined, then);
  }

  function toWire(e: unknown): WireError {
    if (isQuireError(e)) return { name: "QuireError", status: e.status, message: e.message };
    if (e instanceof Error) return { name: e.name, message: e.message, stack: e.stack };
    return { name: "Error", message: String(e) };
  }

  function fetchThroughParent(jobId: number, url: string) {
    const reqId = ++nextReqId;
    return new Promise<{ bytes: Buffer; contentType: string; name: string }>((resolve, reject) => {
      pendingFetches.set(reqId, { resolve, reject });
      send({ type: "fetch", jobId, reqId, url });
    });
  }

  async function runJob(msg: Extract<ParentMessage, { type: "run" }>) {
    const { jobId } = msg;
    currentJob = jobId;
    try {
      const load = findRunner(msg.opId);
      if (!load) throw new Error(`no runner is registered for ${JSON.stringify(msg.opId)}`);
      const run = (await load()) as Runner<unknown>;
      const ctx: RunContext<unknown> = {
        params: msg.params,
        sources: msg.sources,
        workDir: msg.workDir,
        fetchUrl: (url) => fetchThroughParent(jobId, String(url)),
        log: (message) => send({ type: "log", jobId, message: String(message) }),
      };
      const result = (await run(ctx)) ?? {};
      try {
        send({ type: "done", jobId, result });
      } catch (e) {
        // e.g. a function or a class instance that structured clone cannot copy
        send({
          type: "error",
          jobId,
          error: toWire(new Error(`the runner's result cannot be sent to the parent: ${(e as Error).message}`)),
        });
      }
    } catch (e) {
      send({ type: "error", jobId, error: toWire(e) });
    } finally {
      currentJob = undefined;
    }
  }

  async function onFetchResult(msg: Extract<ParentMessage, { type: "fetch-result" }>) {
    const pending = pendingFetches.get(msg.reqId);
    if (!pending) return;
    pendingFetches.delete(msg.reqId);
    if (!msg.ok) {
      const { error } = msg;
      pending.reject(
        error.name === "QuireError" && error.status
          ? new QuireError(error.status as QuireError["status"], error.message)
          : new Error(error.message),
      );
      return;
    }
    try {
      const bytes = await fs.readFile(msg.path);
      await fs.rm(msg.path, { force: true });
      pending.resolve({ bytes, contentType: msg.contentType, name: msg.name });
    } catch (e) {
      pending.reject(e);
    }
  }

  process.on("message", (msg: ParentMessage) => {
    if (msg.type === "run") void runJob(msg);
    else if (msg.type === "fetch-result") void onFetchResult(msg);
  });

  // A runner that throws outside its promise chain leaves this process in an unknown state:
  // report it for the current job, then exit so the pool starts a fresh child.
  function fatal(e: unknown) {
    const jobId = currentJob ?? -1;
    try {
      send({ type: "error", jobId, error: toWire(e), fatal: true }, () => process.exit(1));
    } catch {
      process.exit(1);
    }
    setTimeout(() => process.exit(1), 1000).unref();
  }
  process.on("uncaughtException", fatal);
  process.on("unhandledRejection", fatal);
  // The parent went away: nothing left to do.
  process.on("disconnect", () => process.exit(0));

  send({ type: "ready" });
}
