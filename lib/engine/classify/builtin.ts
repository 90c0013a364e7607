/**
 * Built-in classification (no rules): the document type from the names a document gives
 * itself and the fields it prints, in English, German, French, Spanish, Italian, Dutch and
 * Portuguese (lib/engine/lexicon: compounds, inflections, elisions), weighed with its
 * structure (amounts, dates, running balances, blanks, prose); the sub-classes of an invoice
 * (credit note, pro forma, utility bill); the issuing organisation (the letterhead/vendor
 * analysis of the invoice engine); and the country, only from evidence that agrees (VAT ids,
 * IBANs, phone codes, addresses). Pure: takes positioned words.
 */
import type { PageText } from "@/lib/engine/text/types";
import { buildLayout, layoutText, type Layout } from "@/lib/engine/invoice/layout";
import { documentDomains, vendorCandidates } from "@/lib/engine/invoice/parties";
import { fold, hasLetter } from "@/lib/engine/invoice/text-utils";
import { parseInvoice } from "@/lib/engine/invoice/parse-invoice";
import { LABELS, matchLabelAt } from "@/lib/engine/invoice/labels";
import { nameTokens } from "@/lib/engine/invoice/parties";
import {
  COMMERCIAL_EVIDENCE,
  COMMERCIAL_SHARE,
  DOCUMENT_TYPES,
  TYPE_EVIDENCE,
  type DocumentType,
  type Subclass,
} from "@/lib/engine/lexicon/document-types";
import { detectLanguage, type Lang } from "@/lib/engine/lexicon/languages";
import { countryEvidence, weighCountry } from "@/lib/engine/lexicon/country-evidence";
import { matchTerms } from "@/lib/engine/lexicon/term-matcher";
import { readTypeFeatures, type TypeFeatures } from "@/lib/engine/classify/type-features";
import { documentCountry } from "@/lib/engine/classify/country";

export { DOCUMENT_TYPES, type DocumentType, type Subclass };

/** A name that is not a label ("Factuuradres"), a bare legal form ("Sarl") or a title. */
function isOrganisationName(name: string): boolean {
  const f = fold(name).trim();
  if (!hasLetter(name) || nameTokens(name).length === 0) return false;
  const hit = matchLabelAt(f, 0, LABELS);
  if (hit && hit.end >= f.replace(/[\s:.]+$/, "").length) return false;
  // A document's own name ("DANFE", "Übersicht" aside) or a number is no organisation.
  if ((name.match(/\d/g) ?? []).length >= (name.match(/\p{L}/gu) ?? []).length) return false;
  const words = name.split(/[^\p{L}\p{N}]+/u).filter(Boolean).length;
  if (matchTerms(name).some((m) => m.term.kind === "title" && m.end - m.start >= words)) return false;
  return !/^(?:contents|header|footer|table of contents|example|total|page)\b/.test(f);
}

export interface BuiltinResult {
  type: DocumentType;
  /** Classes that refine the type: an invoice that is a credit note, a pro forma or a utility bill. */
  subclasses: Subclass[];
  /** 0..1, the winning score's share of the two best. */
  confidence: number;
  scores: Record<string, number>;
  /** The page language among the supported ones, when the text says. */
  language?: Lang;
  organisation?: string;
  /** English country name. */
  country?: string;
  /** ISO 3166-1 alpha-2 code of `country`. */
  countryCode?: string;
  /** Why the country was (not) given: agreed, conflict, weak, none. */
  countryReason: string;
  /** The country evidence that was read, for match details. */
  countryEvidence: { kind: string; countries: string[]; text: string; weight: number; party?: string }[];
}

/** Pages read for the type and the country. */
const MAX_PAGES = 10;

/** The lowest score that names a type; below it the document is "other". */
const MIN_TYPE_SCORE = 3.5;

const capped = (v: number | undefined, cap = 1.5) => Math.min(cap, v ?? 0);

/**
 * Scores each type: the title (a name printed as the document's title counts most), the
 * fields the type implies, weak mentions in running text, and the structure it needs. An
 * invoice must look commercial (amounts with totals or tax); a bank statement's running
 * balances or a form's blanks speak for themselves.
 */
export function scoreFeatures(f: TypeFeatures): Record<DocumentType, number> {
  const scores = {} as Record<DocumentType, number>;
  const ev = f.evidence;
  // The fields every priced document shares; each commercial type takes its share.
  let commercialScore = 0;
  for (const [kind, w] of Object.entries(COMMERCIAL_EVIDENCE)) commercialScore += w * capped(ev[kind as keyof typeof ev]);
  if (f.amounts >= 2) commercialScore += 0.8;
  if (f.percents >= 1) commercialScore += 0.4;
  if (f.dates >= 1) commercialScore += 0.3;
  for (const type of DOCUMENT_TYPES) {
    if (type === "other") continue;
    let s = (f.title[type] ?? 0) * 1.6 + capped(f.mentions[type], 1.2) + commercialScore * (COMMERCIAL_SHARE[type] ?? 0);
    for (const [kind, w] of Object.entries(TYPE_EVIDENCE[type])) s += w * capped(ev[kind as keyof typeof ev]);
    scores[type] = s;
  }
  const commercial = f.amounts >= 1 && capped(ev.total) + capped(ev.tax) + capped(ev.subtotal) + capped(ev.dueDate) >= 0.6;
  // An invoice that prints no amount with a total or tax is a letter or a report about invoices.
  if (!commercial) {
    scores.invoice *= 0.4;
    scores.receipt *= 0.6;
    scores.quote *= 0.6;
  }
  // An invoice names itself (title or number label) or asks for payment (terms and a bank
  // account). Totals and tax alone are any priced table's (a budget report, a price list).
  if (!f.title.invoice && !ev.invoiceRef && !(ev.dueDate && ev.payment)) scores.invoice *= 0.5;
  // An order without its title must at least say where and when to deliver.
  if (!f.title["purchase order"] && !ev.delivery) scores["purchase order"] *= 0.6;
  // Pay slips print several payroll fields (gross, net, employee...), not one tax line.
  if (capped(ev.payroll) < 1.3) scores.payslip *= 0.5;
  // "Invoice / Receipt": a paid invoice is still an invoice.
  if ((f.title.invoice ?? 0) >= 0.8 * (f.title.receipt ?? 0) && f.title.receipt) scores.receipt *= 0.7;
  if (f.lineItems >= 1) {
    scores.invoice += 1;
    scores.quote += 1;
    scores["purchase order"] += 0.7;
  }
  // Priced documents print amounts; without any they are something else that names them.
  if (f.amounts === 0) for (const t of ["invoice", "receipt", "quote", "purchase order"] as const) scores[t] *= 0.3;
  // A quote says how long it holds or carries a quote number; a table of "estimates" does neither.
  if (!ev.validity) scores.quote *= 0.6;
  // A contract is clauses of prose; a table that lists contracts is not one.
  if (f.prose < 0.08 && capped(ev.contractTerms) < 1.2) scores.contract *= 0.5;
  if (f.runningBalances >= 2) scores["bank statement"] += 4;
  else if (f.runningBalances === 1) scores["bank statement"] += 1;
  if (f.dates >= 6 && f.amounts >= 10) scores["bank statement"] += 0.5;
  if (f.amounts >= 4) scores.payslip += 0.5;
  if (f.amounts === 0 && (ev.quantityShipped ?? 0) > 0) scores["delivery note"] += 1;
  if (f.prose > 0.15) scores.letter += 1;
  if (f.prose > 0.3) scores.contract += 1.5;
  if (f.prose > 0.2) scores.report += 1;
  if (f.pages >= 3) scores.report += 1;
  // Many pages of prose that name invoices are about invoices.
  if (f.prose > 0.35 && f.pages >= 3) {
    scores.invoice *= 0.5;
    scores.receipt *= 0.5;
  }
  // A letter is a salutation AND a closing; one of them alone is common in other documents.
  if (!(ev.salutation && ev.closing)) scores.letter *= 0.5;
  scores.form += Math.min(6, f.blanks * 0.5);
  if (ev.taxFormParts) scores["tax form"] += Math.min(3, f.blanks * 0.25);
  if (f.blanks === 0) scores.form *= 0.5;
  for (const t of Object.keys(scores) as DocumentType[]) scores[t] = Math.round(scores[t] * 100) / 100;
  return scores;
}

/** Sub-classes of an invoice: from its title (Gutschrift, creditfactuur, pro forma) or a utility's fields. */
function subclassesOf(f: TypeFeatures): Subclass[] {
  const out = new Set<Subclass>();
  const best = f.titles.find((t) => t.type === "invoice");
  for (const t of f.titles)
    if (t.type === "invoice" && t.sub && best && t.score >= best.score * 0.6) out.add(t.sub);
  if ((f.evidence.utility ?? 0) >= 1.3) out.add("utility bill");
  // A pro forma says so in its text when not in its title; "a credit note will follow" does not make one.
  if (f.mentionedSubs.includes("pro forma")) out.add("pro forma");
  // No credit-note title, but the amounts are negative: a credit note printed as a negative invoice.
  if (f.negatives >= 3 && (f.negativeTotals >= 1 || f.negativeShare >= 0.5)) out.add("credit note");
  return SUBCLASS_ORDER.filter((s) => out.has(s));
}

const SUBCLASS_ORDER: Subclass[] = ["credit note", "pro forma", "utility bill"];

/** Reads the country signals of a plain text (lines): an English country name or undefined. */
export function detectCountry(text: string): string | undefined {
  return weighCountry(countryEvidence(text.split(/\r?\n/).map((t) => ({ text: t })))).country;
}

/** Classifies a document from its positioned words. */
export function classifyBuiltin(pages: PageText[], hints: { formFields?: number } = {}): BuiltinResult {
  // The first pages name the type; a long document's later pages only cost time.
  const layout: Layout = buildLayout(pages.slice(0, MAX_PAGES));
  const language = detectLanguage(layoutText(layout));
  const features = { ...readTypeFeatures(layout, language, hints), pages: pages.length };
  const scores = scoreFeatures(features);
  const ranked = Object.entries(scores).sort((a, b) => b[1] - a[1]);
  const [bestType, bestScore] = ranked[0] ?? ["other", 0];
  const second = ranked[1]?.[1] ?? 0;
  const type: DocumentType = bestScore >= MIN_TYPE_SCORE ? (bestType as DocumentType) : "other";
  const confidence = bestScore > 0 ? Math.round((bestScore / (bestScore + second)) * 100) / 100 : 0;
  const subclasses = type === "invoice" ? subclassesOf(features) : [];
  // The issuing organisation: the vendor of invoice-like documents, else the letterhead analysis
  // of the invoice engine, kept only on strong signals (legal suffix, web domain, organisation
  // word with an address...).
  let organisation: string | undefined;
  let orgContext: string | undefined;
  if (type === "invoice" || type === "receipt" || type === "quote") {
    // The vendor is in the first pages' letterhead or footer; later pages only cost time.
    const vendor = parseInvoice(pages.slice(0, 2)).body.vendor;
    if (vendor?.name && isOrganisationName(vendor.name)) {
      organisation = vendor.name;
      const a = vendor.address;
      orgContext = [a?.postalCode && a.city ? `${a.postalCode} ${a.city}` : undefined, vendor.entityId]
        .filter(Boolean)
        .join("\n");
    }
  }
  if (!organisation) {
    const allTexts = layout.segments.map((s) => s.text);
    const sizes = layout.segments.map((s) => s.fontSize).sort((a, b) => a - b);
    const cands = vendorCandidates(layout, new Set(), {
      domains: documentDomains(allTexts),
      allTexts,
      medianFont: sizes[Math.floor(sizes.length / 2)] ?? 10,
    });
    const strong = new Set(["suffix", "domain", "account holder", "return address", "organisation word"]);
    const org = cands.find(
      (c) => c.score >= 3 && c.why.some((w) => strong.has(w)) && isOrganisationName(c.name),
    );
    organisation = org?.name;
    orgContext = org?.block ? org.block.lines.map((l) => l.text).join("\n") : undefined;
  }
  const issuerTexts = new Set((orgContext ?? "").split("\n").map((t) => t.trim()).filter(Boolean));
  if (organisation) issuerTexts.add(organisation.trim());
  const c = documentCountry(layout, issuerTexts);
  return {
    type,
    subclasses,
    confidence,
    scores,
    language,
    organisation,
    country: c.country,
    countryCode: c.code,
    countryReason: c.reason,
    countryEvidence: c.evidence.map((e) => ({ kind: e.kind, countries: e.countries, text: e.text, weight: e.weight, party: e.party })),
  };
}
