import "server-only";
import { fork, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";
import { QuireError, errorCodes, isQuireError, toQuireError, type ErrorStatus } from "@/lib/core/errors";
import type { RunResult, SourceFile } from "@/lib/operations/runner-types";
import type { ChildMessage, ParentMessage, WireError } from "./protocol";

export interface SandboxPoolOptions {
  /** Child processes kept warm; each runs one job at a time. */
  size: number;
  /** Wall-time cap of one run; the child is SIGKILLed past it (408). */
  timeoutMs: number;
  /** Memory cap of one child (resident set, polled; also V8's old-space limit); SIGKILL past it (413). */
  memoryMb: number;
  /**
   * The module each child runs (default lib/jobs/sandbox/child.ts, which finds runners through
   * lib/operations/runners.ts). Tests pass an entry with fixture runners.
   */
  childModule?: string;
  /** Replace a child after this many jobs (default 100), so leaks and stray state do not pile up. */
  recycleAfter?: number;
  /**
   * Replace a child after a job whose own peak resident set (not its browser's or LibreOffice's)
   * passed this many MB (default: a quarter of memoryMb): WebAssembly memory never shrinks, so a child keeps the peak of its largest job
   * and the next small job on it would start near the cap.
   */
  recycleAboveMb?: number;
  /** How often the resident set is read (default 200 ms). */
  memoryPollMs?: number;
  /** Repository root (default: QUIRE_ROOT, else the root this file lives in, else the cwd). */
  root?: string;
  /** Where pool events, child stderr and runner logs go (default: stderr). */
  logger?: (line: string) => void;
  /** Run the child compiled to dist/ (npm run build) instead of TypeScript through tsx. */
  compiled?: boolean;
}

export interface SandboxJob {
  opId: string;
  params: unknown;
  sources: SourceFile[];
  workDir: string;
}

export interface SandboxRunOptions {
  /** Fetches a secondary URL for ctx.fetchUrl (egress guard or own storage); runs in the parent. */
  fetchUrl: (url: string) => Promise<{ bytes: Buffer; contentType: string; name: string }>;
  /** Aborting kills the job's child (or drops the job from the queue); run() rejects with the reason. */
  signal?: AbortSignal;
  /** Wall-time cap of this run instead of the pool's. */
  timeoutMs?: number;
  /** Receives ctx.log messages (default: the pool's logger). */
  log?: (message: string) => void;
  /**
   * "interactive" (default: a synchronous call, a preview) goes before "background" (queued async
   * jobs), and background jobs never take the last free child of a pool of two or more: a short
   * call does not wait behind long batch work.
   */
  priority?: "interactive" | "background";
}

export interface SandboxPool {
  /** Runs one operation in a child; rejects with a QuireError (or the abort reason). */
  run(job: SandboxJob, opts: SandboxRunOptions): Promise<RunResult>;
  /** Kills every child and fails queued and running jobs. */
  close(): Promise<void>;
  stats(): { size: number; ready: number; busy: number; queued: number; started: number };
}

interface Waiting {
  job: SandboxJob;
  opts: SandboxRunOptions;
  resolve: (r: RunResult) => void;
  reject: (e: unknown) => void;
  onQueuedAbort?: () => void;
}

interface Active extends Waiting {
  id: number;
  slot: Slot;
  settled: boolean;
  timer: NodeJS.Timeout;
  memTimer?: NodeJS.Timeout;
  onAbort?: () => void;
  /** Highest resident set of the child seen during this job (kB). */
  peakKb?: number;
  /** The latest resident set of the child's tree (kB). */
  lastKb?: number;
  /** When the job's wall time runs out (ms since the epoch). */
  deadlineAt: number;
  /** A part run beside a job (RunContext.runBeside): the job it belongs to. */
  owner?: Active;
  /** The parts this job started in other children. */
  parts?: Active[];
}

interface Slot {
  child: ChildProcess;
  ready: boolean;
  /** Killed or retired on purpose: its exit is expected and it takes no more jobs. */
  gone: boolean;
  active?: Active;
  jobsRun: number;
  stderrTail: string;
  startTimer?: NodeJS.Timeout;
}

const STARTUP_TIMEOUT_MS = 30_000;

/**
 * A pool of warm child processes that run operation runners off the HTTP event loop, each job
 * under a wall-time and a memory cap. WASM engines (mupdf, tesseract) allocate outside V8's heap,
 * so the memory cap is enforced on the resident set read from /proc, not only by V8's flag.
 */
export function createSandboxPool(options: SandboxPoolOptions): SandboxPool {
  const size = Math.max(1, Math.floor(options.size));
  const recycleAfter = options.recycleAfter ?? 100;
  const memoryPollMs = options.memoryPollMs ?? 200;
  const recycleAboveKb = (options.recycleAboveMb ?? Math.max(256, options.memoryMb / 4)) * 1024;
  const logger = options.logger ?? ((line: string) => process.stderr.write(line + "\n"));
  const root = findRoot(options.root);
  const childEntry =
    options.childModule ?? path.join(root, options.compiled ? "dist/lib/jobs/sandbox/child.js" : "lib/jobs/sandbox/child.ts");
  const execArgv = [
    ...(options.compiled
      ? []
      : [
          "--import",
          pathToFileURL(createRequire(path.join(root, "package.json")).resolve("tsx")).href,
          "--import",
          pathToFileURL(path.join(root, "scripts/node-hooks.mjs")).href,
        ]),
    // Before anything loads MuPDF.js (see the file): the fast structured-text walk.
    "--import",
    pathToFileURL(path.join(root, "scripts/mupdf-preload.mjs")).href,
    `--max-old-space-size=${options.memoryMb}`,
  ];

  const slots: Slot[] = [];
  const queue: Waiting[] = [];
  let closed = false;
  let nextJobId = 0;
  let started = 0;
  let startupFailures = 0;
  let respawnTimer: NodeJS.Timeout | undefined;

  function spawn(): void {
    if (closed) return;
    const child = fork(childEntry, [], {
      cwd: root,
      execArgv,
      env: childEnv(root),
      stdio: ["ignore", "pipe", "pipe", "ipc"],
      serialization: "advanced",
    });
    started++;
    const slot: Slot = { child, ready: false, gone: false, jobsRun: 0, stderrTail: "" };
    slots.push(slot);
    try {
      // Document work yields to the HTTP process when the machine is busy.
      if (child.pid) os.setPriority(child.pid, 10);
    } catch {
      /* not permitted here: fine */
    }
    const forward = (stream: NodeJS.ReadableStream | null, isErr: boolean) => {
      stream?.setEncoding("utf8");
      stream?.on("data", (text: string) => {
        if (isErr) slot.stderrTail = (slot.stderrTail + text).slice(-8192);
        for (const line of text.split("\n")) if (line.trim()) logger(`[sandbox ${child.pid}] ${line}`);
      });
    };
    forward(child.stdout, false);
    forward(child.stderr, true);
    slot.startTimer = setTimeout(() => {
      if (!slot.ready) {
        logger(`sandbox: child ${child.pid} did not start within ${STARTUP_TIMEOUT_MS / 1000} s`);
        child.kill("SIGKILL");
      }
    }, STARTUP_TIMEOUT_MS);
    child.on("message", (msg: ChildMessage) => onMessage(slot, msg));
    child.on("error", (e) => logger(`sandbox: child ${child.pid}: ${e.message}`));
    child.on("exit", (code, signal) => onExit(slot, code, signal));
  }

  function onMessage(slot: Slot, msg: ChildMessage): void {
    if (msg.type === "ready") {
      clearTimeout(slot.startTimer);
      slot.ready = true;
      startupFailures = 0;
      dispatch();
      return;
    }
    const active = slot.active;
    if (msg.type === "error" && msg.fatal) slot.gone = true; // it is exiting; replace it when it does
    if (!active || active.settled || ("jobId" in msg && msg.jobId !== active.id && msg.jobId !== -1)) return;
    switch (msg.type) {
      case "log":
        (active.opts.log ?? ((m: string) => logger(`[${active.job.opId}] ${m}`)))(msg.message);
        break;
      case "fetch":
        void serveFetch(slot, active, msg.reqId, msg.url);
        break;
      case "beside":
        startBeside(slot, active, msg);
        break;
      case "done":
        settle(slot, active, { result: msg.result });
        break;
      case "error":
        if (msg.error.name === "EngineTrap") {
          // The child exits after this answer (see child-runtime.ts); the job names the cause.
          logger(
            `sandbox: ${active.job.opId} trapped in child ${slot.child.pid}; replacing it: ${msg.error.stack ?? msg.error.message}`,
          );
          slot.gone = true;
          settle(slot, active, {
            error: new QuireError(
              500,
              `Internal error: the document engine failed (${msg.error.message.slice(0, 200)}); the worker process that ran it was replaced. It has been logged.`,
            ),
          });
          break;
        }
        settle(slot, active, { error: fromWire(msg.error, active.job.opId) });
        break;
    }
  }

  /** Runs the caller's fetchUrl in the parent and hands the bytes over as a file in workDir. */
  async function serveFetch(slot: Slot, active: Active, reqId: number, url: string) {
    let reply: ParentMessage;
    try {
      const got = await active.opts.fetchUrl(url);
      const file = path.join(
        active.job.workDir,
        `.fetched-${reqId}-${crypto.randomBytes(4).toString("hex")}`,
      );
      await fs.promises.writeFile(file, got.bytes);
      reply = {
        type: "fetch-result",
        reqId,
        ok: true,
        path: file,
        contentType: got.contentType ?? "",
        name: got.name ?? "",
      };
    } catch (e) {
      if (!isQuireError(e))
        logger(
          `sandbox: fetchUrl(${url.slice(0, 200)}) failed for ${active.job.opId}: ${(e as Error)?.stack ?? e}`,
        );
      const err = toQuireError(e);
      reply = {
        type: "fetch-result",
        reqId,
        ok: false,
        error: { name: "QuireError", status: err.status, message: err.message },
      };
    }
    if (active.settled || slot.active !== active || !slot.child.connected) return;
    try {
      slot.child.send(reply);
    } catch {
      /* the child is going away; its exit settles the job */
    }
  }

  /**
   * A running job asks for part of its work to run in another child (RunContext.runBeside):
   * only on a child that is free now, when no queued job waits for it (and within the background
   * share for a background job); otherwise the answer is "busy" and the job does the work itself.
   * The part shares the job's sources and work directory, ends by the job's deadline, counts
   * towards the job's memory cap, and is stopped when the job ends.
   */
  function startBeside(ownerSlot: Slot, owner: Active, msg: Extract<ChildMessage, { type: "beside" }>): void {
    const reply = (m: ParentMessage) => {
      if (owner.settled || ownerSlot.active !== owner || !ownerSlot.child.connected) return;
      try {
        ownerSlot.child.send(m);
      } catch {
        /* the child is going away; its exit settles the job */
      }
    };
    const free = slots.find((s) => s.ready && !s.gone && !s.active);
    const busyBackground = slots.filter((s) => s.active && isBackground(s.active)).length;
    const remaining = owner.deadlineAt - Date.now();
    if (
      owner.owner ||
      !free ||
      queue.length > 0 ||
      remaining < 1000 ||
      !/^[a-z0-9][a-z0-9-]*$/.test(msg.opId) ||
      (isBackground(owner) && busyBackground >= backgroundMax)
    ) {
      reply({ type: "beside-result", reqId: msg.reqId, ok: false, busy: true });
      return;
    }
    const part: Waiting = {
      job: { opId: msg.opId, params: msg.params, sources: owner.job.sources, workDir: owner.job.workDir },
      opts: {
        fetchUrl: async () => {
          throw new QuireError(500, "Internal error: a part of a job fetches nothing.");
        },
        timeoutMs: remaining,
        log: owner.opts.log ?? ((m: string) => logger(`[${owner.job.opId}] ${m}`)),
        priority: owner.opts.priority,
      },
      resolve: (result) => reply({ type: "beside-result", reqId: msg.reqId, ok: true, result }),
      reject: (e) => {
        const err = toQuireError(e);
        reply({ type: "beside-result", reqId: msg.reqId, ok: false, error: { name: "QuireError", status: err.status, message: err.message } });
      },
    };
    start(free, part, owner);
  }

  function onExit(slot: Slot, code: number | null, signal: NodeJS.Signals | null): void {
    clearTimeout(slot.startTimer);
    const index = slots.indexOf(slot);
    if (index >= 0) slots.splice(index, 1);
    const active = slot.active;
    if (active && !active.settled) {
      // Died on its own: V8's heap limit, a crash in native/WASM code, process.exit in a runner.
      const oom = /heap out of memory|Allocation failed|out of memory/i.test(slot.stderrTail);
      const error = oom
        ? new QuireError(413, `the operation used more than ${options.memoryMb} MB`)
        : new QuireError(500, "Internal error: the operation crashed. It has been logged.");
      logger(
        `sandbox: child ${slot.child.pid} exited (${signal ?? code}) while running ${active.job.opId}${oom ? " (out of memory)" : ""}\n${slot.stderrTail}`,
      );
      settle(slot, active, { error });
    }
    if (closed) return;
    if (!slot.ready && !slot.gone) {
      // Could not even start (broken install?): retry with back-off, and do not leave callers waiting forever.
      startupFailures++;
      logger(`sandbox: child ${slot.child.pid} failed to start (${signal ?? code})\n${slot.stderrTail}`);
      if (startupFailures >= 3) {
        for (const w of queue.splice(0))
          failQueued(
            w,
            new QuireError(
              500,
              "Internal error: the sandbox could not start a worker process. It has been logged.",
            ),
          );
      }
      const delay = Math.min(30_000, 500 * 2 ** Math.min(startupFailures, 6));
      respawnTimer = setTimeout(() => {
        respawnTimer = undefined;
        topUp();
      }, delay);
      return;
    }
    topUp();
  }

  function topUp(): void {
    if (closed || respawnTimer) return;
    while (slots.length < size) spawn();
  }

  /** Children background jobs may hold at once: all but one (when there are two or more). */
  const backgroundMax = size >= 2 ? size - 1 : 1;
  const isBackground = (w: Waiting) => w.opts.priority === "background";

  /** The next job for a free child: interactive ones first (in order), then background ones while they may. */
  function nextWaiting(): Waiting | undefined {
    const i = queue.findIndex((w) => !isBackground(w));
    if (i >= 0) return queue.splice(i, 1)[0];
    const busyBackground = slots.filter((s) => s.active && isBackground(s.active)).length;
    if (busyBackground >= backgroundMax) return undefined;
    const j = queue.findIndex(isBackground);
    return j >= 0 ? queue.splice(j, 1)[0] : undefined;
  }

  function dispatch(): void {
    if (closed) return;
    for (const slot of slots) {
      if (!queue.length) return;
      if (!slot.ready || slot.gone || slot.active) continue;
      const next = nextWaiting();
      if (!next) return;
      start(slot, next);
    }
  }

  function start(slot: Slot, waiting: Waiting, owner?: Active): void {
    if (waiting.onQueuedAbort) waiting.opts.signal?.removeEventListener("abort", waiting.onQueuedAbort);
    const timeoutMs = waiting.opts.timeoutMs ?? options.timeoutMs;
    const active: Active = {
      ...waiting,
      id: ++nextJobId,
      slot,
      owner,
      deadlineAt: Date.now() + timeoutMs,
      settled: false,
      timer: setTimeout(
        () => kill(slot, active, new QuireError(408, `the operation took longer than ${seconds(timeoutMs)} s`)),
        timeoutMs,
      ),
    };
    slot.active = active;
    if (owner) (owner.parts ??= []).push(active);
    const signal = waiting.opts.signal;
    if (signal) {
      active.onAbort = () => kill(slot, active, abortReason(signal));
      signal.addEventListener("abort", active.onAbort, { once: true });
    }
    const limitKb = options.memoryMb * 1024;
    const pid = slot.child.pid;
    if (pid) {
      const poll = async () => {
        // The child and everything it started (Chromium's browser, renderer and GPU processes,
        // LibreOffice, Tesseract): one cap for the whole tree.
        const own = await readRssKb(pid);
        const rss = own === undefined ? undefined : own + (await readDescendantsRssKb(pid));
        if (active.settled) return;
        // The recycle looks at the child's own peak: its WebAssembly memory is what never shrinks.
        // Chromium and LibreOffice are processes of their own that give their memory back (and a
        // kept browser is the point of reusing the child). The cap counts the whole tree.
        if (own !== undefined) active.peakKb = Math.max(active.peakKb ?? 0, own);
        if (rss !== undefined) active.lastKb = rss;
        // A job and the parts it runs beside share one cap.
        const job = active.owner ?? active;
        const totalKb = (job.lastKb ?? 0) + (job.parts ?? []).reduce((sum, p) => sum + (p.settled ? 0 : (p.lastKb ?? 0)), 0);
        if (totalKb > limitKb && !job.settled) {
          kill(job.slot, job, new QuireError(413, `the operation used more than ${options.memoryMb} MB`));
          return;
        }
        active.memTimer = setTimeout(poll, memoryPollMs);
      };
      active.memTimer = setTimeout(poll, memoryPollMs);
    }
    const msg: ParentMessage = {
      type: "run",
      jobId: active.id,
      opId: waiting.job.opId,
      params: waiting.job.params,
      sources: waiting.job.sources,
      workDir: waiting.job.workDir,
      besideSlots: owner ? 0 : size - 1,
    };
    try {
      slot.child.send(msg);
    } catch (e) {
      kill(
        slot,
        active,
        new QuireError(
          500,
          `Internal error: the job could not be handed to the sandbox (${(e as Error).message}).`,
        ),
      );
    }
  }

  /** Stops a running job for good: SIGKILL its child (replaced on exit) and fail the job now. */
  function kill(slot: Slot, active: Active, error: unknown): void {
    if (active.settled) return;
    const why = isQuireError(error) ? error.message : "aborted by the caller";
    logger(`sandbox: killed child ${slot.child.pid} running ${active.job.opId}: ${why}`);
    slot.gone = true;
    // The whole tree: the descendants are listed before the child dies (afterwards they would be
    // reparented and out of reach), then the child and they are killed.
    void killTree(slot.child);
    settle(slot, active, { error });
    topUpSoon();
  }

  // A killed child is replaced at once, without waiting for its exit event.
  function topUpSoon(): void {
    if (closed) return;
    const live = slots.filter((s) => !s.gone).length;
    for (let i = live; i < size; i++) spawn();
  }

  function settle(slot: Slot, active: Active, outcome: { result: RunResult } | { error: unknown }): void {
    if (active.settled) return;
    active.settled = true;
    clearTimeout(active.timer);
    clearTimeout(active.memTimer);
    if (active.onAbort) active.opts.signal?.removeEventListener("abort", active.onAbort);
    if (slot.active === active) slot.active = undefined;
    if ("result" in outcome) active.resolve(outcome.result);
    else active.reject(outcome.error);
    // Parts still running when their job ends are of no use to anyone.
    for (const part of active.parts ?? []) {
      if (!part.settled) kill(part.slot, part, new QuireError(500, "Internal error: the job this part belonged to has ended."));
    }
    slot.jobsRun++;
    const heavy = (active.peakKb ?? 0) > recycleAboveKb;
    if (heavy && !slot.gone && slots.includes(slot))
      logger(`sandbox: replacing child ${slot.child.pid} after ${active.job.opId} (peak ${Math.round((active.peakKb ?? 0) / 1024)} MB)`);
    if (!slot.gone && slots.includes(slot) && (slot.jobsRun >= recycleAfter || heavy)) {
      slot.gone = true;
      try {
        slot.child.disconnect(); // the child exits on disconnect
      } catch {
        slot.child.kill("SIGKILL"); // its channel is already gone
      }
      topUpSoon();
    } else if (slot.gone && slots.includes(slot)) {
      topUpSoon();
    }
    dispatch();
  }

  function fromWire(error: WireError, opId: string): QuireError {
    if (error.name === "QuireError" && typeof error.status === "number") {
      const status = (error.status in errorCodes ? error.status : 500) as ErrorStatus;
      return new QuireError(status, error.message);
    }
    logger(`sandbox: ${opId} failed: ${error.stack ?? `${error.name}: ${error.message}`}`);
    return toQuireError(error);
  }

  function failQueued(w: Waiting, error: unknown) {
    if (w.onQueuedAbort) w.opts.signal?.removeEventListener("abort", w.onQueuedAbort);
    w.reject(error);
  }

  for (let i = 0; i < size; i++) spawn();

  return {
    run(job, opts) {
      return new Promise<RunResult>((resolve, reject) => {
        if (closed) return reject(new QuireError(500, "Internal error: the sandbox pool is closed."));
        if (!/^[a-z0-9][a-z0-9-]*$/.test(job.opId))
          return reject(new QuireError(500, `Internal error: bad operation id ${JSON.stringify(job.opId)}.`));
        const signal = opts.signal;
        if (signal?.aborted) return reject(abortReason(signal));
        const waiting: Waiting = { job, opts, resolve, reject };
        if (signal) {
          waiting.onQueuedAbort = () => {
            const i = queue.indexOf(waiting);
            if (i >= 0) {
              queue.splice(i, 1);
              reject(abortReason(signal));
            }
          };
          signal.addEventListener("abort", waiting.onQueuedAbort, { once: true });
        }
        queue.push(waiting);
        if (startupFailures >= 3 && !slots.some((s) => s.ready)) topUp();
        dispatch();
      });
    },
    async close() {
      if (closed) return;
      closed = true;
      clearTimeout(respawnTimer);
      const error = new QuireError(500, "Internal error: the sandbox pool is closed.");
      for (const w of queue.splice(0)) failQueued(w, error);
      const exits = slots.map(
        (slot) =>
          new Promise<void>((resolve) => {
            if (slot.child.exitCode !== null || slot.child.signalCode !== null) return resolve();
            slot.child.once("exit", () => resolve());
            slot.gone = true;
            if (slot.active) settle(slot, slot.active, { error });
            slot.child.kill("SIGKILL");
          }),
      );
      await Promise.all(exits);
    },
    stats() {
      return {
        size,
        ready: slots.filter((s) => s.ready && !s.gone).length,
        busy: slots.filter((s) => s.active).length,
        queued: queue.length,
        started,
      };
    },
  };
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException("The operation was aborted", "AbortError");
}

function seconds(ms: number): string {
  return String(Math.round(ms / 100) / 10);
}

/** Pids of every descendant of `pid` (Linux /proc), nearest first. */
export async function descendantPids(pid: number): Promise<number[]> {
  let entries: string[];
  try {
    entries = await fs.promises.readdir("/proc");
  } catch {
    return [];
  }
  const children = new Map<number, number[]>();
  await Promise.all(
    entries.map(async (name) => {
      if (!/^\d+$/.test(name)) return;
      try {
        const stat = await fs.promises.readFile(`/proc/${name}/stat`, "utf8");
        // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so read after the last ")".
        const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
        const list = children.get(ppid) ?? [];
        list.push(Number(name));
        children.set(ppid, list);
      } catch {
        /* exited meanwhile */
      }
    }),
  );
  const out: number[] = [];
  const queue = [pid];
  while (queue.length && out.length < 10_000) {
    for (const c of children.get(queue.shift()!) ?? []) {
      out.push(c);
      queue.push(c);
    }
  }
  return out;
}

/** Resident set of a process and all its descendants in kB; undefined where /proc is unavailable. */
export async function readTreeRssKb(pid: number): Promise<number | undefined> {
  const own = await readRssKb(pid);
  if (own === undefined) return undefined;
  return own + (await readDescendantsRssKb(pid));
}

/** Resident set of a process's descendants in kB (0 where /proc is unavailable). */
async function readDescendantsRssKb(pid: number): Promise<number> {
  const rest = await Promise.all((await descendantPids(pid)).map((p) => readRssKb(p)));
  return rest.reduce<number>((sum, kb) => sum + (kb ?? 0), 0);
}

async function killTree(child: ChildProcess): Promise<void> {
  const list = child.pid ? await descendantPids(child.pid).catch(() => [] as number[]) : [];
  child.kill("SIGKILL");
  for (const p of list) {
    try {
      process.kill(p, "SIGKILL");
    } catch {
      /* already gone */
    }
  }
}

/** Resident set size of a process in kB (Linux /proc); undefined where unavailable. */
export async function readRssKb(pid: number): Promise<number | undefined> {
  try {
    const status = await fs.promises.readFile(`/proc/${pid}/status`, "utf8");
    const m = status.match(/^VmRSS:\s+(\d+)\s+kB/m);
    return m ? Number(m[1]) : undefined;
  } catch {
    return undefined;
  }
}

// Secrets of the web process that document work never needs.
const secretEnv =
  /(SECRET|PASSWORD|PASSWD|TOKEN|CREDENTIAL|PRIVATE|_KEY$|^AWS_|^S3_|^DATABASE_URL$|^PG[A-Z]*$|^NODE_OPTIONS$)/i;

function childEnv(root: string): NodeJS.ProcessEnv {
  const env: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(process.env)) if (!secretEnv.test(k)) env[k] = v;
  env.TSX_TSCONFIG_PATH = path.join(root, "tsconfig.json");
  env.QUIRE_SANDBOX_CHILD = "1";
  return env as NodeJS.ProcessEnv;
}

function findRoot(explicit: string | undefined): string {
  const candidates = [explicit, process.env.QUIRE_ROOT];
  try {
    // Not `new URL("../../..", import.meta.url)`: bundlers would treat that as an asset reference.
    candidates.push(path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../.."));
  } catch {
    /* bundled: import.meta.url is not a file URL */
  }
  candidates.push(process.cwd());
  for (const c of candidates)
    if (c && fs.existsSync(path.join(c, "lib/jobs/sandbox/child.ts"))) return path.resolve(c);
  throw new Error("sandbox: cannot find lib/jobs/sandbox/child.ts; set QUIRE_ROOT to the Quire directory");
}
