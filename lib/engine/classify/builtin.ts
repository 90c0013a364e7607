/**
 * Built-in classification (no rules): the document type from weighted phrases (English,
 * French, German, Dutch, Spanish, Italian), counted more where they are titles (first rows,
 * large type), plus the issuing organisation (the letterhead/vendor analysis of the invoice
 * engine) and the country where it can be read (address lines, VAT prefixes, phone codes,
 * US states and ZIP codes, UK postcodes). Pure: takes positioned words.
 */
import type { PageText } from "@/lib/engine/text/types";
import { buildLayout, layoutText, type Layout } from "@/lib/engine/invoice/layout";
import { documentDomains, vendorCandidates } from "@/lib/engine/invoice/parties";
import { COUNTRY_NAMES, PHONE_CODES, US_STATES, countriesIn } from "@/lib/engine/invoice/countries";
import { fold, hasLetter } from "@/lib/engine/invoice/text-utils";
import { parseInvoice } from "@/lib/engine/invoice/parse-invoice";
import { LABELS, matchLabelAt } from "@/lib/engine/invoice/labels";
import { nameTokens } from "@/lib/engine/invoice/parties";

/** A name that is not a label ("Factuuradres"), a bare legal form ("Sarl") or a title. */
function isOrganisationName(name: string): boolean {
  const f = fold(name).trim();
  if (!hasLetter(name) || nameTokens(name).length === 0) return false;
  const hit = matchLabelAt(f, 0, LABELS);
  if (hit && hit.end >= f.replace(/[\s:.]+$/, "").length) return false;
  return !/^(?:contents|header|footer|table of contents|example|total|page)\b/.test(f);
}

export const DOCUMENT_TYPES = [
  "invoice",
  "receipt",
  "purchase order",
  "quote",
  "bank statement",
  "contract",
  "resume",
  "tax form",
  "utility bill",
  "delivery note",
  "letter",
  "report",
  "form",
  "other",
] as const;

export type DocumentType = (typeof DOCUMENT_TYPES)[number];

type Signals = [number, string[]][];

/** Phrases per type: [weight, phrases]; phrases are folded regex sources matched on word bounds. */
const SIGNALS: Record<Exclude<DocumentType, "other">, Signals> = {
  invoice: [
    [
      5,
      [
        "invoice",
        "tax invoice",
        "facture",
        "rechnung",
        "factuur",
        "factura",
        "fattura",
        "commercial invoice",
      ],
    ],
    [
      2.5,
      [
        "invoice (?:no|number|#|date)",
        "bill to",
        "billed to",
        "invoice to",
        "amount due",
        "balance due",
        "total due",
        "payment terms",
        "due date",
        "remit to",
        "numero de facture",
        "rechnungsnummer",
        "factuurnummer",
        "rechnungsdatum",
        "date de facture",
        "please pay",
      ],
    ],
    [
      1,
      [
        "subtotal",
        "vat",
        "tax",
        "unit price",
        "qty",
        "quantity",
        "total",
        "iban",
        "swift",
        "tva",
        "mwst",
        "btw",
        "net 30",
        "terms",
      ],
    ],
  ],
  receipt: [
    [
      5,
      [
        "receipt",
        "sales receipt",
        "payment receipt",
        "cash receipt",
        "kassenbon",
        "quittung",
        "recu",
        "ticket de caisse",
        "kassabon",
        "recibo",
        "ricevuta",
        "scontrino",
      ],
    ],
    [
      2.5,
      [
        "thank you for (?:your )?(?:purchase|shopping|visit)",
        "amount paid",
        "payment received",
        "change due",
        "cashier",
        "cash tendered",
        "card (?:no|number)",
        "auth(?:orization)? code",
        "terminal id",
        "transaction id",
        "approved",
        "visa",
        "mastercard",
        "store #",
        "merchant",
        "tip",
        "paid",
      ],
    ],
    [1, ["cash", "change", "subtotal", "total", "items?", "card", "thank you"]],
  ],
  "purchase order": [
    [
      6,
      [
        "purchase order",
        "bon de commande",
        "bestellung",
        "inkooporder",
        "orden de compra",
        "ordine d'acquisto",
        "purchase requisition",
      ],
    ],
    [
      2.5,
      [
        "p\\.?o\\.? (?:no|number|#)",
        "po date",
        "order date",
        "ship to",
        "vendor",
        "supplier",
        "deliver to",
        "requested by",
        "approved by",
        "buyer",
        "delivery date",
        "please supply",
        "ship via",
        "requisitioner",
      ],
    ],
    [1, ["quantity", "unit price", "total", "terms"]],
  ],
  quote: [
    [
      6,
      [
        "quote",
        "quotation",
        "estimate",
        "price quote",
        "proforma",
        "pro forma",
        "devis",
        "angebot",
        "offerte",
        "presupuesto",
        "preventivo",
        "cotizacion",
        "proposal",
      ],
    ],
    [
      2.5,
      [
        "valid (?:until|for|through)",
        "validity",
        "quote (?:no|number|#|date)",
        "estimate (?:no|number|#|date)",
        "expiry date",
        "expires",
        "this quote",
        "this estimate",
        "acceptance",
        "accepted by",
        "gultig bis",
        "valable jusqu",
      ],
    ],
    [1, ["quantity", "unit price", "total", "subtotal"]],
  ],
  "bank statement": [
    [
      6,
      [
        "bank statement",
        "account statement",
        "statement of account",
        "kontoauszug",
        "releve de compte",
        "rekeningafschrift",
        "extracto bancario",
        "estratto conto",
      ],
    ],
    [
      3,
      [
        "opening balance",
        "closing balance",
        "balance (?:brought |carried )?forward",
        "previous balance",
        "new balance",
        "statement period",
        "statement date",
        "available balance",
        "ending balance",
        "beginning balance",
        "deposits",
        "withdrawals",
        "sort code",
        "account summary",
        "line of credit",
        "chequing",
        "checking account",
        "savings account",
        "e-transfer",
      ],
    ],
    [
      1,
      [
        "statement",
        "debits?",
        "credits?",
        "balance",
        "transactions?",
        "iban",
        "bic",
        "account number",
        "interest",
        "cheques?",
        "checks?",
        "deposit",
        "transfer",
      ],
    ],
  ],
  contract: [
    [
      5,
      [
        "agreement",
        "contract",
        "[a-z]*vertrag",
        "contrat",
        "[a-z]*overeenkomst",
        "contrato",
        "contratto",
        "terms of service",
        "memorandum of understanding",
      ],
    ],
    [
      3,
      [
        "hereinafter",
        "whereas",
        "in witness whereof",
        "the parties",
        "governing law",
        "termination",
        "this agreement",
        "effective date",
        "hereby",
        "indemnif",
        "confidentiality",
        "force majeure",
        "jurisdiction",
        "signed by",
        "witness",
      ],
    ],
    [
      1.2,
      [
        "shall",
        "party",
        "parties",
        "clause",
        "article",
        "section",
        "obligations",
        "term",
        "signature",
        "vermieter",
        "mieter(?:in)?",
        "kundigung",
        "§ ?\\d+",
      ],
    ],
  ],
  resume: [
    [6, ["resume", "curriculum vitae", "lebenslauf", "cv"]],
    [
      3,
      [
        "work experience",
        "professional experience",
        "employment history",
        "education",
        "skills",
        "qualifications",
        "certifications",
        "references available",
        "career objective",
        "professional summary",
        "languages",
        "berufserfahrung",
        "ausbildung",
        "experience professionnelle",
        "formation",
      ],
    ],
    [
      1.2,
      [
        "experience",
        "university",
        "bachelor",
        "master",
        "degree",
        "linkedin",
        "projects",
        "responsibilities",
        "achievements",
        "gpa",
      ],
    ],
  ],
  "tax form": [
    [
      6,
      [
        "form 1040",
        "form w-?2",
        "form w-?9",
        "form 1099",
        "1099-\\w+",
        "tax return",
        "self assessment",
        "steuererklarung",
        "declaration de revenus",
        "aangifte",
        "form 941",
        "schedule [a-z]\\b",
      ],
    ],
    [
      3,
      [
        "internal revenue service",
        "department of the treasury",
        "irs",
        "hmrc",
        "taxpayer",
        "social security number",
        "employer identification number",
        "filing status",
        "adjusted gross income",
        "taxable income",
        "omb no",
        "tax year",
        "withholding",
        "federal income tax",
        "ssn",
        "tin",
      ],
    ],
    [1, ["tax", "deductions?", "income", "wages", "return", "refund"]],
  ],
  "utility bill": [
    [
      5,
      [
        "electricity bill",
        "gas bill",
        "water bill",
        "energy bill",
        "utility bill",
        "phone bill",
        "mobile bill",
        "broadband",
      ],
    ],
    [
      3,
      [
        "kwh",
        "meter reading",
        "meter (?:no|number)",
        "previous reading",
        "current reading",
        "usage",
        "consumption",
        "service address",
        "supply address",
        "tariff",
        "billing period",
        "therms",
        "standing charge",
        "unit rate",
        "data usage",
        "energy charge",
        "gallons",
        "m3",
        "cubic",
      ],
    ],
    [
      1.2,
      [
        "electricity",
        "gas",
        "water",
        "energy",
        "utility",
        "service period",
        "account number",
        "amount due",
        "due date",
        "sewer",
        "internet",
        "mobile",
      ],
    ],
  ],
  "delivery note": [
    [
      6,
      [
        "delivery note",
        "packing slip",
        "packing list",
        "dispatch note",
        "delivery receipt",
        "goods received note",
        "lieferschein",
        "bon de livraison",
        "pakbon",
        "leveringsbon",
        "albaran",
        "documento di trasporto",
        "bill of lading",
      ],
    ],
    [
      3,
      [
        "qty shipped",
        "quantity shipped",
        "qty delivered",
        "ship date",
        "shipped via",
        "carrier",
        "tracking (?:no|number)",
        "consignee",
        "received by",
        "signature of receiver",
        "received in good condition",
        "no prices",
        "packages",
        "weight",
        "delivered to",
      ],
    ],
    [1, ["delivery", "shipment", "shipped", "ordered", "backorder", "ship to"]],
  ],
  letter: [
    [
      4,
      [
        "dear (?:sir|madam|mr|mrs|ms|dr|customer|[a-z]+)",
        "yours sincerely",
        "yours faithfully",
        "sincerely",
        "kind regards",
        "best regards",
        "to whom it may concern",
        "mit freundlichen grussen",
        "sehr geehrte",
        "cordialement",
        "veuillez agreer",
        "madame, monsieur",
        "met vriendelijke groet",
        "geachte",
        "distinti saluti",
        "atentamente",
      ],
    ],
    [2, ["re:", "subject:", "betreff", "objet", "onderwerp", "enclosure", "encl\\.", "cc:"]],
    [0.5, ["we", "you", "your", "please", "thank"]],
  ],
  report: [
    [
      5,
      [
        "report",
        "annual report",
        "quarterly report",
        "executive summary",
        "white paper",
        "bericht",
        "rapport",
        "verslag",
        "informe",
        "relazione",
      ],
    ],
    [
      3,
      [
        "table of contents",
        "introduction",
        "conclusions?",
        "findings",
        "methodology",
        "recommendations",
        "abstract",
        "appendix",
        "results",
        "analysis",
        "overview",
        "background",
        "discussion",
        "references",
      ],
    ],
    [
      1,
      [
        "figure",
        "chart",
        "section",
        "chapter",
        "summary",
        "data",
        "page",
        "table [a-z]?\\d+(?:[.-]\\d+)*",
        "period",
        "total",
      ],
    ],
  ],
  form: [
    [
      5,
      [
        "application form",
        "registration form",
        "request form",
        "claim form",
        "order form",
        "enrollment form",
        "formulaire",
        "formular",
        "formulier",
        "modulo",
      ],
    ],
    [
      3,
      [
        "please print",
        "please complete",
        "please fill",
        "fill in",
        "for office use only",
        "date of birth",
        "first name",
        "last name",
        "signature of applicant",
        "applicant",
        "check (?:one|all that apply)",
        "tick",
        "mark with",
        "yes\\s*/?\\s*no",
      ],
    ],
    [1.2, ["form", "name", "address", "signature", "date", "phone", "email", "city", "zip"]],
  ],
};

const COMPILED = Object.fromEntries(
  Object.entries(SIGNALS).map(([type, groups]) => [
    type,
    groups.flatMap(([w, phrases], tier) =>
      phrases.map((p) => ({ w, tier, re: new RegExp(`(?<![a-z0-9])${p}(?![a-z0-9])`, "g") })),
    ),
  ]),
) as Record<Exclude<DocumentType, "other">, { w: number; tier: number; re: RegExp }[]>;

export interface BuiltinResult {
  type: DocumentType;
  /** 0..1, the winning score's share of the two best. */
  confidence: number;
  scores: Record<string, number>;
  organisation?: string;
  /** English country name. */
  country?: string;
}

/** The title text: the first short rows of the first page and its larger type. */
function titleText(layout: Layout): string {
  const first = layout.pages[0];
  if (!first) return "";
  const sizes = layout.segments.map((s) => s.fontSize).sort((a, b) => a - b);
  const median = sizes[Math.floor(sizes.length / 2)] ?? 10;
  const top = first.rows
    .slice(0, 3)
    .filter((r) => r.y0 < first.height * 0.3)
    .flatMap((r) => r.segments.map((s) => s.text))
    .filter((t) => t.length <= 60);
  const large = layout.segments
    .filter((s) => s.page === first.index && s.fontSize >= median * 1.3 && s.text.length < 60)
    .map((s) => s.text);
  return fold([...top, ...large].join("\n"));
}

/**
 * Scores each type. The names of document types ("invoice", "lebenslauf") count mostly as
 * titles (first rows, large type) and little in running text ("you can quote them"); the other
 * signals count in the body, repeated ones up to three times.
 */
export function scoreTypes(layout: Layout, hints: { formFields?: number } = {}): Record<string, number> {
  const body = fold(layoutText(layout));
  const title = titleText(layout);
  const scores: Record<string, number> = {};
  for (const [type, sigs] of Object.entries(COMPILED)) {
    let s = 0;
    for (const { w, tier, re } of sigs) {
      const n = Math.min(3, (body.match(re) ?? []).length);
      if (tier === 0) {
        if ((title.match(re) ?? []).length > 0) s += w * 2.5;
        else if (n > 0) s += w * 0.4 * (1 + Math.log2(n) * 0.5);
      } else if (n > 0) s += w * (1 + Math.log2(n) * 0.5);
    }
    scores[type] = Math.round(s * 100) / 100;
  }
  // A form is also blanks to fill in, or fillable fields.
  const blanks = (body.match(/_{4,}|\[\s\]|☐|□/g) ?? []).length;
  scores.form += Math.min(10, blanks * 0.6) + Math.min(10, (hints.formFields ?? 0) * 2.5);
  // Nothing to fill in (no blanks, no fields): field names alone are more likely a table's header.
  if (blanks === 0 && !hints.formFields) scores.form *= 0.5;
  scores.form = Math.round(scores.form * 100) / 100;
  return scores;
}

/** Reads the country signals of a text; returns an English country name or undefined. */
export function detectCountry(text: string, preferred?: string): string | undefined {
  const votes = new Map<string, number>();
  const vote = (code: string, w: number) => votes.set(code, (votes.get(code) ?? 0) + w);
  if (preferred) for (const c of countriesIn(preferred)) vote(c.code, 5);
  for (const c of countriesIn(text)) vote(c.code, 1.5);
  for (const m of text.matchAll(/\b([A-Z]{2})\s+\d{5}(?:-\d{4})?\b/g)) if (US_STATES.has(m[1])) vote("US", 2);
  for (const m of text.matchAll(/\b[A-Z]{1,2}\d[A-Z\d]?\s\d[A-Z]{2}\b/g)) if (m[0].length >= 6) vote("GB", 1);
  for (const m of text.matchAll(
    /\b(AT|BE|DE|DK|ES|FI|FR|GB|IE|IT|LU|NL|PL|PT|SE)\s?(?:U?\d{8,12}|\d{9}B\d{2}|[A-Z0-9]{2}\d{9})\b/g,
  ))
    vote(m[1], 2);
  for (const m of text.matchAll(/(?:^|[\s(])(\+\d{1,3})[\s(]/g)) {
    const hit = PHONE_CODES.find(([code]) => code === m[1]);
    if (hit) vote(hit[1], 1);
  }
  // Currencies that belong to one country.
  if (/£\s?\d/.test(text)) vote("GB", 1);
  if (/₹|\bRs\.?\s?\d/.test(text)) vote("IN", 1);
  if (/\bCHF\s?\d/.test(text)) vote("CH", 1);
  let best: string | undefined;
  let bestV = 0;
  for (const [code, v] of votes)
    if (v > bestV) {
      best = code;
      bestV = v;
    }
  return best && bestV >= 1.5 ? COUNTRY_NAMES[best] : undefined;
}

/** Classifies a document from its positioned words. */
export function classifyBuiltin(pages: PageText[], hints: { formFields?: number } = {}): BuiltinResult {
  const layout = buildLayout(pages);
  const scores = scoreTypes(layout, hints);
  const ranked = Object.entries(scores).sort((a, b) => b[1] - a[1]);
  const [bestType, bestScore] = ranked[0] ?? ["other", 0];
  const second = ranked[1]?.[1] ?? 0;
  const type: DocumentType = bestScore >= 5 ? (bestType as DocumentType) : "other";
  const confidence = bestScore > 0 ? Math.round((bestScore / (bestScore + second)) * 100) / 100 : 0;
  // The issuing organisation: the vendor of invoice-like documents, else the letterhead analysis
  // of the invoice engine, kept only on strong signals (legal suffix, web domain, organisation
  // word with an address...).
  let organisation: string | undefined;
  let orgContext: string | undefined;
  if (type === "invoice" || type === "receipt" || type === "quote" || type === "utility bill") {
    const vendor = parseInvoice(pages).body.vendor;
    if (vendor?.name && isOrganisationName(vendor.name)) {
      organisation = vendor.name;
      orgContext = [vendor.address?.city, vendor.address?.country, vendor.entityId]
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
  const text = layoutText(layout);
  const country = detectCountry(text, orgContext);
  return { type, confidence, scores, organisation, country };
}
