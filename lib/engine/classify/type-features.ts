/**
 * What a document shows about its type, read from positioned text: the names it gives itself
 * (in the title zone: the upper part of the first page, larger type, short lines; or in the
 * body), the field vocabulary of each type (lexicon/document-types.ts), and layout-level
 * structure (money amounts, dates, tax rates, running balances, blanks to fill in, prose).
 * Pure: takes the layout, returns numbers the scorer weighs.
 */
import type { Layout, Segment } from "@/lib/engine/invoice/layout";
import { DATE_RE } from "@/lib/engine/lexicon/calendar";
import {
  SUBCLASS_MODIFIERS,
  type DocumentType,
  type EvidenceKind,
  type Subclass,
} from "@/lib/engine/lexicon/document-types";
import type { Lang } from "@/lib/engine/lexicon/languages";
import { fold } from "@/lib/engine/lexicon/normalize";
import { matchTerms, termTokens, type TermMatch } from "@/lib/engine/lexicon/term-matcher";

export interface TitleHit {
  type: DocumentType | null;
  sub?: Subclass;
  text: string;
  /** strength × place × size × language, the score the title adds. */
  score: number;
  page: number;
}

export interface TypeFeatures {
  /** Best title score per type. */
  title: Partial<Record<DocumentType, number>>;
  /** The title hits, best first (for sub-classes and match details). */
  titles: TitleHit[];
  /** Names of types in running text (weak), summed per type. */
  mentions: Partial<Record<DocumentType, number>>;
  /** Distinct evidence terms per kind, weighted by language fit. */
  evidence: Partial<Record<EvidenceKind, number>>;
  amounts: number;
  dates: number;
  percents: number;
  /** Consecutive rows whose last amount continues the previous row's by another amount on the row. */
  runningBalances: number;
  /** Blank lines to fill in, boxes to tick. */
  blanks: number;
  /** Share of rows that are running prose (many words, mostly letters). */
  prose: number;
  rows: number;
  pages: number;
  /** Negative money amounts (credit notes print them). */
  negatives: number;
  /** Share of the amounts with cents that are negative. */
  negativeShare: number;
  /** Rows with a total or subtotal label and a negative amount. */
  negativeTotals: number;
  /** Rows whose numbers multiply out: quantity × unit price = line amount. */
  lineItems: number;
  /** Sub-classes named outside the title ("This pro forma invoice is not a demand for payment"). */
  mentionedSubs: Subclass[];
}

const MONEY_RE =
  /(?<![\d.,])(-\s?)?(?:[$€£¥₹]|R\$|CHF|EUR|USD|GBP)?\s?(-\s?)?\d{1,3}(?:[.,'\u00a0\u202f ]\d{3})*[.,]\d{2}(?![\d.,])(-)?/g;
/** Whole amounts beside a currency ("Rs 1939", "€ 250", "1.200 EUR"): prices without cents. */
const WHOLE_MONEY_RE =
  /(?:[$€£¥₹]|R\$|\bRs\.?|\bCHF|\bEUR|\bUSD|\bGBP|\bINR)\s?\d{1,3}(?:[.,]\d{3})*(?![\d.,]\d)|(?<![\d.,])\d{1,3}(?:[.,]\d{3})*\s?(?:€|EUR\b|CHF\b|USD\b)/g;

/** A money amount's value: the last "." or "," before two digits is the decimal mark. */
export function amountValue(text: string): number | undefined {
  const t = text.replace(/[^\d.,-]/g, "");
  const m = /^(-?)([\d.,]*?)[.,](\d{2})-?$/.exec(t);
  if (!m) return undefined;
  const n = Number(`${m[2].replace(/[.,]/g, "") || "0"}.${m[3]}`);
  return (m[1] || text.trim().endsWith("-") ? -1 : 1) * n;
}

/**
 * Words before a type name that make it the topic of another title ("Publication of award of
 * contracts", "Liste des factures", "Übersicht der Rechnungen"), unless a copy word precedes
 * them ("Copy of invoice", "Duplicata de facture").
 */
const TOPIC_WORD = /^(?:of|for|about|on|regarding|de|des|du|sur|concernant|der|den|uber|zur|zum|von|van|voor|over|di|dei|delle|degli|del|della|per|sobre|do|da|dos|das)$/;
const COPY_WORD = /^(?:copy|kopie|copie|copia|duplicate|duplikat|duplicata|duplicado|segunda|second|2nd|original)$/;

/** Words after a type name that make it a field label ("Order No.", "Invoice Date") rather than a title. */
const REFERENCE_WORD = /^(?:no|nr|n|number|nummer|numero|num|ref|reference|date|datum|fecha|data|id)$/;

function languageFactor(term: TermMatch["term"], lang: Lang | undefined): number {
  if (!lang || term.lang === lang) return 1;
  // English names are printed on documents in every language; other languages' less so.
  return term.lang === "en" ? 0.8 : 0.6;
}

function medianSize(layout: Layout): number {
  const sizes: number[] = [];
  for (const s of layout.segments) for (let i = 0; i < Math.min(20, s.text.length); i++) sizes.push(s.fontSize);
  sizes.sort((a, b) => a - b);
  return sizes[Math.floor(sizes.length / 2)] ?? 10;
}

/** Segment texts with words hyphenated at a line end joined to the segment below. */
function matchUnits(layout: Layout): { seg: Segment; text: string }[] {
  const out: { seg: Segment; text: string }[] = [];
  for (const page of layout.pages)
    page.rows.forEach((row, r) => {
      for (const seg of row.segments) {
        let text = seg.text;
        if (/\p{L}-$/u.test(text)) {
          const below = page.rows[r + 1]?.segments.find(
            (b) => Math.min(b.x1, seg.x1) - Math.max(b.x0, seg.x0) > 0 && /^\p{Ll}/u.test(b.text),
          );
          if (below) text = `${text}\n${below.text}`;
        }
        out.push({ seg, text });
      }
    });
  return out;
}

/**
 * How much a segment reads as the document's title: high on the first page's upper part, in
 * larger or bold type, short; low in the body. Later pages' first rows count a little (running
 * headers repeat the title).
 */
/** Small words a title may carry besides its name: "Rechnung Nr. 12 vom 3.4.", "Facture du 2 mars". */
const TITLE_FILLER = new Set(
  "no nr n number nummer numero num ref of for from to and und et y e en de del des du da do di van vom zum zur the la le el il het der die das dated date datum fecha data page seite".split(" "),
);

/** Whether a line reads as running text: lower-case words besides its type name ("Invoices reviewed"). */
function sentenceLike(text: string, name: string): boolean {
  const rest = ` ${text} `.replace(new RegExp(`\\s${name.split(" ")[0]}\\S*`, "i"), " ");
  return rest
    .split(/\s+/)
    .some((w) => /^\p{Ll}{3,}[.,:;]?$/u.test(w) && !TITLE_FILLER.has(fold(w).replace(/[.,:;]$/, "")));
}

function titleness(seg: Segment, layout: Layout, median: number, rowRank: number): number {
  const page = layout.pages.find((p) => p.index === seg.page);
  if (!page) return 0;
  const first = seg.page === layout.pages[0]?.index;
  const rel = seg.y0 / Math.max(1, page.height);
  const size = seg.fontSize / Math.max(1, median);
  const words = seg.text.split(/\s+/).filter((w) => /\p{L}/u.test(w)).length;
  let place = rel < 0.3 || rowRank < 4 ? 1 : rel < 0.5 ? 0.6 : 0.25;
  if (!first) place *= rowRank < 3 ? 0.5 : 0.1;
  const big = size >= 1.6 ? 2 : size >= 1.15 ? 1.5 : seg.bold ? 1.15 : 1;
  const short = words <= 4 ? 1 : words <= 8 ? 0.7 : 0.35;
  // A title stands out: larger type, or bold or alone on a row that is no table row. A word in
  // a table header or a label column ("Invoices reviewed   1,204") is not a title.
  const cells = page.rows[seg.row]?.segments.length ?? 1;
  const prominent = size >= 1.15 || ((seg.bold || cells === 1) && cells <= 2);
  return place * big * short * (prominent ? 1 : 0.3);
}

/** titleness, less for a line in body type that reads as running text. */
function titleScore(seg: Segment, layout: Layout, median: number, rowRank: number, name: string): number {
  const t = titleness(seg, layout, median, rowRank);
  const plain = seg.fontSize < median * 1.15 && !seg.bold;
  return plain && sentenceLike(seg.text, name) ? t * 0.3 : t;
}

/**
 * A priced line: a quantity (a small number standing alone) times one amount of the row is
 * another amount of the row, within a cent per unit.
 */
function isLineItem(text: string, amounts: number[]): boolean {
  const quantities = [...text.matchAll(/(?<![\d.,])(\d{1,4}(?:[.,]\d{1,3})?)(?![\d.,%])/g)]
    .map((m) => Number(m[1].replace(",", ".")))
    .filter((q) => q > 0 && q <= 10000);
  for (const q of quantities)
    for (const p of amounts)
      for (const t of amounts) if (p !== t && Math.abs(p) > 0 && Math.abs(Math.abs(q * p) - Math.abs(t)) <= 0.01 * Math.max(1, q) && q !== 1) return true;
  return false;
}

/** Reads the features of a laid-out document; `lang` is the page language (or undefined). */
export function readTypeFeatures(layout: Layout, lang: Lang | undefined, hints: { formFields?: number } = {}): TypeFeatures {
  const median = medianSize(layout);
  const title: TypeFeatures["title"] = {};
  const titles: TitleHit[] = [];
  const mentions: TypeFeatures["mentions"] = {};
  const mentionedSubs = new Set<Subclass>();
  const evidenceTerms = new Map<EvidenceKind, Map<string, number>>();
  const rowRank = new Map<string, number>();
  for (const p of layout.pages) p.rows.forEach((r, i) => rowRank.set(`${p.index}:${i}`, i));

  for (const { seg, text } of matchUnits(layout)) {
    const matches = matchTerms(text, lang);
    if (matches.length === 0) continue;
    const tokens = termTokens(text);
    const rank = rowRank.get(`${seg.page}:${seg.row}`) ?? 99;
    const base = titleness(seg, layout, median, rank);
    for (const m of matches) {
      const lf = languageFactor(m.term, lang);
      if (m.term.kind === "evidence") {
        const kind = m.term.evidence;
        const map = evidenceTerms.get(kind) ?? new Map<string, number>();
        const w = m.term.strength / 3;
        map.set(m.term.text, Math.max(map.get(m.term.text) ?? 0, w * lf));
        evidenceTerms.set(kind, map);
        continue;
      }
      if (m.role === "modifier") {
        // "Rechnungsadresse", "Angebotsnummer": the document speaks about an invoice or a quote.
        if (m.term.type) mentions[m.term.type] = (mentions[m.term.type] ?? 0) + 0.3 * lf;
        continue;
      }
      const type = m.term.type;
      const t = base > 0.3 ? titleScore(seg, layout, median, rank, m.term.text) : base;
      const next = tokens[m.end];
      const prev = tokens[m.start - 1];
      const topic = prev !== undefined && TOPIC_WORD.test(prev) && !COPY_WORD.test(tokens[m.start - 2] ?? "");
      const labelLike = topic || (next !== undefined && REFERENCE_WORD.test(next) && t < 1.2);
      let sub = m.term.sub;
      if (!sub && m.role === "compound" && m.part) {
        for (const [mod, s] of Object.entries(SUBCLASS_MODIFIERS)) if (m.part.endsWith(mod)) sub = s;
      }
      // The modifier written apart: "Credit factuur", "Storno Rechnung".
      const before = tokens[m.start - 1];
      if (!sub && before && SUBCLASS_MODIFIERS[before]) sub = SUBCLASS_MODIFIERS[before];
      const score = m.term.strength * t * lf * (labelLike ? 0.4 : 1);
      if (score >= 0.9 && !labelLike) {
        titles.push({ type, sub, text: m.term.text, score, page: seg.page });
        if (type) title[type] = Math.max(title[type] ?? 0, score);
      } else if (type) {
        mentions[type] = (mentions[type] ?? 0) + Math.min(0.6, m.term.strength * 0.2) * lf;
        if (sub) mentionedSubs.add(sub);
      }
    }
  }
  titles.sort((a, b) => b.score - a.score);

  const evidence: TypeFeatures["evidence"] = {};
  for (const [kind, terms] of evidenceTerms) {
    const ws = [...terms.values()].sort((a, b) => b - a);
    // The first term counts fully, the next ones less: three distinct labels are near certainty.
    evidence[kind] = Math.round(ws.slice(0, 4).reduce((acc, w, i) => acc + w * [1, 0.5, 0.3, 0.2][i], 0) * 100) / 100;
  }

  let amounts = 0;
  let negatives = 0;
  let dates = 0;
  let percents = 0;
  let blanks = hints.formFields ? Math.min(20, hints.formFields) : 0;
  let prose = 0;
  let rows = 0;
  let runningBalances = 0;
  let lineItems = 0;
  let negativeTotals = 0;
  let centAmounts = 0;
  for (const page of layout.pages) {
    let prevLast: number | undefined;
    let chain = 0;
    for (const row of page.rows) {
      rows++;
      const text = row.text;
      const money = [...text.matchAll(MONEY_RE)];
      amounts += money.length;
      centAmounts += money.length;
      if (money.length === 0) amounts += (text.match(WHOLE_MONEY_RE) ?? []).length;
      for (const m of money) if (m[1] || m[2] || m[3]) negatives++;
      dates += (fold(text).match(DATE_RE) ?? []).length;
      percents += (text.match(/\d{1,2}(?:[.,]\d{1,2})?\s?%/g) ?? []).length;
      blanks += (text.match(/_{4,}|\.{8,}|\[\s?\]|☐|□|○/g) ?? []).length;
      const words = text.split(/\s+/).filter((w) => /^\p{L}[\p{L}'’,.;:-]*$/u.test(w));
      if (words.length >= 9 && words.length / Math.max(1, text.split(/\s+/).length) > 0.75) prose++;
      // Running balance: this row's last amount = previous row's last ± another amount on this row.
      const values = money.map((m) => amountValue(m[0])).filter((v): v is number => v !== undefined);
      if (values.length >= 2 && isLineItem(text, values)) lineItems++;
      // A total printed negative: the document gives money back (a credit note).
      if (values.some((v) => v < 0) && matchTerms(text, lang).some((m) => m.term.kind === "evidence" && (m.term.evidence === "total" || m.term.evidence === "subtotal")))
        negativeTotals++;
      if (values.length >= 2) {
        const last = values[values.length - 1];
        const others = values.slice(0, -1);
        if (
          prevLast !== undefined &&
          others.some((v) => Math.abs(v) > 0 && (Math.abs(prevLast! + v - last) < 0.005 || Math.abs(prevLast! - v - last) < 0.005))
        ) {
          chain++;
          runningBalances = Math.max(runningBalances, chain);
        } else chain = 0;
        prevLast = last;
      } else if (values.length === 1) {
        prevLast = values[0];
      }
    }
  }
  return {
    title,
    titles,
    mentions,
    evidence,
    amounts,
    dates,
    percents,
    runningBalances,
    blanks,
    prose: rows > 0 ? prose / rows : 0,
    rows,
    pages: layout.pages.length,
    negatives,
    negativeShare: centAmounts > 0 ? negatives / centAmounts : 0,
    negativeTotals,
    lineItems,
    mentionedSubs: [...mentionedSubs],
  };
}
