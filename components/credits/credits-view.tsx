"use client";

import Link from "next/link";
import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { balanceQuery, ledgerQuery } from "@/lib/dashboard/data/queries";
import { buildUsageChart, palette } from "@/lib/dashboard/credits/usage-chart";
import { formatNumber } from "@/lib/dashboard/shell/format";
import { Notice } from "@/components/ui/notice";
import { LocalTime } from "@/components/ui/local-time";

/** Balance, a stacked bar chart of use per day and operation, and the ledger. */
export function CreditsView() {
  const [days, setDays] = useState(30);
  const balance = useQuery(balanceQuery());
  const ledger = useQuery(ledgerQuery(days));
  const chart = buildUsageChart(ledger.data?.daily ?? [], days);
  const colorOf = (op: string) => palette[chart.operations.indexOf(op) % palette.length]!;
  const used = chart.totals.reduce((s, t) => s + t.credits, 0);
  const W = 720;
  const H = 220;
  const pad = { l: 40, r: 8, t: 8, b: 24 };
  const bw = (W - pad.l - pad.r) / chart.days.length;
  const y = (v: number) => H - pad.b - (v / chart.max) * (H - pad.t - pad.b);
  const ticks = [0, 0.5, 1].map((f) => Math.round(chart.max * f));
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
        <div className="card p-5">
          <p className="muted text-sm">Top operation</p>
          <p className="mt-1 truncate text-xl font-semibold">{chart.totals[0]?.operation ?? "—"}</p>
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
        {ledger.isError ? <Notice tone="error" title="Could not load the ledger">{(ledger.error as Error).message}</Notice> : null}
        <svg viewBox={`0 0 ${W} ${H}`} className="w-full" role="img" aria-label={`Credits used per day over the last ${days} days, ${used} in total`} data-testid="usage-chart">
          {ticks.map((t) => (
            <g key={t}>
              <line x1={pad.l} x2={W - pad.r} y1={y(t)} y2={y(t)} className="stroke-zinc-200 dark:stroke-zinc-800" />
              <text x={pad.l - 6} y={y(t) + 3} textAnchor="end" fontSize="10" className="fill-zinc-500">{t}</text>
            </g>
          ))}
          {chart.stacks.map((s, i) =>
            s.segments.map((seg) => (
              <rect key={`${s.day}-${seg.operation}`} x={pad.l + i * bw + bw * 0.15} width={bw * 0.7} y={y(seg.y1)} height={Math.max(0.5, y(seg.y0) - y(seg.y1))} fill={colorOf(seg.operation)} rx={1.5}>
                <title>{`${s.day} · ${seg.operation}: ${seg.credits} credits`}</title>
              </rect>
            )),
          )}
          {chart.days.map((d, i) =>
            i % Math.ceil(chart.days.length / 8) === 0 ? (
              <text key={d} x={pad.l + i * bw + bw / 2} y={H - 6} textAnchor="middle" fontSize="10" className="fill-zinc-500">{d.slice(5)}</text>
            ) : null,
          )}
        </svg>
        {chart.totals.length ? (
          <ul className="mt-4 flex flex-wrap gap-x-5 gap-y-2 text-sm" aria-label="Use per operation">
            {chart.totals.map((t) => (
              <li key={t.operation} className="flex items-center gap-2">
                <span className="size-2.5 rounded-sm" style={{ background: colorOf(t.operation) }} aria-hidden="true" />
                {t.operation} <span className="muted tabular-nums">{formatNumber(t.credits)}</span>
              </li>
            ))}
          </ul>
        ) : ledger.data ? <p className="muted mt-2 text-sm">No credits used in this period.</p> : null}
      </section>
      <section className="card overflow-hidden" aria-labelledby="ledger-h">
        <h2 id="ledger-h" className="px-5 pt-5 font-semibold">Ledger</h2>
        <div className="max-h-[28rem] overflow-auto">
          <table className="data-table" data-testid="ledger-table">
            <thead className="sticky top-0 bg-white dark:bg-zinc-900">
              <tr><th scope="col">When</th><th scope="col">Kind</th><th scope="col">Operation</th><th scope="col">Job</th><th scope="col" className="text-right">Amount</th></tr>
            </thead>
            <tbody>
              {(ledger.data?.entries ?? []).map((e, i) => (
                <tr key={i}>
                  <td className="whitespace-nowrap"><LocalTime iso={e.at} /></td>
                  <td>{e.kind}</td>
                  <td>{e.operation ?? "—"}</td>
                  <td className="max-w-48 truncate font-mono text-xs">{e.jobId ? <Link href={`/jobs/${encodeURIComponent(e.jobId)}`} className="hover:underline">{e.jobId}</Link> : "—"}</td>
                  <td className={`text-right tabular-nums ${e.amount < 0 ? "text-red-700 dark:text-red-400" : e.amount > 0 ? "text-emerald-700 dark:text-emerald-400" : ""}`}>{e.amount > 0 ? "+" : ""}{formatNumber(e.amount)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
    </div>
  );
}
