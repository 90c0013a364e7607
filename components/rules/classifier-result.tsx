"use client";

import { useMemo } from "react";
import { readMatches } from "@/lib/dashboard/rules/classifier-matches";
import { parseRules } from "@/lib/engine/classify/parse-rules";
import { Notice } from "@/components/ui/notice";

/**
 * The classes a document matched and, with match details, which keywords matched where.
 * `rulesText` (the tester's rules) numbers each rule with its line in the editor.
 */
export function ClassifierResult({ result, rulesText }: { result: Record<string, unknown>; rulesText?: string }) {
  const body = (result.body ?? {}) as { classes?: { class: string }[] };
  const classes = body.classes ?? [];
  const lines = useMemo(() => (rulesText ? parseRules(rulesText).rules.map((r) => r.line) : undefined), [rulesText]);
  const rules = readMatches(result.matches, lines);
  return (
    <div className="space-y-4" data-testid="classifier-result">
      <div className="card p-4">
        <h3 className="text-sm font-semibold">Matched classes</h3>
        {classes.length ? (
          <ul className="mt-2 flex flex-wrap gap-2" data-testid="matched-classes">
            {classes.map((c, i) => (
              <li key={i} className="rounded-full bg-brand-50 px-3 py-1 text-sm font-medium text-brand-700 ring-1 ring-brand-500/20 dark:bg-brand-500/15 dark:text-brand-100">
                {c.class}
              </li>
            ))}
          </ul>
        ) : (
          <p className="muted mt-2 text-sm">No class matched this document.</p>
        )}
      </div>
      {rules.length ? (
        <div className="card table-scroll" tabIndex={0} role="region" aria-label="Keyword matches">
          <table className="data-table" data-testid="rule-matches">
            <caption className="px-3 pt-3 text-left text-sm font-semibold">Rules</caption>
            <thead><tr><th scope="col">Class</th><th scope="col">Logic</th><th scope="col">Result</th><th scope="col">Keywords</th></tr></thead>
            <tbody>
              {rules.map((r, i) => (
                <tr key={i} data-rule-class={r.className} data-matched={r.matched}>
                  <td className="font-medium">{r.className}{r.line ? <span className="muted ml-1 text-xs">(line {r.line})</span> : null}</td>
                  <td><code className="text-xs">{r.logic}</code></td>
                  <td>{r.matched ? <span className="text-emerald-700 dark:text-emerald-400">matched</span> : <span className="muted">no match</span>}</td>
                  <td>
                    <ul className="space-y-1">
                      {r.keywords.map((k, j) => (
                        <li key={j} className="text-xs" data-keyword={k.keyword} data-matched={k.matched}>
                          <code className={`rounded px-1 py-0.5 ${k.matched ? "bg-emerald-50 text-emerald-800 dark:bg-emerald-500/15 dark:text-emerald-200" : "bg-zinc-100 text-zinc-600 line-through dark:bg-zinc-800 dark:text-zinc-400"}`}>{k.keyword}</code>
                          {k.positions.length ? (
                            <span className="muted ml-2">
                              {k.positions.slice(0, 5).map((h, n) => (
                                <span key={n} className="mr-2">
                                  p.{h.page + 1} “{h.text.length > 40 ? h.text.slice(0, 40) + "…" : h.text}”
                                </span>
                              ))}
                              {k.positions.length > 5 ? `+${k.positions.length - 5} more` : null}
                            </span>
                          ) : null}
                        </li>
                      ))}
                      {r.scores ? (
                        <li className="muted text-xs">
                          {Object.entries(r.scores).sort((a, b) => b[1] - a[1]).slice(0, 4).map(([t, s]) => `${t} ${s.toFixed(2)}`).join(" · ")}
                        </li>
                      ) : null}
                    </ul>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : result.matches === undefined ? (
        <Notice tone="info">Match details were not returned. Ask for them with the profile IncludeMatchDetails: true.</Notice>
      ) : null}
    </div>
  );
}
