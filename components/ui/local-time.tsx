"use client";

import { useSyncExternalStore } from "react";
import { formatDateTime, formatDateTimeUtc, formatRelative } from "@/lib/dashboard/shell/format";

const TICK_MS = 15_000;
const listeners = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | undefined;
let now = 0;

function subscribe(fn: () => void) {
  listeners.add(fn);
  if (!timer) {
    now = Date.now();
    timer = setInterval(() => {
      now = Date.now();
      for (const l of listeners) l();
    }, TICK_MS);
  }
  return () => {
    listeners.delete(fn);
    if (!listeners.size && timer) {
      clearInterval(timer);
      timer = undefined;
    }
  };
}

/**
 * The clock for times shown to the user: 0 while rendering on the server and hydrating (so
 * both render the same UTC text), then Date.now() refreshed every 15 s.
 */
function useNow(): number {
  return useSyncExternalStore(subscribe, () => now || (now = Date.now()), () => 0);
}

/**
 * A time as text that hydrates cleanly: fixed UTC text first, then after mount the
 * browser's local time ("datetime") or "5 min ago" ("relative", local time in the tooltip).
 */
export function LocalTime({ iso, mode = "datetime", empty, className }: { iso: string | null | undefined; mode?: "datetime" | "relative"; empty?: string; className?: string }) {
  const t = useNow();
  if (!iso) return <span className={className}>{empty ?? (mode === "relative" ? "never" : "—")}</span>;
  const utc = formatDateTimeUtc(iso);
  if (!t) return <time dateTime={iso} className={className} title={utc}>{utc}</time>;
  return (
    <time dateTime={iso} className={className} title={mode === "relative" ? formatDateTime(iso) : utc}>
      {mode === "relative" ? formatRelative(iso, t) : formatDateTime(iso)}
    </time>
  );
}
