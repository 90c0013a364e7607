"use client";

import { useMemo, useState } from "react";
import { parseCsv, sortRows } from "@/lib/dashboard/results/csv";
import { Icon } from "@/components/ui/icon";

/** CSV text as a sortable table (first row = header) with download. */
export function CsvTable({ text, downloadUrl, name = "result.csv" }: { text: string; downloadUrl?: string; name?: string }) {
  const all = useMemo(() => parseCsv(text), [text]);
  const [hasHeader, setHasHeader] = useState(true);
  const [sort, setSort] = useState<{ col: number; dir: "asc" | "desc" } | null>(null);
  const header = hasHeader ? (all[0] ?? []) : (all[0] ?? []).map((_, i) => `Column ${i + 1}`);
  const body = hasHeader ? all.slice(1) : all;
  const rows = sort ? sortRows(body, sort.col, sort.dir) : body;
  const width = Math.max(header.length, ...body.slice(0, 200).map((r) => r.length));
  const href = downloadUrl ?? `data:text/csv;charset=utf-8,${encodeURIComponent(text)}`;
  return (
    <div className="card overflow-hidden" data-testid="csv-table">
      <div className="flex flex-wrap items-center gap-3 border-b border-zinc-200 px-3 py-2 text-sm dark:border-zinc-800">
        <span className="muted">{body.length} rows × {width} columns</span>
        <label className="flex items-center gap-1.5">
          <input type="checkbox" checked={hasHeader} onChange={(e) => setHasHeader(e.target.checked)} /> First row is the header
        </label>
        <a href={href} download={name} className="btn-secondary btn-sm ml-auto">
          <Icon name="download" className="size-3.5" /> Download CSV
        </a>
      </div>
      <div className="max-h-[32rem] overflow-auto">
        <table className="data-table">
          <thead className="sticky top-0 bg-white dark:bg-zinc-900">
            <tr>
              {Array.from({ length: width }, (_, i) => {
                const active = sort?.col === i;
                return (
                  <th key={i} scope="col" aria-sort={active ? (sort!.dir === "asc" ? "ascending" : "descending") : "none"}>
                    <button type="button" className="flex items-center gap-1 uppercase" onClick={() => setSort(active && sort!.dir === "asc" ? { col: i, dir: "desc" } : active ? null : { col: i, dir: "asc" })}>
                      {header[i] || `Column ${i + 1}`}
                      <span aria-hidden="true" className="text-zinc-400">{active ? (sort!.dir === "asc" ? "▲" : "▼") : "↕"}</span>
                    </button>
                  </th>
                );
              })}
            </tr>
          </thead>
          <tbody>
            {rows.slice(0, 2000).map((r, ri) => (
              <tr key={ri}>
                {Array.from({ length: width }, (_, ci) => (
                  <td key={ci} className="whitespace-pre-wrap">{r[ci] ?? ""}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
        {rows.length > 2000 ? <p className="muted p-3 text-xs">Showing the first 2000 rows; download for all.</p> : null}
      </div>
    </div>
  );
}
