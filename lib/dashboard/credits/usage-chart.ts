/** Shapes the ledger's daily use for the stacked bar chart (pure). */
export interface ChartModel {
  days: string[];
  /** The series drawn, largest first; "Other" (when present) last. */
  operations: string[];
  stacks: { day: string; segments: { operation: string; credits: number; y0: number; y1: number }[]; total: number }[];
  max: number;
  totals: { operation: string; credits: number }[];
  /** The y-axis ticks: distinct whole numbers from 0 to max. */
  ticks: number[];
  /** Indexes of the days that carry a date label (at most maxLabels, never adjacent), today always. */
  labelled: number[];
}

/** The series beyond the palette's distinct colours are summed into one grey "Other". */
export const OTHER = "Other";

export const palette = ["#4f46e5", "#0891b2", "#059669", "#d97706", "#db2777", "#7c3aed", "#65a30d", "#dc2626"];
export const otherColor = "#71717a";

/** Each drawn series a colour of its own (the palette has one per series; "Other" is grey). */
export function colorOf(chart: ChartModel, operation: string): string {
  if (operation === OTHER) return otherColor;
  return palette[chart.operations.indexOf(operation)] ?? otherColor;
}

export function buildUsageChart(daily: { day: string; operation: string; credits: number }[], days: number, today = new Date(), maxLabels = 8): ChartModel {
  const dayList: string[] = [];
  for (let i = days - 1; i >= 0; i--) {
    const d = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() - i));
    dayList.push(d.toISOString().slice(0, 10));
  }
  const totalsMap = new Map<string, number>();
  for (const r of daily) totalsMap.set(r.operation, (totalsMap.get(r.operation) ?? 0) + r.credits);
  const all = [...totalsMap.entries()].map(([operation, credits]) => ({ operation, credits })).sort((a, b) => b.credits - a.credits);
  const keep = all.length > palette.length ? palette.length - 1 : palette.length;
  const shown = new Set(all.slice(0, keep).map((t) => t.operation));
  const seriesOf = (op: string) => (shown.has(op) ? op : OTHER);
  const totals = all.slice(0, keep);
  const rest = all.slice(keep).reduce((s, t) => s + t.credits, 0);
  if (rest > 0) totals.push({ operation: OTHER, credits: rest });
  const operations = totals.map((t) => t.operation);
  const stacks = dayList.map((day) => {
    let y = 0;
    const segments = operations
      .map((operation) => {
        const credits = daily.filter((r) => r.day.slice(0, 10) === day && seriesOf(r.operation) === operation).reduce((s, r) => s + r.credits, 0);
        const seg = { operation, credits, y0: y, y1: y + credits };
        y += credits;
        return seg;
      })
      .filter((s) => s.credits > 0);
    return { day, segments, total: y };
  });
  const max = Math.max(1, ...stacks.map((s) => s.total));
  const ticks = [...new Set([0, Math.round(max / 2), max])];
  const step = Math.ceil(dayList.length / maxLabels);
  const labelled = dayList.map((_, i) => i).filter((i) => (dayList.length - 1 - i) % step === 0);
  return { days: dayList, operations, stacks, max, totals, ticks, labelled };
}
