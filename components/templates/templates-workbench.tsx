"use client";

import { useMemo, useState, useSyncExternalStore } from "react";
import Mustache from "mustache";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/dashboard/data/http";
import { checkHtmlTemplate } from "@/lib/engine/templates/html-template";
import { checkParserTemplate } from "@/lib/engine/docparser/template";
import { CodeEditor, type CodeProblem } from "@/components/ui/code-editor";
import { Notice } from "@/components/ui/notice";
import { SourceInput } from "@/components/operations/source-input";
import { PdfPreview } from "@/components/results/pdf-preview";

type Kind = "html" | "documentparser";

interface Summary {
  id: number;
  type: "system" | "user";
  title: string;
  description: string;
}
interface Full extends Summary {
  body: string;
  test_json: string;
  updated_at: string | null;
}

const base: Record<Kind, string> = { html: "/v1/templates/html", documentparser: "/v1/documentparser/templates" };

const starters: Record<Kind, { body: string; test: string }> = {
  html: { body: "<h1>Hello {{name}}</h1>\n<ul>\n{{#items}}\n  <li>{{.}}</li>\n{{/items}}\n</ul>\n", test: '{\n  "name": "Ada",\n  "items": ["one", "two"]\n}' },
  documentparser: {
    body: "templateName: My layout\ntemplateVersion: 3\nculture: en-US\nfields:\n  total:\n    type: regex\n    expression: 'Total{{Spaces}}({{Number}})'\n    dataType: decimal\n",
    test: "",
  },
};

const noSubscribe = () => () => {};

function problemsOf(kind: Kind, body: string): CodeProblem[] {
  return kind === "html" ? checkHtmlTemplate(body) : checkParserTemplate(body);
}

/** The HTML template rendered with its sample data, for the live preview (scripts never run). */
function renderPreview(body: string, testJson: string): { html: string } | { error: string } {
  let data: unknown = {};
  try {
    data = testJson.trim() ? JSON.parse(testJson) : {};
  } catch (e) {
    return { error: `Sample data: ${(e as Error).message}` };
  }
  try {
    return { html: Mustache.render(body, data) };
  } catch (e) {
    return { error: (e as Error).message };
  }
}

/**
 * Templates: the account's HTML templates (with the built-in ones) and document parser templates.
 * The editor shows syntax problems by line as you type (the engine's own checks); HTML templates
 * preview live with their sample data; a document parser template is tested on a document, with
 * what it found listed and outlined on the page.
 */
export function TemplatesWorkbench() {
  const qc = useQueryClient();
  const [kind, setKind] = useState<Kind>("html");
  const list = useQuery({ queryKey: ["templates", kind], queryFn: () => api<{ templates: Summary[] }>(base[kind]) });
  const [current, setCurrent] = useState<Full | null>(null);
  const [title, setTitle] = useState("");
  const [description, setDescription] = useState("");
  const [body, setBody] = useState(starters.html.body);
  const [testJson, setTestJson] = useState(starters.html.test);
  const [source, setSource] = useState("");
  const problems = useMemo(() => problemsOf(kind, body), [kind, body]);
  const readOnly = current?.type === "system";

  function reset(k: Kind, t: Full | null) {
    setKind(k);
    setCurrent(t);
    setTitle(t ? (t.type === "system" ? `${t.title} (copy)` : t.title) : "");
    setDescription(t?.description ?? "");
    setBody(t?.body ?? starters[k].body);
    setTestJson(t?.test_json ?? starters[k].test);
    save.reset();
    test.reset();
  }
  const open = useMutation({
    mutationFn: (id: number) => api<Full>(`${base[kind]}/${id}`),
    onSuccess: (t) => reset(kind, t),
  });
  const save = useMutation({
    mutationFn: () =>
      api<Full>(`${base[kind]}/${current && !readOnly ? current.id : "new"}/update`, {
        method: "POST",
        body: { title, description, body, test_json: testJson },
      }),
    onSuccess: (t) => {
      setCurrent(t);
      setTitle(t.title);
      void qc.invalidateQueries({ queryKey: ["templates"] });
    },
  });
  const remove = useMutation({
    mutationFn: (id: number) => api(`${base[kind]}/${id}`, { method: "DELETE" }),
    onSuccess: () => {
      reset(kind, null);
      void qc.invalidateQueries({ queryKey: ["templates"] });
    },
  });
  const test = useMutation({
    mutationFn: () =>
      api<{ body: ParseAnswer }>("/v1/pdf/documentparser", { method: "POST", body: { url: source, template: body, inline: true } }),
    onSettled: () => void qc.invalidateQueries({ queryKey: ["jobs"] }),
  });
  const preview = kind === "html" ? renderPreview(body, testJson) : null;
  // The preview frame is created in the browser only: a server-rendered srcdoc frame may stay
  // blank after hydration until its content changes.
  const mounted = useSyncExternalStore(noSubscribe, () => true, () => false);

  return (
    <div className="space-y-4">
      <div role="tablist" aria-label="Template kind" className="flex gap-2">
        {(["html", "documentparser"] as const).map((k) => (
          <button key={k} type="button" role="tab" aria-selected={kind === k} className={kind === k ? "btn-primary btn-sm" : "btn-secondary btn-sm"} onClick={() => reset(k, null)}>
            {k === "html" ? "HTML templates" : "Document parser"}
          </button>
        ))}
      </div>
      <div className="grid gap-6 lg:grid-cols-[16rem_minmax(0,1fr)]">
        <aside className="card h-fit p-3" aria-label="Saved templates">
          <div className="mb-2 flex items-center justify-between px-1">
            <h2 className="text-sm font-semibold">Templates</h2>
            <button type="button" className="btn-ghost btn-sm" onClick={() => reset(kind, null)}>+ New</button>
          </div>
          <ul className="space-y-0.5" data-testid="template-list">
            {(list.data?.templates ?? []).map((t) => (
              <li key={t.id}>
                <button type="button" onClick={() => open.mutate(t.id)} aria-current={current?.id === t.id ? "true" : undefined} className={`w-full rounded-md px-2 py-1.5 text-left text-sm ${current?.id === t.id ? "bg-brand-50 font-medium text-brand-700 dark:bg-brand-500/15 dark:text-brand-100" : "hover:bg-zinc-100 dark:hover:bg-zinc-800"}`}>
                  <span className="block truncate">{t.title}</span>
                  <span className={`block text-xs ${current?.id === t.id ? "text-brand-700 dark:text-brand-100" : "text-zinc-600 dark:text-zinc-400"}`}>#{t.id}{t.type === "system" ? " · built in" : ""}</span>
                </button>
              </li>
            ))}
            {list.data && list.data.templates.length === 0 ? <li className="muted px-2 py-3 text-xs">None saved yet.</li> : null}
          </ul>
        </aside>
        <div className="min-w-0 space-y-6">
          <section className="card space-y-4 p-5" aria-labelledby="tpl-editor-h">
            <h2 id="tpl-editor-h" className="sr-only">Editor</h2>
            {readOnly ? <Notice tone="info">Built-in template #{current!.id}: saving makes your own copy.</Notice> : null}
            <div className="flex flex-wrap items-end gap-3">
              <div className="min-w-48 flex-1">
                <label htmlFor="tpl-title" className="label">Title</label>
                <input id="tpl-title" className="input mt-1.5" value={title} onChange={(e) => setTitle(e.target.value)} placeholder="e.g. Order confirmation" />
              </div>
              <button type="button" className="btn-primary" onClick={() => save.mutate()} disabled={!title.trim() || save.isPending || problems.length > 0}>
                {save.isPending ? "Saving…" : current && !readOnly ? "Save" : "Save template"}
              </button>
              {current && !readOnly ? <button type="button" className="btn-danger" onClick={() => remove.mutate(current.id)} disabled={remove.isPending}>Delete</button> : null}
            </div>
            <div>
              <label htmlFor="tpl-desc" className="label">Description</label>
              <input id="tpl-desc" className="input mt-1.5" value={description} onChange={(e) => setDescription(e.target.value)} />
            </div>
            <div>
              <p className="label mb-1.5">{kind === "html" ? "HTML with Mustache tags" : "Template (YAML or JSON)"}</p>
              <CodeEditor id="tpl-body" label="Template" value={body} onChange={setBody} problems={problems} testId="template" minRows={12} />
            </div>
            {kind === "html" ? (
              <div>
                <label htmlFor="tpl-test" className="label">Sample data (JSON)</label>
                <textarea id="tpl-test" className="input mt-1.5 font-mono text-[13px]" rows={6} value={testJson} onChange={(e) => setTestJson(e.target.value)} spellCheck={false} />
              </div>
            ) : null}
            {save.isError ? <Notice tone="error" title="Not saved">{(save.error as Error).message}</Notice> : null}
            {save.isSuccess ? <Notice tone="success">Saved as template #{save.data.id}. Use it with templateId: {save.data.id}.</Notice> : null}
          </section>
          {preview ? (
            <section className="card space-y-3 p-5" aria-labelledby="tpl-preview-h">
              <h2 id="tpl-preview-h" className="font-semibold">Live preview</h2>
              {"error" in preview ? (
                <Notice tone="error">{preview.error}</Notice>
              ) : !mounted ? null : (
                <iframe title="Template preview" sandbox="" srcDoc={preview.html} className="h-96 w-full rounded-md border border-zinc-200 bg-white dark:border-zinc-700" data-testid="template-preview" />
              )}
            </section>
          ) : (
            <section className="card space-y-4 p-5" aria-labelledby="tpl-test-h">
              <h2 id="tpl-test-h" className="font-semibold">Test against a document</h2>
              <SourceInput inputKind="document" value={source} onChange={setSource} label="Document" help="A PDF or a scan of the layout this template is for." />
              <button type="button" className="btn-primary" onClick={() => test.mutate()} disabled={!source || test.isPending || problems.length > 0}>
                {test.isPending ? "Parsing…" : "Test template"}
              </button>
              {test.isError ? <Notice tone="error" title="Test failed">{(test.error as Error).message}</Notice> : null}
              {test.data ? <ParseResultView result={test.data.body} source={source} /> : null}
            </section>
          )}
        </div>
      </div>
    </div>
  );
}

interface Boxed {
  pageIndex: number | null;
  x?: number;
  y?: number;
  width?: number;
  height?: number;
}
interface ParseAnswer {
  templateName: string;
  detected: boolean;
  objects: Array<(Boxed & { name: string; objectType: "field"; value: unknown }) | { name: string; objectType: "table"; columns: string[]; rows: Array<Record<string, Boxed & { value: unknown }>> }>;
}

/** What the document parser found: fields and tables, and their boxes outlined on the page. */
function ParseResultView({ result, source }: { result: ParseAnswer; source: string }) {
  const boxes: Array<Boxed & { label: string }> = [];
  for (const o of result.objects) {
    if (o.objectType === "field") boxes.push({ ...o, label: o.name });
    else for (const r of o.rows) for (const [c, cell] of Object.entries(r)) boxes.push({ ...cell, label: `${o.name}.${c}` });
  }
  const fields = result.objects.filter((o) => o.objectType === "field");
  const tables = result.objects.filter((o) => o.objectType === "table");
  return (
    <div className="space-y-4" data-testid="parse-result">
      {!result.detected ? <Notice tone="warning">The template&apos;s keywords were not found in this document; it was applied anyway.</Notice> : null}
      <div className="grid gap-4 xl:grid-cols-2">
        <div className="min-w-0 space-y-4">
          <table className="w-full text-sm">
            <thead><tr><th className="py-1 text-left">Field</th><th className="py-1 text-left">Value</th></tr></thead>
            <tbody>
              {fields.map((f) => (
                <tr key={f.name} className="border-t border-zinc-200 dark:border-zinc-800">
                  <td className="py-1 pr-3 font-mono text-xs">{f.name}</td>
                  <td className={`py-1 break-words whitespace-pre-wrap ${f.value === null ? "text-zinc-400 italic" : ""}`}>{f.value === null ? "not found" : String(f.value)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {tables.map((t) => (
            <div key={t.name} className="overflow-x-auto">
              <p className="mb-1 text-sm font-semibold">{t.name} · {t.rows.length} row(s)</p>
              <table className="w-full text-sm">
                <thead><tr>{t.columns.map((c) => <th key={c} className="py-1 pr-3 text-left font-mono text-xs">{c}</th>)}</tr></thead>
                <tbody>
                  {t.rows.map((r, i) => (
                    <tr key={i} className="border-t border-zinc-200 dark:border-zinc-800">
                      {t.columns.map((c) => <td key={c} className="py-1 pr-3">{r[c]?.value === null || r[c] === undefined ? "" : String(r[c].value)}</td>)}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          ))}
        </div>
        <PdfPreview
          url={source}
          showDownload={false}
          overlay={(page) =>
            boxes
              .filter((b) => b.pageIndex === page && b.x !== undefined)
              .map((b, i) => <rect key={i} x={b.x} y={b.y} width={b.width} height={b.height} className="fill-amber-400/25 stroke-amber-600" strokeWidth={1}><title>{b.label}</title></rect>)
          }
        />
      </div>
    </div>
  );
}
