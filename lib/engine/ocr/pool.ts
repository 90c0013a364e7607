import "server-only";
import os from "node:os";
import { envNumber } from "@/lib/core/config";
import { createWorker, OEM, type Worker } from "tesseract.js";
import { tesseractLangPath } from "@/lib/engine/ocr/languages";
import { ocrEngine } from "@/lib/engine/ocr/native";

/**
 * Sizing of OCR parallelism for both engines, and the pool of tesseract.js workers (one worker thread each), sized to the machine: one per CPU,
 * capped by memory (a worker OCRing A4 pages at 300 dpi peaks near 450 MB: models, the page in
 * its WASM heap, copies in transit) and by OCR_WORKERS.
 * Workers are created lazily for a language set, reused across pages and jobs, and ended after
 * a minute without work so an idle sandbox process stays small.
 */

const WORKER_MB = 450;
/** A native tesseract process OCRing an A4 page at 300 dpi peaks near 80 MB; margin for larger renders. */
const NATIVE_MB = 200;
/** Main process share: MuPDF, the document, the page being rendered. */
export const BASE_MB = 500;
const IDLE_MS = 60_000;

export function poolSize(): number {
  const fromEnv = envNumber("OCR_WORKERS", 0);
  if (fromEnv > 0) return Math.min(fromEnv, 32);
  const cpus = typeof os.availableParallelism === "function" ? os.availableParallelism() : os.cpus().length;
  const byMemory = Math.max(1, Math.floor((memoryBudgetMb() - BASE_MB) / (engineIsNative() ? NATIVE_MB : WORKER_MB)));
  return Math.max(1, Math.min(cpus, byMemory, 8));
}

function engineIsNative(): boolean {
  try {
    return ocrEngine() === "native";
  } catch {
    return false;
  }
}

/** Memory the OCR may use: the sandbox cap (JOB_MEMORY_MB) or half the machine. */
export function memoryBudgetMb(): number {
  return envNumber("JOB_MEMORY_MB", Math.floor(os.totalmem() / 2 ** 20 / 2));
}

/**
 * How many pages to OCR at once, and whether to render them gray, for pages of `megapixels`:
 * each page in flight costs about six copies of its pixels (render, raster, PNM, worker
 * transfer, the worker's file and its decoded image) on top of a worker's ~120 MB. Very large
 * renders (1200 dpi) fall back to gray so that one page still fits.
 */
export function ocrPlan(megapixels: number, wantGray: boolean): { concurrency: number; gray: boolean } {
  const budget = memoryBudgetMb() - BASE_MB;
  // Native: the raster, its deskewed copy and the PNM in this process, the decoded page and its
  // binarised copies in the tesseract process (about 80 MB for A4 at 300 dpi).
  const cost = engineIsNative() ? (channels: number) => 40 + megapixels * (channels * 4 + 3) : (channels: number) => 120 + megapixels * channels * 6;
  let gray = wantGray;
  if (!gray && cost(3) > budget) gray = true;
  const concurrency = Math.max(1, Math.min(poolSize(), Math.floor(budget / cost(gray ? 1 : 3))));
  return { concurrency, gray };
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
