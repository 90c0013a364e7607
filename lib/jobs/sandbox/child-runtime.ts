import "server-only";
import fs from "node:fs/promises";
import { QuireError, engineTrapCause, isQuireError } from "@/lib/core/errors";
import type { RunContext, RunResult, Runner } from "@/lib/operations/runner-types";
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
  /** Set by the test-only trap hook: a reused child would answer every job with the trap's 442. */
  let poisoned = false;
  let nextReqId = 0;
  const pendingBeside = new Map<number, { resolve: (v: RunResult | null) => void; reject: (e: unknown) => void }>();
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

  function runBeside(jobId: number, opId: string, params: unknown) {
    const reqId = ++nextReqId;
    return new Promise<RunResult | null>((resolve, reject) => {
      pendingBeside.set(reqId, { resolve, reject });
      send({ type: "beside", jobId, reqId, opId, params });
    });
  }

  function onBesideResult(msg: Extract<ParentMessage, { type: "beside-result" }>) {
    const pending = pendingBeside.get(msg.reqId);
    if (!pending) return;
    pendingBeside.delete(msg.reqId);
    if (msg.ok) pending.resolve(msg.result);
    else if (msg.busy || !msg.error) pending.resolve(null);
    else {
      const { error } = msg;
      pending.reject(
        error.name === "QuireError" && error.status
          ? new QuireError(error.status as QuireError["status"], error.message)
          : new Error(error.message),
      );
    }
  }

  async function runJob(msg: Extract<ParentMessage, { type: "run" }>) {
    const { jobId } = msg;
    currentJob = jobId;
    try {
      const load = findRunner(msg.opId);
      if (!load) throw new Error(`no runner is registered for ${JSON.stringify(msg.opId)}`);
      const run = (await load()) as Runner<unknown>;
      if (testHooks && hasTestTrap(msg.params)) {
        poisoned = true;
        trapForTests();
      }
      if (poisoned) throw new QuireError(442, "the file is not a PDF or is damaged beyond repair: memory access out of bounds.");
      const ctx: RunContext<unknown> = {
        params: msg.params,
        sources: msg.sources,
        workDir: msg.workDir,
        fetchUrl: (url) => fetchThroughParent(jobId, String(url)),
        log: (message) => send({ type: "log", jobId, message: String(message) }),
        besideSlots: msg.besideSlots ?? 0,
        runBeside: (opId, params) => runBeside(jobId, opId, params),
      };
      const result = (await run(ctx)) ?? {};
      // The text result is used only for `inline: true` (execute-job.ts); otherwise the output
      // file carries it, and a long text is not copied across the channel for nothing.
      if (result.inlineText !== undefined && (msg.params as { inline?: unknown } | null)?.inline !== true) delete result.inlineText;
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
      const trap = engineTrapCause(e);
      if (trap) {
        // A WASM engine trapped: its memory may be corrupt, and every later job on this child could
        // fail (or worse, succeed wrongly). Answer this job, then exit: the pool starts a fresh child.
        const error: WireError = { name: "EngineTrap", message: trap, stack: (e as Error)?.stack };
        try {
          send({ type: "error", jobId, error, fatal: true }, () => process.exit(1));
        } catch {
          process.exit(1);
        }
        setTimeout(() => process.exit(1), 1000).unref();
        return;
      }
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
    else if (msg.type === "beside-result") onBesideResult(msg);
  });

  // A runner that throws outside its promise chain leaves this process in an unknown state:
  // report it for the current job, then exit so the pool starts a fresh child.
  function fatal(e: unknown) {
    const jobId = currentJob ?? -1;
    const trap = engineTrapCause(e);
    const error: WireError = trap ? { name: "EngineTrap", message: trap, stack: (e as Error)?.stack } : toWire(e);
    try {
      send({ type: "error", jobId, error, fatal: true }, () => process.exit(1));
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

/**
 * Test-only hooks, on when the child's environment has QUIRE_TEST_HOOKS=1 (never set in
 * production): a job whose params carry `__quireTestTrap: true` makes a real WebAssembly trap
 * (an out-of-bounds load) and marks the child poisoned, as a MuPDF trap does.
 */
const testHooks = process.env.QUIRE_TEST_HOOKS === "1";

function hasTestTrap(params: unknown): boolean {
  return typeof params === "object" && params !== null && (params as Record<string, unknown>).__quireTestTrap === true;
}

// (module (memory 1) (func (export "f") (result i32) i32.const 100000 i32.load))
const trapModule = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, 0x01, 0x05, 0x01, 0x60, 0x00, 0x01, 0x7f, 0x03, 0x02, 0x01, 0x00,
  0x05, 0x03, 0x01, 0x00, 0x01, 0x07, 0x05, 0x01, 0x01, 0x66, 0x00, 0x00, 0x0a, 0x0b, 0x01, 0x09, 0x00, 0x41, 0xa0,
  0x8d, 0x06, 0x28, 0x02, 0x00, 0x0b,
]);

function trapForTests(): never {
  const instance = new WebAssembly.Instance(new WebAssembly.Module(trapModule));
  (instance.exports.f as () => number)();
  throw new Error("the test trap did not trap");
}
