"use client";

import Link from "next/link";
import { useState, useSyncExternalStore } from "react";
import { keepPreviousData, useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { balanceQuery, exportHref, ledgerQuery, usageQuery } from "@/lib/dashboard/data/queries";
import { buildUsageChart, colorOf, OTHER } from "@/lib/dashboard/credits/usage-chart";
import { formatNumber } from "@/lib/dashboard/shell/format";
import { Notice } from "@/components/ui/notice";
import { LocalTime } from "@/components/ui/local-time";
import { Icon } from "@/components/ui/icon";
import { DateRange } from "@/components/ui/date-range";
import { useOperationTitle } from "@/components/shell/operation-names";

const onResize = (cb: () => void) => {
  window.addEventListener("resize", cb);
  return () => window.removeEventListener("resize", cb);
};
const isNarrow = () => window.innerWidth < 640;

/** How the ledger's kinds read to a person. */
const kindLabels = { grant: "Granted", reserve: "Reserved", extend: "Reserved for pages", capture: "Settled", release: "Released" } as const;

/** Balance, a stacked bar chart of use per day and operation, and the ledger (entries or per job). */
export function CreditsView() {
  const [days, setDays] = useState(30);
  const balance = useQuery(balanceQuery());
  const usage = useQuery({ ...usageQuery(days), placeholderData: keepPreviousData });
  const titleOf = useOperationTitle();
  // A phone draws the chart at its own width, so the labels keep a readable size.
  const narrow = useSyncExternalStore(onResize, isNarrow, () => false);
  const chart = buildUsageChart(usage.data?.daily ?? [], days, undefined, narrow ? 5 : 8);
  const label = (op: string) => (op === OTHER ? "Other operations" : titleOf(op));
  const used = chart.totals.reduce((s, t) => s + t.credits, 0);
  const W = narrow ? 360 : 720;
  const H = narrow ? 200 : 220;
  const pad = { l: 44, r: 8, t: 10, b: 24 };
  const bw = (W - pad.l - pad.r) / chart.days.length;
  const y = (v: number) => H - pad.b - (v / chart.max) * (H - pad.t - pad.b);
  return (
    <div className="space-y-6">
      <div className="grid gap-4 sm:grid-cols-3">
        <div className="card p-5">
          <p className="muted text-sm">Remaining credits</p>
          <p className="mt-1 text-3xl font-semibold tabular-nums" data-testid="credits-balance">{formatNumber(balance.data?.remainingCredits)}</p>
        </div>
        <div className="card p-5">
          <p className="muted text-sm">Used in the last {days} days</p>
          <p className="mt-1 text-3xl font-semibold tabular-nums">{formatNumber(used)}</p>
        </div>
        <div className="card min-w-0 p-5">
          <p className="muted text-sm">Top operation</p>
          <p className="mt-1 truncate text-xl font-semibold">{chart.totals[0] ? label(chart.totals[0].operation) : "—"}</p>
        </div>
      </div>
      <section className="card p-5" aria-labelledby="usage-h">
        <div className="mb-4 flex flex-wrap items-center gap-3">
          <h2 id="usage-h" className="font-semibold">Use per day</h2>
          <div role="group" aria-label="Period" className="ml-auto flex gap-1">
            {[7, 30, 90].map((d) => (
              <button key={d} type="button" aria-pressed={days === d} onClick={() => setDays(d)} className={`btn btn-sm ${days === d ? "bg-zinc-900 text-white dark:bg-zinc-100 dark:text-zinc-900" : "btn-ghost"}`}>{d} days</button>
            ))}
          </div>
        </div>
        {usage.isError ? <Notice tone="error" title="Could not load the use per day">{(usage.error as Error).message}</Notice> : null}
        <svg viewBox={`0 0 ${W} ${H}`} className="w-full" role="img" aria-label={`Credits used per day over the last ${days} days, ${used} in total`} data-testid="usage-chart">
          {chart.ticks.map((t) => (
            <g key={`tick-${t}`}>
              <line x1={pad.l} x2={W - pad.r} y1={y(t)} y2={y(t)} className="stroke-zinc-200 dark:stroke-zinc-800" />
              <text x={pad.l - 6} y={y(t) + 3} textAnchor="end" fontSize="10" className="fill-zinc-500">{formatNumber(t)}</text>
            </g>
          ))}
          {chart.stacks.map((s, i) =>
            s.segments.map((seg) => (
              <rect key={`${s.day}-${seg.operation}`} x={pad.l + i * bw + bw * 0.15} width={bw * 0.7} y={y(seg.y1)} height={Math.max(0.5, y(seg.y0) - y(seg.y1))} fill={colorOf(chart, seg.operation)} rx={1.5}>
                <title>{`${s.day} · ${label(seg.operation)}: ${seg.credits} credits`}</title>
              </rect>
            )),
          )}
          {chart.labelled.map((i) => (
            <text key={`day-${chart.days[i]}`} x={pad.l + i * bw + bw / 2} y={H - 6} textAnchor="middle" fontSize="10" className="fill-zinc-500">{chart.days[i]!.slice(5)}</text>
          ))}
        </svg>
        {chart.totals.length ? (
          <ul className="mt-4 flex flex-wrap gap-x-5 gap-y-2 text-sm" aria-label="Use per operation">
            {chart.totals.map((t) => (
              <li key={t.operation} className="flex items-center gap-2">
                <span className="size-2.5 rounded-sm" style={{ background: colorOf(chart, t.operation) }} aria-hidden="true" />
                {label(t.operation)} <span className="muted tabular-nums">{formatNumber(t.credits)}</span>
              </li>
            ))}
          </ul>
        ) : usage.data ? <p className="muted mt-2 text-sm">No credits used in this period.</p> : null}
      </section>
      <LedgerSection />
    </div>
  );
}

/** The ledger: every entry with the balance after it, or one row per job; dates, paging, export. */
function LedgerSection() {
  const [view, setView] = useState<"entries" | "jobs">("entries");
  const [range, setRange] = useState({ from: "", to: "" });
  const titleOf = useOperationTitle();
  const ledger = useInfiniteQuery({ ...ledgerQuery({ view, ...range }), placeholderData: keepPreviousData });
  const entries = ledger.data?.pages.flatMap((p) => p.entries) ?? [];
  const jobs = ledger.data?.pages.flatMap((p) => p.jobs ?? []) ?? [];
  const count = view === "jobs" ? jobs.length : entries.length;
  const amountClass = (n: number) => (n < 0 ? "text-red-700 dark:text-red-400" : n > 0 ? "text-emerald-700 dark:text-emerald-400" : "");
  const jobLink = (id: string | null) =>
    id ? (
      <Link href={`/jobs/${encodeURIComponent(id)}`} className="block truncate hover:underline" title={id}>{id}</Link>
    ) : (
      "—"
    );
  return (
    <section className="card overflow-hidden" aria-labelledby="ledger-h">
      <div className="flex flex-wrap items-center gap-3 px-5 pt-5 pb-3">
        <h2 id="ledger-h" className="font-semibold">Ledger</h2>
        <div role="group" aria-label="Ledger view" className="flex gap-1">
          {(["entries", "jobs"] as const).map((v) => (
            <button key={v} type="button" aria-pressed={view === v} onClick={() => setView(v)} className={`btn btn-sm ${view === v ? "bg-zinc-900 text-white dark:bg-zinc-100 dark:text-zinc-900" : "btn-ghost"}`}>
              {v === "entries" ? "Entries" : "Per job"}
            </button>
          ))}
        </div>
        <DateRange idPrefix="ledger" value={range} onChange={setRange} />
        <a href={exportHref(view === "jobs" ? "ledger-jobs" : "ledger", { from: range.from, to: range.to, days: range.from ? undefined : 366 })} className="btn-secondary btn-sm ml-auto" download>
          <Icon name="download" className="size-3.5" /> Export CSV
        </a>
      </div>
      <p className="muted px-5 pb-3 text-xs">
        {view === "entries"
          ? "A call reserves its credits when accepted; when it finishes they are settled (pages counted after the run add to them) or released if it failed."
          : "One row per job: what was reserved, what was added when it was settled, what came back, and what it cost in the end."}
      </p>
      {ledger.isError ? <div className="px-5 pb-3"><Notice tone="error" title="Could not load the ledger">{(ledger.error as Error).message}</Notice></div> : null}
      {/* Focusable, so the rows can be scrolled with the keyboard even when no cell holds a link (a phone hides the job column). */}
      <div className="table-scroll max-h-[32rem] overflow-y-auto" tabIndex={0} role="region" aria-labelledby="ledger-h">
        {view === "entries" ? (
          <table className="data-table" data-testid="ledger-table">
            <thead className="sticky top-0 bg-white dark:bg-zinc-900">
              <tr>
                <th scope="col" className="hidden sm:table-cell">When</th>
                <th scope="col" className="hidden sm:table-cell">Entry</th>
                <th scope="col">Operation</th>
                <th scope="col" className="hidden md:table-cell">Job</th>
                <th scope="col" className="text-right">Amount</th>
                <th scope="col" className="text-right">Balance</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((e) => (
                <tr key={e.id}>
                  <td className="hidden whitespace-nowrap sm:table-cell"><LocalTime iso={e.at} /></td>
                  <td className="hidden sm:table-cell">{kindLabels[e.kind]}</td>
                  <td>
                    {e.operation ? titleOf(e.operation) : (e.note ?? "—")}
                    <div className="text-xs text-zinc-500 sm:hidden dark:text-zinc-400">{kindLabels[e.kind]} · <LocalTime iso={e.at} /></div>
                  </td>
                  <td className="hidden max-w-40 font-mono text-xs md:table-cell">{jobLink(e.jobId)}</td>
                  <td className={`text-right tabular-nums ${amountClass(e.amount)}`}>{e.amount > 0 ? "+" : ""}{formatNumber(e.amount)}</td>
                  <td className="text-right tabular-nums">{formatNumber(e.balanceAfter)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <table className="data-table" data-testid="ledger-jobs-table">
            <thead className="sticky top-0 bg-white dark:bg-zinc-900">
              <tr>
                <th scope="col" className="hidden sm:table-cell">When</th>
                <th scope="col">Operation</th>
                <th scope="col" className="hidden md:table-cell">Job</th>
                <th scope="col" className="hidden text-right sm:table-cell">Reserved</th>
                <th scope="col" className="hidden text-right sm:table-cell">Added</th>
                <th scope="col" className="hidden text-right sm:table-cell">Released</th>
                <th scope="col" className="text-right">Net</th>
              </tr>
            </thead>
            <tbody>
              {jobs.map((j) => (
                <tr key={j.jobId} data-ledger-job={j.jobId}>
                  <td className="hidden whitespace-nowrap sm:table-cell"><LocalTime iso={j.at} /></td>
                  <td>
                    {titleOf(j.operation)}
                    <div className="text-xs text-zinc-500 sm:hidden dark:text-zinc-400"><LocalTime iso={j.at} /> · reserved {j.reserved}{j.extra ? `, +${j.extra}` : ""}{j.released ? `, released ${j.released}` : ""}</div>
                  </td>
                  <td className="hidden max-w-40 font-mono text-xs md:table-cell">{jobLink(j.jobId)}</td>
                  <td className="hidden text-right tabular-nums sm:table-cell">{formatNumber(j.reserved)}</td>
                  <td className="hidden text-right tabular-nums sm:table-cell">{j.extra ? formatNumber(j.extra) : "—"}</td>
                  <td className="hidden text-right tabular-nums sm:table-cell">{j.released ? formatNumber(j.released) : "—"}</td>
                  <td className="text-right font-medium tabular-nums" data-net>{formatNumber(j.net)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {ledger.data && count === 0 ? <p className="muted px-5 py-8 text-center text-sm">Nothing in this period.</p> : null}
      </div>
      {ledger.hasNextPage ? (
        <div className="flex items-center justify-between gap-3 border-t border-zinc-200 p-3 text-sm dark:border-zinc-800">
          <span className="muted">{formatNumber(count)} rows shown</span>
          <button type="button" className="btn-secondary btn-sm" onClick={() => ledger.fetchNextPage()} disabled={ledger.isFetchingNextPage}>
            {ledger.isFetchingNextPage ? "Loading…" : "Load more"}
          </button>
        </div>
      ) : null}
    </section>
  );
}
