/**
 * The line-item table: found by its header row (the invoice's own column names, recognised
 * in several languages), columns placed under the header cells (refined by the extraction
 * engine's table analysis where it finds the same table), rows read from the word boxes.
 * A row with an amount starts an item; closely spaced text-only rows continue its description;
 * totals rows end or interrupt the table; a header repeated on the next page continues it.
 * Keys are the header's own names in camelCase, with the usual ones unified (quantity,
 * unitPrice, total, description...). Money columns are normalised like every amount.
 */
import type { Word } from "@/lib/engine/text/types";
import type { Box, Layout, Row } from "@/lib/engine/invoice/layout";
import { boxOf, joinWords } from "@/lib/engine/invoice/layout";
import { CURRENCY_CODES, findAmounts, pickAmount, type DecimalMark } from "@/lib/engine/invoice/amounts";
import { camelCase, fold, foldKeepLength, hasLetter } from "@/lib/engine/invoice/text-utils";
import { LABELS, matchLabelAt } from "@/lib/engine/invoice/labels";
import { isIdentifierToken } from "@/lib/engine/lexicon/invoice-fields";

export type ColumnRole =
  | "description"
  | "quantity"
  | "unitPrice"
  | "total"
  | "unit"
  | "taxRate"
  | "taxAmount"
  | "discount"
  | "itemCode"
  | "position"
  | "date"
  | "other";

const ROLE_PHRASES: [ColumnRole, number, string[]][] = [
  [
    "description",
    3,
    [
      "description of (?:goods|services)",
      "item description",
      "product description",
      "description",
      "desc\\.?",
      "designation",
      "libelle",
      "beschreibung",
      "bezeichnung",
      "leistungsbeschreibung",
      "omschrijving",
      "descripcion",
      "descrizione",
      "descricao(?: dos (?:produtos|servicos)(?: \\/ (?:produtos|servicos))?)?",
      "descripcion del (?:articulo|producto)",
      "particulars",
      "details",
      "detail",
    ],
  ],
  [
    "description",
    2,
    [
      "items?",
      "products?",
      "services?",
      "articles?",
      "artikel",
      "produkt",
      "item name",
      "product name",
      "name",
      "title",
      "goods",
      "activity",
      "task",
      "leistung",
      "prestation",
      "concepto",
      "articolo",
    ],
  ],
  [
    "quantity",
    3,
    [
      "qty\\.?",
      "quantity",
      "quantities",
      "qte",
      "quantite",
      "menge",
      "anzahl",
      "anz\\.?",
      "aantal",
      "hoeveelheid",
      "cantidad",
      "cant\\.?",
      "quantita",
      "quantidade",
      "qtd\\.?",
      "quant\\.?",
      "qta\\.?",
      "hours",
      "hrs\\.?",
      "units",
      "pcs\\.?",
      "nombre",
      "nb",
      "no\\.? of units",
    ],
  ],
  [
    "unitPrice",
    3,
    [
      "unit price",
      "price per unit",
      "price\\/unit",
      "unit cost",
      "unit rate",
      "unit amount",
      "rate",
      "price",
      "cost",
      "each",
      "list price",
      "net price",
      "prix unitaire(?: ht)?",
      "prix net",
      "prix de vente",
      "nettopreis",
      "einzelpreis",
      "precio neto",
      "prix unit\\.?",
      "p\\.?\\s?u\\.?(?: ht)?",
      "prix",
      "einzelpreis",
      "e-?preis",
      "stuckpreis",
      "vk-?preis",
      "preis",
      "prijs per stuk",
      "stukprijs",
      "prijs",
      "tarief",
      "precio unitario",
      "precio",
      "prezzo unitario",
      "prezzo",
      "preco",
      "v\\.?\\s?unit(?:ario)?\\.?",
      "valor unitario",
      "preco unitario",
    ],
  ],
  [
    "total",
    3,
    [
      "line total",
      "total price",
      "total amount",
      "net amount",
      "amount",
      "total",
      "ext\\.? price",
      "extended(?: price)?",
      "subtotal",
      "sum",
      "montant(?: ht| ttc| eur ht| eur ttc| eur)?",
      "total ht",
      "total ttc",
      "betrag",
      "gesamt(?:preis|betrag)?",
      "zeilenbetrag",
      "summe",
      "bedrag",
      "totaal",
      "prijs incl\\.? btw",
      "importe",
      "importo",
      "valor",
      "line amount",
      "positionsbetrag",
      "nettobetrag",
      "montant hors taxes",
      "base imponible",
      "importe neto",
      "v\\.?\\s?total\\.?",
      "valor total",
      "valor liquido",
    ],
  ],
  ["unit", 2, ["unit", "uom", "u\\/m", "unite", "einheit", "eenheid", "unidad", "um", "un\\.?", "unid\\.?"]],
  [
    "taxAmount",
    3,
    ["tax amount", "vat amount", "montant tva", "mwst-?betrag", "btw bedrag", "gst amount", "importe iva", "importo iva", "valor (?:do )?(?:icms|ipi|iva)", "v\\.?\\s?(?:icms|ipi)"],
  ],
  [
    "taxRate",
    2,
    [
      "tax(?:es)?(?: ?\\(?%\\)?)?",
      "vat(?: ?%| rate)?",
      "tva(?: ?%)?",
      "% tva",
      "mwst\\.?(?: ?%)?",
      "ust\\.?(?: ?%)?",
      "btw(?: ?%)?",
      "gst(?: ?%)?",
      "iva(?: ?%)?",
      "tax rate",
      "taux(?: de)?(?: tva)?",
      "code tva",
      "steuersatz",
      "(?:mwst|ust)\\.?-?satz",
      "tipo iva",
      "aliquota(?: iva)?",
      "aliq\\.?\\s?(?:icms|ipi)",
      "% ?(?:icms|ipi)",
    ],
  ],
  [
    "discount",
    2,
    [
      "disc\\.?(?: ?%)?",
      "discount(?: ?%)?",
      "remise(?: ?%)?",
      "rabatt(?: ?%)?",
      "korting(?: ?%)?",
      "descuento",
      "sconto",
    ],
  ],
  [
    "itemCode",
    2,
    [
      "sku",
      "code",
      "item code",
      "item no\\.?",
      "item #",
      "product code",
      "part no\\.?",
      "part number",
      "article no\\.?",
      "art\\.?-?\\s?nr\\.?",
      "artikelnummer",
      "artikelnr\\.?",
      "ref\\.?",
      "reference",
      "hsn(?:\\/sac)?",
      "sac",
      "model",
      "ean",
      "codigo(?: do produto)?",
      "cod\\.?(?: prod\\.?)?",
      "codice",
      "ncm(?:\\/sh)?",
      "cfop",
      "cst",
      "csosn",
      "bc\\.?\\s?icms",
    ],
  ],
  [
    "position",
    2,
    ["pos\\.?", "#", "no\\.?", "line", "nr\\.?", "s\\.?\\s?no\\.?", "sl\\.?\\s?no\\.?", "sr\\.?\\s?no\\.?"],
  ],
  ["date", 2, ["date", "datum", "service date", "fecha", "data"]],
];

const ROLE_RES = ROLE_PHRASES.flatMap(([role, weight, phrases]) =>
  phrases.map((p) => ({ role, weight, re: new RegExp(`(?:${p})(?![a-z0-9])`, "y") })),
);

const MONEY: ReadonlySet<ColumnRole> = new Set(["unitPrice", "total", "taxAmount"]);
/** Columns of words, not figures. */
const TEXT_ROLES: ReadonlySet<ColumnRole> = new Set(["description", "itemCode", "position", "other"]);

export interface Column {
  role: ColumnRole;
  key: string;
  header: string;
  x0: number;
  x1: number;
  /** The caption runs into the next column's without a gap: their boundary is uncertain. */
  tightRight?: boolean;
}

interface HeaderCell {
  role: ColumnRole;
  weight: number;
  text: string;
  words: Word[];
}

/** The column role a whole caption names ("Prix unitaire net HT (€)" → unitPrice), if any. */
function roleOf(caption: string): { role: ColumnRole; weight: number } | undefined {
  // Spaces OCR lost are put back before a bracket and after an abbreviation's last dot
  // ("P.U.HT(EUR)" → "p.u. ht (eur)").
  const text0 = fold(caption)
    .replace(/[:]+$/, "")
    .replace(/([^\s(])\(/g, "$1 (")
    .replace(/\.(?=[a-z]{2})/g, ". ");
  // A column name with qualifiers ("Prix unitaire net HT (€)", "Quantité facturée",
  // "Gesamtpreis netto") is the column name.
  const text = stripQualifiers(text0) || text0;
  for (const r of ROLE_RES) {
    r.re.lastIndex = 0;
    const m = r.re.exec(text);
    if (m && m[0].length === text.length) return { role: r.role, weight: r.weight };
  }
  return undefined;
}

/** Splits a row into header cells: the longest known header phrase at each word. */
function headerCells(row: Row): { cells: HeaderCell[]; coverage: number } {
  const words = row.words;
  const cells: HeaderCell[] = [];
  let covered = 0;
  let i = 0;
  while (i < words.length) {
    // Try phrases spanning up to 4 words starting at word i (words must be close together).
    let best: { role: ColumnRole; weight: number; n: number } | undefined;
    for (let n = Math.min(5, words.length - i); n >= 1; n--) {
      const span = words.slice(i, i + n);
      let ok = true;
      for (let k = 1; k < span.length; k++)
        if (span[k].x0 - span[k - 1].x1 > (span[k].fontSize || 8) * 0.9) ok = false;
      if (!ok) continue;
      const hit = roleOf(span.map((w) => w.text).join(" "));
      if (hit) {
        best = { ...hit, n };
        break;
      }
    }
    if (best) {
      const span = words.slice(i, i + best.n);
      cells.push({
        role: best.role,
        weight: best.weight,
        text: span.map((w) => w.text).join(" "),
        words: span,
      });
      covered += best.n;
      i += best.n;
    } else {
      // An unknown word: a header of its own, or part of the previous unknown header.
      const w = words[i];
      const prev = cells[cells.length - 1];
      if (
        prev &&
        prev.role === "other" &&
        w.x0 - prev.words[prev.words.length - 1].x1 < (w.fontSize || 8) * 0.9
      ) {
        prev.words.push(w);
        prev.text += ` ${w.text}`;
      } else cells.push({ role: "other", weight: 0, text: w.text, words: [w] });
      i++;
    }
  }
  return { cells, coverage: covered / Math.max(1, words.length) };
}

const QUALIFIER =
  /\s+(?:net(?:to)?|nett|ht|ttc|h\.t\.|hors\s+taxes?|excl\.?(?:\s+(?:vat|btw|tax))?|incl\.?(?:\s+(?:vat|btw|tax))?|brutto|gross|eur|euro|€|\([$€£¥]\)|\([a-z]{3}\)|en\s+(?:eur|€)|in\s+(?:eur|€)|\(%\)|%|facturee?s?|livree?s?|billed|invoiced|delivered|berechnet|geliefert|hors\s+tva)$/;

/** "prix unitaire net ht (€)" → "prix unitaire"; "" when nothing was stripped. */
function stripQualifiers(text: string): string {
  let t = text.trim();
  let changed = false;
  for (let i = 0; i < 4; i++) {
    const next = t.replace(QUALIFIER, "").trim();
    if (next === t || next === "") break;
    t = next;
    changed = true;
  }
  return changed ? t : "";
}

/** A totals caption ("TOTAL HT", "Summe MwSt.", "Gesamtbetrag"), folded. */
const TOTALS_CAPTION =
  /^(?:(?:grand|sub|sous)[\s-]?)?(?:total|totaux|gesamt|summe|zwischensumme|totaal|subtotaal|totale|subtotale|importe\s+total|montant\s+total|net\s+a\s+payer)\b/;

/** Whether a row is a line-item header: known column names, at least one of them numeric. */
export function readHeader(row: Row, pageWidth = 612): Column[] | undefined {
  if (row.words.length < 2 || row.words.length > 24) return undefined;
  const { cells, coverage } = headerCells(row);
  return headerColumns(cells, coverage, pageWidth);
}

/** A row that may be one line of a stacked header: short captions, no figures. */
function captionLine(row: Row): boolean {
  return row.words.length > 0 && row.words.length <= 24 && !row.words.some((w) => /\d/.test(w.text));
}

/**
 * A header whose captions are stacked over several tightly spaced lines ("P.U. HT / (EUR)",
 * "UNIT / for P.U.", "TOTAL HT / (EUR)"), read as one row: the line with the most known captions
 * is the spine; a caption of another line joins the spine cell it overlaps, or starts a column
 * of its own. Each column is named by its whole stacked caption when that names a role, else
 * by its spine cell, else by its strongest part. Returns the columns and the band's last row
 * when the band names at least as many columns as any of its lines alone (its further lines
 * then name the columns better, "Unit" / "price" / "(GBP)", and are not read as item text).
 */
export function readHeaderBand(
  rows: Row[],
  start: number,
  pageWidth: number,
  lh: number,
): { cols: Column[]; last: number } | undefined {
  const band: Row[] = [];
  for (let j = start; j < rows.length && band.length < 6; j++) {
    const row = rows[j];
    // Lines of one text size (a watermark or a rotated word makes a row as tall as a block).
    if (!captionLine(row) || row.y1 - row.y0 > lh * 1.6) break;
    if (band.length > 0 && row.y0 - band[band.length - 1].y1 > lh * 0.4) break;
    band.push(row);
  }
  if (band.length < 2) return undefined;
  const known = (cells: HeaderCell[]) => cells.filter((c) => c.role !== "other").length;
  const read = band.map((row) => headerCells(row).cells);
  let spine = 0;
  for (let k = 1; k < band.length; k++)
    if (known(read[k]) > known(read[spine]) || (known(read[k]) === known(read[spine]) && read[k].length > read[spine].length))
      spine = k;
  interface Stack {
    cell?: HeaderCell;
    parts: { y: number; text: string; role?: { role: ColumnRole; weight: number } }[];
    words: Word[];
    x0: number;
    x1: number;
  }
  const stacks: Stack[] = read[spine].map((c) => ({
    cell: c,
    parts: [{ y: band[spine].y0, text: c.text, role: c.role === "other" ? undefined : c }],
    words: [...c.words],
    x0: Math.min(...c.words.map((w) => w.x0)),
    x1: Math.max(...c.words.map((w) => w.x1)),
  }));
  const spineStacks = stacks.length;
  band.forEach((row, k) => {
    if (k === spine) return;
    for (const seg of row.segments) {
      let best: Stack | undefined;
      let bestOverlap = 0;
      for (const st of stacks) {
        const o = Math.min(st.x1, seg.x1) - Math.max(st.x0, seg.x0);
        if (o > bestOverlap) {
          bestOverlap = o;
          best = st;
        }
      }
      const part = { y: row.y0, text: seg.text, role: roleOf(seg.text) };
      if (best) {
        best.parts.push(part);
        best.words.push(...seg.words);
        if (!best.cell) {
          best.x0 = Math.min(best.x0, seg.x0);
          best.x1 = Math.max(best.x1, seg.x1);
        }
      } else stacks.push({ parts: [part], words: [...seg.words], x0: seg.x0, x1: seg.x1 });
    }
  });
  if (stacks.length === spineStacks && stacks.every((st) => st.parts.length === 1)) return undefined;
  const cells: HeaderCell[] = stacks
    .sort((a, b) => a.x0 - b.x0)
    .map((st) => {
      const text = st.parts
        .sort((a, b) => a.y - b.y)
        .map((p) => p.text)
        .join(" ");
      // A caption listing several things ("NOM & DESIGNATION, Période") names the strongest of them.
      const pieces = st.parts
        .flatMap((p) => (p.role ? [p.role] : p.text.split(/\s*[,&/+]\s*|\s+(?:et|and|und|y|e|en)\s+/i).map((t) => roleOf(t))))
        .filter((r): r is { role: ColumnRole; weight: number } => !!r)
        .sort((a, b) => b.weight - a.weight);
      const role = roleOf(text) ?? (st.cell && st.cell.role !== "other" ? st.cell : pieces[0]);
      return { role: role?.role ?? "other", weight: role?.weight ?? 0, text, words: st.words };
    });
  // Unknown stacked captions count as one word each: their length is not a sentence's.
  const words = cells.reduce((n, c) => n + (c.role === "other" ? 1 : c.words.length), 0);
  const covered = cells.reduce((n, c) => n + (c.role === "other" ? 0 : c.words.length), 0);
  const cols = headerColumns(
    cells.map((c) => (c.role === "other" ? { ...c, words: [{ ...c.words[0], x0: Math.min(...c.words.map((w) => w.x0)), x1: Math.max(...c.words.map((w) => w.x1)) }] } : c)),
    covered / Math.max(1, words),
    pageWidth,
  );
  if (!cols) return undefined;
  const single = Math.max(...band.map((row) => readHeader(row, pageWidth)?.filter((c) => c.role !== "other").length ?? 0));
  if (cols.filter((c) => c.role !== "other").length < single) return undefined;
  return { cols, last: start + band.length - 1 };
}

function headerColumns(cells: HeaderCell[], coverage: number, pageWidth: number): Column[] | undefined {
  const known = cells.filter((c) => c.role !== "other");
  const numeric = known.filter((c) => c.role === "quantity" || MONEY.has(c.role));
  const hasText = known.some((c) => c.role === "description" || c.role === "itemCode");
  // Many known columns (a description and two numeric ones) make a header even when one
  // unknown column has a long caption ("Periode van - tot en met").
  const strong = hasText && numeric.length >= 2 && known.length >= 3;
  if (known.length < 2 || (coverage < 0.6 && !strong)) return undefined;
  if (numeric.length === 0) return undefined;
  if (!hasText && numeric.length < 2) return undefined;
  // "TOTAL HT | TOTAL TVA | TOTAL TTC": the captions of a totals grid, not of item columns.
  if (
    !known.some((c) => ["quantity", "unitPrice", "description", "itemCode"].includes(c.role)) &&
    known.filter((c) => TOTALS_CAPTION.test(fold(c.text))).length >= 2
  )
    return undefined;
  // Header cells are on one line and not sentences: reject rows with long unknown text.
  if (cells.some((c) => c.role === "other" && c.words.length > (strong ? 6 : 3))) return undefined;
  const cols: Column[] = cells.map((c) => ({
    role: c.role,
    key: "",
    header: c.text.replace(/[:]+$/, ""),
    x0: Math.min(...c.words.map((w) => w.x0)),
    x1: Math.max(...c.words.map((w) => w.x1)),
  }));
  // Captions printed without a column gap between them ("CODE ARTICLE, NOM & DESIGNATION"):
  // the boundary between their columns is not known from the header.
  for (let k = 0; k + 1 < cols.length; k++) {
    const size = cells[k + 1].words[0]?.fontSize || 8;
    if (cols[k + 1].x0 - cols[k].x1 < size * 0.9) cols[k].tightRight = true;
  }
  // No description header but room on the left ("| Montant HT | TVA | TTC" over named rows):
  // the text left of the first column is the description.
  if (!cols.some((c) => c.role === "description" || c.role === "other") && cols[0].x0 > pageWidth * 0.25) {
    cols.unshift({ role: "description", key: "", header: "", x0: 0, x1: cols[0].x0 - 4 });
  }
  assignKeys(cols);
  return cols;
}

function assignKeys(cols: Column[]): void {
  // Two description-like columns: the strongest phrase keeps "description".
  const count = (role: ColumnRole) => cols.filter((c) => c.role === role).length;
  if (count("total") === 0 && count("unitPrice") >= 2) {
    const last = [...cols].reverse().find((c) => c.role === "unitPrice");
    if (last) last.role = "total";
  }
  const used = new Set<string>();
  const strongDesc = cols.find(
    (c) =>
      c.role === "description" &&
      /desc|designation|libelle|beschreib|bezeichnung|omschrijving|particular|detail/i.test(fold(c.header)),
  );
  for (const c of cols) {
    let key: string;
    if (c.role === "other") key = camelCase(c.header) || "column";
    else if (c.role === "description" && strongDesc && c !== strongDesc) key = camelCase(c.header) || "item";
    else if (count(c.role) > 1 && c.role !== "description") {
      // Several columns of one kind ("Montant HT", "Montant TTC"): the rightmost money column is
      // the line total, the others keep their own names.
      const same = cols.filter((x) => x.role === c.role);
      key = c === same[same.length - 1] ? c.role : camelCase(c.header) || c.role;
    } else key = c.role;
    let k = key;
    for (let n = 2; used.has(k); n++) k = `${key}${n}`;
    used.add(k);
    c.key = k;
  }
}

export interface LineItem {
  values: Record<string, string>;
  boxes: Record<string, Box>;
  box: Box;
}

export interface LineItemTable {
  columns: Column[];
  items: LineItem[];
  pages: number[];
  /** Box of the table's rows (first page). */
  box: Box;
  /** Header rows and the rows read as items (their segments are not read as labels again). */
  rows: Row[];
  /** Totals rows inside the table, with their amounts per money column ("Total | 24.99 | 5.00 | 29.99"). */
  footers: TableFooter[];
  /** Tax-per-rate rows printed in the table's columns ("plus 20 % VAT on 1,234.56 | 246.91"): amounts, not items. */
  taxRows?: TaxRow[];
}

export interface TaxRow {
  text: string;
  value: number;
  box: Box;
  /** The rate's base printed on the row ("on 1,234.56"), normalised. */
  base?: { text: string; value: number };
}

export interface TableFooter {
  /** Field of the row's label (total, subtotal...). */
  field: string;
  cells: { column: Column; text: string; box: Box }[];
}

const TOTALS_FIELDS = new Set([
  "total",
  "subtotal",
  "tax",
  "discount",
  "shipping",
  "amountPaid",
  "balanceDue",
]);

function isTotalsRow(row: Row, cols: Column[]): boolean {
  const first = row.segments[0];
  if (!first) return false;
  for (const seg of row.segments) {
    const hit = matchLabelAt(foldKeepLength(seg.text), 0, LABELS);
    if (hit && TOTALS_FIELDS.has(hit.label.field)) {
      // A totals label in the description column with an amount, or right of the description.
      const desc = cols.find((c) => c.role === "description");
      const inDesc = desc ? seg.x0 < desc.x1 + 5 && seg === first : seg === first;
      if (!inDesc || findAmounts(row.text).some((a) => !a.isPercent)) return true;
    }
  }
  return false;
}

/**
 * Assigns each word of a row to the column it overlaps most (else the nearest). With `row`, a
 * run of words without a gap (a segment) that straddles two text columns whose captions touch
 * goes whole to the one it overlaps most: the boundary between such columns is uncertain, the
 * gap between the cells is not.
 */
function assign(words: Word[], cols: Column[], edges?: number[], row?: Row): Map<number, Word[]> {
  const out = assignWords(words, cols, edges);
  if (!row) return out;
  const colOf = new Map<Word, number>();
  for (const [i, ws] of out) for (const w of ws) colOf.set(w, i);
  for (const seg of row.segments) {
    const at = [...new Set(seg.words.map((w) => colOf.get(w)).filter((i): i is number => i !== undefined))].sort((a, b) => a - b);
    if (at.length !== 2 || at[1] !== at[0] + 1 || !cols[at[0]].tightRight) continue;
    if (!TEXT_ROLES.has(cols[at[0]].role) || !TEXT_ROLES.has(cols[at[1]].role)) continue;
    const width = (i: number) => seg.words.filter((w) => colOf.get(w) === i).reduce((n, w) => n + w.x1 - w.x0, 0);
    const [to, from] = width(at[0]) >= width(at[1]) ? [at[0], at[1]] : [at[1], at[0]];
    const moved = seg.words.filter((w) => colOf.get(w) === from);
    out.set(from, out.get(from)!.filter((w) => !moved.includes(w)));
    if (out.get(from)!.length === 0) out.delete(from);
    out.set(to, [...out.get(to)!, ...moved].sort((a, b) => a.x0 - b.x0));
  }
  return out;
}

function assignWords(words: Word[], cols: Column[], edges?: number[]): Map<number, Word[]> {
  const out = new Map<number, Word[]>();
  for (const w of words) {
    let best = -1;
    if (edges) {
      const cx = (w.x0 + w.x1) / 2;
      best = edges.findIndex((e, k) => k < edges.length - 1 && cx >= e && cx < edges[k + 1]);
    }
    if (best < 0) {
      let bestScore = -Infinity;
      cols.forEach((c, i) => {
        const overlap = Math.min(c.x1, w.x1) - Math.max(c.x0, w.x0);
        const score = overlap > 0 ? overlap : -Math.min(Math.abs(w.x0 - c.x1), Math.abs(c.x0 - w.x1));
        if (score > bestScore) {
          bestScore = score;
          best = i;
        }
      });
    }
    if (best < 0) continue;
    const list = out.get(best) ?? [];
    list.push(w);
    out.set(best, list);
  }
  return out;
}

/**
 * Column edges from the header cells: a boundary halfway between neighbours, moved left or
 * right to fall in the widest gap of the data rows' words (right-aligned numbers hang left).
 */
function columnEdges(cols: Column[], dataRows: Row[], pageWidth: number): number[] {
  const edges = [0];
  for (let i = 0; i < cols.length - 1; i++) {
    const a = cols[i];
    const b = cols[i + 1];
    let lo = a.x1;
    let hi = b.x0;
    if (hi < lo) [lo, hi] = [hi, lo];
    // Candidate boundaries between the header cells; pick the one crossed by the fewest words.
    let best = (lo + hi) / 2;
    let bestHits = Infinity;
    const steps = 12;
    for (let s = 0; s <= steps; s++) {
      const x = lo + ((hi - lo) * s) / steps;
      let hits = 0;
      for (const r of dataRows) for (const w of r.words) if (w.x0 < x && w.x1 > x) hits++;
      const centreBias = Math.abs(x - (lo + hi) / 2) / Math.max(1, hi - lo);
      if (hits + centreBias * 0.5 < bestHits) {
        bestHits = hits + centreBias * 0.5;
        best = x;
      }
    }
    edges.push(best);
  }
  edges.push(pageWidth + 1);
  return edges;
}

/** Finds the line-item tables of the document. */
export function findLineItems(
  layout: Layout,
  decimal: DecimalMark,
  engineEdges?: (page: number, cols: Column[], headerY: number) => number[] | undefined,
): LineItemTable[] {
  const tables: (LineItemTable & { closed: boolean; lastPage: number })[] = [];
  const pendingTax = new Map<LineItemTable, TaxRow[]>();
  const lh = layout.lineHeight;
  for (const page of layout.pages) {
    const open = tables[tables.length - 1];
    // Header rows: one line of captions, or a band of stacked caption lines (`first` its top).
    const headerRows: { i: number; first: number; cols: Column[] }[] = [];
    for (let i = 0; i < page.rows.length; i++) {
      const band = readHeaderBand(page.rows, i, page.width, lh);
      if (band) {
        headerRows.push({ i: band.last, first: i, cols: band.cols });
        i = band.last;
        continue;
      }
      const cols = readHeader(page.rows[i], page.width);
      if (cols) headerRows.push({ i, first: i, cols });
    }
    // A table running on from the previous page without a repeated header: the page's rows, or
    // those above the page's first header when that header is another kind of table (a VAT
    // breakdown: no description or quantity where the items have one). Above a repeated item
    // header stands the page's letterhead, not items.
    const first = headerRows[0];
    const otherKind =
      !!first &&
      !!open &&
      !sameColumns(open.columns, first.cols) &&
      (["description", "quantity"] as const).some(
        (role) => open.columns.some((c) => c.role === role) && !first.cols.some((c) => c.role === role),
      );
    if (open && !open.closed && open.lastPage === page.index - 1 && (headerRows.length === 0 || otherKind)) {
      const above = headerRows.length === 0 ? page.rows : page.rows.slice(0, headerRows[0].first);
      const { items, closed, used, footers, taxRows } = readRows(above, 0, open.columns, page.width, decimal, lh);
      if (items.length > 0) {
        pendingTax.get(open)?.push(...taxRows);
        open.items.push(...items);
        open.footers.push(...footers);
        open.rows.push(...used);
        open.pages.push(page.index);
        open.lastPage = page.index;
        open.closed = closed || headerRows.length > 0;
      }
      if (headerRows.length === 0) continue;
    }
    let r = 0;
    for (const h of headerRows) {
      if (h.i < r) continue;
      const header = h.cols!;
      const last = tables[tables.length - 1];
      let table: (typeof tables)[number];
      if (last && !last.closed && last.lastPage === page.index - 1 && sameColumns(last.columns, header)) {
        table = last;
        table.pages.push(page.index);
      } else {
        table = {
          columns: header,
          items: [],
          pages: [page.index],
          box: { page: page.index, x0: 0, y0: 0, x1: 0, y1: 0 },
          closed: false,
          lastPage: page.index,
          rows: [],
          footers: [],
        };
        tables.push(table);
      }
      const cols = table.columns.map((c, k) => ({ ...c, x0: header[k].x0, x1: header[k].x1 }));
      const edges = engineEdges?.(page.index, cols, page.rows[h.i].y1);
      const { items, end, closed, used, footers, taxRows } = readRows(
        page.rows,
        h.i + 1,
        cols,
        page.width,
        decimal,
        lh,
        edges,
      );
      table.items.push(...items);
      if (!pendingTax.has(table)) pendingTax.set(table, []);
      pendingTax.get(table)!.push(...taxRows);
      table.footers.push(...footers);
      table.rows.push(...page.rows.slice(h.first, h.i + 1), ...used);
      table.lastPage = page.index;
      table.closed = closed;
      if (items.length > 0 && table.box.x1 === 0) table.box = unionBox(items.map((i) => i.box));
      r = end;
    }
  }
  const taxRowsOf = new Map<LineItemTable, TaxRow[]>();
  for (const t of tables) {
    const taxRows: TaxRow[] = [...(pendingTax.get(t) ?? [])];
    t.items = dropNonItems(t.columns, t.items, taxRows, decimal);
    taxRowsOf.set(t, taxRows);
  }
  return tables
    .filter((t) => t.items.length > 0)
    .map((t) =>
      refineKeys({ columns: t.columns, items: t.items, pages: t.pages, box: t.box, rows: t.rows, footers: t.footers, taxRows: taxRowsOf.get(t) }),
    )
    .filter((t) =>
      t.items.some((i) =>
        t.columns.some(
          (c) =>
            (c.role === "description" || c.role === "itemCode" || c.role === "other") &&
            hasLetter(i.values[c.key] ?? ""),
        ),
      ),
    );
}

/** A quantity cell: a number, perhaps with a unit ("2", "1,5 h", "10 Stk.", "x 3"); not an identifier or a label. */
function quantityFits(text: string): boolean {
  const t = text.trim();
  if (!/\d/.test(t) || /:/.test(t)) return false;
  // A quantity counts things, not money: "100,00 EUR" in the quantity column is a base amount.
  if (/[€$£¥]/.test(t) || t.split(/\s+/).some((w) => CURRENCY_CODES.has(w))) return false;
  return !t.split(/\s+/).some((w) => isIdentifierToken(w) && /[a-z]/i.test(w));
}

/**
 * A money cell: amounts (at most two: a price and its rate or currency), currency codes and
 * symbols, short codes; no word of three letters or more other than an ISO currency code, no
 * identifier, no run of number groups (an IBAN's or a phone number's tail).
 */
function moneyFits(text: string): boolean {
  const words = text.trim().split(/\s+/).filter(Boolean);
  if (words.some((w) => /[a-zà-ÿ]{3,}/i.test(w) && !/^[A-Z]{3}$/.test(w.replace(/[^A-Za-z]/g, "")))) return false;
  if (words.some((w) => isIdentifierToken(w) && /[a-z]/i.test(w))) return false;
  return (text.match(/\d[\d.,']*/g) ?? []).length <= 3;
}

/**
 * An allowance or charge computed on a base ("5,00% sur 100,00 EUR", "10 % of 250.00", "2 %
 * auf 80,00"): a document-level discount or fee printed under the items, not an item.
 */
const PERCENT_OF_BASE =
  /\d\s?%\s*(?:sur|of|on|auf|von|de|del|su|sul|van|op|sobre)\s+(?:[$€£]\s?)?\d[\d.,' ]*\d(?:\s?(?:[a-z]{3}|[$€£]))?(?:\s|$)/;

/** A run of words with no column gap that crosses two column edges and reads as a sentence. */
function isProse(words: Word[], x0: number, x1: number, edges: number[]): boolean {
  if (words.length < 6 || words.filter((w) => /[a-zà-ÿ]{2,}/i.test(w.text)).length < 4) return false;
  const crossed = edges.slice(1, -1).filter((e) => e > x0 + 2 && e < x1 - 2).length;
  return crossed >= 2;
}

/** A tax word with a rate in one cell: "zzgl. 19 % MwSt. auf 1.234,56", "plus 20% VAT", "TVA 5,5 %". */
const TAX_RATE_TEXT =
  /(?:^|[^a-z])(?:vat|tax|gst|hst|mwst|ust|umsatzsteuer|mehrwertsteuer|tva|iva|btw|igic|moms|dph|ddv)(?:[^a-z]|$)/;
/** A tax-per-rate label at a segment's start: "zzgl. 19 % MwSt.", "plus 20 % VAT on", "TVA 20 %", "19% USt". */
const TAX_RATE_LEAD =
  /^(?:(?:plus|zzgl\.?|zuzgl\.?|zuzuglich|dont|incl\.?|inkl\.?|including|enthaltene?|\+)\s*)?(?:\d{1,2}(?:[.,]\d{1,2})?\s?%\s*)?(?:vat|tax|gst|hst|mwst|ust|umsatzsteuer|mehrwertsteuer|tva|iva|btw|igic)\b/;
export function isTaxRateLead(text: string): boolean {
  const f = fold(text).trim();
  return TAX_RATE_LEAD.test(f) && /\d\s?%/.test(f);
}

/** The tax row of a tax-per-rate line: its last amount, and the base printed before it. */
export function taxRowOf(text: string, box: Box, decimal: DecimalMark): TaxRow | undefined {
  const amounts = findAmounts(text, decimal).filter((a) => !a.isPercent);
  const last = amounts[amounts.length - 1];
  if (!last) return undefined;
  const prev = amounts.length >= 2 ? amounts[amounts.length - 2] : undefined;
  return { text: last.text, value: last.value, box, base: prev && prev.hasDecimals ? { text: prev.text, value: prev.value } : undefined };
}

export function isTaxRateText(text: string): boolean {
  const f = fold(text);
  return TAX_RATE_TEXT.test(f) && /\d\s?%/.test(f);
}

/**
 * Rows the table's columns let through that are not items, judged against the table's own
 * items (arithmetic and consistency, not phrases):
 * - a carried or running sum: a row without quantity and unit price whose amount equals the sum
 *   of the items above it ("Übertrag", "Carried forward", "Report", a group subtotal under any
 *   name), at a page break or after a group;
 * - a tax-per-rate row in the table's columns ("plus 20 % VAT on 1,234.56 | 246.91");
 * - an amount without decimals, no quantity and no unit price, in a table whose items all print
 *   decimals (a page number or a postcode of a letterhead repeated over a continued table).
 */
function dropNonItems(
  cols: Column[],
  items: LineItem[],
  taxRows: TaxRow[],
  decimal: DecimalMark,
): LineItem[] {
  const keyOf = (role: ColumnRole) => cols.find((c) => c.role === role && c.key === role)?.key ?? cols.find((c) => c.role === role)?.key;
  const totalKey = keyOf("total") ?? keyOf("unitPrice");
  if (!totalKey || items.length < 2) return items;
  const detailKeys = [keyOf("quantity"), keyOf("unitPrice")].filter((k): k is string => !!k && k !== totalKey);
  const descKeys = cols.filter((c) => c.role === "description" || c.role === "other").map((c) => c.key);
  const amount = (i: LineItem) => {
    const v = i.values[totalKey];
    return v !== undefined ? pickAmount(v, ".") : undefined;
  };
  const bare = (i: LineItem) => detailKeys.length > 0 && detailKeys.every((k) => !i.values[k]);
  const detailed = items.filter((i) => !bare(i));
  // Only when the table's items carry details: a table of bare amounts has nothing to compare with.
  if (detailKeys.length > 0 && detailed.length < 2) return items;
  const allDecimals = detailed.every((i) => /[.,]\d{1,3}$/.test(i.values[totalKey] ?? ""));
  const out: LineItem[] = [];
  let sum = 0;
  let lastCarry: number | undefined;
  // Items carry amounts: a row with neither an amount nor a positive quantity is the previous
  // item's continuation (a wrapped description, a benefit code; stray digits of its text may fall
  // into the number columns).
  const priced = items.filter((i) => amount(i)).length;
  const qtyKey = keyOf("quantity");
  const positiveQty = (i: LineItem) => {
    const q = qtyKey ? Number((i.values[qtyKey] ?? "").replace(/[^\d.,]/g, "").replace(",", ".")) : NaN;
    return Number.isFinite(q) && q > 0;
  };
  const continuations = priced >= 2;
  const descKey = descKeys.find((k) => cols.find((c) => c.key === k)?.role === "description") ?? descKeys[0];
  // A row at a page break: the last row of its page or the first of the next.
  const atPageBreak = (k: number) =>
    (k > 0 && items[k - 1].box.page !== items[k].box.page) ||
    (k + 1 < items.length && items[k + 1].box.page !== items[k].box.page);
  for (const [k, it] of items.entries()) {
    const a = amount(it);
    if (continuations && !a && !positiveQty(it)) {
      const prev = out[out.length - 1];
      const text = descKeys.map((k) => it.values[k] ?? "").filter(Boolean).join(" ").trim();
      if (prev && descKey && text) prev.values[descKey] = prev.values[descKey] ? `${prev.values[descKey]}\n${text}` : text;
      continue;
    }
    if (bare(it) && a) {
      const desc = descKeys.map((k) => it.values[k] ?? "").join(" ");
      // Carried after one item only at a page break: a bare row costing what the one item above
      // costs is otherwise as likely an item of its own.
      const carried =
        ((out.length >= 2 || (out.length === 1 && atPageBreak(k))) && Math.abs(a.value - sum) < 0.015) ||
        (lastCarry !== undefined && Math.abs(a.value - lastCarry) < 0.015);
      if (carried) {
        lastCarry = a.value;
        continue;
      }
      if (isTaxRateText(desc)) {
        const base = findAmounts(desc, decimal).filter((x) => !x.isPercent && x.hasDecimals).pop();
        taxRows.push({ text: a.text, value: a.value, box: it.boxes[totalKey] ?? it.box, base: base ? { text: base.text, value: base.value } : undefined });
        continue;
      }
      if (allDecimals && !/[.,]\d{1,3}$/.test(it.values[totalKey] ?? "")) continue;
    }
    out.push(it);
    if (a) sum += a.value;
  }
  return out;
}

/**
 * Settles keys from the data: a "Tax" column holding amounts is the tax amount, one holding
 * percentages the rate; of several description-like columns the one with the most text is
 * "description".
 */
function refineKeys(t: LineItemTable): LineItemTable {
  const values = (key: string) =>
    t.items.map((i) => i.values[key]).filter((v): v is string => v !== undefined);
  const rename = (from: string, to: string) => {
    if (from === to || t.columns.some((c) => c.key === to)) return;
    const col = t.columns.find((c) => c.key === from);
    if (!col) return;
    col.key = to;
    for (const i of t.items) {
      if (from in i.values) {
        i.values[to] = i.values[from];
        delete i.values[from];
      }
      if (from in i.boxes) {
        i.boxes[to] = i.boxes[from];
        delete i.boxes[from];
      }
    }
  };
  for (const c of [...t.columns]) {
    if (c.role !== "taxRate") continue;
    const vs = values(c.key);
    if (vs.length === 0) continue;
    const pct = vs.filter((v) => /%/.test(v)).length;
    if (
      pct * 2 < vs.length &&
      vs.every((v) => /^-?[\d.,\s]+$/.test(v.replace(/[^\d.,\s-]/g, "")) && /[.,]\d{2}\b/.test(v))
    ) {
      c.role = "taxAmount";
      rename(c.key, "taxAmount");
    } else if (pct * 2 >= vs.length && c.key !== "taxRate") {
      const other = t.columns.find((x) => x.key === "taxRate");
      if (other) {
        other.key = "taxRateTmp";
        rename("taxRateTmp", camelCase(other.header) || "tax");
      }
      rename(c.key, "taxRate");
    }
  }
  const descs = t.columns.filter((c) => c.role === "description");
  if (
    descs.length > 1 &&
    !descs.some((c) =>
      /desc|designation|libelle|beschreib|bezeichnung|omschrijving|particular|detail/i.test(fold(c.header)),
    )
  ) {
    const len = (c: Column) => values(c.key).reduce((s, v) => s + v.length, 0);
    const main = [...descs].sort((a, b) => len(b) - len(a))[0];
    if (main.key !== "description") {
      const cur = t.columns.find((c) => c.key === "description");
      if (cur) {
        const tmp = "__desc";
        rename(cur.key, tmp);
        rename(main.key, "description");
        rename(tmp, camelCase(cur.header) || "item");
      } else rename(main.key, "description");
    }
  }
  return t;
}

function unionBox(boxes: Box[]): Box {
  return {
    page: boxes[0].page,
    x0: Math.min(...boxes.map((b) => b.x0)),
    y0: Math.min(...boxes.map((b) => b.y0)),
    x1: Math.max(...boxes.map((b) => b.x1)),
    y1: Math.max(...boxes.map((b) => b.y1)),
  };
}

function sameColumns(a: Column[], b: Column[]): boolean {
  return (
    a.length === b.length && a.every((c, i) => c.role === b[i].role && fold(c.header) === fold(b[i].header))
  );
}

function readRows(
  rows: Row[],
  start: number,
  cols: Column[],
  pageWidth: number,
  decimal: DecimalMark,
  lh: number,
  engineEdges?: number[],
): { items: LineItem[]; end: number; closed: boolean; used: Row[]; footers: TableFooter[]; taxRows: TaxRow[] } {
  const taxRows: TaxRow[] = [];
  const items: LineItem[] = [];
  const used: Row[] = [];
  const footers: TableFooter[] = [];
  const totalIdx = cols.findIndex((c) => c.role === "total");
  const priceIdx = cols.findIndex((c) => c.role === "unitPrice");
  const qtyIdx = cols.findIndex((c) => c.role === "quantity");
  const descIdx =
    cols.findIndex((c) => c.key === "description") >= 0
      ? cols.findIndex((c) => c.key === "description")
      : cols.findIndex((c) => c.role === "description");
  // Rows the table could span: stop at a large gap or a totals row at the end.
  const window: Row[] = [];
  let lastY = start > 0 ? rows[start - 1].y1 : (rows[start]?.y0 ?? 0);
  let end = start;
  for (let r = start; r < rows.length; r++) {
    const row = rows[r];
    if (row.y0 - lastY > lh * 6 && window.length > 0) break;
    if (readHeader(row, pageWidth)) break;
    window.push(row);
    lastY = row.y1;
    end = r + 1;
  }
  const edges =
    engineEdges && engineEdges.length === cols.length + 1
      ? engineEdges
      : columnEdges(cols, window.slice(0, 30), pageWidth);
  let pending: { row: Row; texts: Word[] }[] = [];
  let closed = false;
  let sinceItem = 0;
  let prevBottom = start > 0 ? rows[start - 1].y1 : 0;
  let consumed = start;
  // How a row reads against the columns: its cells, whether they misfit their columns and
  // whether it carries an item's amount.
  // Read once per row: the look-aheads below ask about rows the loop reaches later.
  const classified = new Map<Row, ReturnType<typeof classifyRow>>();
  const classify = (row: Row) => {
    let c = classified.get(row);
    if (!c) classified.set(row, (c = classifyRow(row)));
    return c;
  };
  const classifyRow = (row: Row) => {
    const byCol = assign(row.words, cols, edges, row);
    const cell = (i: number) => (i >= 0 ? (byCol.get(i) ?? []) : []);
    const amountIn = (i: number) => {
      const ws = cell(i);
      return ws.length > 0 ? pickAmount(joinWords(ws), decimal) : undefined;
    };
    // Cells must fit their columns: a quantity is a number, a money cell an amount (a fragment
    // of an IBAN, a VAT id or a phone number split by the column edges is not); a sentence
    // running across the columns is prose, not a row of the table.
    // A row with a fitting quantity and line total is an item even when another money cell
    // holds a captioned figure ("(Rabais: 5,00)" under the unit price): that cell is dropped.
    if (
      totalIdx >= 0 &&
      cell(totalIdx).length > 0 &&
      moneyFits(joinWords(cell(totalIdx))) &&
      qtyIdx >= 0 &&
      cell(qtyIdx).length > 0 &&
      quantityFits(joinWords(cell(qtyIdx)))
    )
      for (const [i, ws] of byCol) if (i !== totalIdx && MONEY.has(cols[i].role) && !moneyFits(joinWords(ws))) byCol.delete(i);
    const misfit =
      (qtyIdx >= 0 && cell(qtyIdx).length > 0 && !quantityFits(joinWords(cell(qtyIdx)))) ||
      cols.some((c, i) => MONEY.has(c.role) && cell(i).length > 0 && !moneyFits(joinWords(cell(i)))) ||
      row.segments.some((seg) => isProse(seg.words, seg.x0, seg.x1, edges)) ||
      PERCENT_OF_BASE.test(fold(row.text));
    const hasMoney =
      !misfit &&
      ((totalIdx >= 0 && amountIn(totalIdx)) ||
        (totalIdx < 0 && priceIdx >= 0 && amountIn(priceIdx)) ||
        (totalIdx >= 0 && priceIdx >= 0 && amountIn(priceIdx) && cell(qtyIdx).length > 0));
    return { byCol, cell, amountIn, misfit, hasMoney };
  };
  // The figure columns an item row fills ("quantity,total,taxRate"): items of one table repeat it.
  const signature = (byCol: Map<number, Word[]>) =>
    [...byCol.keys()]
      .filter((i) => !TEXT_ROLES.has(cols[i].role))
      .sort((a, b) => a - b)
      .join(",");
  let lastSignature = "";
  let afterTotals = false;
  // Whether an item row with the last item's signature follows within a few rows, before any
  // totals row: the rows in between are the item's own notes (references, gross/discount/net
  // figures), not the end of the table.
  const itemAhead = (from: number) => {
    for (let k = from; k < Math.min(window.length, from + 12); k++) {
      const row = window[k];
      if (isTotalsRow(row, cols) || readHeader(row, pageWidth)) return false;
      const c = classify(row);
      if (c.hasMoney) return signature(c.byCol) === lastSignature;
    }
    return false;
  };
  for (let w = 0; w < window.length; w++) {
    const row = window[w];
    const gapBefore = row.y0 - prevBottom;
    prevBottom = row.y1;
    consumed++;
    // A tax-per-rate row ("plus 20 % VAT on 1,234.56 | 246.91"), in the table's columns or in the
    // totals block beside them: an amount for the totals, not an item.
    // Only the row's first segment: an item's tax-rate cell ("19 % USt" right of its quantity) is not one.
    if (row.segments[0] && isTaxRateLead(row.segments[0].text) && findAmounts(row.text, decimal).some((a) => !a.isPercent)) {
      const tr = taxRowOf(row.text, boxOf(row.words, row.page), decimal);
      if (tr) taxRows.push(tr);
      pending = [];
      sinceItem++;
      continue;
    }
    if (isTotalsRow(row, cols)) {
      pending = [];
      sinceItem++;
      afterTotals = true;
      // A grand total closes the table; a section subtotal may be followed by more items.
      const hit = matchLabelAt(foldKeepLength(row.segments[0].text), 0, LABELS);
      if (hit) {
        const byCol = assign(row.words, cols, edges);
        const cells: TableFooter["cells"] = [];
        for (const [i, ws] of byCol) {
          if (!MONEY.has(cols[i].role)) continue;
          const a = pickAmount(joinWords(ws.sort((x, y) => x.x0 - y.x0)), decimal);
          if (a) cells.push({ column: cols[i], text: a.text, box: boxOf(ws, row.page) });
        }
        if (cells.length >= 2) footers.push({ field: hit.label.field, cells });
      }
      // A row of totals captions without amounts ("TOTAL HT | TOTAL TVA | TOTAL TTC"): the
      // totals grid under the table starts; the amounts under it are not an item.
      const captions = row.segments.filter((sg) => {
        const h = matchLabelAt(foldKeepLength(sg.text), 0, LABELS);
        return h && TOTALS_FIELDS.has(h.label.field);
      });
      const captionRow = captions.length >= 2 && !findAmounts(row.text, decimal).some((a) => !a.isPercent);
      if (
        captionRow ||
        (hit &&
          (hit.label.field === "total" || hit.label.field === "balanceDue") &&
          !/sub|zwischen|sous/.test(fold(row.text)))
      ) {
        closed = true;
        break;
      }
      continue;
    }
    const words = row.words;
    if (words.length === 0) continue;
    const { byCol, cell, misfit, hasMoney } = classify(row);
    const otherNumeric = misfit || [...byCol.keys()].some((i) => i !== descIdx && cols[i].role !== "description");
    // After a discount or subtotal row, a row with an amount but neither quantity nor unit price
    // under items that have them is an adjustment ("CHARGE : FRAIS DEPLACEMENT | 10,00"), not an item.
    const bare = cell(qtyIdx).length === 0 && cell(priceIdx).length === 0;
    if (hasMoney && afterTotals && bare && items.length > 0 && items.every((i) => qtyIdx >= 0 && i.values[cols[qtyIdx].key])) {
      pending = [];
      sinceItem++;
      continue;
    }
    if (hasMoney) {
      sinceItem = 0;
      afterTotals = false;
      lastSignature = signature(byCol);
      const values: Record<string, string> = {};
      const boxes: Record<string, Box> = {};
      // Text rows just above, closely spaced and after a gap, are the first lines of this item.
      const lead = pending.filter((p) => p.texts.length > 0);
      const leadGapOk = lead.length > 0 && row.y0 - lead[lead.length - 1].row.y1 < lh * 0.6;
      for (const [i, ws] of byCol) {
        const c = cols[i];
        const text = joinWords(ws.sort((a, b) => a.x0 - b.x0)).trim();
        if (text === "") continue;
        if (MONEY.has(c.role)) {
          const a = pickAmount(text, decimal);
          values[c.key] = a ? a.text : text;
        } else values[c.key] = text;
        boxes[c.key] = boxOf(ws, row.page);
      }
      if (leadGapOk && descIdx >= 0) {
        const leadText = lead.map((p) => joinWords(p.texts)).join("\n");
        const key = cols[descIdx].key;
        values[key] = values[key] ? `${leadText}\n${values[key]}` : leadText;
      }
      if (leadGapOk) used.push(...lead.map((p) => p.row));
      pending = [];
      used.push(row);
      items.push({ values, boxes, box: boxOf(words, row.page) });
      continue;
    }
    // No amount: a continuation of the previous item's text, or a lead/section line.
    const textWords = descIdx >= 0 ? cell(descIdx) : words;
    // Text lines of an item: words in the description only, figures-free cells elsewhere, or
    // reference lines in the text columns ("# ligne BC: 1", ":59878541259876") with no amount.
    const onlyText =
      !otherNumeric ||
      [...byCol.entries()].every(
        ([i, ws]) => i === descIdx || cols[i].role === "description" || !ws.some((w) => /\d/.test(w.text)),
      ) ||
      (!misfit &&
        [...byCol.keys()].every((i) => TEXT_ROLES.has(cols[i].role)) &&
        !findAmounts(row.text, decimal).some((a) => !a.isPercent && a.hasDecimals));
    const prev = items[items.length - 1];
    // A text line set closer to the next item's amount row than to the last item is that next
    // item's first line ("Ref. A-102" right above its row), not the last item's continuation.
    const next = window[w + 1];
    const leadsNext =
      next !== undefined && next.y0 - row.y1 < gapBefore * 0.6 && next.y0 - row.y1 < lh * 0.6 && classify(next).hasMoney;
    if (
      prev &&
      onlyText &&
      !leadsNext &&
      gapBefore < lh * 0.75 &&
      pending.length === 0 &&
      words.length > 0 &&
      sinceItem === 0
    ) {
      // Each text column continues its own cell (description, a second text column, a code).
      for (const [i, ws] of byCol) {
        const c = cols[i];
        if (MONEY.has(c.role) || c.role === "quantity") continue;
        const add = joinWords(ws.sort((a, b) => a.x0 - b.x0));
        if (!add) continue;
        prev.values[c.key] = prev.values[c.key] ? `${prev.values[c.key]}\n${add}` : add;
      }
      prev.box = unionBox([prev.box, boxOf(words, row.page)]);
      used.push(row);
      continue;
    }
    if (!onlyText || !hasLetter(joinWords(words))) {
      // A reference line inside an item ("C_FO: ART_1254", "# ligne BC: 3"): no amount, only in
      // the text columns. It neither makes nor ends an item; anything else counts toward the end.
      const annotation =
        items.length > 0 &&
        !findAmounts(row.text, decimal).some((a) => !a.isPercent && a.hasDecimals) &&
        [...byCol.keys()].every((i) => TEXT_ROLES.has(cols[i].role));
      if (!annotation) sinceItem++;
      pending = [];
      if (items.length > 0 && sinceItem > 3 && !itemAhead(w + 1)) break;
      continue;
    }
    // Skip header-style rows right under the header (a second header line).
    if (
      items.length === 0 &&
      pending.length === 0 &&
      words.every((w) => w.bold) &&
      gapBefore < lh * 1.2 &&
      row.words.length <= 4
    ) {
      used.push(row);
      continue;
    }
    sinceItem++;
    pending =
      gapBefore < lh * 0.75 && pending.length > 0
        ? [...pending, { row, texts: textWords }]
        : [{ row, texts: textWords }];
    if (items.length > 0 && sinceItem > 6 && !itemAhead(w + 1)) break;
  }
  return { items, end: Math.max(consumed, end), closed, used, footers, taxRows };
}

/** Turns the tables into the seed's `lineItems` (one array per table). */
export function lineItemsBody(tables: LineItemTable[]): Record<string, string>[][] {
  return tables.map((t) => t.items.map((i) => i.values));
}
