/**
 * Documents of every built-in type in every supported language, generated for the classifier's
 * tests and its accuracy script: invoices (plain, credit notes, pro forma, utility bills),
 * receipts, purchase orders, quotes, delivery notes, bank statements, payslips, contracts,
 * tax forms, resumes, letters, reports and forms, in English, German, French, Spanish,
 * Italian, Dutch and Portuguese, with letterheads, addresses, VAT ids, IBANs and phone numbers
 * of the issuer's country (valid check digits), sometimes a customer abroad.
 *
 * The wording here is written for the generator, not copied from the classifier's lexicon,
 * and part of it is held out: "eval" documents use title words and compounds (Wartungsrechnung,
 * servicefactuur, "Facture de solde"), layouts (title in the header table, no title at all,
 * two columns) and towns the classifier was not written against. "tune" documents use the
 * rest. Deterministic for a given seed.
 */
import type { TextItem } from "@/tests/helpers/invoice-fixtures";

export type GenLang = "en" | "de" | "fr" | "es" | "it" | "nl" | "pt";
export const GEN_LANGS: GenLang[] = ["en", "de", "fr", "es", "it", "nl", "pt"];

export type GenType =
  | "invoice"
  | "credit note"
  | "pro forma"
  | "utility bill"
  | "receipt"
  | "purchase order"
  | "quote"
  | "delivery note"
  | "bank statement"
  | "payslip"
  | "contract"
  | "tax form"
  | "resume"
  | "letter"
  | "report"
  | "form";
export const GEN_TYPES: GenType[] = [
  "invoice", "credit note", "pro forma", "utility bill", "receipt", "purchase order", "quote", "delivery note",
  "bank statement", "payslip", "contract", "tax form", "resume", "letter", "report", "form",
];

export interface GeneratedDocument {
  name: string;
  lang: GenLang;
  /** The generator's kind of document. */
  kind: GenType;
  /** What the classifier should answer as the type. */
  type: string;
  /** The sub-class it should add (credit note, pro forma, utility bill), if any. */
  subclass?: string;
  /** ISO code of the country the document comes from (its issuer's), when it has one. */
  issuerCountry?: string;
  /** ISO code of the issuer's country when the page prints a VAT id, IBAN, phone or country name of it. */
  country?: string;
  /** Countries of every VAT id, IBAN and international phone number printed (the issuer's and the customer's). */
  strongCountries: string[];
  set: "tune" | "eval";
  layout: string;
  pages: TextItem[][];
}

// ---------------------------------------------------------------------------------------
// Deterministic randomness.

function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Rand = () => number;
const pick = <T>(r: Rand, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];
const int = (r: Rand, lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));
const digits = (r: Rand, n: number) => Array.from({ length: n }, () => String(int(r, 0, 9))).join("");

// ---------------------------------------------------------------------------------------
// Identifiers with real check digits.

function mod97(s: string): number {
  let rem = 0;
  for (const c of s) rem = (rem * 10 + Number(c)) % 97;
  return rem;
}

const IBAN_BBAN: Record<string, (r: Rand) => string> = {
  DE: (r) => digits(r, 18),
  AT: (r) => digits(r, 16),
  CH: (r) => digits(r, 17),
  FR: (r) => digits(r, 10) + digits(r, 11) + digits(r, 2),
  BE: (r) => digits(r, 12),
  ES: (r) => digits(r, 20),
  IT: (r) => "X" + digits(r, 10) + digits(r, 12),
  NL: (r) => pick(r, ["ABNA", "INGB", "RABO", "TRIO"]) + digits(r, 10),
  PT: (r) => digits(r, 21),
  GB: (r) => pick(r, ["NWBK", "BARC", "LOYD", "MIDL"]) + digits(r, 14),
  IE: (r) => pick(r, ["AIBK", "BOFI"]) + digits(r, 14),
  BR: (r) => digits(r, 23) + "C1",
};

export function makeIbanFor(country: string, r: Rand): string | undefined {
  const bban = IBAN_BBAN[country]?.(r);
  if (!bban) return undefined;
  const num = (bban + country + "00").replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
  return `${country}${String(98 - mod97(num)).padStart(2, "0")}${bban}`;
}

function luhnDigit(body: string): string {
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    let d = Number(body[body.length - 1 - i]);
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return String((10 - (sum % 10)) % 10);
}

/** A VAT id with valid check digits (EU countries, GB, CH), as it is printed. */
export function makeVatFor(country: string, r: Rand): string | undefined {
  switch (country) {
    case "DE": {
      const eight = String(int(r, 1, 9)) + digits(r, 7);
      let product = 10;
      for (let i = 0; i < 8; i++) {
        let sum = (Number(eight[i]) + product) % 10;
        if (sum === 0) sum = 10;
        product = (2 * sum) % 11;
      }
      const check = (11 - product) % 10;
      return `DE${eight}${check}`;
    }
    case "FR": {
      const siren = String(int(r, 1, 9)) + digits(r, 7);
      const full = siren + luhnDigit(siren);
      const key = (12 + 3 * (Number(full) % 97)) % 97;
      return `FR${String(key).padStart(2, "0")}${full}`;
    }
    case "BE": {
      const base = "0" + String(int(r, 2, 9)) + digits(r, 6);
      return `BE${base}${String(97 - (Number(base) % 97)).padStart(2, "0")}`;
    }
    case "IT": {
      const body = digits(r, 7) + String(int(r, 1, 100)).padStart(3, "0");
      return `IT${body}${luhnDigit(body)}`;
    }
    case "NL": {
      for (;;) {
        const d = String(int(r, 1, 9)) + digits(r, 7);
        let s = 0;
        for (let i = 0; i < 8; i++) s += Number(d[i]) * (9 - i);
        const c = s % 11;
        if (c < 10) return `NL${d}${c}B${pick(r, ["01", "02"])}`;
      }
    }
    case "PT": {
      for (;;) {
        const d = String(int(r, 1, 5)) + digits(r, 7);
        let s = 0;
        for (let i = 0; i < 8; i++) s += Number(d[i]) * (9 - i);
        const c = 11 - (s % 11);
        if (c < 10) return `PT${d}${c}`;
      }
    }
    case "ES": {
      const n = String(int(r, 10000000, 99999999));
      return `ES${n}${"TRWAGMYFPDXBNJZSQVHLCKE"[Number(n) % 23]}`;
    }
    case "AT": {
      const d = digits(r, 7);
      let s = 0;
      for (let i = 0; i < 7; i++) {
        let v = Number(d[i]) * (i % 2 === 0 ? 1 : 2);
        if (v > 9) v = Math.floor(v / 10) + (v % 10);
        s += v;
      }
      return `ATU${d}${(10 - ((s + 4) % 10)) % 10}`;
    }
    case "GB": {
      for (;;) {
        const d = String(int(r, 1, 9)) + digits(r, 6);
        let s = 0;
        for (let i = 0; i < 7; i++) s += Number(d[i]) * (8 - i);
        // Check digits of the 9755 scheme: weighted sum + 55 + check ≡ 0 (mod 97).
        const c = (((-(s + 55)) % 97) + 97) % 97;
        return `GB${d}${String(c).padStart(2, "0")}`;
      }
    }
    default:
      return undefined;
  }
}

// ---------------------------------------------------------------------------------------
// Parties per country: towns the classifier knows ("tune") and towns it does not ("eval").

interface Place {
  street: string;
  /** The address line with the postal code, as the country prints it. */
  cityLine: string;
}

const PLACES: Record<string, { tune: Place[]; eval: Place[]; countryName: Record<GenLang, string>; phone: string; currency: string }> = {
  DE: {
    tune: [{ street: "Lindenstraße 14", cityLine: "80331 München" }, { street: "Am Hafen 3", cityLine: "20457 Hamburg" }, { street: "Königsallee 60", cityLine: "40212 Düsseldorf" }],
    eval: [{ street: "Mühlweg 7", cityLine: "97215 Uffenheim" }, { street: "Bahnhofstr. 22", cityLine: "49393 Lohne" }],
    countryName: { en: "Germany", de: "Deutschland", fr: "Allemagne", es: "Alemania", it: "Germania", nl: "Duitsland", pt: "Alemanha" },
    phone: "+49 89 {4} {4}",
    currency: "EUR",
  },
  AT: {
    tune: [{ street: "Mariahilfer Straße 88", cityLine: "1070 Wien" }],
    eval: [{ street: "Hauptplatz 4", cityLine: "8430 Leibnitz" }],
    countryName: { en: "Austria", de: "Österreich", fr: "Autriche", es: "Austria", it: "Austria", nl: "Oostenrijk", pt: "Áustria" },
    phone: "+43 1 {3} {4}",
    currency: "EUR",
  },
  CH: {
    tune: [{ street: "Bahnhofstrasse 21", cityLine: "8001 Zürich" }],
    eval: [{ street: "Rue du Lac 5", cityLine: "1800 Vevey" }],
    countryName: { en: "Switzerland", de: "Schweiz", fr: "Suisse", es: "Suiza", it: "Svizzera", nl: "Zwitserland", pt: "Suíça" },
    phone: "+41 44 {3} {2} {2}",
    currency: "CHF",
  },
  FR: {
    tune: [{ street: "12 rue de la Paix", cityLine: "75002 Paris" }, { street: "8 quai Saint-Antoine", cityLine: "69002 Lyon" }],
    eval: [{ street: "3 place du Marché", cityLine: "24200 Sarlat-la-Canéda" }, { street: "17 avenue Jean Jaurès", cityLine: "81000 Albi" }],
    countryName: { en: "France", de: "Frankreich", fr: "France", es: "Francia", it: "Francia", nl: "Frankrijk", pt: "França" },
    phone: "+33 1 {2} {2} {2} {2}",
    currency: "EUR",
  },
  BE: {
    tune: [{ street: "Rue Neuve 45", cityLine: "1000 Bruxelles" }, { street: "Meir 12", cityLine: "2000 Antwerpen" }],
    eval: [{ street: "Grote Markt 9", cityLine: "8900 Ieper" }],
    countryName: { en: "Belgium", de: "Belgien", fr: "Belgique", es: "Bélgica", it: "Belgio", nl: "België", pt: "Bélgica" },
    phone: "+32 2 {3} {2} {2}",
    currency: "EUR",
  },
  ES: {
    tune: [{ street: "Calle de Alcalá 120", cityLine: "28009 Madrid" }, { street: "Carrer de Balmes 77", cityLine: "08008 Barcelona" }],
    eval: [{ street: "Plaza Mayor 2", cityLine: "44001 Teruel" }],
    countryName: { en: "Spain", de: "Spanien", fr: "Espagne", es: "España", it: "Spagna", nl: "Spanje", pt: "Espanha" },
    phone: "+34 91 {3} {2} {2}",
    currency: "EUR",
  },
  IT: {
    tune: [{ street: "Via Torino 41", cityLine: "20123 Milano" }, { street: "Via del Corso 300", cityLine: "00186 Roma" }],
    eval: [{ street: "Piazza Garibaldi 6", cityLine: "43036 Fidenza" }],
    countryName: { en: "Italy", de: "Italien", fr: "Italie", es: "Italia", it: "Italia", nl: "Italië", pt: "Itália" },
    phone: "+39 02 {4} {4}",
    currency: "EUR",
  },
  NL: {
    tune: [{ street: "Damrak 70", cityLine: "1012 LM Amsterdam" }, { street: "Coolsingel 40", cityLine: "3011 AD Rotterdam" }],
    eval: [{ street: "Markt 11", cityLine: "7411 GT Deventer" }],
    countryName: { en: "Netherlands", de: "Niederlande", fr: "Pays-Bas", es: "Países Bajos", it: "Paesi Bassi", nl: "Nederland", pt: "Países Baixos" },
    phone: "+31 20 {3} {4}",
    currency: "EUR",
  },
  PT: {
    tune: [{ street: "Rua Augusta 150", cityLine: "1100-053 Lisboa" }],
    eval: [{ street: "Largo do Paço 3", cityLine: "4700-424 Braga" }],
    countryName: { en: "Portugal", de: "Portugal", fr: "Portugal", es: "Portugal", it: "Portogallo", nl: "Portugal", pt: "Portugal" },
    phone: "+351 21 {3} {4}",
    currency: "EUR",
  },
  BR: {
    tune: [{ street: "Avenida Paulista 1000", cityLine: "01310-100 São Paulo - SP" }],
    eval: [{ street: "Rua das Flores 210", cityLine: "80020-090 Curitiba - PR" }],
    countryName: { en: "Brazil", de: "Brasilien", fr: "Brésil", es: "Brasil", it: "Brasile", nl: "Brazilië", pt: "Brasil" },
    phone: "+55 11 {4}-{4}",
    currency: "BRL",
  },
  GB: {
    tune: [{ street: "221 High Street", cityLine: "London SW1A 2AA" }, { street: "14 Deansgate", cityLine: "Manchester M3 2BW" }],
    eval: [{ street: "3 Abbey Lane", cityLine: "Tewkesbury GL20 5SR" }],
    countryName: { en: "United Kingdom", de: "Vereinigtes Königreich", fr: "Royaume-Uni", es: "Reino Unido", it: "Regno Unito", nl: "Verenigd Koninkrijk", pt: "Reino Unido" },
    phone: "+44 20 {4} {4}",
    currency: "GBP",
  },
  US: {
    tune: [{ street: "1200 Harbor Blvd", cityLine: "Oakland, CA 94607" }, { street: "350 Fifth Avenue", cityLine: "New York, NY 10118" }],
    eval: [{ street: "77 Elm Street", cityLine: "Bozeman, MT 59715" }],
    countryName: { en: "United States", de: "USA", fr: "États-Unis", es: "Estados Unidos", it: "Stati Uniti", nl: "Verenigde Staten", pt: "Estados Unidos" },
    phone: "+1 415 {3} {4}",
    currency: "USD",
  },
};

const COUNTRIES_OF: Record<GenLang, string[]> = {
  en: ["GB", "US", "GB"],
  de: ["DE", "DE", "AT", "CH"],
  fr: ["FR", "FR", "BE"],
  es: ["ES"],
  it: ["IT"],
  nl: ["NL", "NL", "BE"],
  pt: ["PT", "BR"],
};

/** Tax forms come from the authority of the language's main country. */
const TAX_COUNTRY: Record<GenLang, string> = { en: "GB", de: "DE", fr: "FR", es: "ES", it: "IT", nl: "NL", pt: "PT" };

const COMPANY = {
  first: ["Nord", "Alpen", "Rhein", "Lumen", "Vega", "Terra", "Orion", "Brio", "Sol", "Kestrel", "Atlas", "Helio"],
  second: ["tech", "werk", "bau", "data", "trans", "log", "form", "line", "print", "med"],
  suffix: { DE: "GmbH", AT: "GmbH", CH: "AG", FR: "SAS", BE: "SRL", ES: "S.L.", IT: "S.r.l.", NL: "B.V.", PT: "Lda.", BR: "Ltda.", GB: "Ltd", US: "Inc." } as Record<string, string>,
};
const PERSONS = ["Anna Keller", "Jonas Weber", "Claire Martin", "Lucas Bernard", "María García", "Luca Rossi", "Sofia Bianchi", "Daan de Vries", "Emma Jansen", "João Silva", "Ana Pereira", "James Carter", "Olivia Brown"];

function phoneOf(country: string, r: Rand): string {
  return PLACES[country].phone.replace(/\{(\d)\}/g, (_, n) => digits(r, Number(n)));
}

function money(v: number, lang: GenLang, currency: string): string {
  const fixed = Math.abs(v).toFixed(2);
  const [i, d] = fixed.split(".");
  const comma = lang !== "en";
  const grouped = i.replace(/\B(?=(\d{3})+(?!\d))/g, comma ? "." : ",");
  const n = `${v < 0 ? "-" : ""}${grouped}${comma ? "," : "."}${d}`;
  const sym = currency === "EUR" ? "€" : currency === "GBP" ? "£" : currency === "USD" ? "$" : currency === "BRL" ? "R$" : currency;
  if (sym === "€" && comma) return `${n} €`;
  if (sym === "R$" || sym === "CHF") return `${sym} ${n}`;
  return `${sym}${n}`;
}

function dateOf(lang: GenLang, r: Rand, long = false): string {
  const y = int(r, 2021, 2025);
  const m = int(r, 1, 12);
  const d = int(r, 1, 28);
  const MONTHS: Record<GenLang, string[]> = {
    en: ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"],
    de: ["Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September", "Oktober", "November", "Dezember"],
    fr: ["janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre", "novembre", "décembre"],
    es: ["enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "octubre", "noviembre", "diciembre"],
    it: ["gennaio", "febbraio", "marzo", "aprile", "maggio", "giugno", "luglio", "agosto", "settembre", "ottobre", "novembre", "dicembre"],
    nl: ["januari", "februari", "maart", "april", "mei", "juni", "juli", "augustus", "september", "oktober", "november", "december"],
    pt: ["janeiro", "fevereiro", "março", "abril", "maio", "junho", "julho", "agosto", "setembro", "outubro", "novembro", "dezembro"],
  };
  if (long) {
    const mn = MONTHS[lang][m - 1];
    if (lang === "en") return `${mn} ${d}, ${y}`;
    if (lang === "de") return `${d}. ${mn} ${y}`;
    if (lang === "es" || lang === "pt") return `${d} de ${mn} de ${y}`;
    return `${d} ${mn} ${y}`;
  }
  const dd = String(d).padStart(2, "0");
  const mm = String(m).padStart(2, "0");
  if (lang === "en") return `${dd}/${mm}/${y}`;
  if (lang === "de") return `${dd}.${mm}.${y}`;
  if (lang === "nl") return `${dd}-${mm}-${y}`;
  return `${dd}/${mm}/${y}`;
}

// ---------------------------------------------------------------------------------------
// The generator's own wording per language. Titles have a "tune" pool and a held-out "eval"
// pool; labels are shared.

type Pools = { tune: string[]; eval: string[] };

const TITLES: Record<GenType, Record<GenLang, Pools>> = {
  invoice: {
    en: { tune: ["INVOICE", "Invoice", "Tax Invoice", "Commercial Invoice"], eval: ["Final Invoice", "Service Invoice", "Invoices", "Sales Invoice"] },
    de: { tune: ["RECHNUNG", "Rechnung", "Handelsrechnung", "Teilrechnung", "Schlussrechnung"], eval: ["Wartungsrechnung", "Reparaturrechnung", "Sammelrechnung", "Abschlagsrechnung", "Monatsrechnung"] },
    fr: { tune: ["FACTURE", "Facture", "Facture d'acompte"], eval: ["Facture de solde", "Factures", "Facture définitive", "Facture de prestation"] },
    es: { tune: ["FACTURA", "Factura", "Factura simplificada"], eval: ["Factura de venta", "Factura comercial", "Facturas"] },
    it: { tune: ["FATTURA", "Fattura", "Fattura elettronica"], eval: ["Fattura di vendita", "Fattura immediata", "Fattura differita"] },
    nl: { tune: ["FACTUUR", "Factuur", "Verkoopfactuur"], eval: ["Servicefactuur", "Eindfactuur", "Voorschotfactuur", "Deelfactuur"] },
    pt: { tune: ["FATURA", "Fatura", "Fatura-Recibo"], eval: ["Fatura de venda", "Nota Fiscal de Serviço", "Fatura simplificada"] },
  },
  "credit note": {
    en: { tune: ["CREDIT NOTE", "Credit Note"], eval: ["Credit Memo", "Credit note for returned goods"] },
    de: { tune: ["Gutschrift", "Stornorechnung"], eval: ["Rechnungskorrektur", "Warengutschrift", "Teilgutschrift"] },
    fr: { tune: ["AVOIR", "Facture d'avoir"], eval: ["Note de crédit", "Avoir sur facture"] },
    es: { tune: ["Factura rectificativa", "Nota de crédito"], eval: ["Factura de abono", "Abono"] },
    it: { tune: ["Nota di credito"], eval: ["Nota credito", "Note di credito"] },
    nl: { tune: ["Creditnota", "Creditfactuur"], eval: ["Creditnota's", "Credit factuur"] },
    pt: { tune: ["Nota de crédito"], eval: ["Fatura de crédito", "Notas de crédito"] },
  },
  "pro forma": {
    en: { tune: ["Pro Forma Invoice"], eval: ["PROFORMA INVOICE"] },
    de: { tune: ["Proformarechnung"], eval: ["Pro-forma-Rechnung"] },
    fr: { tune: ["Facture pro forma"], eval: ["Facture proforma"] },
    es: { tune: ["Factura proforma"], eval: ["Factura pro forma"] },
    it: { tune: ["Fattura proforma"], eval: ["Fattura pro forma"] },
    nl: { tune: ["Proformafactuur"], eval: ["Pro-formafactuur"] },
    pt: { tune: ["Fatura proforma"], eval: ["Fatura pró-forma"] },
  },
  "utility bill": {
    en: { tune: ["Electricity Bill", "Your gas bill"], eval: ["Energy Bill", "Your water bill"] },
    de: { tune: ["Stromrechnung", "Gasrechnung"], eval: ["Wasserrechnung", "Heizkostenabrechnung"] },
    fr: { tune: ["Facture d'électricité", "Facture de gaz"], eval: ["Facture d'énergie", "Facture d'eau"] },
    es: { tune: ["Factura de luz", "Factura de gas"], eval: ["Factura de electricidad", "Factura de agua"] },
    it: { tune: ["Bolletta luce", "Bolletta gas"], eval: ["Bolletta", "Bolletta dell'acqua"] },
    nl: { tune: ["Energierekening", "Energiefactuur"], eval: ["Jaarafrekening energie", "Stroomrekening"] },
    pt: { tune: ["Fatura de energia", "Conta de luz"], eval: ["Conta de gás", "Conta de água"] },
  },
  receipt: {
    en: { tune: ["RECEIPT", "Sales Receipt"], eval: ["Payment Receipt", "Till receipt"] },
    de: { tune: ["Quittung", "Kassenbon"], eval: ["Kassenbeleg", "Zahlungsbeleg"] },
    fr: { tune: ["Reçu", "Ticket de caisse"], eval: ["Reçu de paiement", "Quittance"] },
    es: { tune: ["Recibo", "Ticket de compra"], eval: ["Comprobante de pago", "Recibo de pago"] },
    it: { tune: ["Ricevuta", "Scontrino"], eval: ["Ricevuta fiscale", "Scontrino fiscale"] },
    nl: { tune: ["Kassabon", "Kwitantie"], eval: ["Ontvangstbewijs", "Betalingsbewijs"] },
    pt: { tune: ["Recibo", "Talão"], eval: ["Comprovante de pagamento", "Cupom fiscal"] },
  },
  "purchase order": {
    en: { tune: ["PURCHASE ORDER", "Purchase Order"], eval: ["Order Confirmation", "Purchase order (PO)"] },
    de: { tune: ["Bestellung", "Auftragsbestätigung"], eval: ["Bestellschein", "Sammelbestellung", "Einkaufsbestellung"] },
    fr: { tune: ["Bon de commande", "Commande"], eval: ["Confirmation de commande", "Bon de commande fournisseur"] },
    es: { tune: ["Orden de compra", "Pedido"], eval: ["Hoja de pedido", "Confirmación de pedido"] },
    it: { tune: ["Ordine d'acquisto", "Ordine"], eval: ["Conferma d'ordine", "Buono d'ordine"] },
    nl: { tune: ["Inkooporder", "Bestelbon"], eval: ["Orderbevestiging", "Inkoopbestelling"] },
    pt: { tune: ["Pedido de compra", "Ordem de compra"], eval: ["Nota de encomenda", "Encomenda"] },
  },
  quote: {
    en: { tune: ["QUOTATION", "Quote"], eval: ["Estimate", "Price Quote"] },
    de: { tune: ["Angebot", "Kostenvoranschlag"], eval: ["Preisangebot", "Angebot Nr. 2024-17", "Festpreisangebot"] },
    fr: { tune: ["Devis", "Offre de prix"], eval: ["Devis estimatif", "Proposition commerciale"] },
    es: { tune: ["Presupuesto", "Cotización"], eval: ["Presupuestos", "Oferta comercial"] },
    it: { tune: ["Preventivo", "Offerta"], eval: ["Preventivo di spesa", "Offerta economica"] },
    nl: { tune: ["Offerte", "Prijsopgave"], eval: ["Prijsofferte", "Onderhoudsofferte"] },
    pt: { tune: ["Orçamento", "Cotação"], eval: ["Proposta comercial", "Orçamentos"] },
  },
  "delivery note": {
    en: { tune: ["DELIVERY NOTE", "Packing Slip"], eval: ["Dispatch Note", "Packing List"] },
    de: { tune: ["Lieferschein", "Packliste"], eval: ["Teillieferschein", "Rücklieferschein"] },
    fr: { tune: ["Bon de livraison", "Bordereau de livraison"], eval: ["Bon d'expédition", "Bons de livraison"] },
    es: { tune: ["Albarán", "Nota de entrega"], eval: ["Albarán de entrega", "Guía de remisión"] },
    it: { tune: ["Documento di trasporto", "Bolla di consegna"], eval: ["DDT - Documento di trasporto", "Bolla di accompagnamento"] },
    nl: { tune: ["Pakbon", "Leveringsbon"], eval: ["Afleverbon", "Paklijst"] },
    pt: { tune: ["Guia de remessa", "Nota de entrega"], eval: ["Guia de transporte", "Romaneio de entrega"] },
  },
  "bank statement": {
    en: { tune: ["Bank Statement", "Account Statement"], eval: ["Statement of Account", "Current account statement"] },
    de: { tune: ["Kontoauszug"], eval: ["Kontoauszüge", "Girokontoauszug"] },
    fr: { tune: ["Relevé de compte", "Extrait de compte"], eval: ["Relevé bancaire", "Relevé de compte courant"] },
    es: { tune: ["Extracto bancario", "Extracto de cuenta"], eval: ["Estado de cuenta", "Extracto de movimientos"] },
    it: { tune: ["Estratto conto"], eval: ["Estratto conto corrente", "Estratto conto bancario"] },
    nl: { tune: ["Rekeningafschrift", "Bankafschrift"], eval: ["Dagafschrift", "Rekeningoverzicht"] },
    pt: { tune: ["Extrato bancário", "Extrato de conta"], eval: ["Extrato de conta corrente", "Extrato"] },
  },
  payslip: {
    en: { tune: ["PAYSLIP", "Pay Slip"], eval: ["Earnings Statement", "Salary Slip"] },
    de: { tune: ["Lohnabrechnung", "Gehaltsabrechnung"], eval: ["Entgeltabrechnung", "Verdienstabrechnung"] },
    fr: { tune: ["Bulletin de paie", "Bulletin de salaire"], eval: ["Fiche de paie", "Bulletin de paye"] },
    es: { tune: ["Nómina", "Recibo de nómina"], eval: ["Recibo de salarios", "Nóminas"] },
    it: { tune: ["Busta paga", "Cedolino"], eval: ["Cedolino paga", "Prospetto paga"] },
    nl: { tune: ["Loonstrook", "Salarisstrook"], eval: ["Salarisspecificatie", "Loonstroken"] },
    pt: { tune: ["Recibo de vencimento", "Holerite"], eval: ["Contracheque", "Recibo de salário"] },
  },
  contract: {
    en: { tune: ["SERVICE AGREEMENT", "Employment Contract"], eval: ["Lease Agreement", "Consulting Contract"] },
    de: { tune: ["Mietvertrag", "Arbeitsvertrag"], eval: ["Dienstleistungsvertrag", "Rahmenvereinbarung", "Wartungsvertrag"] },
    fr: { tune: ["Contrat de prestation de services", "Contrat de travail"], eval: ["Contrat de location", "Convention de partenariat"] },
    es: { tune: ["Contrato de prestación de servicios", "Contrato de trabajo"], eval: ["Contrato de arrendamiento", "Convenio de colaboración"] },
    it: { tune: ["Contratto di servizio", "Contratto di lavoro"], eval: ["Contratto di locazione", "Accordo quadro"] },
    nl: { tune: ["Huurovereenkomst", "Arbeidsovereenkomst"], eval: ["Dienstverleningsovereenkomst", "Raamovereenkomst"] },
    pt: { tune: ["Contrato de prestação de serviços", "Contrato de trabalho"], eval: ["Contrato de arrendamento", "Contrato de locação"] },
  },
  "tax form": {
    en: { tune: ["Self Assessment Tax Return", "SA100 Tax Return"], eval: ["Tax Return 2024"] },
    de: { tune: ["Einkommensteuererklärung"], eval: ["Umsatzsteuererklärung 2024"] },
    fr: { tune: ["Déclaration des revenus"], eval: ["Déclaration de revenus 2024"] },
    es: { tune: ["Declaración de la Renta"], eval: ["Declaración de impuestos"] },
    it: { tune: ["Dichiarazione dei redditi"], eval: ["Modello 730 - Dichiarazione dei redditi"] },
    nl: { tune: ["Aangifte inkomstenbelasting"], eval: ["Belastingaangifte 2024"] },
    pt: { tune: ["Declaração de IRS"], eval: ["Declaração de rendimentos"] },
  },
  resume: {
    en: { tune: ["Curriculum Vitae", "Resume"], eval: [""] },
    de: { tune: ["Lebenslauf"], eval: ["Tabellarischer Lebenslauf", ""] },
    fr: { tune: ["Curriculum Vitae", "CV"], eval: [""] },
    es: { tune: ["Currículum Vitae"], eval: ["Currículum", ""] },
    it: { tune: ["Curriculum Vitae"], eval: [""] },
    nl: { tune: ["Curriculum Vitae", "CV"], eval: [""] },
    pt: { tune: ["Currículo"], eval: ["Curriculum Vitae", ""] },
  },
  letter: {
    en: { tune: [""], eval: [""] },
    de: { tune: [""], eval: [""] },
    fr: { tune: [""], eval: [""] },
    es: { tune: [""], eval: [""] },
    it: { tune: [""], eval: [""] },
    nl: { tune: [""], eval: [""] },
    pt: { tune: [""], eval: [""] },
  },
  report: {
    en: { tune: ["Annual Report 2024", "Project Report"], eval: ["Market Study", "Audit Report"] },
    de: { tune: ["Jahresbericht 2024", "Projektbericht"], eval: ["Prüfbericht", "Abschlussbericht", "Marktstudie"] },
    fr: { tune: ["Rapport annuel 2024", "Rapport de projet"], eval: ["Rapport d'activité", "Étude de marché"] },
    es: { tune: ["Informe anual 2024", "Informe de proyecto"], eval: ["Informe de auditoría", "Memoria anual"] },
    it: { tune: ["Relazione annuale 2024", "Rapporto di progetto"], eval: ["Relazione tecnica", "Rapporto di sostenibilità"] },
    nl: { tune: ["Jaarverslag 2024", "Projectrapport"], eval: ["Auditrapport", "Eindverslag"] },
    pt: { tune: ["Relatório anual 2024", "Relatório de projeto"], eval: ["Relatório de auditoria", "Relatório de atividades"] },
  },
  form: {
    en: { tune: ["Application Form", "Registration Form"], eval: ["Membership Application", "Change of Address Form"] },
    de: { tune: ["Antrag", "Anmeldeformular"], eval: ["Mitgliedsantrag", "Änderungsformular"] },
    fr: { tune: ["Formulaire de demande", "Formulaire d'inscription"], eval: ["Demande d'adhésion", "Bulletin d'inscription"] },
    es: { tune: ["Formulario de solicitud", "Formulario de inscripción"], eval: ["Solicitud de alta", "Impreso de solicitud"] },
    it: { tune: ["Modulo di richiesta", "Modulo di iscrizione"], eval: ["Domanda di adesione", "Modulo di domanda"] },
    nl: { tune: ["Aanvraagformulier", "Inschrijfformulier"], eval: ["Aanmeldingsformulier", "Wijzigingsformulier"] },
    pt: { tune: ["Formulário de inscrição", "Formulário de pedido"], eval: ["Ficha de inscrição", "Requerimento"] },
  },
};

/** Labels and phrases the documents print (the generator's own wording). */
const WORDS: Record<GenLang, Record<string, string>> = {
  en: {
    no: "Invoice No.", date: "Date", due: "Due date", customer: "Bill to", desc: "Description", qty: "Qty", unit: "Unit price", amount: "Amount",
    subtotal: "Subtotal", tax: "VAT", total: "Total", pay: "Please pay within 30 days to", vat: "VAT Reg. No.", phone: "Tel.", iban: "IBAN", bic: "BIC",
    cnRef: "Refers to invoice", pfNote: "This pro forma invoice is not a demand for payment.", meter: "Meter reading", consumption: "Consumption", period: "Billing period",
    paid: "Paid by card", change: "Change", thanks: "Thank you for shopping with us!", cashier: "Cashier",
    poNo: "PO Number", supplier: "Supplier", deliverTo: "Deliver to", deliveryDate: "Delivery date", terms: "Delivery terms: DAP, carriage paid",
    quoteNo: "Quote No.", valid: "Valid until", accept: "To accept this quote, please sign and return.",
    dnNo: "Delivery Note No.", orderRef: "Your order", shipped: "Qty delivered", carrier: "Carrier", received: "Received in good condition by",
    holder: "Account holder", opening: "Opening balance", closing: "Closing balance", txDate: "Date", txText: "Details", debit: "Debit", credit: "Credit", balance: "Balance",
    employee: "Employee", payPeriod: "Pay period", gross: "Gross pay", incomeTax: "Income tax", social: "National Insurance", net: "Net pay",
    between: "This agreement is made between", and: "and", party1: "hereinafter the Provider", party2: "hereinafter the Client", sign: "Signed for and on behalf of",
    art: "Clause", subject: "Subject", dear: "Dear Ms Carter,", regards: "Kind regards,",
    intro: "Introduction", results: "Results", conclusion: "Conclusion", contents: "Table of contents",
    name: "Name", first: "First name", birth: "Date of birth", address: "Address", signature: "Signature", yes: "Yes", noo: "No", office: "For office use only",
    experience: "Work experience", education: "Education", skills: "Skills", languages: "Languages",
    taxpayer: "Taxpayer", taxYear: "Tax year", income: "Taxable income", authority: "HM Revenue & Customs",
    page: "Page",
  },
  de: {
    no: "Rechnungsnr.", date: "Datum", due: "Zahlbar bis", customer: "Kunde", desc: "Bezeichnung", qty: "Menge", unit: "Einzelpreis", amount: "Betrag",
    subtotal: "Nettobetrag", tax: "MwSt.", total: "Gesamtbetrag", pay: "Bitte überweisen Sie den Betrag innerhalb von 14 Tagen auf", vat: "USt-IdNr.", phone: "Tel.", iban: "IBAN", bic: "BIC",
    cnRef: "Bezug: Rechnung", pfNote: "Diese Proformarechnung dient nur Zollzwecken.", meter: "Zählerstand", consumption: "Verbrauch", period: "Abrechnungszeitraum",
    paid: "Bezahlt mit Karte", change: "Rückgeld", thanks: "Vielen Dank für Ihren Einkauf!", cashier: "Kasse",
    poNo: "Bestellnummer", supplier: "Lieferant", deliverTo: "Lieferanschrift", deliveryDate: "Liefertermin", terms: "Lieferbedingungen: frei Haus",
    quoteNo: "Angebotsnummer", valid: "Gültig bis", accept: "Wir freuen uns auf Ihren Auftrag.",
    dnNo: "Lieferschein-Nr.", orderRef: "Ihre Bestellung", shipped: "Gelieferte Menge", carrier: "Spediteur", received: "Ware erhalten",
    holder: "Kontoinhaber", opening: "Alter Kontostand", closing: "Neuer Kontostand", txDate: "Buchungstag", txText: "Verwendungszweck", debit: "Soll", credit: "Haben", balance: "Saldo",
    employee: "Mitarbeiter", payPeriod: "Abrechnungsmonat", gross: "Bruttobezüge", incomeTax: "Lohnsteuer", social: "Sozialversicherung", net: "Auszahlungsbetrag",
    between: "Zwischen", and: "und", party1: "nachfolgend Vermieter genannt", party2: "nachfolgend Mieter genannt", sign: "Ort, Datum, Unterschrift",
    art: "§", subject: "Betreff", dear: "Sehr geehrte Frau Keller,", regards: "Mit freundlichen Grüßen",
    intro: "Einleitung", results: "Ergebnisse", conclusion: "Fazit", contents: "Inhaltsverzeichnis",
    name: "Name", first: "Vorname", birth: "Geburtsdatum", address: "Anschrift", signature: "Unterschrift", yes: "Ja", noo: "Nein", office: "Nur für den Dienstgebrauch",
    experience: "Berufserfahrung", education: "Ausbildung", skills: "Kenntnisse", languages: "Sprachen",
    taxpayer: "Steuerpflichtige Person", taxYear: "Veranlagungsjahr", income: "Einkünfte", authority: "Finanzamt München",
    page: "Seite",
  },
  fr: {
    no: "N° de facture", date: "Date", due: "Échéance", customer: "Client", desc: "Désignation", qty: "Qté", unit: "Prix unitaire HT", amount: "Montant HT",
    subtotal: "Total HT", tax: "TVA", total: "Total TTC", pay: "Règlement par virement à 30 jours sur le compte", vat: "N° TVA intracommunautaire", phone: "Tél.", iban: "IBAN", bic: "BIC",
    cnRef: "Relatif à la facture", pfNote: "Facture pro forma sans valeur comptable.", meter: "Index compteur", consumption: "Consommation", period: "Période de consommation",
    paid: "Payé par carte bancaire", change: "Rendu", thanks: "Merci de votre visite !", cashier: "Caisse",
    poNo: "N° de commande", supplier: "Fournisseur", deliverTo: "Adresse de livraison", deliveryDate: "Date de livraison", terms: "Conditions de livraison : franco de port",
    quoteNo: "N° de devis", valid: "Devis valable jusqu'au", accept: "Bon pour accord, date et signature",
    dnNo: "N° de bon de livraison", orderRef: "Votre commande", shipped: "Quantité livrée", carrier: "Transporteur", received: "Reçu en bon état par",
    holder: "Titulaire du compte", opening: "Solde précédent", closing: "Nouveau solde", txDate: "Date", txText: "Libellé", debit: "Débit", credit: "Crédit", balance: "Solde",
    employee: "Salarié", payPeriod: "Période de paie", gross: "Salaire brut", incomeTax: "Impôt sur le revenu prélevé à la source", social: "Cotisations sociales", net: "Net à payer",
    between: "Entre les soussignés", and: "et", party1: "ci-après le Prestataire", party2: "ci-après le Client", sign: "Fait à Paris, en deux exemplaires",
    art: "Article", subject: "Objet", dear: "Madame, Monsieur,", regards: "Veuillez agréer nos salutations distinguées.",
    intro: "Introduction", results: "Résultats", conclusion: "Conclusion", contents: "Sommaire",
    name: "Nom", first: "Prénom", birth: "Date de naissance", address: "Adresse", signature: "Signature", yes: "Oui", noo: "Non", office: "Cadre réservé à l'administration",
    experience: "Expérience professionnelle", education: "Formation", skills: "Compétences", languages: "Langues",
    taxpayer: "Déclarant", taxYear: "Revenus de l'année", income: "Revenu imposable", authority: "Direction générale des Finances publiques",
    page: "Page",
  },
  es: {
    no: "Nº de factura", date: "Fecha", due: "Vencimiento", customer: "Cliente", desc: "Concepto", qty: "Cant.", unit: "Precio unitario", amount: "Importe",
    subtotal: "Base imponible", tax: "IVA", total: "Total", pay: "Forma de pago: transferencia a la cuenta", vat: "NIF", phone: "Tel.", iban: "IBAN", bic: "BIC",
    cnRef: "Rectifica la factura", pfNote: "Factura proforma sin validez fiscal.", meter: "Lectura del contador", consumption: "Consumo", period: "Periodo de facturación",
    paid: "Pagado con tarjeta", change: "Cambio", thanks: "¡Gracias por su compra!", cashier: "Caja",
    poNo: "Nº de pedido", supplier: "Proveedor", deliverTo: "Dirección de entrega", deliveryDate: "Fecha de entrega", terms: "Condiciones de entrega: portes pagados",
    quoteNo: "Nº de presupuesto", valid: "Válido hasta", accept: "Aceptación del cliente: firma y sello",
    dnNo: "Nº de albarán", orderRef: "Su pedido", shipped: "Cantidad entregada", carrier: "Transportista", received: "Recibí conforme",
    holder: "Titular", opening: "Saldo anterior", closing: "Saldo final", txDate: "Fecha", txText: "Concepto", debit: "Cargo", credit: "Abono", balance: "Saldo",
    employee: "Trabajador", payPeriod: "Periodo de liquidación", gross: "Total devengado", incomeTax: "Retención IRPF", social: "Seguridad Social", net: "Líquido a percibir",
    between: "Reunidos de una parte", and: "y de otra parte", party1: "en adelante el Prestador", party2: "en adelante el Cliente", sign: "En prueba de conformidad, firman",
    art: "Cláusula", subject: "Asunto", dear: "Estimada Sra. García:", regards: "Atentamente,",
    intro: "Introducción", results: "Resultados", conclusion: "Conclusiones", contents: "Índice",
    name: "Nombre", first: "Apellidos", birth: "Fecha de nacimiento", address: "Domicilio", signature: "Firma", yes: "Sí", noo: "No", office: "A rellenar por la administración",
    experience: "Experiencia profesional", education: "Formación académica", skills: "Habilidades", languages: "Idiomas",
    taxpayer: "Contribuyente", taxYear: "Ejercicio", income: "Base liquidable", authority: "Agencia Tributaria",
    page: "Página",
  },
  it: {
    no: "Fattura n.", date: "Data", due: "Scadenza", customer: "Cliente", desc: "Descrizione", qty: "Q.tà", unit: "Prezzo unitario", amount: "Importo",
    subtotal: "Imponibile", tax: "IVA", total: "Totale documento", pay: "Pagamento tramite bonifico bancario su", vat: "P.IVA", phone: "Tel.", iban: "IBAN", bic: "BIC",
    cnRef: "Riferimento fattura", pfNote: "Documento proforma, non valido ai fini fiscali.", meter: "Lettura contatore", consumption: "Consumi", period: "Periodo di fatturazione",
    paid: "Pagato con carta", change: "Resto", thanks: "Grazie e arrivederci!", cashier: "Cassa",
    poNo: "Numero ordine", supplier: "Fornitore", deliverTo: "Luogo di consegna", deliveryDate: "Data consegna", terms: "Resa: franco destino",
    quoteNo: "Preventivo n.", valid: "Offerta valida fino al", accept: "Per accettazione, timbro e firma",
    dnNo: "DDT n.", orderRef: "Vostro ordine", shipped: "Quantità consegnata", carrier: "Vettore", received: "Firma del destinatario",
    holder: "Intestatario", opening: "Saldo iniziale", closing: "Saldo finale", txDate: "Data", txText: "Descrizione", debit: "Addebiti", credit: "Accrediti", balance: "Saldo",
    employee: "Dipendente", payPeriod: "Periodo di paga", gross: "Retribuzione lorda", incomeTax: "IRPEF", social: "Contributi INPS", net: "Netto in busta",
    between: "Tra le parti", and: "e", party1: "di seguito il Fornitore", party2: "di seguito il Cliente", sign: "Letto, confermato e sottoscritto",
    art: "Articolo", subject: "Oggetto", dear: "Gentile Sig.ra Rossi,", regards: "Distinti saluti",
    intro: "Introduzione", results: "Risultati", conclusion: "Conclusioni", contents: "Indice",
    name: "Nome", first: "Cognome", birth: "Data di nascita", address: "Indirizzo", signature: "Firma", yes: "Sì", noo: "No", office: "Riservato all'ufficio",
    experience: "Esperienza lavorativa", education: "Istruzione e formazione", skills: "Competenze", languages: "Lingue",
    taxpayer: "Contribuente", taxYear: "Periodo d'imposta", income: "Reddito imponibile", authority: "Agenzia delle Entrate",
    page: "Pagina",
  },
  nl: {
    no: "Factuurnummer", date: "Datum", due: "Vervaldatum", customer: "Klant", desc: "Omschrijving", qty: "Aantal", unit: "Prijs", amount: "Bedrag",
    subtotal: "Subtotaal", tax: "BTW", total: "Totaal", pay: "Gelieve binnen 30 dagen over te maken op", vat: "BTW-nummer", phone: "Tel.", iban: "IBAN", bic: "BIC",
    cnRef: "Betreft factuur", pfNote: "Deze proformafactuur is geen betalingsverzoek.", meter: "Meterstand", consumption: "Verbruik", period: "Periode",
    paid: "Betaald met pin", change: "Wisselgeld", thanks: "Bedankt voor uw aankoop!", cashier: "Kassa",
    poNo: "Ordernummer", supplier: "Leverancier", deliverTo: "Afleveradres", deliveryDate: "Leverdatum", terms: "Leveringsvoorwaarden: franco",
    quoteNo: "Offertenummer", valid: "Geldig tot", accept: "Voor akkoord, datum en handtekening",
    dnNo: "Pakbonnummer", orderRef: "Uw bestelling", shipped: "Geleverd aantal", carrier: "Vervoerder", received: "Voor ontvangst getekend",
    holder: "Rekeninghouder", opening: "Beginsaldo", closing: "Eindsaldo", txDate: "Boekdatum", txText: "Omschrijving", debit: "Af", credit: "Bij", balance: "Saldo",
    employee: "Werknemer", payPeriod: "Periode", gross: "Brutoloon", incomeTax: "Loonheffing", social: "Pensioenpremie", net: "Nettoloon",
    between: "De ondergetekenden", and: "en", party1: "hierna te noemen verhuurder", party2: "hierna te noemen huurder", sign: "Aldus overeengekomen en getekend",
    art: "Artikel", subject: "Onderwerp", dear: "Geachte mevrouw Jansen,", regards: "Met vriendelijke groet,",
    intro: "Inleiding", results: "Resultaten", conclusion: "Conclusie", contents: "Inhoudsopgave",
    name: "Naam", first: "Voornaam", birth: "Geboortedatum", address: "Adres", signature: "Handtekening", yes: "Ja", noo: "Nee", office: "In te vullen door de administratie",
    experience: "Werkervaring", education: "Opleiding", skills: "Vaardigheden", languages: "Talen",
    taxpayer: "Belastingplichtige", taxYear: "Belastingjaar", income: "Belastbaar inkomen", authority: "Belastingdienst",
    page: "Pagina",
  },
  pt: {
    no: "Fatura nº", date: "Data", due: "Data de vencimento", customer: "Cliente", desc: "Descrição", qty: "Qtd.", unit: "Preço unitário", amount: "Valor",
    subtotal: "Subtotal", tax: "IVA", total: "Total", pay: "Pagamento por transferência para", vat: "NIF", phone: "Tel.", iban: "IBAN", bic: "BIC",
    cnRef: "Referente à fatura", pfNote: "Fatura proforma sem valor fiscal.", meter: "Leitura do contador", consumption: "Consumo", period: "Período de faturação",
    paid: "Pago com cartão", change: "Troco", thanks: "Obrigado pela preferência!", cashier: "Caixa",
    poNo: "Número do pedido", supplier: "Fornecedor", deliverTo: "Local de entrega", deliveryDate: "Data de entrega", terms: "Condições de entrega: frete pago",
    quoteNo: "Orçamento nº", valid: "Válido até", accept: "Aceite do cliente",
    dnNo: "Guia nº", orderRef: "Sua encomenda", shipped: "Quantidade entregue", carrier: "Transportadora", received: "Recebido em boas condições",
    holder: "Titular da conta", opening: "Saldo anterior", closing: "Saldo final", txDate: "Data", txText: "Descritivo", debit: "Débito", credit: "Crédito", balance: "Saldo",
    employee: "Funcionário", payPeriod: "Período", gross: "Vencimento bruto", incomeTax: "Retenção IRS", social: "Segurança Social", net: "Líquido a receber",
    between: "Entre as partes", and: "e", party1: "doravante Prestador", party2: "doravante Cliente", sign: "E por estarem de acordo, assinam",
    art: "Cláusula", subject: "Assunto", dear: "Prezada Sra. Pereira,", regards: "Atenciosamente,",
    intro: "Introdução", results: "Resultados", conclusion: "Conclusão", contents: "Sumário",
    name: "Nome", first: "Apelido", birth: "Data de nascimento", address: "Morada", signature: "Assinatura", yes: "Sim", noo: "Não", office: "A preencher pelos serviços",
    experience: "Experiência profissional", education: "Formação académica", skills: "Competências", languages: "Idiomas",
    taxpayer: "Contribuinte", taxYear: "Ano de rendimentos", income: "Rendimento coletável", authority: "Autoridade Tributária e Aduaneira",
    page: "Página",
  },
};

/** Running text per language (letters, contracts, reports). */
const PROSE: Record<GenLang, string[]> = {
  en: [
    "We would like to inform you about the changes to our opening hours starting next month.",
    "The parties agree that all services will be performed with due care and in good time.",
    "During the period under review the number of customers grew steadily in every region.",
    "Should you have any questions, our team will be glad to help you at any time.",
    "The results show that the new process reduced waiting times by almost a third.",
    "Either party may end this arrangement with three months notice in writing.",
  ],
  de: [
    "Wir möchten Sie über die Änderung unserer Öffnungszeiten ab dem kommenden Monat informieren.",
    "Die Parteien vereinbaren, dass alle Leistungen mit der gebotenen Sorgfalt erbracht werden.",
    "Im Berichtszeitraum ist die Zahl der Kunden in allen Regionen stetig gewachsen.",
    "Bei Fragen steht Ihnen unser Team jederzeit gerne zur Verfügung.",
    "Die Ergebnisse zeigen, dass das neue Verfahren die Wartezeiten um fast ein Drittel verkürzt hat.",
    "Jede Partei kann die Vereinbarung mit einer Frist von drei Monaten schriftlich beenden.",
  ],
  fr: [
    "Nous souhaitons vous informer du changement de nos horaires d'ouverture à partir du mois prochain.",
    "Les parties conviennent que toutes les prestations seront réalisées avec le soin nécessaire.",
    "Au cours de la période étudiée, le nombre de clients a augmenté dans toutes les régions.",
    "Pour toute question, notre équipe reste à votre disposition à tout moment.",
    "Les résultats montrent que le nouveau processus a réduit les délais d'attente de près d'un tiers.",
    "Chacune des parties peut mettre fin à cet accord avec un préavis de trois mois par écrit.",
  ],
  es: [
    "Queremos informarle sobre el cambio de nuestro horario de apertura a partir del próximo mes.",
    "Las partes acuerdan que todos los servicios se prestarán con la debida diligencia.",
    "Durante el periodo analizado el número de clientes creció de forma constante en todas las regiones.",
    "Si tiene cualquier pregunta, nuestro equipo estará encantado de ayudarle en todo momento.",
    "Los resultados muestran que el nuevo proceso redujo los tiempos de espera en casi un tercio.",
    "Cualquiera de las partes podrá resolver este acuerdo con un preaviso de tres meses por escrito.",
  ],
  it: [
    "Desideriamo informarLa della modifica dei nostri orari di apertura a partire dal mese prossimo.",
    "Le parti convengono che tutti i servizi saranno eseguiti con la dovuta diligenza.",
    "Nel periodo considerato il numero dei clienti è cresciuto costantemente in tutte le regioni.",
    "Per qualsiasi domanda il nostro team resta a Sua disposizione in ogni momento.",
    "I risultati mostrano che il nuovo processo ha ridotto i tempi di attesa di quasi un terzo.",
    "Ciascuna delle parti può recedere dal presente accordo con un preavviso scritto di tre mesi.",
  ],
  nl: [
    "Graag informeren wij u over de wijziging van onze openingstijden vanaf volgende maand.",
    "Partijen komen overeen dat alle diensten met de nodige zorg worden uitgevoerd.",
    "In de verslagperiode is het aantal klanten in alle regio's gestaag gegroeid.",
    "Heeft u vragen, dan helpt ons team u op elk moment graag verder.",
    "De resultaten laten zien dat het nieuwe proces de wachttijden met bijna een derde heeft verkort.",
    "Elke partij kan deze afspraak schriftelijk beëindigen met een opzegtermijn van drie maanden.",
  ],
  pt: [
    "Gostaríamos de informar sobre a alteração do nosso horário de funcionamento a partir do próximo mês.",
    "As partes acordam que todos os serviços serão prestados com o devido cuidado.",
    "Durante o período em análise o número de clientes cresceu de forma constante em todas as regiões.",
    "Em caso de dúvida, a nossa equipa terá todo o gosto em ajudar a qualquer momento.",
    "Os resultados mostram que o novo processo reduziu os tempos de espera em quase um terço.",
    "Qualquer das partes pode terminar este acordo com um pré-aviso escrito de três meses.",
  ],
};

// ---------------------------------------------------------------------------------------
// Page building.

interface Line {
  text: string;
  x?: number;
  size?: number;
  bold?: boolean;
  right?: boolean;
  /** Extra space before the line, in points. */
  gap?: number;
}

function stack(lines: Line[], top = 50, left = 56): TextItem[] {
  const out: TextItem[] = [];
  let y = top;
  for (const l of lines) {
    y += l.gap ?? 0;
    const size = l.size ?? 9;
    if (l.text !== "") out.push({ x: l.x ?? left, y, text: l.text, size, bold: l.bold, right: l.right });
    y += Math.max(12, size * 1.35);
  }
  return out;
}

interface Party {
  name: string;
  street: string;
  cityLine: string;
  country: string;
  vat?: string;
  iban?: string;
  phone?: string;
}

function makeParty(r: Rand, country: string, set: "tune" | "eval", person = false): Party {
  const place = pick(r, PLACES[country][set]);
  const name = person
    ? pick(r, PERSONS)
    : `${pick(r, COMPANY.first)}${pick(r, COMPANY.second)} ${COMPANY.suffix[country] ?? "Ltd"}`;
  return { name, street: place.street, cityLine: place.cityLine, country };
}

interface Ctx {
  r: Rand;
  lang: GenLang;
  set: "tune" | "eval";
  w: Record<string, string>;
  issuer: Party;
  customer: Party;
  currency: string;
  /** Print the issuer's country name under its address. */
  printCountry: boolean;
  title: string;
}

function addressLines(p: Party, lang: GenLang, withCountry: boolean): string[] {
  return [p.name, p.street, p.cityLine, ...(withCountry ? [PLACES[p.country].countryName[lang]] : [])];
}

function footer(c: Ctx): string[] {
  const parts: string[] = [];
  const i = c.issuer;
  if (i.phone) parts.push(`${c.w.phone} ${i.phone}`);
  if (i.vat) parts.push(`${c.w.vat} ${i.vat.replace(/^([A-Z]{2})/, (m) => m)}`);
  const bank = i.iban ? `${c.w.iban} ${i.iban.replace(/(.{4})/g, "$1 ").trim()}` : "";
  return [`${i.name} · ${i.street} · ${i.cityLine}`, parts.join(" · "), bank].filter(Boolean);
}

/** The document body per kind: lines below the header. */
function bodyLines(kind: GenType, c: Ctx): Line[] {
  const { r, w, lang } = c;
  const m = (v: number) => money(v, lang, c.currency);
  const items = Array.from({ length: int(r, 2, 4) }, (_, k) => ({
    desc: pick(r, ["Consulting", "Software licence", "Maintenance", "Installation", "Training", "Hardware", "Support"]) + ` ${k + 1}`,
    qty: int(r, 1, 12),
    price: int(r, 20, 900) + int(r, 0, 99) / 100,
  }));
  const sign = kind === "credit note" ? -1 : 1;
  const rate = pick(r, [0.19, 0.2, 0.21, 0.22, 0.23, 0.077, 0.1]);
  const subtotal = items.reduce((s, it) => s + it.qty * it.price, 0) * sign;
  const tax = Math.round(subtotal * rate * 100) / 100;
  const table = (withPrices: boolean): Line[] => [
    { text: withPrices ? `${w.desc}          ${w.qty}      ${w.unit}      ${w.amount}` : `${w.desc}          ${w.shipped}`, bold: true, gap: 10 },
    ...items.map((it) => ({
      text: withPrices ? `${it.desc}          ${it.qty}      ${m(it.price)}      ${m(sign * it.qty * it.price)}` : `${it.desc}          ${it.qty}`,
    })),
  ];
  const totals: Line[] = [
    { text: `${w.subtotal}   ${m(subtotal)}`, x: 330, gap: 8 },
    { text: `${w.tax} ${(rate * 100).toFixed(rate < 0.1 ? 1 : 0)} %   ${m(tax)}`, x: 330 },
    { text: `${w.total}   ${m(subtotal + tax)}`, x: 330, bold: true },
  ];
  const no = `${new Date().getFullYear() - int(r, 0, 3)}-${digits(r, 4)}`;
  switch (kind) {
    case "invoice":
    case "credit note":
    case "pro forma":
      return [
        { text: `${w.no} ${no}` },
        { text: `${w.date}: ${dateOf(lang, r)}` },
        { text: `${w.due}: ${dateOf(lang, r)}` },
        ...(kind === "credit note" ? [{ text: `${w.cnRef} ${no.replace(/.$/, "1")}` }] : []),
        ...(kind === "pro forma" ? [{ text: w.pfNote }] : []),
        ...table(true),
        ...totals,
        { text: `${w.pay} ${w.iban} ${c.issuer.iban ?? ""}`, gap: 14 },
      ];
    case "utility bill":
      return [
        { text: `${w.no} ${no}` },
        { text: `${w.period}: ${dateOf(lang, r)} - ${dateOf(lang, r)}` },
        { text: `${w.meter}: ${int(r, 1000, 9000)} kWh - ${int(r, 9001, 15000)} kWh`, gap: 8 },
        { text: `${w.consumption}: ${int(r, 200, 4000)} kWh` },
        ...totals,
        { text: `${w.due}: ${dateOf(lang, r)}`, gap: 10 },
      ];
    case "receipt": {
      const total = items.reduce((s, it) => s + it.price, 0);
      return [
        { text: `${dateOf(lang, r)}  ${int(r, 8, 20)}:${String(int(r, 0, 59)).padStart(2, "0")}   ${w.cashier} ${int(r, 1, 9)}` },
        ...items.map((it) => ({ text: `${it.desc}      ${m(it.price)}` })),
        { text: `${w.total}      ${m(total)}`, bold: true, gap: 6 },
        { text: `${w.paid}      ${m(total)}` },
        { text: `${w.change}      ${m(0)}` },
        { text: w.thanks, gap: 10 },
      ];
    }
    case "purchase order":
      return [
        { text: `${w.poNo}: PO-${digits(r, 5)}` },
        { text: `${w.date}: ${dateOf(lang, r)}` },
        { text: `${w.supplier}: ${c.customer.name}, ${c.customer.cityLine}` },
        { text: `${w.deliverTo}: ${c.issuer.street}, ${c.issuer.cityLine}` },
        { text: `${w.deliveryDate}: ${dateOf(lang, r)}` },
        ...table(true),
        { text: `${w.total}   ${m(subtotal)}`, x: 330, bold: true, gap: 6 },
        { text: w.terms, gap: 10 },
      ];
    case "quote":
      return [
        { text: `${w.quoteNo} Q-${digits(r, 4)}` },
        { text: `${w.date}: ${dateOf(lang, r)}` },
        { text: `${w.valid} ${dateOf(lang, r)}` },
        ...table(true),
        ...totals,
        { text: w.accept, gap: 14 },
      ];
    case "delivery note":
      return [
        { text: `${w.dnNo} ${digits(r, 6)}` },
        { text: `${w.date}: ${dateOf(lang, r)}` },
        { text: `${w.orderRef}: ${digits(r, 7)}` },
        ...table(false),
        { text: `${w.carrier}: ${pick(r, ["DHL", "DPD", "UPS", "GLS", "TNT"])}`, gap: 10 },
        { text: `${w.received}: ____________________`, gap: 14 },
      ];
    case "bank statement": {
      let bal = int(r, 500, 9000) + int(r, 0, 99) / 100;
      const rows: Line[] = [
        { text: `${w.holder}: ${c.customer.name}` },
        { text: `${w.iban}: ${(c.issuer.iban ?? "").replace(/(.{4})/g, "$1 ").trim()}` },
        { text: `${w.txDate}      ${w.txText}      ${w.debit}      ${w.credit}      ${w.balance}`, bold: true, gap: 8 },
        { text: `${w.opening}                              ${m(bal)}` },
      ];
      for (let k = 0; k < int(r, 4, 8); k++) {
        const amt = int(r, 5, 900) + int(r, 0, 99) / 100;
        const out = r() < 0.6;
        bal = Math.round((bal + (out ? -amt : amt)) * 100) / 100;
        const what = pick(r, ["SEPA", "Card 4411", "Transfer", "Salary", "Rent", "Insurance"]);
        rows.push({ text: `${dateOf(lang, r)}      ${what}      ${out ? m(amt) : ""}      ${out ? "" : m(amt)}      ${m(bal)}` });
      }
      rows.push({ text: `${w.closing}                              ${m(bal)}`, bold: true });
      return rows;
    }
    case "payslip": {
      const gross = int(r, 2000, 6000);
      const t = Math.round(gross * 0.18 * 100) / 100;
      const s = Math.round(gross * 0.2 * 100) / 100;
      return [
        { text: `${w.employee}: ${c.customer.name}   ID ${digits(r, 5)}` },
        { text: `${w.payPeriod}: ${dateOf(lang, r)}` },
        { text: `${w.gross}      ${m(gross)}`, gap: 8 },
        { text: `${w.incomeTax}      ${m(-t)}` },
        { text: `${w.social}      ${m(-s)}` },
        { text: `${w.net}      ${m(gross - t - s)}`, bold: true },
        { text: `${w.iban} ${(c.customer.iban ?? "").replace(/(.{4})/g, "$1 ").trim()}`, gap: 8 },
      ];
    }
    case "contract":
      return [
        { text: `${w.between} ${c.issuer.name}, ${c.issuer.street}, ${c.issuer.cityLine} (${w.party1})` },
        { text: `${w.and} ${c.customer.name}, ${c.customer.street}, ${c.customer.cityLine} (${w.party2})` },
        ...[1, 2, 3, 4].flatMap((k) => [
          { text: `${w.art} ${k}`, bold: true, gap: 8 },
          { text: pick(r, PROSE[lang]) },
          { text: pick(r, PROSE[lang]) },
        ]),
        { text: w.sign, gap: 16 },
        { text: "______________________          ______________________", gap: 14 },
      ];
    case "tax form":
      return [
        { text: c.w.authority, bold: true },
        { text: `${w.taxYear}: ${int(r, 2020, 2024)}` },
        { text: `${w.taxpayer}: ____________________` },
        { text: `${w.name}: ____________________   ${w.first}: ____________________` },
        { text: `${w.birth}: ____________` },
        { text: `${w.income}: ____________` },
        { text: `[ ] ${w.yes}   [ ] ${w.noo}` },
        { text: `${w.signature}: ____________________`, gap: 10 },
      ];
    case "resume":
      return [
        { text: `${c.customer.street}, ${c.customer.cityLine}` },
        { text: `${w.phone} ${c.customer.phone ?? phoneOf(c.customer.country, r)}   ${c.customer.name.split(" ")[0].toLowerCase()}@example.org` },
        { text: w.experience, bold: true, size: 12, gap: 10 },
        { text: `2019 - 2024   ${pick(r, ["Project manager", "Software engineer", "Accountant", "Designer"])}, ${c.issuer.name}` },
        { text: `2015 - 2019   ${pick(r, ["Analyst", "Developer", "Assistant", "Consultant"])}, ${pick(r, COMPANY.first)}${pick(r, COMPANY.second)}` },
        { text: w.education, bold: true, size: 12, gap: 10 },
        { text: `2010 - 2015   ${pick(r, ["Master", "Bachelor", "Diploma"])}, ${pick(r, ["Economics", "Computer Science", "Engineering"])}` },
        { text: w.skills, bold: true, size: 12, gap: 10 },
        { text: "Excel, SQL, Python, SAP" },
        { text: w.languages, bold: true, size: 12, gap: 10 },
        { text: "English, Deutsch, Français" },
      ];
    case "letter":
      return [
        ...addressLines(c.customer, lang, false).map((t, k) => ({ text: t, gap: k === 0 ? 20 : 0 })),
        { text: `${c.issuer.cityLine.replace(/^[\d -]+/, "")}, ${dateOf(lang, r, true)}`, x: 360, gap: 16 },
        { text: `${w.subject}: ${pick(r, PROSE[lang]).split(" ").slice(0, 5).join(" ")}`, bold: true, gap: 16 },
        { text: w.dear, gap: 12 },
        { text: pick(r, PROSE[lang]), gap: 6 },
        { text: pick(r, PROSE[lang]) },
        { text: pick(r, PROSE[lang]) },
        { text: pick(r, PROSE[lang]), gap: 6 },
        { text: w.regards, gap: 12 },
        { text: pick(r, PERSONS), gap: 24 },
      ];
    case "report":
      return [
        { text: w.contents, bold: true, size: 12, gap: 6 },
        { text: `1 ${w.intro} .......... 2` },
        { text: `2 ${w.results} .......... 3` },
        { text: `3 ${w.conclusion} .......... 4` },
        ...[w.intro, w.results, w.conclusion].flatMap((h, k) => [
          { text: `${k + 1}. ${h}`, bold: true, size: 12, gap: 12 },
          { text: pick(r, PROSE[lang]) },
          { text: pick(r, PROSE[lang]) },
          { text: pick(r, PROSE[lang]) },
        ]),
      ];
    case "form":
      return [
        { text: `${w.name}: ______________________   ${w.first}: ______________________`, gap: 8 },
        { text: `${w.birth}: ____________` },
        { text: `${w.address}: ________________________________________` },
        { text: `${w.phone}: ____________________` },
        { text: `[ ] ${w.yes}     [ ] ${w.noo}`, gap: 6 },
        { text: `${w.signature}: ______________________   ${w.date}: ____________`, gap: 14 },
        { text: w.office, size: 7, gap: 20 },
      ];
  }
}

/** Layouts; the last two of each list are held out for the "eval" set. */
const LAYOUTS = ["title-top", "letterhead-title-below", "title-right"] as const;
const EVAL_LAYOUTS = ["title-in-header-row", "no-title", "two-column"] as const;
type LayoutName = (typeof LAYOUTS)[number] | (typeof EVAL_LAYOUTS)[number];

function build(kind: GenType, c: Ctx, layout: LayoutName): TextItem[][] {
  const head = addressLines(c.issuer, c.lang, c.printCountry);
  const cust = ["invoice", "credit note", "pro forma", "utility bill", "quote", "delivery note", "purchase order"].includes(kind)
    ? [c.w.customer + ":", ...addressLines(c.customer, c.lang, c.customer.country !== c.issuer.country)]
    : [];
  const custVat = c.customer.vat ? [`${c.w.vat} ${c.customer.vat}`] : [];
  const body = bodyLines(kind, c);
  const noLetterhead = kind === "resume" || kind === "tax form" || kind === "form";
  const title = c.title;
  const items: TextItem[] = [];
  let top = 50;
  switch (layout) {
    case "title-top":
      if (title) items.push({ x: 56, y: top, text: title, size: 20, bold: true });
      top += 40;
      if (!noLetterhead) items.push(...stack(head.map((t) => ({ text: t })), top));
      if (cust.length) items.push(...stack([...cust, ...custVat].map((t) => ({ text: t })), top, 330));
      top += noLetterhead ? 0 : 90;
      break;
    case "letterhead-title-below":
      // DIN 5008-like: letterhead right, address window left, the title below it in bold.
      if (!noLetterhead) items.push(...stack(head.map((t) => ({ text: t, size: t === head[0] ? 13 : 8 })), top, 360));
      if (cust.length) items.push(...stack([...cust, ...custVat].map((t) => ({ text: t })), top + 70, 56));
      top += noLetterhead ? 0 : 170;
      if (title) items.push({ x: 56, y: top, text: title, size: 14, bold: true });
      top += 28;
      break;
    case "title-right":
      if (!noLetterhead) items.push(...stack(head.map((t) => ({ text: t })), top));
      if (title) items.push({ x: 540, y: top, text: title.toUpperCase(), size: 22, bold: true, right: true });
      top += 80;
      if (cust.length) items.push(...stack([...cust, ...custVat].map((t) => ({ text: t })), top, 56));
      top += cust.length ? 80 : 10;
      break;
    case "title-in-header-row":
      // The name in small type inside a header row with the number and date.
      if (!noLetterhead) items.push(...stack(head.map((t) => ({ text: t, size: 8 })), top));
      top += 70;
      if (title) items.push({ x: 56, y: top, text: title, size: 9, bold: true }, { x: 250, y: top, text: c.w.page + " 1/1", size: 9 });
      top += 18;
      if (cust.length) items.push(...stack([...cust, ...custVat].map((t) => ({ text: t })), top, 330));
      top += cust.length ? 80 : 0;
      break;
    case "no-title":
      if (!noLetterhead) items.push(...stack(head.map((t) => ({ text: t })), top));
      if (cust.length) items.push(...stack([...cust, ...custVat].map((t) => ({ text: t })), top, 330));
      top += noLetterhead ? 0 : 90;
      break;
    case "two-column":
      if (title) items.push({ x: 330, y: top, text: title, size: 16, bold: true });
      if (!noLetterhead) items.push(...stack(head.map((t) => ({ text: t, size: 8 })), top));
      top += 60;
      if (cust.length) items.push(...stack([...cust, ...custVat].map((t) => ({ text: t })), top, 330));
      top += cust.length ? 80 : 10;
      break;
  }
  // Long bodies run onto more pages.
  const pages: TextItem[][] = [];
  let current = [...items];
  let y = top;
  for (const l of body) {
    y += l.gap ?? 0;
    const size = l.size ?? 9;
    if (y > 760) {
      pages.push(current);
      current = [];
      y = 60;
    }
    if (l.text !== "") current.push({ x: l.x ?? 56, y, text: l.text, size, bold: l.bold, right: l.right });
    y += Math.max(12, size * 1.35);
  }
  if (!noLetterhead && ["invoice", "credit note", "pro forma", "utility bill", "quote", "purchase order", "delivery note", "bank statement", "payslip", "letter"].includes(kind)) {
    footer(c).forEach((t, k) => current.push({ x: 56, y: 790 + k * 10, text: t, size: 7 }));
  }
  pages.push(current);
  return pages;
}

const EXPECTED_TYPE: Record<GenType, { type: string; subclass?: string }> = {
  invoice: { type: "invoice" },
  "credit note": { type: "invoice", subclass: "credit note" },
  "pro forma": { type: "invoice", subclass: "pro forma" },
  "utility bill": { type: "invoice", subclass: "utility bill" },
  receipt: { type: "receipt" },
  "purchase order": { type: "purchase order" },
  quote: { type: "quote" },
  "delivery note": { type: "delivery note" },
  "bank statement": { type: "bank statement" },
  payslip: { type: "payslip" },
  contract: { type: "contract" },
  "tax form": { type: "tax form" },
  resume: { type: "resume" },
  letter: { type: "letter" },
  report: { type: "report" },
  form: { type: "form" },
};

export interface GenerateOptions {
  set: "tune" | "eval";
  /** Documents per (kind, language). */
  perKind?: number;
  seed?: number;
  kinds?: GenType[];
  langs?: GenLang[];
}

/** Generates the documents of one set; same options, same documents. */
export function generateDocuments(opts: GenerateOptions): GeneratedDocument[] {
  const out: GeneratedDocument[] = [];
  const per = opts.perKind ?? 2;
  const set = opts.set;
  const layouts: readonly LayoutName[] = set === "tune" ? LAYOUTS : [...EVAL_LAYOUTS, ...LAYOUTS];
  for (const lang of opts.langs ?? GEN_LANGS) {
    for (const kind of opts.kinds ?? GEN_TYPES) {
      for (let n = 0; n < per; n++) {
        const r = rng((opts.seed ?? 1) * 100003 + GEN_LANGS.indexOf(lang) * 1009 + GEN_TYPES.indexOf(kind) * 101 + n * 7 + (set === "eval" ? 50021 : 0));
        const country = kind === "tax form" ? TAX_COUNTRY[lang] : pick(r, COUNTRIES_OF[lang]);
        const w = WORDS[lang];
        const issuer = makeParty(r, country, set);
        // Employees live where they work; other counterparts are abroad now and then.
        const abroad = kind !== "payslip" && r() < 0.3;
        const customerCountry = abroad ? pick(r, ["DE", "FR", "NL", "IT", "ES", "GB", "US", "BE"].filter((x) => x !== country)) : country;
        const customer = makeParty(r, customerCountry, set, kind === "payslip" || kind === "resume" || kind === "bank statement");
        // What evidence of the issuer's country the page prints: VAT id, IBAN, phone, country name, or only an address.
        const evidence = pick(r, ["vat+iban+phone", "vat", "iban", "phone", "address", "country-name"] as const);
        const commercial = !["resume", "tax form", "form", "report", "contract"].includes(kind);
        if (commercial && evidence.includes("vat")) issuer.vat = makeVatFor(country, r);
        if (commercial && (evidence.includes("iban") || kind === "bank statement")) issuer.iban = makeIbanFor(country, r);
        if (evidence.includes("phone")) issuer.phone = phoneOf(country, r);
        if (kind === "payslip") customer.iban = makeIbanFor(customerCountry, r);
        if (abroad && commercial && kind !== "receipt" && r() < 0.7) customer.vat = makeVatFor(customerCountry, r);
        const layout = set === "eval" && n % 2 === 0 ? pick(r, EVAL_LAYOUTS) : pick(r, layouts);
        const pool = TITLES[kind][lang];
        let title = pick(r, set === "eval" && n % 2 === 1 ? pool.eval : pool.tune);
        if (layout === "no-title" && !["invoice", "letter", "bank statement", "resume"].includes(kind)) title = pick(r, pool.eval);
        if (layout === "no-title" && kind === "invoice") title = "";
        if (kind === "resume") title = title === "" ? customer.name : title;
        const printCountry = evidence === "country-name" || (r() < 0.3 && kind !== "resume");
        const c: Ctx = { r, lang, set, w, issuer, customer, currency: PLACES[country].currency, printCountry, title };
        const pages = build(kind, c, layout);
        // The truth: the issuer's country when the page ties it to one (printed ids, phone, a
        // country name, or a town the gazetteer-free reader can place by its code's own format).
        const text = pages.flat().map((t) => t.text).join("\n");
        const strong = new Set<string>();
        for (const p of [issuer, customer]) {
          if (p.vat && text.includes(p.vat)) strong.add(p.country);
          if (p.iban && text.includes(p.iban.replace(/(.{4})/g, "$1 ").trim())) strong.add(p.country);
          if (p.phone && text.includes(p.phone)) strong.add(p.country);
        }
        const expected = EXPECTED_TYPE[kind];
        out.push({
          name: `${set}-${lang}-${kind.replace(/ /g, "-")}-${n}`,
          lang,
          kind,
          type: expected.type,
          subclass: expected.subclass,
          // A resume comes from its person (the "customer" party here); a blank form from nobody.
          issuerCountry: kind === "resume" ? customerCountry : kind === "form" ? undefined : country,
          country: kind !== "resume" && kind !== "form" && issuerEvidence(issuer, text, printCountry, lang) ? country : undefined,
          strongCountries: [...strong].sort(),
          set,
          layout,
          pages,
        });
      }
    }
  }
  return out;
}

/** Whether the page ties the issuer to its country by something the issuer printed. */
function issuerEvidence(p: Party, text: string, printCountry: boolean, lang: GenLang): boolean {
  if (p.vat && text.includes(p.vat)) return true;
  if (p.iban && text.includes(p.iban.replace(/(.{4})/g, "$1 ").trim())) return true;
  if (p.phone && text.includes(p.phone)) return true;
  return printCountry && text.includes(PLACES[p.country].countryName[lang]);
}
