import "server-only";
import os from "node:os";
import { createWorker, OEM, type Worker } from "tesseract.js";
import { tesseractLangPath } from "@/lib/engine/ocr/languages";

/**
 * A pool of tesseract.js workers (one worker thread each), sized to the machine: one per CPU,
 * capped by memory (each worker holds ~150–250 MB with its language models) and by OCR_WORKERS.
 * Workers are created lazily for a language set, reused across pages and jobs, and ended after
 * a minute without work so an idle sandbox process stays small.
 */

const WORKER_MB = 250;
const IDLE_MS = 60_000;

export function poolSize(): number {
  const fromEnv = Number.parseInt(process.env.OCR_WORKERS ?? "", 10);
  if (Number.isFinite(fromEnv) && fromEnv > 0) return Math.min(fromEnv, 32);
  const cpus = typeof os.availableParallelism === "function" ? os.availableParallelism() : os.cpus().length;
  const budgetMb = Number.parseInt(process.env.JOB_MEMORY_MB ?? "", 10) || Math.floor(os.totalmem() / 2 ** 20 / 2);
  // Leave room for the page being rendered and the document itself.
  const byMemory = Math.max(1, Math.floor((budgetMb - 500) / WORKER_MB));
  return Math.max(1, Math.min(cpus, byMemory, 8));
}

interface Slot {
  worker: Worker;
  key: string;
  busy: boolean;
  lastUsed: number;
}

const slots: Slot[] = [];
const waiters: (() => void)[] = [];
let idleTimer: NodeJS.Timeout | null = null;
let creating = 0;

async function newWorker(langs: string[]): Promise<Worker> {
  const langPath = tesseractLangPath(langs);
  const worker = await createWorker(langs, OEM.LSTM_ONLY, {
    langPath,
    gzip: true,
    cacheMethod: "none",
    logger: () => {},
    errorHandler: () => {},
  });
  return worker;
}

/** Runs `fn` with a worker for `langs`, waiting for a free slot when the pool is full. */
export async function withWorker<T>(langs: string[], fn: (w: Worker) => Promise<T>): Promise<T> {
  const key = langs.join("+");
  const slot = await acquire(key, langs);
  try {
    return await fn(slot.worker);
  } catch (e) {
    // A worker that failed mid-job may be in a bad state: replace it.
    void retire(slot);
    throw e;
  } finally {
    slot.busy = false;
    slot.lastUsed = Date.now();
    scheduleIdle();
    waiters.shift()?.();
  }
}

async function acquire(key: string, langs: string[]): Promise<Slot> {
  for (;;) {
    const free = slots.find((s) => !s.busy && s.key === key);
    if (free) {
      free.busy = true;
      return free;
    }
    const size = poolSize();
    if (slots.length + creating < size) {
      creating++;
      try {
        const worker = await newWorker(langs);
        const slot: Slot = { worker, key, busy: true, lastUsed: Date.now() };
        slots.push(slot);
        return slot;
      } finally {
        creating--;
      }
    }
    // Full: an idle worker of another language set makes room.
    const other = slots.find((s) => !s.busy && s.key !== key);
    if (other) {
      await retire(other);
      continue;
    }
    await new Promise<void>((resolve) => waiters.push(resolve));
  }
}

async function retire(slot: Slot): Promise<void> {
  const i = slots.indexOf(slot);
  if (i >= 0) slots.splice(i, 1);
  try {
    await slot.worker.terminate();
  } catch {
    /* already gone */
  }
}

function scheduleIdle(): void {
  if (idleTimer) return;
  idleTimer = setTimeout(() => {
    idleTimer = null;
    const now = Date.now();
    for (const s of [...slots]) if (!s.busy && now - s.lastUsed >= IDLE_MS) void retire(s);
    if (slots.length) scheduleIdle();
  }, IDLE_MS);
  idleTimer.unref();
}

/** Ends every worker (tests, shutdown). */
export async function shutdownOcr(): Promise<void> {
  if (idleTimer) clearTimeout(idleTimer);
  idleTimer = null;
  await Promise.all([...slots].map((s) => retire(s)));
}
