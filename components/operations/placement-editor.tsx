"use client";

import { useState } from "react";
import type { FieldModel, FormValue, FormValues } from "@/lib/dashboard/operations/form-model";
import { PdfPreview } from "@/components/results/pdf-preview";

const COLORS: Record<string, string> = { annotations: "#4f46e5", images: "#059669", fields: "#d97706" };

/**
 * Places edit/add items by clicking on the rendered source page: the click becomes x/y (PDF
 * points, top-left origin) and `pages` of a new annotation, image or field fill.
 */
export function PlacementEditor({ sourceUrl, arrays, values, onChange }: { sourceUrl: string; arrays: FieldModel[]; values: FormValues; onChange: (name: string, v: FormValue) => void }) {
  const placeable = arrays.filter((a) => a.itemFields?.some((f) => f.key === "x") || a.key === "fields");
  const [target, setTarget] = useState(placeable[0]?.name ?? "");
  const [page, setPage] = useState(0);
  if (!placeable.length) return null;
  const field = placeable.find((a) => a.name === target) ?? placeable[0]!;
  function pick(p: number, pt: { x: number; y: number }) {
    const list = ((values[field.name] as Record<string, unknown>[]) ?? []).slice();
    const keys = new Set(field.itemFields?.map((f) => f.key));
    const item: Record<string, unknown> = {};
    for (const f of field.itemFields ?? []) item[f.key] = f.kind === "boolean" ? f.default === true : f.default !== undefined ? String(f.default) : "";
    if (keys.has("x")) item.x = String(pt.x);
    if (keys.has("y")) item.y = String(pt.y);
    if (keys.has("pages")) item.pages = String(p);
    if (keys.has("text") && field.key === "annotations") item.text = "Text";
    if (keys.has("width") && field.key === "images") item.width = "120";
    if (keys.has("height") && field.key === "images") item.height = "60";
    list.push(item);
    onChange(field.name, list);
  }
  const markers = (p: number) =>
    placeable.flatMap((a) =>
      ((values[a.name] as Record<string, unknown>[]) ?? [])
        .map((it, i) => ({ it, i }))
        .filter(({ it }) => it.x !== undefined && it.x !== "" && (it.pages === undefined || it.pages === "" || String(it.pages) === String(p)))
        .map(({ it, i }) => {
          const x = Number(it.x);
          const y = Number(it.y);
          const w = Number(it.width) || 0;
          const h = Number(it.height) || 0;
          return (
            <g key={`${a.name}-${i}`}>
              {w && h ? <rect x={x} y={y} width={w} height={h} fill="none" stroke={COLORS[a.key] ?? "#4f46e5"} strokeDasharray="4 2" strokeWidth={1.5} /> : null}
              <circle cx={x} cy={y} r={4} fill={COLORS[a.key] ?? "#4f46e5"} />
              <text x={x + 6} y={y - 4} fontSize={10} fill={COLORS[a.key] ?? "#4f46e5"}>{`${a.key.slice(0, 1).toUpperCase()}${i + 1}${it.text ? ` ${String(it.text).slice(0, 20)}` : ""}`}</text>
            </g>
          );
        }),
    );
  return (
    <div className="rounded-xl border border-zinc-200 p-4 dark:border-zinc-800" data-testid="placement-editor">
      <div className="mb-3 flex flex-wrap items-center gap-2 text-sm">
        <span className="font-medium">Click the page to add</span>
        <div role="radiogroup" aria-label="What a click adds" className="inline-flex rounded-lg bg-zinc-100 p-0.5 dark:bg-zinc-800">
          {placeable.map((a) => (
            <button key={a.name} type="button" role="radio" aria-checked={field.name === a.name} onClick={() => setTarget(a.name)} className={`rounded-md px-3 py-1 ${field.name === a.name ? "bg-white font-medium shadow-xs dark:bg-zinc-950" : "text-zinc-600 dark:text-zinc-400"}`}>
              {a.label.replace(/s$/, "")}
            </button>
          ))}
        </div>
        <span className="muted text-xs">Positions are in points from the top-left corner.</span>
      </div>
      <div className="max-w-xl">
        <PdfPreview url={sourceUrl} page={page} onPageChange={setPage} onPick={pick} overlay={markers} showDownload={false} />
      </div>
    </div>
  );
}
