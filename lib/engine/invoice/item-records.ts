/**
 * Line items printed as records, not as a table: each item a small block of captioned values
 * ("Bezeichnung: Heizung und Zubehör", "Menge 10", "Gesamtpreis (netto) 11.718,80"), the layout
 * of e-invoice viewers (XRechnung/ZUGFeRD visualisations) and of many "details" pages. A record
 * starts where a caption of a field the current record already has appears again. Used only when
 * the table engine found no item table. Captions in en/de/fr/es/it/nl/pt.
 */
import type { Box, Layout, Row, Segment } from "@/lib/engine/invoice/layout";
import type { Column, LineItem, LineItemTable } from "@/lib/engine/invoice/line-items";
import { isTaxRateText } from "@/lib/engine/invoice/line-items";
import { pickAmount, type DecimalMark } from "@/lib/engine/invoice/amounts";
import { fold, hasLetter } from "@/lib/engine/invoice/text-utils";

type RecordField = "total" | "name" | "description" | "quantity" | "unitPrice";

/** Item-level captions (folded text, anchored at the start of a segment). */
const CAPTIONS: [RecordField, RegExp][] = [
  [
    "total",
    /^(?:gesamtpreis|positionsbetrag|positionssumme|nettobetrag\s+der\s+position|betrag\s+der\s+position|line\s+(?:item\s+)?(?:total|amount|net\s+amount)|item\s+(?:total|amount)|total\s+line\s+amount|net\s+line\s+amount|montant\s+(?:net\s+|ht\s+)*(?:de\s+(?:la\s+)?)?ligne|total\s+(?:de\s+(?:la\s+)?)?ligne|importe\s+(?:neto\s+)?(?:de\s+(?:la\s+)?)?linea|total\s+(?:de\s+(?:la\s+)?)?linea|importo\s+(?:netto\s+)?(?:della\s+)?riga|totale\s+riga|regelbedrag|regeltotaal|nettobedrag\s+regel|valor\s+(?:total\s+|liquido\s+)?da\s+linha|total\s+da\s+linha)(?:\s*\((?:netto|net|ht|neto|netto)\))?\s*:?/,
  ],
  [
    "name",
    /^(?:bezeichnung|artikelbezeichnung|artikelname|item\s+name|article\s+name|product\s+name|designation|libelle|nom\s+(?:de\s+l'article|du\s+produit)|omschrijving|artikelnaam|productnaam|nombre\s+del\s+(?:articulo|producto)|denominacion|nome\s+(?:dell'articolo|articolo|del\s+prodotto)|denominazione|nome\s+do\s+(?:artigo|produto)|designacao)\s*:/,
  ],
  ["description", /^(?:beschreibung|description|descripcion|descrizione|descricao|beschrijving)\s*:/],
  ["quantity", /^(?:menge|anzahl|quantity|qty|quantite|aantal|hoeveelheid|cantidad|quantita|quantidade)\s*:?$/],
  [
    "unitPrice",
    /^(?:(?:netto)?einzelpreis|preis\s+(?:pro|je)\s+einheit|nettopreis|unit\s+price|price\s+per\s+unit|net\s+price|prix\s+unitaire(?:\s+ht)?|prix\s+net|stukprijs|prijs\s+per\s+eenheid|eenheidsprijs|precio\s+unitario|prezzo\s+unitario|preco\s+unitario)(?:\s*\((?:netto|net|ht|neto)\))?\s*:?/,
  ],
];

interface Hit {
  field: RecordField;
  value: string;
  box: Box;
  seg: Segment;
  row: Row;
}

/** The value of a caption: the rest of its segment, else the next segment on its row. */
function valueOf(seg: Segment, row: Row, captionLength: number): { text: string; box: Box } | undefined {
  const rest = seg.text.slice(captionLength).replace(/^[\s:]+/, "").trim();
  if (rest) return { text: rest, box: seg };
  const right = row.segments.filter((s) => s.x0 > seg.x1).sort((a, b) => a.x0 - b.x0)[0];
  return right ? { text: right.text.trim(), box: right } : undefined;
}

function quantityOf(text: string): number | undefined {
  const m = /^-?\d{1,7}(?:[.,]\d{1,4})?/.exec(text.trim());
  if (!m) return undefined;
  const v = Number(m[0].replace(",", "."));
  return Number.isFinite(v) ? v : undefined;
}

const COLUMNS: Column[] = [
  { role: "description", key: "description", header: "", x0: 0, x1: 0 },
  { role: "quantity", key: "quantity", header: "", x0: 0, x1: 0 },
  { role: "unitPrice", key: "unitPrice", header: "", x0: 0, x1: 0 },
  { role: "total", key: "total", header: "", x0: 0, x1: 0 },
];

/**
 * The line items printed as captioned records, or undefined when the document has none (fewer
 * than one record with both an amount and a name or quantity).
 */
export function findItemRecords(layout: Layout, decimal: DecimalMark): LineItemTable | undefined {
  const hits: Hit[] = [];
  for (const page of layout.pages) {
    for (const row of page.rows) {
      for (const seg of row.segments) {
        const f = fold(seg.text.trim());
        for (const [field, re] of CAPTIONS) {
          const m = re.exec(f);
          if (!m) continue;
          const v = valueOf(seg, row, m[0].length);
          if (v) hits.push({ field, value: v.text, box: v.box, seg, row });
          break;
        }
      }
    }
  }
  if (!hits.some((h) => h.field === "total")) return undefined;
  // Records: a new one starts where a key field of the current one appears again.
  const records: Hit[][] = [];
  let cur: Hit[] = [];
  for (const h of hits) {
    if (h.field !== "description" && cur.some((c) => c.field === h.field)) {
      records.push(cur);
      cur = [];
    }
    cur.push(h);
  }
  if (cur.length > 0) records.push(cur);
  const items: LineItem[] = [];
  const rows: Row[] = [];
  for (const rec of records) {
    const get = (f: RecordField) => rec.find((h) => h.field === f);
    const total = get("total");
    const amount = total ? pickAmount(total.value, decimal) : undefined;
    if (!total || !amount) continue;
    const nameHit = get("name") ?? get("description");
    const name = nameHit && hasLetter(nameHit.value) ? nameHit.value : undefined;
    const qHit = get("quantity");
    const quantity = qHit ? quantityOf(qHit.value) : undefined;
    if (!name && quantity === undefined) continue;
    const pHit = get("unitPrice");
    const price = pHit ? pickAmount(pHit.value, decimal) : undefined;
    const values: Record<string, string> = { total: amount.text };
    const boxes: Record<string, Box> = { total: total.box };
    if (name && nameHit) {
      values.description = name;
      boxes.description = nameHit.box;
    }
    if (quantity !== undefined && qHit) {
      values.quantity = String(quantity);
      boxes.quantity = qHit.box;
    }
    if (price && pHit) {
      values.unitPrice = price.text;
      boxes.unitPrice = pHit.box;
    } else if (quantity && quantity !== 0) {
      // Not printed: the unit price is the line total over the quantity when that is exact.
      const unit = amount.value / quantity;
      if (Math.abs(Math.round(unit * 100) / 100 - unit) < 1e-9) values.unitPrice = unit.toFixed(2);
    }
    const all = Object.values(boxes);
    items.push({
      values,
      boxes,
      box: {
        page: all[0].page,
        x0: Math.min(...all.map((b) => b.x0)),
        y0: Math.min(...all.map((b) => b.y0)),
        x1: Math.max(...all.map((b) => b.x1)),
        y1: Math.max(...all.map((b) => b.y1)),
      },
    });
    for (const h of rec) if (!rows.includes(h.row)) rows.push(h.row);
  }
  if (items.length === 0) return undefined;
  return {
    columns: COLUMNS,
    items,
    pages: [...new Set(items.map((i) => i.box.page))],
    box: items[0].box,
    rows,
    footers: [],
  };
}

/** Fields whose labels mark a row as a totals or header row, never an item. */
const NOT_ITEM_FIELDS = new Set([
  "total",
  "subtotal",
  "tax",
  "discount",
  "shipping",
  "balanceDue",
  "amountPaid",
  "invoiceNo",
  "invoiceDate",
  "dueDate",
]);

/**
 * Items of a table printed without a header row ("AWS Data Transfer ........ $0.01"): runs of
 * rows whose text starts at one left edge and whose last cell is an amount in one right-aligned
 * column; indented rows under an item (its breakdown) are skipped. A run is only taken when its
 * amounts add up to the invoice's net or gross (`targets`): arithmetic, not position, says it is
 * the item table. Of several such runs, the longest wins.
 */
export function findHeaderlessItems(
  layout: Layout,
  decimal: DecimalMark,
  targets: number[],
  isLabelRow: (seg: Segment) => { field: string; weight: number } | undefined,
): LineItemTable | undefined {
  const lh = layout.lineHeight;
  interface Cand {
    desc: Segment;
    amount: Segment;
    value: number;
    text: string;
    row: Row;
  }
  const runs: Cand[][] = [];
  for (const page of layout.pages) {
    let run: Cand[] = [];
    let lastY = -1e9;
    const close = () => {
      if (run.length >= 2) runs.push(run);
      run = [];
    };
    for (const row of page.rows) {
      const segs = [...row.segments].sort((a, b) => a.x0 - b.x0);
      const first = segs[0];
      const last = segs[segs.length - 1];
      const a = segs.length >= 2 ? pickAmount(last.text, decimal) : undefined;
      const amountCell = a && last.text.replace(/[\s$€£¥]/g, "").length <= a.raw.replace(/[\s$€£¥]/g, "").length + 3;
      const label = first ? isLabelRow(first) : undefined;
      const itemLike =
        amountCell &&
        hasLetter(first.text) &&
        first.text.trim().length >= 3 &&
        !(label && (NOT_ITEM_FIELDS.has(label.field) || label.weight >= 2)) &&
        // "plus 20 % VAT on 7,173.54 | 1,434.71": a tax row under the items, not one of them (with
        // it the run would add up to the gross).
        !isTaxRateText(first.text);
      const aligned = (c: Cand[]) => c.length === 0 || Math.abs(c[0].amount.x1 - last.x1) < lh * 1.5;
      if (row.y0 - lastY > lh * 3) close();
      if (itemLike && aligned(run) && (run.length === 0 || Math.abs(first.x0 - run[0].desc.x0) < lh * 0.8)) {
        run.push({ desc: first, amount: last, value: a!.value, text: a!.text, row });
        lastY = row.y1;
        continue;
      }
      // An indented breakdown row under an item ("Charges $1.87", "VAT $0.00"): skipped.
      if (run.length > 0 && amountCell && first.x0 > run[0].desc.x0 + lh * 0.8 && aligned(run)) {
        lastY = row.y1;
        continue;
      }
      close();
      lastY = row.y1;
    }
    close();
  }
  const fits = (r: Cand[]) => {
    const sum = r.reduce((s, c) => s + c.value, 0);
    return targets.some((t) => Math.abs(Math.abs(sum) - Math.abs(t)) < 0.011);
  };
  const best = runs.filter(fits).sort((a, b) => b.length - a.length)[0];
  if (!best) return undefined;
  const items: LineItem[] = best.map((c) => ({
    values: { description: c.desc.text.trim(), total: c.text },
    boxes: { description: c.desc, total: c.amount },
    box: {
      page: c.desc.page,
      x0: c.desc.x0,
      y0: Math.min(c.desc.y0, c.amount.y0),
      x1: c.amount.x1,
      y1: Math.max(c.desc.y1, c.amount.y1),
    },
  }));
  return {
    columns: [COLUMNS[0], COLUMNS[3]],
    items,
    pages: [...new Set(items.map((i) => i.box.page))],
    box: items[0].box,
    rows: best.map((c) => c.row),
    footers: [],
  };
}
