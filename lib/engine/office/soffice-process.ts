import "server-only";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import path from "node:path";
import { QuireError } from "@/lib/core/errors";

/**
 * How a LibreOffice process is started: in its own process group, in a fresh network namespace
 * when the host allows it (`unshare -n`), under prlimit caps (address space, written-file size,
 * CPU seconds, no core dumps), behind coreutils `timeout` as the backstop should this process die
 * first (and told of that death by util-linux `setpriv --pdeathsig`), with an environment that holds nothing of ours and points every proxy at a closed port.
 */
export interface SofficeCaps {
  /** Wall time of the work (the CPU cap follows it). */
  timeoutMs: number;
  memoryMb: number;
  maxOutputMb: number;
}

let netnsCache: boolean | undefined;
let unshareArgs: string[] = ["-n"];

/** Whether this host lets us start LibreOffice in a new, empty network namespace. */
export function canIsolateNetwork(): boolean {
  if (netnsCache !== undefined) return netnsCache;
  if (process.env.OFFICE_NETWORK_ISOLATION === "off") return (netnsCache = false);
  const tries: string[][] = [["-n"], ["-r", "-n"]];
  netnsCache = false;
  for (const args of tries) {
    const r = spawnSync("unshare", [...args, "true"], { stdio: "ignore", timeout: 5000 });
    if (r.status === 0) {
      unshareArgs = args;
      netnsCache = true;
      break;
    }
  }
  return netnsCache;
}

/** Tests: force the proxy-only mode (false), or probe the host again (undefined). */
export function setNetworkIsolationForTests(available: boolean | undefined): void {
  netnsCache = available;
}

let deathSignalCache: boolean | undefined;
function hasParentDeathSignal(): boolean {
  deathSignalCache ??= spawnSync("setpriv", ["--pdeathsig", "TERM", "--", "true"], { stdio: "ignore", timeout: 5000 }).status === 0;
  return deathSignalCache;
}

let timeoutCache: boolean | undefined;
function hasTimeoutCommand(): boolean {
  timeoutCache ??= spawnSync("timeout", ["--version"], { stdio: "ignore", timeout: 5000 }).status === 0;
  return timeoutCache;
}

/** `-env:UserInstallation=file:///…` for a profile directory. */
export function profileUrl(dir: string): string {
  return `file://${dir.split(path.sep).map(encodeURIComponent).join("/")}`;
}

export function profileArg(dir: string): string {
  return `-env:UserInstallation=${profileUrl(dir)}`;
}

export interface LaunchedSoffice {
  child: ChildProcess;
  /** The last 4000 characters LibreOffice wrote (stdout and stderr). */
  output: () => string;
  /** Settles when the process has exited (never rejects). */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; error?: Error }>;
  /** SIGKILL to the whole process group (idempotent). */
  killGroup: () => void;
}

/**
 * Starts LibreOffice under the caps; `lifetimeMs` is how long the `timeout` backstop lets the
 * process group live at most (the caller's own timer normally ends it sooner).
 */
export function launchSoffice(soffice: string, args: string[], home: string, caps: SofficeCaps, lifetimeMs: number): LaunchedSoffice {
  const limits = [
    `--as=${caps.memoryMb * 1024 * 1024}`,
    `--fsize=${caps.maxOutputMb * 1024 * 1024}`,
    `--cpu=${Math.ceil(caps.timeoutMs / 1000) + 5}`,
    `--core=0`,
  ];
  const inner = ["prlimit", ...limits, "--", soffice, ...args];
  const isolated = canIsolateNetwork() ? ["unshare", ...unshareArgs, "--", ...inner] : inner;
  const bounded = hasTimeoutCommand() ? ["timeout", "--signal=KILL", "--kill-after=1s", `${Math.ceil(lifetimeMs / 1000) + 2}s`, ...isolated] : isolated;
  // Should this process be killed outright, `timeout` gets SIGTERM and passes it to its group:
  // no LibreOffice (a waiting spare above all) outlives the process that started it.
  const argv = hasParentDeathSignal() ? ["setpriv", "--pdeathsig", "TERM", "--", ...bounded] : bounded;
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: home,
    TMPDIR: home,
    LANG: "C.UTF-8",
    SAL_USE_VCLPLUGIN: "svp",
    // Proxies for any library that reads them instead of the profile: a closed port.
    http_proxy: "http://127.0.0.1:9",
    https_proxy: "http://127.0.0.1:9",
    ftp_proxy: "http://127.0.0.1:9",
    all_proxy: "http://127.0.0.1:9",
    no_proxy: "",
  };
  const child = spawn(argv[0], argv.slice(1), { cwd: home, env: env as NodeJS.ProcessEnv, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString("utf8")).slice(-4000);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const killGroup = () => {
    try {
      // The group, not the leader: oosplash and soffice.bin live on after `timeout` or the script.
      if (child.pid) process.kill(-child.pid, "SIGKILL");
    } catch {
      /* already gone */
    }
  };
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; error?: Error }>((resolve) => {
    child.on("error", (error) => resolve({ code: null, signal: null, error }));
    child.on("close", (code, signal) => resolve({ code, signal }));
  });
  return { child, output: () => output, exited, killGroup };
}

/** What a finished LibreOffice run means for the job: the QuireError of a cap, or its exit. */
export function judgeExit(
  what: string,
  run: { code: number | null; signal: NodeJS.Signals | null; error?: Error },
  output: string,
  caps: SofficeCaps,
): { exit: number | string } {
  if (run.error) throw new QuireError(500, `LibreOffice could not be started (${run.error.message}).`);
  if (run.signal === "SIGXCPU" || run.signal === "SIGKILL" || /std::bad_alloc|out of memory/i.test(output))
    throw new QuireError(413, `${what}: converting it needed more than the server's limits (${caps.memoryMb} MB of memory).`);
  if (run.signal === "SIGXFSZ") throw new QuireError(413, `${what}: the PDF would be larger than ${caps.maxOutputMb} MB.`);
  return { exit: run.signal ?? run.code ?? 0 };
}

/** Runs LibreOffice to its end under the caps and a wall-time timer that kills its group (→ 408). */
export async function runSoffice(
  what: string,
  soffice: string,
  args: string[],
  home: string,
  caps: SofficeCaps,
): Promise<{ output: string; exit: number | string }> {
  const run = launchSoffice(soffice, args, home, caps, caps.timeoutMs);
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    run.killGroup();
  }, caps.timeoutMs);
  const ended = await run.exited;
  clearTimeout(timer);
  run.killGroup(); // nothing of the job may outlive it
  if (timedOut) throw new QuireError(408, `${what}: LibreOffice took longer than ${Math.round(caps.timeoutMs / 1000)} s to convert it.`);
  return { output: run.output(), ...judgeExit(what, ended, run.output(), caps) };
}
