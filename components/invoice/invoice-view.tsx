"use client";

import { useMemo, useState } from "react";
import { buildInvoiceSections, buildLineItemTables, humanize, invoiceToCsvRows, readConfidence, readFieldSources } from "@/lib/dashboard/invoices/invoice";
import { toCsv } from "@/lib/dashboard/results/csv";
import { PdfPreview } from "@/components/results/pdf-preview";
import { CopyButton } from "@/components/ui/copy-button";
import { Icon } from "@/components/ui/icon";
import { Notice } from "@/components/ui/notice";

function download(name: string, type: string, text: string) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([text], { type }));
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

/**
 * The parsed invoice in sections beside its PDF. Hovering, focusing or clicking a field
 * highlights where it came from (fieldSources, PDF points, top-left origin).
 */
export function InvoiceView({ result, jobId, sourceUrl }: { result: Record<string, unknown>; jobId?: string; sourceUrl?: string | null }) {
  const invoice = useMemo(() => result.body ?? {}, [result.body]);
  const sections = useMemo(() => buildInvoiceSections(invoice), [invoice]);
  const tables = useMemo(() => buildLineItemTables(invoice), [invoice]);
  const sources = useMemo(() => readFieldSources(result), [result]);
  const confidence = useMemo(() => readConfidence(result), [result]);
  const [active, setActive] = useState<string | null>(null);
  const [pinned, setPinned] = useState<string | null>(null);
  const [page, setPage] = useState(0);
  const current = active ?? pinned;
  const src = current ? sources[current] : undefined;
  const pdfUrl = sourceUrl ?? (typeof result.sourceUrl === "string" ? result.sourceUrl : null);
  const found = sections.flatMap((s) => s.groups.flatMap((g) => g.fields)).filter((f) => f.value !== null).length;
  const total = sections.flatMap((s) => s.groups.flatMap((g) => g.fields)).length;

  function focusField(path: string | null, pin = false) {
    if (pin) setPinned((p) => (p === path ? null : path));
    else setActive(path);
    const s = path ? sources[path] : undefined;
    if (s) setPage(s.page);
  }

  const base = jobId ? `invoice-${jobId}` : "invoice";
  return (
    <div className="space-y-4" data-testid="invoice-view">
      <div className="flex flex-wrap items-center gap-2">
        <p className="muted text-sm">{found} of {total} fields found{Object.keys(sources).length ? " · hover a field to see where it came from" : ""}</p>
        <div className="ml-auto flex gap-2">
          <button type="button" className="btn-secondary btn-sm" onClick={() => download(`${base}.json`, "application/json", JSON.stringify(invoice, null, 2))}>
            <Icon name="download" className="size-3.5" /> Export JSON
          </button>
          <button type="button" className="btn-secondary btn-sm" onClick={() => download(`${base}.csv`, "text/csv", toCsv(invoiceToCsvRows(invoice)))}>
            <Icon name="download" className="size-3.5" /> Export CSV
          </button>
        </div>
      </div>
      <div className="grid gap-6 xl:grid-cols-[minmax(0,1fr)_minmax(0,28rem)]">
        <div className="space-y-4">
          {sections.map((s) => (
            <section key={s.id} aria-labelledby={`inv-${s.id}`} className="card @container p-4">
              <h3 id={`inv-${s.id}`} className="text-sm font-semibold">{s.title}</h3>
              <div className="mt-2 grid gap-x-6 gap-y-3 @2xl:grid-cols-2">
                {s.groups.filter((g) => g.fields.some((f) => f.value !== null)).map((g, gi, shown) => (
                  <div key={gi} className={shown.length === 1 ? "@2xl:col-span-2" : ""}>
                    {g.title ? <p className="mb-1 text-xs font-semibold tracking-wide text-zinc-500 dark:text-zinc-400 uppercase">{g.title}</p> : null}
                    <dl className={shown.length === 1 ? "grid gap-x-6 @2xl:grid-cols-2" : ""}>
                      {g.fields.filter((f) => f.value !== null).map((f) => {
                        const hasSource = Boolean(sources[f.path]);
                        const isCurrent = current === f.path;
                        return (
                          <div
                            key={f.path}
                            data-field={f.path}
                            className={`group flex items-start gap-2 rounded-md px-2 py-1 ${isCurrent ? "bg-amber-50 ring-1 ring-amber-400 dark:bg-amber-500/10" : ""}`}
                            onMouseEnter={() => focusField(f.path)}
                            onMouseLeave={() => setActive(null)}
                          >
                            <dt className="w-32 shrink-0 pt-0.5 text-xs text-zinc-500 dark:text-zinc-400">{f.label}</dt>
                            <dd className="flex min-w-0 flex-1 items-start gap-2 text-sm">
                              <span className="min-w-0 flex-1">
                                {f.value === null ? (
                                  <span className="text-xs text-zinc-500 italic dark:text-zinc-400" data-missing="true">missing</span>
                                ) : (
                                  <button
                                    type="button"
                                    className={`text-left break-words ${hasSource ? "underline decoration-amber-400 decoration-dotted underline-offset-4" : ""}`}
                                    onFocus={() => focusField(f.path)}
                                    onBlur={() => setActive(null)}
                                    onClick={() => focusField(f.path, true)}
                                    aria-pressed={pinned === f.path}
                                    title={hasSource ? "Show on the page" : undefined}
                                  >
                                    {f.value}
                                  </button>
                                )}
                              </span>
                              {confidence[f.path] !== undefined ? (
                                <span
                                  className={`shrink-0 pt-0.5 text-[11px] tabular-nums ${confidence[f.path] >= 0.85 ? "text-emerald-700 dark:text-emerald-400" : confidence[f.path] >= 0.7 ? "text-zinc-500 dark:text-zinc-400" : "text-amber-700 dark:text-amber-400"}`}
                                  title="How sure the parser is of this value"
                                  data-confidence={confidence[f.path]}
                                >
                                  {Math.round(confidence[f.path] * 100)}%
                                </span>
                              ) : null}
                              {f.value !== null ? (
                                <CopyButton value={f.value} label={`Copy ${f.label}`} iconOnly className="btn-ghost btn-sm opacity-60 group-hover:opacity-100 focus:opacity-100" />
                              ) : null}
                            </dd>
                          </div>
                        );
                      })}
                    </dl>
                  </div>
                ))}
              </div>
              {/* Fields the parser did not find: one quiet line instead of a wall of "missing". */}
              {s.groups.some((g) => g.fields.some((f) => f.value === null)) ? (
                <p className="mt-2 px-2 text-xs text-zinc-500 dark:text-zinc-400">
                  Not found:{" "}
                  {s.groups
                    .flatMap((g) => g.fields.filter((f) => f.value === null))
                    .map((f, i) => (
                      <span key={f.path} data-field={f.path} data-missing="true">
                        {i > 0 ? ", " : ""}
                        {f.label}
                      </span>
                    ))}
                </p>
              ) : null}
            </section>
          ))}
          <section aria-labelledby="inv-lines" className="card overflow-hidden">
            <h3 id="inv-lines" className="px-4 pt-4 text-sm font-semibold">Line items</h3>
            {tables.length === 0 ? (
              <p className="px-4 pb-4 pt-2 text-xs text-zinc-500 italic dark:text-zinc-400" data-missing="true">missing — the parser found no line items</p>
            ) : (
              tables.map((t, ti) => (
                <div key={ti} className="table-scroll" tabIndex={0} role="region" aria-label={tables.length > 1 ? `Line items, table ${ti + 1}` : "Line items table"}>
                  <table className="data-table" data-testid="line-items">
                    <thead>
                      <tr>
                        {t.columns.map((c) => (
                          <th key={c} scope="col">{humanize(c)}</th>
                        ))}
                      </tr>
                    </thead>
                    <tbody>
                      {t.rows.map((r, ri) => (
                        <tr key={ri}>
                          {t.columns.map((c) => {
                            const path = `lineItems.${ti}.${ri}.${c}`;
                            return (
                              <td key={c} onMouseEnter={() => focusField(path)} onMouseLeave={() => setActive(null)} onClick={() => focusField(path, true)} className={current === path ? "bg-amber-50 dark:bg-amber-500/10" : ""}>
                                {r[c] ?? ""}
                              </td>
                            );
                          })}
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              ))
            )}
          </section>
        </div>
        <div className="xl:sticky xl:top-20 xl:self-start">
          {pdfUrl ? (
            <PdfPreview
              url={pdfUrl}
              page={page}
              onPageChange={setPage}
              overlay={(p) =>
                src && src.page === p ? (
                  <rect x={src.x - 2} y={src.y - 2} width={src.width + 4} height={src.height + 4} rx={2} className="fill-amber-300/40 stroke-amber-500" strokeWidth={1.5} data-testid="highlight" />
                ) : null
              }
            />
          ) : (
            <Notice tone="info">The source PDF is not available for preview.</Notice>
          )}
        </div>
      </div>
    </div>
  );
}
