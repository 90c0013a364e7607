"use client";

import { useRef, type ReactNode, type UIEvent } from "react";

export interface CodeProblem {
  line: number;
  message: string;
}

/**
 * A plain-text code editor: line numbers, optional highlighting per line, and each problem shown
 * on its line as you type. A transparent textarea over a highlighted <pre>, so editing stays
 * native (undo, selection, IME, screen readers). The rules editor and the templates editor use it;
 * the problems come from the engine's own parser, so what the editor accepts is what the API accepts.
 */
export function CodeEditor({
  id,
  value,
  onChange,
  problems,
  warnings = [],
  highlight = (line) => line,
  describedBy,
  minRows = 10,
  label,
  testId = "code",
}: {
  id: string;
  value: string;
  onChange: (v: string) => void;
  problems: CodeProblem[];
  /** Lines that are accepted but likely mean something else: listed, without refusing the text. */
  warnings?: CodeProblem[];
  highlight?: (line: string) => ReactNode;
  describedBy?: string;
  minRows?: number;
  label: string;
  testId?: string;
}) {
  const lines = value.split("\n");
  const byLine = new Map<number, string[]>();
  for (const p of problems) byLine.set(p.line, [...(byLine.get(p.line) ?? []), p.message]);
  const preRef = useRef<HTMLPreElement>(null);
  const gutterRef = useRef<HTMLDivElement>(null);
  const onScroll = (e: UIEvent<HTMLTextAreaElement>) => {
    if (preRef.current) {
      preRef.current.scrollTop = e.currentTarget.scrollTop;
      preRef.current.scrollLeft = e.currentTarget.scrollLeft;
    }
    if (gutterRef.current) gutterRef.current.scrollTop = e.currentTarget.scrollTop;
  };
  const rows = Math.max(minRows, lines.length + 1);
  const errId = `${id}-problems`;
  const shared = "m-0 px-3 py-2 font-mono text-[13px] leading-6 whitespace-pre";
  return (
    <div>
      <div className={`flex overflow-hidden rounded-lg border bg-white dark:bg-zinc-950 ${problems.length ? "border-red-400 dark:border-red-700" : "border-zinc-300 dark:border-zinc-700"} focus-within:outline-2 focus-within:outline-brand-500/40`}>
        <div ref={gutterRef} aria-hidden="true" className="shrink-0 overflow-hidden border-r border-zinc-200 bg-zinc-50 py-2 text-right font-mono text-[13px] leading-6 text-zinc-500 select-none dark:text-zinc-400 dark:border-zinc-800 dark:bg-zinc-900" style={{ maxHeight: `${rows * 1.5 + 1}rem` }}>
          {Array.from({ length: rows }, (_, i) => (
            <div key={i} className={`px-2 ${byLine.has(i + 1) ? "bg-red-100 font-semibold text-red-700 dark:bg-red-950 dark:text-red-300" : ""}`} title={byLine.get(i + 1)?.join("\n")} data-error-line={byLine.has(i + 1) ? i + 1 : undefined}>
              {i + 1}
            </div>
          ))}
        </div>
        <div className="relative min-w-0 flex-1">
          <pre ref={preRef} aria-hidden="true" className={`${shared} pointer-events-none absolute inset-0 overflow-hidden`}>
            {lines.map((line, i) => (
              <div key={i} className={byLine.has(i + 1) ? "bg-red-50 dark:bg-red-950/40" : ""}>
                {highlight(line)}
                {line === "" ? " " : null}
                {byLine.has(i + 1) ? <span className="ml-4 text-xs text-red-600 not-italic dark:text-red-400" data-testid="line-error">⟵ {byLine.get(i + 1)![0]}</span> : null}
              </div>
            ))}
          </pre>
          <textarea
            id={id}
            aria-label={label}
            value={value}
            onChange={(e) => onChange(e.target.value)}
            onScroll={onScroll}
            rows={rows}
            spellCheck={false}
            autoCapitalize="off"
            autoComplete="off"
            wrap="off"
            aria-invalid={problems.length ? true : undefined}
            aria-describedby={[describedBy, errId].filter(Boolean).join(" ")}
            className={`${shared} relative block w-full resize-y overflow-auto bg-transparent text-transparent caret-zinc-900 outline-none selection:bg-brand-500/25 dark:caret-zinc-100`}
            data-testid={`${testId}-textarea`}
          />
        </div>
      </div>
      <div id={errId} aria-live="polite" className="mt-2">
        {problems.length ? (
          <ul className="space-y-1 text-xs text-red-700 dark:text-red-400" data-testid={`${testId}-problems`}>
            {problems.map((p, i) => (
              <li key={i}>Line {p.line}: {p.message}</li>
            ))}
          </ul>
        ) : value.trim() && !warnings.length ? (
          <p className="text-xs text-emerald-700 dark:text-emerald-400" data-testid={`${testId}-ok`}>No problems found.</p>
        ) : null}
        {warnings.length ? (
          <ul className="mt-1 space-y-1 text-xs text-amber-800 dark:text-amber-300" data-testid={`${testId}-warnings`}>
            {warnings.map((p, i) => (
              <li key={i}>Line {p.line}: {p.message}</li>
            ))}
          </ul>
        ) : null}
      </div>
    </div>
  );
}
