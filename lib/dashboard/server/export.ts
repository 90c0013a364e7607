import "server-only";
import type { SessionUser } from "@/lib/auth/users";
import type { JobsAnswer, Ledger } from "@/lib/dashboard/data/api-types";
import { toCsv } from "@/lib/dashboard/results/csv";
import { fetchUpstreamJson } from "./prefetch";

/**
 * CSV exports of the jobs list and the ledger: the filters the page shows, every page of the
 * API's keyset paging streamed out as it is read (500 rows a page, at most EXPORT_MAX_ROWS).
 */
export const EXPORT_MAX_ROWS = 200_000;

export type ExportKind = "jobs" | "ledger" | "ledger-jobs";

const headers: Record<ExportKind, string[]> = {
  jobs: ["job_id", "operation", "status", "created_at", "finished_at", "duration_ms", "credits", "pages", "source", "result_url", "message"],
  ledger: ["id", "at", "kind", "operation", "job_id", "amount", "balance_after", "note"],
  "ledger-jobs": ["job_id", "operation", "at", "reserved", "extra", "released", "net"],
};

const FILTERS = ["status", "q", "from", "to", "days"] as const;

function pathOf(kind: ExportKind, filters: URLSearchParams, cursor: string | null): string {
  const p = new URLSearchParams();
  for (const f of FILTERS) {
    const v = filters.get(f);
    if (v) p.set(f, v);
  }
  p.set("limit", "500");
  if (kind === "ledger-jobs") p.set("view", "jobs");
  if (cursor) p.set("cursor", cursor);
  return `${kind === "jobs" ? "/v1/jobs" : "/v1/account/credit/ledger"}?${p}`;
}

/**
 * A cell as text. Text a spreadsheet would run as a formula (=, +, -, @ first: a source URL or an
 * error message is the caller's text) gets a leading apostrophe; numbers stay numbers.
 */
export function csvCell(v: unknown): string {
  const s = v === null || v === undefined ? "" : String(v);
  return /^[=+\-@\t\r]/.test(s) && !/^-?\d+(\.\d+)?$/.test(s) ? `'${s}` : s;
}

function rowsOf(kind: ExportKind, body: JobsAnswer | Ledger): string[][] {
  const s = csvCell;
  if (kind === "jobs")
    return (body as JobsAnswer).jobs.map((j) => [j.jobId, j.operation, j.status, j.createdAt, j.finishedAt, j.durationMs, j.credits, j.pageCount, j.source, j.url ?? j.urls?.join(" "), j.message].map(s));
  if (kind === "ledger") return (body as Ledger).entries.map((e) => [e.id, e.at, e.kind, e.operation, e.jobId, e.amount, e.balanceAfter, e.note].map(s));
  return ((body as Ledger).jobs ?? []).map((j) => [j.jobId, j.operation, j.at, j.reserved, j.extra, j.released, j.net].map(s));
}

/** The CSV body, streamed page by page; an upstream error after the first page ends it with a note. */
export function exportCsv(user: SessionUser, kind: ExportKind, filters: URLSearchParams): ReadableStream<Uint8Array> {
  const enc = new TextEncoder();
  let cursor: string | null = null;
  let sent = 0;
  let started = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!started) {
        started = true;
        controller.enqueue(enc.encode(toCsv([headers[kind]])));
      }
      try {
        const body: JobsAnswer | Ledger = await fetchUpstreamJson<JobsAnswer | Ledger>(user, pathOf(kind, filters, cursor));
        const rows = rowsOf(kind, body);
        if (rows.length) controller.enqueue(enc.encode(toCsv(rows)));
        sent += rows.length;
        cursor = body.nextCursor;
        if (!cursor || sent >= EXPORT_MAX_ROWS) controller.close();
      } catch (e) {
        controller.enqueue(enc.encode(toCsv([[`# export stopped: ${(e as Error).message}`]])));
        controller.close();
      }
    },
  });
}
