import "server-only";
import crypto from "node:crypto";
import { accessSync, constants as fsConstants, rmSync } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Readable } from "node:stream";
import { envNumber } from "@/lib/core/config";
import { blankDocx, blankXlsx } from "./blank-documents";
import { canIsolateNetwork, launchSoffice, profileArg, profileUrl, type LaunchedSoffice, type SofficeCaps } from "./soffice-process";

/**
 * The warm LibreOffice of this process: one instance started ahead of the next job, with its own
 * fresh copy of the prepared profile, under the same caps and network namespace as a per-job run,
 * and with a blank text document and a blank sheet of our own open, so Writer and Calc are loaded.
 * A job hands it the document through LibreOffice's single-instance pipe (a second `soffice
 * --convert-to` with the same profile forwards its request and waits for it), and the instance is
 * killed and its profile deleted as soon as that one job is done: no instance ever sees two
 * callers' documents. The next spare starts after the job, in the background.
 *
 * Starting LibreOffice and loading Writer is most of a short conversion (about 0.8 of 1 s for a
 * 5-page docx here); a spare converts the same file in 0.1–0.3 s.
 */
export interface SpareOffice {
  dir: string;
  caps: SofficeCaps;
  isolated: boolean;
  run: LaunchedSoffice;
  /** The profile directory jobs pass to their forwarding `soffice`. */
  profile: string;
  /** True once the instance listens on its pipe; false when it died first or never did. */
  ready: Promise<boolean>;
  /** Kills the instance's process group and deletes its files (idempotent). */
  dispose: (atExit?: boolean) => void;
}

/** How long a spare waits for a job before it is stopped (0: no spare, every job starts LibreOffice). */
export function spareIdleMs(): number {
  return envNumber("OFFICE_SPARE_IDLE_MS", 600_000);
}

function pipeDir(): string {
  // sal/osl/unx/pipe.cxx: /tmp, or /var/tmp where /tmp is not writable.
  try {
    accessSync("/tmp", fsConstants.W_OK);
    return "/tmp";
  } catch {
    return "/var/tmp";
  }
}

/**
 * The socket LibreOffice's single-instance IPC listens on for a profile
 * (desktop/source/app/officeipcthread.cxx: "SingleOfficeIPC_" + the MD5 of the UTF-16 user
 * installation URL, each byte in hex without padding; sal names it OSL_PIPE_<uid>_<name>).
 */
export function ipcPipePath(profileDir: string): string {
  const digest = crypto.createHash("md5").update(Buffer.from(profileUrl(profileDir), "utf16le")).digest();
  const hash = [...digest].map((b) => b.toString(16)).join("");
  return path.join(pipeDir(), `OSL_PIPE_${process.getuid?.() ?? 0}_SingleOfficeIPC_${hash}`);
}

const READY_WITHIN_MS = 30_000;

let current: Promise<SpareOffice | undefined> | undefined;
let idleTimer: NodeJS.Timeout | undefined;
const live = new Set<SpareOffice>();
let exitHook = false;

/**
 * Deletes what spares of killed processes left (their LibreOffice is gone: `setpriv --pdeathsig`
 * and the `timeout` backstop end it): directories older than any spare can live, and their pipes.
 */
async function sweepStale(maxAgeMs: number): Promise<void> {
  const root = os.tmpdir();
  for (const name of await fs.readdir(root).catch(() => [] as string[])) {
    if (!name.startsWith("quire-office-spare-")) continue;
    const dir = path.join(root, name);
    const stat = await fs.stat(dir).catch(() => undefined);
    if (!stat || Date.now() - stat.mtimeMs < maxAgeMs) continue;
    rmSync(ipcPipePath(path.join(dir, "profile")), { force: true });
    await fs.rm(dir, { recursive: true, force: true }).catch(() => {});
  }
}

let swept = false;

async function startSpare(soffice: string, template: string, caps: SofficeCaps, idleMs: number): Promise<SpareOffice> {
  if (!swept) {
    swept = true;
    await sweepStale(idleMs + caps.timeoutMs + 60_000);
  }
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "quire-office-spare-"));
  starting.add(dir);
  hookExit();
  try {
    return await launchSpare(soffice, template, caps, idleMs, dir);
  } finally {
    starting.delete(dir);
  }
}

/** Directories of spares being prepared (removed at exit if it comes first). */
const starting = new Set<string>();

function hookExit(): void {
  if (exitHook) return;
  exitHook = true;
  process.on("exit", () => {
    for (const s of [...live]) s.dispose(true);
    for (const dir of starting) rmSync(dir, { recursive: true, force: true });
  });
}

async function launchSpare(soffice: string, template: string, caps: SofficeCaps, idleMs: number, dir: string): Promise<SpareOffice> {
  const profile = path.join(dir, "profile");
  await fs.cp(template, profile, { recursive: true });
  const warm = path.join(dir, "warm");
  await fs.mkdir(warm);
  await fs.writeFile(path.join(warm, "blank.docx"), await blankDocx());
  await fs.writeFile(path.join(warm, "blank.xlsx"), await blankXlsx());
  const pipe = ipcPipePath(profile);
  const args = [profileArg(profile), "--headless", "--norestore", "--nologo", "--nolockcheck", "--nofirststartwizard"];
  args.push(path.join(warm, "blank.docx"), path.join(warm, "blank.xlsx"));
  // The backstop lets it wait `idleMs` and then run one job.
  const run = launchSoffice(soffice, args, dir, caps, idleMs + caps.timeoutMs);
  // A spare never keeps this process alive.
  run.child.unref();
  for (const s of [run.child.stdout, run.child.stderr]) (s as Readable & { unref?: () => void } | null)?.unref?.();
  let disposed = false;
  const spare: SpareOffice = {
    dir,
    caps,
    isolated: canIsolateNetwork(),
    run,
    profile,
    ready: Promise.resolve(false),
    dispose: (atExit = false) => {
      if (disposed) return;
      disposed = true;
      live.delete(spare);
      run.killGroup();
      // A killed instance leaves its socket behind.
      const clean = () => {
        rmSync(pipe, { force: true });
        rmSync(dir, { recursive: true, force: true });
      };
      if (atExit) clean();
      else void run.exited.then(clean).catch(() => {});
    },
  };
  live.add(spare);
  let exited = false;
  void run.exited.then(() => {
    exited = true;
  });
  spare.ready = (async () => {
    const until = Date.now() + READY_WITHIN_MS;
    while (!exited && !disposed && Date.now() < until) {
      try {
        await fs.access(pipe);
        return true;
      } catch {
        await new Promise((r) => setTimeout(r, 20).unref());
      }
    }
    return false;
  })();
  return spare;
}

/**
 * Starts the next spare unless one is there (or OFFICE_SPARE_IDLE_MS is 0); it is stopped after
 * that long without a job.
 */
export function keepSpareReady(soffice: string, template: Promise<string>, caps: SofficeCaps): void {
  const idleMs = spareIdleMs();
  if (idleMs <= 0 || current) return;
  const starting = template.then((t) => startSpare(soffice, t, caps, idleMs)).catch(() => undefined);
  current = starting;
  clearTimeout(idleTimer);
  idleTimer = setTimeout(() => {
    if (current !== starting) return;
    current = undefined;
    void starting.then((s) => s?.dispose());
  }, idleMs);
  idleTimer.unref();
}

/**
 * The spare for one job, taken out of the pool (the caller disposes of it), when there is one
 * started under the same caps and isolation; undefined otherwise.
 */
export async function takeSpare(caps: SofficeCaps): Promise<SpareOffice | undefined> {
  const pending = current;
  if (!pending) return undefined;
  const spare = await pending;
  if (!spare || current !== pending) return undefined;
  const fits =
    spare.caps.memoryMb === caps.memoryMb &&
    spare.caps.maxOutputMb === caps.maxOutputMb &&
    spare.caps.timeoutMs >= caps.timeoutMs &&
    spare.isolated === canIsolateNetwork();
  if (!fits) return undefined;
  current = undefined;
  clearTimeout(idleTimer);
  return spare;
}

/** Tests: stops the spare (the next job starts LibreOffice itself). */
export async function stopSpare(): Promise<void> {
  const pending = current;
  current = undefined;
  clearTimeout(idleTimer);
  (await pending)?.dispose();
}
