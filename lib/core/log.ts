import "server-only";
import { getRequestContext } from "./request-context";

const levels = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 } as const;
type Level = keyof typeof levels;

function threshold() {
  const l = (process.env.LOG_LEVEL ?? "info") as Level;
  return levels[l] ?? levels.info;
}

/**
 * One line per event to stderr: text, or with LOG_FORMAT=json one JSON object carrying the
 * request id and job id of the work it belongs to (on whichever node runs it). Never log API
 * keys, passwords or request bodies.
 */
export const log = {
  debug: (msg: string, extra?: unknown) => write("debug", msg, extra),
  info: (msg: string, extra?: unknown) => write("info", msg, extra),
  warn: (msg: string, extra?: unknown) => write("warn", msg, extra),
  error: (msg: string, extra?: unknown) => write("error", msg, extra),
};

function write(level: Level, msg: string, extra?: unknown) {
  if (levels[level] < threshold()) return;
  const ctx = getRequestContext();
  const time = new Date().toISOString();
  if (process.env.LOG_FORMAT === "json") {
    const line: Record<string, unknown> = { time, level, msg, pid: process.pid };
    if (ctx?.requestId) line.requestId = ctx.requestId;
    if (ctx?.jobId) line.jobId = ctx.jobId;
    if (extra instanceof Error) line.error = { name: extra.name, message: extra.message, stack: extra.stack };
    else if (extra !== undefined) line.detail = extra;
    process.stderr.write(safe(line) + "\n");
    return;
  }
  const ids = ctx ? ` [${ctx.requestId}${ctx.jobId ? ` job ${ctx.jobId}` : ""}]` : "";
  const detail = extra instanceof Error ? ` ${extra.stack ?? extra.message}` : extra !== undefined ? ` ${safe(extra)}` : "";
  process.stderr.write(`${time} ${level.toUpperCase()}${ids} ${msg}${detail}\n`);
}

function safe(v: unknown) {
  try {
    return JSON.stringify(v);
  } catch {
    return String(v);
  }
}
