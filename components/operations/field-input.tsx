"use client";

import { useId } from "react";
import type { FieldModel, FormValue } from "@/lib/dashboard/operations/form-model";
import { parseJsonText } from "@/lib/dashboard/operations/form-model";
import { ArrayEditor } from "./array-editor";
import { PagesInput } from "./pages-input";
import { RulesField } from "@/components/rules/rules-field";

/** One generated field: its label, help text, default, allowed values and validation message. */
export function FieldInput({ field, value, onChange, error, pageBase = 0 }: { field: FieldModel; value: FormValue; onChange: (v: FormValue) => void; error?: string; pageBase?: 0 | 1 }) {
  const id = useId();
  const helpId = `${id}-help`;
  const errId = `${id}-err`;
  const describedBy = [field.help ? helpId : "", error ? errId : ""].filter(Boolean).join(" ") || undefined;
  const common = { id, name: field.name, "aria-invalid": error ? true : undefined, "aria-describedby": describedBy } as const;
  const text = typeof value === "string" ? value : "";
  const defaultHint = field.default !== undefined && field.default !== "" && field.kind !== "boolean" ? `Default: ${typeof field.default === "object" ? JSON.stringify(field.default) : String(field.default)}` : null;

  if (field.kind === "boolean") {
    return (
      <div className="flex items-start gap-3">
        <input type="checkbox" {...common} checked={value === true} onChange={(e) => onChange(e.target.checked)} className="mt-0.5 size-4 rounded border-zinc-300 accent-brand-600" />
        <div>
          <label htmlFor={id} className="label">{field.label}</label>
          {field.help ? <p id={helpId} className="help">{field.help}</p> : null}
          {error ? <p id={errId} className="field-error">{error}</p> : null}
        </div>
      </div>
    );
  }

  let control;
  if (field.kind === "object-array") {
    control = <ArrayEditor field={field} value={(value as Record<string, unknown>[]) ?? []} onChange={onChange} renderField={(p) => <FieldInput {...p} />} />;
  } else if (field.kind === "enum") {
    control = (
      <select {...common} className="input" value={text} onChange={(e) => onChange(e.target.value)}>
        {!field.required ? <option value="">{field.default !== undefined ? `Default (${String(field.default)})` : "Not set"}</option> : null}
        {field.options!.map((o) => (
          <option key={o} value={o}>{o}</option>
        ))}
      </select>
    );
  } else if (field.kind === "integer" || field.kind === "number") {
    control = (
      <input {...common} type="number" inputMode="decimal" className="input" value={text} min={field.minimum} max={field.maximum} step={field.kind === "integer" ? 1 : "any"} placeholder={field.default !== undefined ? String(field.default) : undefined} onChange={(e) => onChange(e.target.value)} />
    );
  } else if (field.kind === "json" || field.kind === "string-array" || field.widget === "json") {
    const live = text.trim() ? parseJsonText(text).error : undefined;
    control = (
      <>
        <textarea {...common} aria-invalid={error || live ? true : undefined} className="input min-h-28 font-mono text-xs" spellCheck={false} value={text} placeholder={field.kind === "string-array" ? '["1.4"]' : field.example !== undefined ? examplePlaceholder(field.example) : "{ }"} onChange={(e) => onChange(e.target.value)} />
        {live && !error ? <p className="field-error" role="status">{live}</p> : null}
      </>
    );
  } else if (field.widget === "pages") {
    control = <PagesInput {...common} value={text} onChange={(v) => onChange(v)} base={pageBase} example={typeof field.example === "string" ? field.example : undefined} />;
  } else if (field.widget === "rules") {
    control = <RulesField id={id} value={text} onChange={(v) => onChange(v)} describedBy={describedBy} />;
  } else if (field.widget === "textarea") {
    control = <textarea {...common} className="input min-h-24" value={text} onChange={(e) => onChange(e.target.value)} />;
  } else if (field.widget === "color") {
    control = (
      <div className="flex gap-2">
        <input type="color" aria-label={`${field.label} picker`} value={/^#[0-9a-f]{6}$/i.test(text) ? text : "#000000"} onChange={(e) => onChange(e.target.value)} className="h-9 w-12 rounded border border-zinc-300 dark:border-zinc-700" />
        <input {...common} className="input font-mono" value={text} placeholder="#000000" onChange={(e) => onChange(e.target.value)} />
      </div>
    );
  } else {
    control = (
      <input {...common} type={field.widget === "password" ? "password" : "text"} autoComplete={field.widget === "password" ? "new-password" : "off"} className="input" value={text} maxLength={field.maxLength} placeholder={field.example !== undefined ? String(field.example) : undefined} onChange={(e) => onChange(e.target.value)} />
    );
  }

  return (
    <div>
      <div className="flex items-baseline justify-between gap-2">
        {field.kind === "object-array" ? <span className="label">{field.label}</span> : <label htmlFor={id} className="label">{field.label}{field.required ? <span className="text-red-600" aria-hidden="true"> *</span> : null}</label>}
        {field.section === "profiles" ? <code className="text-[10px] text-zinc-500 dark:text-zinc-400">{field.key}</code> : null}
      </div>
      <div className="mt-1.5">{control}</div>
      {field.help || defaultHint ? (
        <p id={helpId} className="help">
          {field.help}
          {field.help && defaultHint ? " " : null}
          {defaultHint && !field.help?.includes("default") ? <span className="text-zinc-500 dark:text-zinc-400">{defaultHint}.</span> : null}
        </p>
      ) : null}
      {error ? <p id={errId} className="field-error" role="alert">{error}</p> : null}
    </div>
  );
}

/** A JSON field's example as its placeholder: an example given as JSON text is shown laid out too. */
function examplePlaceholder(example: unknown): string {
  if (typeof example === "string") {
    try {
      return JSON.stringify(JSON.parse(example), null, 2);
    } catch {
      return example;
    }
  }
  return JSON.stringify(example, null, 2);
}
