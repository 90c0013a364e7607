"use client";

/** Two date fields (from, to: both days included) with a reset; values are YYYY-MM-DD or "". */
export function DateRange({
  idPrefix,
  value,
  onChange,
}: {
  idPrefix: string;
  value: { from: string; to: string };
  onChange: (v: { from: string; to: string }) => void;
}) {
  return (
    <div role="group" aria-label="Date range" className="flex flex-wrap items-center gap-2 text-sm">
      <span className="flex items-center gap-2">
        <label htmlFor={`${idPrefix}-from`} className="muted w-9 sm:w-auto">From</label>
        <input id={`${idPrefix}-from`} type="date" value={value.from} max={value.to || undefined} onChange={(e) => onChange({ ...value, from: e.target.value })} className="input w-40 py-1" />
      </span>
      <span className="flex items-center gap-2">
        <label htmlFor={`${idPrefix}-to`} className="muted w-9 sm:w-auto">to</label>
        <input id={`${idPrefix}-to`} type="date" value={value.to} min={value.from || undefined} onChange={(e) => onChange({ ...value, to: e.target.value })} className="input w-40 py-1" />
      </span>
      {value.from || value.to ? (
        <button type="button" className="btn-ghost btn-sm" onClick={() => onChange({ from: "", to: "" })}>Any date</button>
      ) : null}
    </div>
  );
}
