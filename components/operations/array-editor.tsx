"use client";

import type { FieldModel, FormValue } from "@/lib/dashboard/operations/form-model";
import { Icon } from "@/components/ui/icon";
import { Fragment, type ReactNode } from "react";

/** Draws one field of an item; the field input passes itself, so this file does not import it (no import cycle). */
export type RenderField = (props: { field: FieldModel; value: FormValue; onChange: (v: FormValue) => void }) => ReactNode;

/** A list of objects (edit/add annotations, images, fields): one small form per item. */
export function ArrayEditor({ field, value, onChange, renderField }: { field: FieldModel; value: Record<string, unknown>[]; onChange: (v: FormValue) => void; renderField: RenderField }) {
  const subs = field.itemFields ?? [];
  const main = subs.filter((s) => !s.advanced);
  const extra = subs.filter((s) => s.advanced);
  const set = (i: number, key: string, v: FormValue) => onChange(value.map((item, n) => (n === i ? { ...item, [key]: v } : item)));
  const blank = () => Object.fromEntries(subs.map((s) => [s.key, s.kind === "boolean" ? s.default === true : s.default !== undefined ? String(s.default) : ""]));
  return (
    <div className="space-y-3">
      {value.map((item, i) => (
        <div key={i} className="rounded-lg border border-zinc-200 p-3 dark:border-zinc-800" data-testid={`${field.key}-item`}>
          <div className="mb-2 flex items-center justify-between">
            <span className="text-xs font-semibold text-zinc-500 dark:text-zinc-400 uppercase">{field.label} #{i + 1}</span>
            <button type="button" className="btn-ghost btn-sm" onClick={() => onChange(value.filter((_, n) => n !== i))} aria-label={`Remove ${field.label} #${i + 1}`}>
              <Icon name="trash" className="size-3.5" />
            </button>
          </div>
          <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
            {main.map((s) => (
              <Fragment key={s.key}>{renderField({ field: s, value: item[s.key] as FormValue, onChange: (v) => set(i, s.key, v) })}</Fragment>
            ))}
          </div>
          {extra.length ? (
            <details className="mt-3">
              <summary className="cursor-pointer text-xs font-medium text-zinc-600 dark:text-zinc-400">More options</summary>
              <div className="mt-2 grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
                {extra.map((s) => (
                  <Fragment key={s.key}>{renderField({ field: s, value: item[s.key] as FormValue, onChange: (v) => set(i, s.key, v) })}</Fragment>
                ))}
              </div>
            </details>
          ) : null}
        </div>
      ))}
      <button type="button" className="btn-secondary btn-sm" onClick={() => onChange([...value, blank()])}>
        + Add {field.label.replace(/s$/, "").toLowerCase()}
      </button>
    </div>
  );
}
