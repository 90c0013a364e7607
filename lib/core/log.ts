import "server-only";

const levels = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 } as const;

function threshold() {
  const l = (process.env.LOG_LEVEL ?? "info") as keyof typeof levels;
  return levels[l] ?? levels.info;
}

/** One-line structured logs to stderr. Never log API keys, passwords or request bodies. */
export const log = {
  debug: (msg: string, extra?: unknown) => write("debug", msg, extra),
  info: (msg: string, extra?: unknown) => write("info", msg, extra),
  warn: (msg: string, extra?: unknown) => write("warn", msg, extra),
  error: (msg: string, extra?: unknown) => write("error", msg, extra),
};

function write(level: keyof typeof levels, msg: string, extra?: unknown) {
  if (levels[level] < threshold()) return;
  const detail = extra instanceof Error ? ` ${extra.stack ?? extra.message}` : extra !== undefined ? ` ${safe(extra)}` : "";
  process.stderr.write(`${new Date().toISOString()} ${level.toUpperCase()} ${msg}${detail}\n`);
}

function safe(v: unknown) {
  try {
    return JSON.stringify(v);
  } catch {
    return String(v);
  }
}
