/**
 * A JSON value as a collapsible tree, built on <details> so it works without JavaScript and
 * with the keyboard (Enter/Space on a summary folds it).
 */
export function JsonTree({ value, name, depth = 0, openDepth = 2 }: { value: unknown; name?: string; depth?: number; openDepth?: number }) {
  const label = name !== undefined ? <span className="text-sky-700 dark:text-sky-300">{JSON.stringify(name)}</span> : null;
  if (value !== null && typeof value === "object") {
    const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value as Record<string, unknown>);
    const [open, close] = Array.isArray(value) ? ["[", "]"] : ["{", "}"];
    if (entries.length === 0) {
      return (
        <div className="font-mono text-xs leading-5">
          {label}
          {label ? ": " : null}
          <span className="text-zinc-500 dark:text-zinc-400">{open + close}</span>
        </div>
      );
    }
    return (
      <details open={depth < openDepth} className="font-mono text-xs leading-5 [&>summary::-webkit-details-marker]:hidden">
        <summary className="cursor-pointer list-none rounded hover:bg-zinc-100 dark:hover:bg-zinc-800">
          <span className="inline-block w-3 text-zinc-400 transition-transform [details[open]>summary>&]:rotate-90" aria-hidden="true">›</span>
          {label}
          {label ? ": " : null}
          <span className="text-zinc-500 dark:text-zinc-400">
            {open}
            <span className="[details[open]>summary_&]:hidden"> {entries.length} {Array.isArray(value) ? "items" : "keys"} {close}</span>
          </span>
        </summary>
        <div className="ml-3 border-l border-zinc-200 pl-3 dark:border-zinc-800">
          {entries.map(([k, v]) => (
            <JsonTree key={k} name={Array.isArray(value) ? undefined : k} value={v} depth={depth + 1} openDepth={openDepth} />
          ))}
        </div>
        <span className="ml-3 text-zinc-500 dark:text-zinc-400">{close}</span>
      </details>
    );
  }
  const color =
    typeof value === "string"
      ? "text-emerald-700 dark:text-emerald-300"
      : typeof value === "number"
        ? "text-amber-700 dark:text-amber-300"
        : "text-fuchsia-700 dark:text-fuchsia-300";
  return (
    <div className="pl-3 font-mono text-xs leading-5 break-all">
      {label}
      {label ? ": " : null}
      <span className={color}>{JSON.stringify(value)}</span>
    </div>
  );
}
