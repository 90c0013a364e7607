/**
 * Totals reconciliation: among the labelled amounts (several "Total" lines, section subtotals,
 * tax per rate), choose the combination for which subtotal + tax − discount + shipping = total
 * where those are printed, helped by the sum of the line items. Values are only chosen, never
 * computed: a field absent from the invoice stays absent.
 */
import type { Box } from "@/lib/engine/invoice/layout";

export interface AmountCandidate {
  field: "total" | "subtotal" | "tax" | "discount" | "shipping" | "balanceDue" | "amountPaid";
  text: string;
  value: number;
  box: Box;
  /** Label specificity and placement, higher is better. */
  score: number;
  /** Document order (page, then y) for "the last total is the grand total". */
  order: number;
  /** Key to tell distinct printed values apart (same value printed twice = one candidate). */
  rowKey: string;
}

export interface ChosenTotals {
  total?: AmountCandidate;
  subtotal?: AmountCandidate;
  tax?: AmountCandidate[];
  discount?: AmountCandidate;
  shipping?: AmountCandidate;
  reconciled: boolean;
}

const near = (a: number, b: number, terms = 1) => Math.abs(a - b) <= 0.011 * terms + Math.abs(b) * 1e-9;

function top<T extends { score: number }>(list: T[], n: number): T[] {
  return [...list].sort((a, b) => b.score - a.score).slice(0, n);
}

function distinctByValue(list: AmountCandidate[]): AmountCandidate[] {
  const out: AmountCandidate[] = [];
  for (const c of [...list].sort((a, b) => b.score - a.score)) {
    const same = out.find((o) => near(o.value, c.value));
    if (!same) out.push(c);
  }
  return out;
}

/** Picks the totals. `lineSum` is the sum of the line items' totals, when there are items. */
export function reconcileTotals(cands: AmountCandidate[], lineSum?: number): ChosenTotals {
  const by = (f: AmountCandidate["field"]) => cands.filter((c) => c.field === f && c.value !== 0);
  const zeroOk = (f: AmountCandidate["field"]) => cands.filter((c) => c.field === f);
  const totals = top(
    distinctByValue([...by("total"), ...by("balanceDue").map((c) => ({ ...c, score: c.score - 1.5 }))]),
    5,
  );
  const subs = top(distinctByValue(by("subtotal")), 4);
  const taxesAll = zeroOk("tax");
  const taxes = top(distinctByValue(taxesAll), 4);
  const discounts = top(distinctByValue(by("discount")), 3);
  const ships = top(distinctByValue(zeroOk("shipping")), 3);

  // Tax options: none, one candidate, or the sum of the candidates on distinct rows (per-rate lines).
  const taxOptions: AmountCandidate[][] = [[], ...taxes.map((t) => [t])];
  const distinctRows = new Map<string, AmountCandidate>();
  for (const t of taxesAll) if (!distinctRows.has(t.rowKey)) distinctRows.set(t.rowKey, t);
  // Every combination of two or more per-rate rows: a stray candidate (a rate column's value)
  // must not keep the true rates from adding up.
  const rows = [...distinctRows.values()];
  if (rows.length > 1 && rows.length <= 6)
    for (let mask = 1; mask < 1 << rows.length; mask++) {
      const subset = rows.filter((_, i) => mask & (1 << i));
      if (subset.length >= 2) taxOptions.push(subset);
    }

  let best: ChosenTotals & { score: number } = { reconciled: false, score: -Infinity };
  const totalOpts: (AmountCandidate | undefined)[] = [undefined, ...totals];
  const subOpts: (AmountCandidate | undefined)[] = [undefined, ...subs];
  const discOpts: (AmountCandidate | undefined)[] = [undefined, ...discounts];
  const shipOpts: (AmountCandidate | undefined)[] = [undefined, ...ships];
  const maxTotal = Math.max(0, ...totals.map((t) => t.value));
  for (const T of totalOpts) {
    for (const S of subOpts) {
      if (T && S && T.rowKey === S.rowKey) continue;
      for (const X of taxOptions) {
        for (const D of discOpts) {
          for (const H of shipOpts) {
            let score = 0;
            if (T) score += T.score + (T.value === maxTotal ? 1 : 0) + T.order * 1e-4;
            if (S) score += S.score;
            for (const x of X) score += x.score / Math.max(1, X.length);
            if (D) score += D.score * 0.5;
            if (H) score += H.score * 0.5;
            const taxSum = X.reduce((s, x) => s + x.value, 0);
            const parts = (S ? S.value : 0) + taxSum - (D ? Math.abs(D.value) : 0) + (H ? H.value : 0);
            const terms = 1 + X.length + (D ? 1 : 0) + (H ? 1 : 0);
            let reconciled = false;
            if (T && S && near(parts, T.value, terms)) {
              reconciled = X.length > 0 || D !== undefined || H !== undefined || near(S.value, T.value);
              score += X.length > 0 || D || H ? 12 : 4;
            } else if (T && S) {
              // Printed but not adding up: allowed (some invoices add fees), at a cost.
              score -= 6 + (X.length > 0 ? 2 : 0);
            } else if (!S && T && X.length > 0) {
              // total = (lines) + tax when the subtotal is not printed.
              if (lineSum !== undefined && near(lineSum + taxSum, T.value, terms + 1)) score += 6;
              else score -= 1;
            }
            if (lineSum !== undefined) {
              if (S && near(lineSum, S.value, 3)) score += 3;
              else if (!S && T && X.length === 0 && near(lineSum, T.value, 3)) score += 3;
            }
            if (D && !reconciled) score -= D.score;
            if (H && !reconciled) score -= H.score;
            if (score > best.score)
              best = {
                total: T,
                subtotal: S,
                tax: X.length > 0 ? X : undefined,
                discount: D,
                shipping: H,
                reconciled,
                score,
              };
          }
        }
      }
    }
  }
  // "Subtotal 100 · Allowances −10 · Charges 5 · Net total 95 · VAT · Total": the subtotal
  // reported is the amount the tax is computed on (the tax-exclusive total), when it is printed.
  if (best.total && best.subtotal && (best.discount || best.shipping)) {
    const taxSum = (best.tax ?? []).reduce((s, x) => s + x.value, 0);
    const net = best.subtotal.value - Math.abs(best.discount?.value ?? 0) + (best.shipping?.value ?? 0);
    const base = subs.find(
      (c) =>
        c !== best.subtotal &&
        c.rowKey !== best.total!.rowKey &&
        near(c.value + taxSum, best.total!.value, 2 + (best.tax?.length ?? 0)) &&
        near(c.value, net, 3),
    );
    if (base) best = { ...best, subtotal: base };
  }
  // Zero-valued discount/shipping lines are facts printed on the invoice: keep them when nothing else chose.
  const { score: _s, ...chosen } = best;
  return chosen;
}
