import "server-only";
import fs from "node:fs";
import { QuireError } from "@/lib/core/errors";

/** Where a system Chromium usually lives when CHROMIUM_PATH is not set (Debian, Ubuntu, Alpine, Chrome). */
const candidates = [
  "/usr/bin/chromium",
  "/usr/bin/chromium-browser",
  "/usr/lib/chromium/chromium",
  "/usr/bin/google-chrome",
];

const installHint =
  "Web page → PDF needs Chromium: install it (Debian/Ubuntu: apt-get install chromium) or set CHROMIUM_PATH to the browser's executable.";

function isExecutable(path: string): boolean {
  try {
    fs.accessSync(path, fs.constants.X_OK);
    return fs.statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * The Chromium executable to drive: CHROMIUM_PATH when set (it must exist: a wrong value is an
 * operator error, not something to paper over), else the first system install found, else null.
 */
export function findChromium(env: Record<string, string | undefined> = process.env): {
  path: string | null;
  problem?: string;
} {
  const configured = env.CHROMIUM_PATH?.trim();
  if (configured) {
    return isExecutable(configured)
      ? { path: configured }
      : {
          path: null,
          problem: `CHROMIUM_PATH is set to ${configured}, which is not an executable file. ${installHint}`,
        };
  }
  const found = candidates.find(isExecutable);
  return found
    ? { path: found }
    : { path: null, problem: `No Chromium found (looked in ${candidates.join(", ")}). ${installHint}` };
}

/** The executable, or a 500 whose message tells the operator what to install. */
export function requireChromium(): string {
  const { path, problem } = findChromium();
  if (!path) throw new QuireError(500, `Web page conversion is unavailable on this server: ${problem}`);
  return path;
}

/**
 * Start-up check (instrumentation / worker boot): logs where Chromium is, or a clear warning that
 * /v1/pdf/convert/from/url will fail until it is installed. Never throws: the rest works without it.
 */
export function checkChromiumAtStartup(log: (line: string) => void = (l) => console.warn(l)): boolean {
  const { path, problem } = findChromium();
  if (path) {
    log(`quire: web page → PDF uses Chromium at ${path}`);
    return true;
  }
  log(`quire: WARNING: ${problem} /v1/pdf/convert/from/url answers 500 until then.`);
  return false;
}
