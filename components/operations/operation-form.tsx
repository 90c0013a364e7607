"use client";

import { useMemo, useState, type FormEvent } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { initialValues, toRequestBody, validateValues, type FieldModel, type FormModel, type FormValue, type FormValues } from "@/lib/dashboard/operations/form-model";
import { api, ApiError } from "@/lib/dashboard/data/http";
import { compressPresets } from "@/lib/dashboard/operations/compress-presets";
import { Notice } from "@/components/ui/notice";
import { Icon } from "@/components/ui/icon";
import { FieldInput } from "./field-input";
import { SourceInput } from "./source-input";
import { RunResult } from "./run-result";
import { PlacementEditor } from "./placement-editor";

type Outcome = { request: Record<string, unknown>; response: Record<string, unknown> } | null;

/** The generated form of one operation, its submission, and the result beneath it. */
export function OperationForm({ model, apiBase, preset }: { model: FormModel; apiBase: string; preset?: Record<string, string> }) {
  const qc = useQueryClient();
  const [values, setValues] = useState<FormValues>(() => ({ ...initialValues(model), ...(preset ?? {}) }));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<Outcome>(null);

  const set = (name: string, v: FormValue) => {
    const next = { ...values, [name]: v };
    setValues(next);
    if (submitted) setErrors(validateValues(model, next));
  };

  const groups = useMemo(() => {
    const by = (pred: (f: FieldModel) => boolean) => model.fields.filter(pred);
    return {
      source: by((f) => f.section === "source"),
      main: by((f) => f.section === "main"),
      advanced: by((f) => f.section === "advanced"),
      profiles: by((f) => f.section === "profiles"),
      delivery: by((f) => f.section === "delivery"),
    };
  }, [model]);

  const placementArrays = model.id === "pdf-edit-add" ? model.fields.filter((f) => f.kind === "object-array") : [];

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    setSubmitted(true);
    const errs = validateValues(model, values);
    setErrors(errs);
    if (Object.keys(errs).length) {
      // The first field in the form's order with an error takes focus (the upload button stands in for url).
      const first = model.fields.find((f) => errs[f.name])?.name ?? Object.keys(errs)[0]!;
      requestAnimationFrame(() => {
        const sel = CSS.escape(first);
        const el = document.querySelector<HTMLElement>(`[name="${sel}"]:not([type="hidden"]), [data-focus-for="${sel}"]`);
        el?.focus();
        el?.scrollIntoView({ block: "center" });
      });
      return;
    }
    const body = toRequestBody(model, values);
    setBusy(true);
    setFailure(null);
    setOutcome(null);
    try {
      const response = await api<Record<string, unknown>>(model.path, { method: "POST", body });
      setOutcome({ request: body, response });
    } catch (err) {
      const msg = err instanceof ApiError ? `${err.status}: ${err.message}` : (err as Error).message;
      setFailure(msg);
    } finally {
      setBusy(false);
      void qc.invalidateQueries({ queryKey: ["jobs"] });
      void qc.invalidateQueries({ queryKey: ["credits"] });
    }
  }

  const errorCount = Object.keys(errors).length;
  const renderFields = (list: FieldModel[], cols = true) => (
    <div className={cols ? "grid gap-5 md:grid-cols-2" : "space-y-5"}>
      {list.map((f) => (
        <div key={f.name} className={f.kind === "object-array" || f.kind === "json" || f.widget === "rules" || f.widget === "textarea" ? "md:col-span-2" : ""}>
          {f.name === "config" && model.id === "pdf-compress" ? (
            <CompressPresets onPick={(cfg) => set("config", JSON.stringify(cfg, null, 2))} current={typeof values.config === "string" ? values.config : ""} />
          ) : null}
          <FieldInput field={f} value={values[f.name]} onChange={(v) => set(f.name, v)} error={errors[f.name]} pageBase={model.pageBase} />
        </div>
      ))}
    </div>
  );

  return (
    <div className="space-y-6">
      <form onSubmit={onSubmit} noValidate className="space-y-6" aria-label={`${model.title} form`}>
        {model.deprecated ? <Notice tone="warning" title="Deprecated">This endpoint is kept for old clients. Prefer the compress operation.</Notice> : null}
        <section className="card space-y-5 p-5">
          {groups.source.map((f) => (
            <SourceInput key={f.name} inputKind={model.input} value={typeof values[f.name] === "string" ? (values[f.name] as string) : ""} onChange={(v) => set(f.name, v)} error={errors[f.name]} label={model.input === "webpage" ? "Web page URL" : f.label} help={f.help} />
          ))}
          {placementArrays.length && typeof values.url === "string" && values.url ? (
            <PlacementEditor sourceUrl={values.url.split(",")[0]!} arrays={placementArrays} values={values} onChange={set} />
          ) : null}
          {groups.main.length ? renderFields(groups.main) : null}
        </section>
        {groups.profiles.length ? (
          <details className="card group p-5">
            <summary className="flex cursor-pointer list-none items-center gap-2 font-medium">
              <Icon name="chevron" className="size-4 transition-transform group-open:rotate-90" /> Profiles
              <span className="muted text-xs font-normal">processing options sent inside <code>profiles</code></span>
            </summary>
            <div className="mt-5 space-y-5">
              {renderFields(groups.profiles)}
              <FieldInput
                field={{ name: "profiles.$extra", key: "$extra", kind: "json", label: "More profile keys (JSON)", help: "Any other profile keys as a JSON object; merged with the options above.", advanced: true, required: false, section: "profiles", messages: {} }}
                value={values["profiles.$extra"]}
                onChange={(v) => set("profiles.$extra", v)}
                error={errors["profiles.$extra"]}
              />
            </div>
          </details>
        ) : null}
        {groups.advanced.length ? (
          <details className="card group p-5">
            <summary className="flex cursor-pointer list-none items-center gap-2 font-medium">
              <Icon name="chevron" className="size-4 transition-transform group-open:rotate-90" /> Advanced options
              <span className="muted text-xs font-normal">{groups.advanced.length} options</span>
            </summary>
            <div className="mt-5">{renderFields(groups.advanced)}</div>
          </details>
        ) : null}
        {groups.delivery.length && !model.alwaysAsync ? (
          <details className="card group p-5" open={values.async === true}>
            <summary className="flex cursor-pointer list-none items-center gap-2 font-medium">
              <Icon name="chevron" className="size-4 transition-transform group-open:rotate-90" /> Background job and callback
            </summary>
            <div className="mt-5">{renderFields(groups.delivery)}</div>
          </details>
        ) : model.alwaysAsync ? (
          <div className="card space-y-4 p-5">
            <p className="muted text-sm">This operation always runs as a background job; the result appears below when it is ready.</p>
            {renderFields(groups.delivery.filter((f) => f.name !== "async"))}
          </div>
        ) : null}
        <div className="flex flex-wrap items-center gap-3">
          <button type="submit" className="btn-primary px-5" disabled={busy}>
            <Icon name="play" className="size-3.5" /> {busy ? "Running…" : `Run ${inSentence(model.title)}`}
          </button>
          {errorCount ? <p className="text-sm text-red-700 dark:text-red-400" role="alert">Fix {errorCount} field{errorCount > 1 ? "s" : ""} above.</p> : null}
        </div>
      </form>
      {failure ? <Notice tone="error" title="The operation failed">{failure}</Notice> : null}
      {outcome ? <RunResult model={model} apiBase={apiBase} request={outcome.request} response={outcome.response} /> : null}
    </div>
  );
}

function CompressPresets({ onPick, current }: { onPick: (cfg: Record<string, unknown>) => void; current: string }) {
  const active = compressPresets.find((p) => JSON.stringify(p.config, null, 2) === current)?.id;
  return (
    <fieldset className="mb-4">
      <legend className="label mb-2">Presets</legend>
      <div className="grid gap-2 sm:grid-cols-2 lg:grid-cols-4">
        {compressPresets.map((p) => (
          <button key={p.id} type="button" onClick={() => onPick(p.config)} aria-pressed={active === p.id} className={`rounded-lg border p-3 text-left text-sm transition-colors ${active === p.id ? "border-brand-500 bg-brand-50 dark:bg-brand-500/10" : "border-zinc-200 hover:border-zinc-300 dark:border-zinc-800 dark:hover:border-zinc-700"}`}>
            <span className="font-medium">{p.label}</span>
            <span className="muted mt-0.5 block text-xs">{p.help}</span>
          </button>
        ))}
      </div>
    </fieldset>
  );
}

/** A title inside a sentence: plain capitalised words lower-cased, acronyms and names kept ("TextSense OCR job", "merge PDFs"). */
function inSentence(title: string): string {
  return title.replace(/\b[A-Z][a-z]+\b/g, (w) => w.toLowerCase());
}
