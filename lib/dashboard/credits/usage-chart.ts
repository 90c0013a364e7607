/** Shapes the ledger's daily use for the stacked bar chart (pure). */
export interface ChartModel {
  days: string[];
  operations: string[];
  stacks: { day: string; segments: { operation: string; credits: number; y0: number; y1: number }[]; total: number }[];
  max: number;
  totals: { operation: string; credits: number }[];
}

export function buildUsageChart(daily: { day: string; operation: string; credits: number }[], days: number, today = new Date()): ChartModel {
  const dayList: string[] = [];
  for (let i = days - 1; i >= 0; i--) {
    const d = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() - i));
    dayList.push(d.toISOString().slice(0, 10));
  }
  const totalsMap = new Map<string, number>();
  for (const r of daily) totalsMap.set(r.operation, (totalsMap.get(r.operation) ?? 0) + r.credits);
  const totals = [...totalsMap.entries()].map(([operation, credits]) => ({ operation, credits })).sort((a, b) => b.credits - a.credits);
  const operations = totals.map((t) => t.operation);
  const stacks = dayList.map((day) => {
    let y = 0;
    const segments = operations
      .map((operation) => {
        const credits = daily.filter((r) => r.day.slice(0, 10) === day && r.operation === operation).reduce((s, r) => s + r.credits, 0);
        const seg = { operation, credits, y0: y, y1: y + credits };
        y += credits;
        return seg;
      })
      .filter((s) => s.credits > 0);
    return { day, segments, total: y };
  });
  return { days: dayList, operations, stacks, max: Math.max(1, ...stacks.map((s) => s.total)), totals };
}

export const palette = ["#4f46e5", "#0891b2", "#059669", "#d97706", "#db2777", "#7c3aed", "#65a30d", "#dc2626", "#0284c7", "#9333ea", "#ca8a04", "#475569", "#16a34a", "#e11d48"];
