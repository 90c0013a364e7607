"use client";

import { useMemo, useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ruleSetsQuery } from "@/lib/dashboard/data/queries";
import { api, local } from "@/lib/dashboard/data/http";
import { parseRules } from "@/lib/engine/classify/parse-rules";
import type { RuleSet } from "@/lib/dashboard/data/api-types";
import { Notice } from "@/components/ui/notice";
import { SourceInput } from "@/components/operations/source-input";
import { RulesEditor } from "./rules-editor";
import { ClassifierResult } from "./classifier-result";
import { LocalTime } from "@/components/ui/local-time";

const EXAMPLE = `# className, logic, keyword1, keyword2, ...
invoice, OR, invoice, /inv(oice)?\\s*no/i, amount due
contract, AND, agreement, signature
receipt, OR, receipt, thank you for your purchase`;

/** Saved rule sets, the editor, and a tester that runs the classifier with match details. */
export function RulesWorkbench() {
  const qc = useQueryClient();
  const { data } = useQuery(ruleSetsQuery());
  const sets = data?.ruleSets ?? [];
  const [current, setCurrent] = useState<RuleSet | null>(null);
  const [name, setName] = useState("");
  const [rules, setRules] = useState(EXAMPLE);
  const [source, setSource] = useState("");
  // The classifier's own default (true), so the tester and a plain classifier call agree.
  const [caseSensitive, setCaseSensitive] = useState(true);
  const dirty = current ? current.name !== name || current.rules !== rules : rules !== EXAMPLE || name !== "";
  const problems = useMemo(() => parseRules(rules).errors, [rules]);

  const save = useMutation({
    mutationFn: () =>
      current
        ? local<{ ruleSet: RuleSet }>(`/api/rule-sets/${current.id}`, { method: "PUT", body: { name, rules } })
        : local<{ ruleSet: RuleSet }>("/api/rule-sets", { method: "POST", body: { name, rules } }),
    onSuccess: (r) => {
      setCurrent(r.ruleSet);
      void qc.invalidateQueries({ queryKey: ["rule-sets"] });
    },
  });
  const remove = useMutation({
    mutationFn: (id: string) => local(`/api/rule-sets/${id}`, { method: "DELETE" }),
    onSuccess: () => {
      setCurrent(null);
      setName("");
      setRules(EXAMPLE);
      void qc.invalidateQueries({ queryKey: ["rule-sets"] });
    },
  });
  const test = useMutation({
    mutationFn: (rulescsv: string) =>
      api<Record<string, unknown>>("/v1/pdf/classifier", {
        method: "POST",
        body: { url: source, rulescsv, caseSensitive, inline: true, profiles: { IncludeMatchDetails: true } },
      }),
    onSettled: () => void qc.invalidateQueries({ queryKey: ["jobs"] }),
  });

  function open(s: RuleSet | null) {
    setCurrent(s);
    setName(s?.name ?? "");
    setRules(s?.rules ?? EXAMPLE);
    save.reset();
  }

  return (
    <div className="grid gap-6 lg:grid-cols-[16rem_minmax(0,1fr)]">
      <aside className="card h-fit p-3" aria-label="Saved rule sets">
        <div className="mb-2 flex items-center justify-between px-1">
          <h2 className="text-sm font-semibold">Rule sets</h2>
          <button type="button" className="btn-ghost btn-sm" onClick={() => open(null)}>+ New</button>
        </div>
        <ul className="space-y-0.5" data-testid="rule-set-list">
          {sets.map((s) => (
            <li key={s.id}>
              <button type="button" onClick={() => open(s)} aria-current={current?.id === s.id ? "true" : undefined} className={`w-full rounded-md px-2 py-1.5 text-left text-sm ${current?.id === s.id ? "bg-brand-50 font-medium text-brand-700 dark:bg-brand-500/15 dark:text-brand-100" : "hover:bg-zinc-100 dark:hover:bg-zinc-800"}`}>
                <span className="block truncate">{s.name}</span>
                <span className="block text-xs text-zinc-500 dark:text-zinc-400">edited <LocalTime iso={s.updatedAt} mode="relative" /></span>
              </button>
            </li>
          ))}
          {sets.length === 0 ? <li className="muted px-2 py-3 text-xs">None saved yet.</li> : null}
        </ul>
      </aside>
      <div className="space-y-6">
        <section className="card space-y-4 p-5" aria-labelledby="editor-h">
          <h2 id="editor-h" className="sr-only">Editor</h2>
          <div className="flex flex-wrap items-end gap-3">
            <div className="min-w-48 flex-1">
              <label htmlFor="rs-name" className="label">Name</label>
              <input id="rs-name" className="input mt-1.5" value={name} onChange={(e) => setName(e.target.value)} placeholder="e.g. Inbound mail" />
            </div>
            <button type="button" className="btn-primary" onClick={() => save.mutate()} disabled={!name.trim() || save.isPending || !dirty}>
              {save.isPending ? "Saving…" : current ? "Save" : "Save rule set"}
            </button>
            {current ? <button type="button" className="btn-danger" onClick={() => remove.mutate(current.id)} disabled={remove.isPending}>Delete</button> : null}
          </div>
          <div>
            <div className="mb-1.5 flex flex-wrap items-baseline justify-between gap-2">
              <label htmlFor="rules-text" className="label">Rules</label>
              <span className="text-xs text-zinc-500 dark:text-zinc-400">
                One class per line: <code className="text-sky-700 dark:text-sky-300">class</code>, <code className="text-fuchsia-700 dark:text-fuchsia-300">OR|AND</code>, keywords or <code className="text-amber-700 dark:text-amber-300">/regex/i</code>
              </span>
            </div>
            <RulesEditor id="rules-text" value={rules} onChange={setRules} />
          </div>
          {save.isError ? <Notice tone="error" title="Not saved">{(save.error as Error).message}</Notice> : null}
          {save.isSuccess && !dirty ? <Notice tone="success">Saved “{save.data.ruleSet.name}”.</Notice> : null}
        </section>
        <section className="card space-y-4 p-5" aria-labelledby="tester-h">
          <h2 id="tester-h" className="font-semibold">Test against a document</h2>
          <SourceInput inputKind="document" value={source} onChange={setSource} label="Document" help="A PDF or an image; the classifier runs with these rules and reports which keywords matched where." />
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" checked={caseSensitive} onChange={(e) => setCaseSensitive(e.target.checked)} className="size-4 accent-brand-600" /> Case-sensitive keywords
          </label>
          <div className="flex items-center gap-3">
            <button type="button" className="btn-primary" onClick={() => test.mutate(rules)} disabled={!source || test.isPending || problems.length > 0}>
              {test.isPending ? "Testing…" : "Test rules"}
            </button>
            {problems.length ? <span className="text-xs text-red-700 dark:text-red-400">Fix the rules first.</span> : null}
          </div>
          {test.isError ? <Notice tone="error" title="Test failed">{(test.error as Error).message}</Notice> : null}
          {test.data ? <ClassifierResult result={test.data} rulesText={test.variables} /> : null}
        </section>
      </div>
    </div>
  );
}
