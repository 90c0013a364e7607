/**
 * How `npm run bench` compares Quire with the command-line tool on a shared machine:
 *  - the two are timed alternately (Quire, tool, Quire, tool, …, with a pause after each) and the
 *    medians compared, so a burst of load from other work hits both sides alike instead of
 *    whichever ran during it;
 *  - the tool runs at the nice level of Quire's document work (its sandboxed children run at
 *    nice 10, lib/jobs/sandbox/pool.ts, so the HTTP front stays responsive): under load from
 *    other processes the ratio then compares the work, not the scheduler's priorities. On an
 *    idle machine, or with the kernel's autogroup scheduling (each session its own group, as on
 *    the development machine), the nice level changes nothing.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

export const WORK_NICE = 10;

/** Runs a command-line tool at Quire's work priority, output discarded. */
export function runTool(cmd: string, args: string[]): void {
  execFileSync("nice", ["-n", String(WORK_NICE), cmd, ...args], { stdio: "ignore" });
}

export function hasTool(t: string): boolean {
  try {
    execFileSync("which", [t], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

async function timed(fn: () => unknown): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

const SETTLE_MS = 750;
const settle = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Median times of `quire` and `tool`, run alternately `runs` times each. After each call the
 * machine gets SETTLE_MS untimed (`between`, when given, runs after each Quire call instead):
 * work either side leaves behind (Quire opening its next spare page or LibreOffice, a tool's
 * files being flushed) then never lands in the other side's timing.
 */
export async function sideBySide(
  quire: () => unknown,
  tool: () => unknown,
  runs: number,
  between?: () => unknown,
): Promise<{ quire: number; tool: number }> {
  const q: number[] = [];
  const t: number[] = [];
  for (let i = 0; i < runs; i++) {
    q.push(await timed(quire));
    await (between ? between() : settle(SETTLE_MS));
    t.push(await timed(tool));
    await settle(SETTLE_MS);
  }
  return { quire: median(q), tool: median(t) };
}

/** A launcher that starts Chromium at Quire's work priority (Playwright's `executablePath`). */
export function niceChromium(exe: string, dir: string): string {
  const file = path.join(dir, "chromium-nice.sh");
  fs.writeFileSync(file, `#!/bin/sh\nexec nice -n ${WORK_NICE} "${exe}" "$@"\n`, { mode: 0o755 });
  return file;
}
