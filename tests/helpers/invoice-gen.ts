/**
 * A generator of synthetic invoices for the invoice parser's tests and benchmark: several page
 * layouts (letterhead + address window + meta table, labels above values with sectioned parties,
 * a header sentence with the vendor only in the footer), languages de/fr/en with label variants,
 * number formats (1.234,56 / 1,234.56 / 1 234,56), date formats (numeric, long month names, ISO),
 * one or two tax rates, credit notes, multi-line item descriptions and section-heading rows.
 * Rendered to PDF with pdf-lib (Helvetica, WinAnsi). Every invoice carries the truth put in.
 */
import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from "pdf-lib";

export type GenLanguage = "de" | "fr" | "en";
export type GenLayout = "classic" | "stacked" | "sentence" | "captioned" | "rightHead" | "partyTable" | "template";

export interface GenItem {
  description: string[];
  quantity: number;
  unitPrice: number;
  total: number;
  rate: number;
}

export interface GenInvoice {
  id: string;
  language: GenLanguage;
  layout: GenLayout;
  variant: number;
  creditNote: boolean;
  numberFormat: "dot" | "comma" | "space";
  /** "us": MM/DD/YYYY (an issuer in North America, its +1 phone number in the footer). */
  dateStyle: "numeric" | "long" | "iso" | "us";
  currency: string;
  invoiceNo: string;
  invoiceDate: string;
  dueDate: string;
  vendor: { name: string; street: string; city: string; country: string; vat: string; iban: string };
  customer: { name: string; person?: string; street: string; city: string };
  items: GenItem[];
  /** A bold section-heading row before the items (not an item). */
  section?: string;
  /** The wide table: position, item code, description, quantity, unit, unit price, VAT rate, amount. */
  wide: boolean;
  /** A note row after the items (text only, not an item). */
  note?: string;
  /** Under the first item, a line with its list price (an amount in the description, not an item). */
  listPrice?: boolean;
  /** A group subtotal row after the items, its amount in the amount column (not an item). */
  groupTotal?: boolean;
  /** A VAT summary table under the totals (code, base, rate, amount per rate): not items. */
  vatTable?: boolean;
  /** Totals written in the item table's columns (label in the description column, "plus 20 % VAT on <base>" rows): not items. */
  totalsInColumns?: boolean;
  /** Items over two pages: carried-forward rows at the foot of page 1 and the head of page 2, the letterhead and a page number repeated (not items). */
  carryForward?: boolean;
  /** Under the totals, an instalment schedule (due date | amount): not items. */
  schedule?: boolean;
  /** With carryForward: the legal footer (phone, register, IBAN) on page 1 close under the table and no carried sum. */
  footerEveryPage?: boolean;
  /** A sentence across the table's width after the items, ending in an amount (a payment note): not an item. */
  prose?: boolean;
  /** Classic layout: the letterhead and the return-address line name the vendor's department after its name. */
  department?: boolean;
  /** Classic layout: the address window on the right (Swiss/French envelopes), the invoice details on the left. */
  windowRight?: boolean;
  /** A salutation line above the addressee ("Firma", "Messrs", "Société"). */
  salutation?: boolean;
  /** No subtotal line: the net is printed only as each rate's base ("VAT 20 % on 1,234.56"). */
  basesOnly?: boolean;
  /**
   * Classic layout printed by the buyer from its own accounting system ("Vendor Bill"): the
   * letterhead and footer are the buyer's, the address block names the vendor.
   */
  buyerPrinted?: boolean;
  /** Items printed as captioned records (an e-invoice viewer's "details"), no item table. */
  itemRecords?: boolean;
  /** The item table without a header row (description … amount), each item with an indented breakdown row. */
  headerless?: boolean;
  /** A deposit paid before: gross total, the deposit, then the (smaller) amount due. */
  prepaid?: boolean;
  /** Classic layout: a logo (a picture, no text) instead of the printed letterhead: the vendor is named only by the return-address line and the footer. */
  logoHead?: boolean;
  /** Classic layout: no return-address line over the address window. */
  noSenderLine?: boolean;
  /** Classic layout: the return-address line separated by commas ("Name GmbH, Street 1, 12345 City"). */
  senderCommas?: boolean;
  /** Classic layout: the contact person printed above the addressee's company (no attention prefix; "Frau"/"Mr" title in de/en). */
  personFirst?: boolean;
  /** A contact line ("Contact: Claire Dubois, Service achats") above the addressee's company. */
  contactFirst?: boolean;
  /** Totals as a caption row over a value row, a payment paragraph set beside them in between. */
  totalsGrid?: boolean;
  /** A service-period caption that starts like the date label ("Date de début de prestation : …"). */
  periodCaption?: boolean;
  /**
   * Classic layout: the letterhead prints a trade name (no legal form), its address and its VAT
   * number; the legal footer names another company (a billing agent) with another VAT number.
   */
  agentFooter?: boolean;
  /** Classic layout: the letterhead prints a brand (the name's first word in capitals) and a slogan; the legal name only in the return-address line and footer. */
  brandHead?: boolean;
  /** Classic layout: a labelled delivery address (another place, another name) beside the unlabelled address window. */
  deliveryBeside?: boolean;
  /** A private customer: a courtesy title ("Herrn" on its own line, "Monsieur …", "Mr …") before a person's name. */
  privateCustomer?: boolean;
  /** The legal footer as centred sentences ("Name GmbH, Sitz Hamburg, Amtsgericht Hamburg HRB 12345 …") instead of columns. */
  footerSentence?: boolean;
  /**
   * Classic table: each column caption stacked over tight lines ("Unit" / "price" / "(EUR)"), as
   * e-invoicing tools print them, and a reference line ("Ref. A-101") above each item's amounts.
   */
  stackedCaptions?: boolean;
  subtotal: number;
  taxes: { rate: number; amount: number }[];
  tax: number;
  total: number;
}

/** The truth in the benchmark's vocabulary (invoices-intl JSON keys). */
export function truthOf(g: GenInvoice) {
  return {
    invoiceNo: g.invoiceNo,
    invoiceDate: g.invoiceDate,
    dueDate: g.dueDate,
    vendor: g.vendor.name,
    /** The vendor's VAT number (valid check digits), compact. */
    vendorTaxId: g.vendor.vat,
    customer: g.customer.name,
    currency: g.currency,
    total: g.total,
    subtotal: g.subtotal,
    tax: g.tax,
    lineItems: g.items.map((i) => ({
      description: i.description.join(" "),
      quantity: i.quantity,
      unitPrice: i.unitPrice,
      total: i.total,
    })),
    language: g.language,
  };
}

// ---------------------------------------------------------------- vocabulary

const L = {
  en: {
    title: ["INVOICE", "Invoice", "Tax Invoice"],
    credit: "Credit Note",
    purchase: "Vendor Bill",
    prepaid: ["Total incl. VAT", "Deposit paid", "Amount due"],
    caption: { company: "Company name:", address: "Address:", reg: "Company No.:", vat: "VAT No.:", ship: "Deliver to" },
    records: { name: "Item name:", qty: "Quantity", price: "Unit price", total: "Line total", heading: "Line details" },
    no: ["Invoice No.", "Invoice number", "Invoice #"],
    date: ["Invoice date", "Date", "Date of issue"],
    due: ["Due date", "Payment due", "Due"],
    customerNo: "Customer No.",
    seller: ["From", "Seller", "Supplier"],
    buyer: ["Bill to", "Invoice to", "Customer"],
    cols: [
      ["Description", "Qty", "Unit price", "Amount"],
      ["Item", "Quantity", "Rate", "Total"],
    ],
    subtotal: ["Subtotal", "Net amount", "Total excl. VAT"],
    vat: ["VAT", "Tax", "VAT"],
    total: ["Total", "Total due", "Amount due"],
    section: ["Services", "Hardware"],
    wide: ["Pos.", "Item no.", "Description", "Qty", "Unit", "Unit price", "VAT", "Amount"],
    unit: ["pcs", "h", "each"],
    note: "Delivery date: as per delivery note",
    gross: "List price",
    vatTable: ["VAT code", "Net amount", "Rate", "VAT amount"],
    groupTotal: "Subtotal services",
    sentence: (no: string, date: string) => `Invoice ${no} of ${date}`,
    creditSentence: (no: string, date: string) => `Credit note ${no} of ${date}`,
    pay: "Please pay within 14 days to the account below.",
    plusVat: (rate: string, base: string) => `plus ${rate} VAT on ${base}`,
    carry: "Carried forward",
    department: "Customer Service",
    salutation: "Messrs",
    prose: (due: string, amount: string) => `We kindly ask you to transfer the full invoice amount by ${due} at the latest: ${amount}`,
    page: (n: number, of: number) => `Page ${n} of ${of}`,
    schedule: ["Instalment due", "Amount"],
    months: ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"],
    products: ["Consulting services", "Software licence (annual)", "Support hours", "Installation", "Training workshop", "Cloud hosting plan", "Network switch 24 ports", "Project management"],
    detail: ["incl. travel time", "Period: 01/03/2024 - 31/03/2024", "Serial no. 4711-0815"],
  },
  de: {
    title: ["RECHNUNG", "Rechnung"],
    credit: "Gutschrift",
    purchase: "Lieferantenrechnung",
    prepaid: ["Gesamtbetrag brutto", "Anzahlung", "Zahlbetrag"],
    caption: { company: "Firma:", address: "Anschrift:", reg: "Handelsregister:", vat: "USt-IdNr.:", ship: "Lieferadresse" },
    records: { name: "Bezeichnung:", qty: "Menge", price: "Einzelpreis", total: "Gesamtpreis (netto)", heading: "Details" },
    no: ["Rechnungsnummer", "Rechnungs-Nr.", "Rechnung Nr."],
    date: ["Rechnungsdatum", "Datum", "Belegdatum"],
    due: ["Fällig am", "Zahlbar bis", "Fälligkeitsdatum"],
    customerNo: "Kundennummer",
    seller: ["Verkäufer", "Rechnungssteller", "Lieferant"],
    buyer: ["Rechnungsempfänger", "Kunde", "Rechnungsadresse"],
    cols: [
      ["Bezeichnung", "Menge", "Einzelpreis", "Betrag"],
      ["Artikel", "Anzahl", "Preis", "Gesamt"],
    ],
    subtotal: ["Nettobetrag", "Summe netto", "Zwischensumme"],
    vat: ["MwSt.", "USt.", "Umsatzsteuer"],
    total: ["Gesamtbetrag", "Rechnungsbetrag", "Bruttobetrag"],
    section: ["Leistungen", "Material"],
    wide: ["Pos.", "Art.-Nr.", "Bezeichnung", "Menge", "Einheit", "Einzelpreis", "USt.", "Gesamtpreis"],
    unit: ["Stk.", "Std.", "Pauschal"],
    note: "Lieferung erfolgte gemäß Lieferschein",
    gross: "Listenpreis",
    vatTable: ["Steuerschlüssel", "Nettobetrag", "Steuersatz", "Steuerbetrag"],
    groupTotal: "Zwischensumme Leistungen",
    sentence: (no: string, date: string) => `Rechnung Nr. ${no} vom ${date}`,
    creditSentence: (no: string, date: string) => `Gutschrift Nr. ${no} vom ${date}`,
    pay: "Bitte überweisen Sie den Betrag innerhalb von 14 Tagen auf das unten genannte Konto.",
    plusVat: (rate: string, base: string) => `zzgl. ${rate} MwSt. auf ${base}`,
    carry: "Übertrag",
    department: "Kundenservice",
    salutation: "Firma",
    prose: (due: string, amount: string) => `Wir bitten Sie, den Rechnungsbetrag bis spätestens ${due} zu überweisen: ${amount}`,
    page: (n: number, of: number) => `Seite ${n} von ${of}`,
    schedule: ["Fällig am", "Betrag"],
    months: ["Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September", "Oktober", "November", "Dezember"],
    products: ["Beratungsleistung", "Softwarelizenz (jährlich)", "Wartungsvertrag", "Montage vor Ort", "Schulung Mitarbeiter", "Webhosting Paket", "Druckerpapier A4", "Projektleitung"],
    detail: ["inkl. Anfahrt", "Zeitraum 01.03.2024 - 31.03.2024", "Seriennummer 4711-0815"],
  },
  fr: {
    title: ["FACTURE", "Facture"],
    credit: "Avoir",
    purchase: "Facture fournisseur",
    prepaid: ["Total TTC", "Acompte versé", "Net à payer"],
    caption: { company: "Raison sociale :", address: "Adresse :", reg: "SIRET :", vat: "N° TVA :", ship: "Adresse de livraison" },
    records: { name: "Désignation :", qty: "Quantité", price: "Prix unitaire HT", total: "Montant net de la ligne", heading: "Détail des lignes" },
    no: ["Facture n°", "Numéro de facture", "N° de facture"],
    date: ["Date de facture", "Date", "Date d'émission"],
    due: ["Date d'échéance", "Échéance", "À payer avant le"],
    customerNo: "N° client",
    seller: ["Vendeur", "Fournisseur", "Émetteur"],
    buyer: ["Client", "Facturé à", "Adresse de facturation"],
    cols: [
      ["Désignation", "Qté", "Prix unitaire HT", "Montant HT"],
      ["Description", "Quantité", "P.U. HT", "Total HT"],
    ],
    subtotal: ["Total HT", "Montant HT", "Sous-total HT"],
    vat: ["TVA", "TVA", "Montant TVA"],
    total: ["Total TTC", "Net à payer", "Montant TTC"],
    section: ["Prestations", "Matériel"],
    wide: ["N°", "Référence", "Désignation", "Qté", "Unité", "P.U. HT", "TVA", "Montant HT"],
    unit: ["pce", "h", "forfait"],
    note: "Livraison effectuée selon bon de livraison",
    gross: "Prix catalogue",
    vatTable: ["Code TVA", "Base HT", "Taux", "Montant TVA"],
    groupTotal: "Sous-total prestations",
    sentence: (no: string, date: string) => `Facture N° ${no} du ${date}`,
    creditSentence: (no: string, date: string) => `Avoir N° ${no} du ${date}`,
    pay: "Paiement à 30 jours par virement sur le compte ci-dessous.",
    plusVat: (rate: string, base: string) => `TVA ${rate} sur ${base}`,
    carry: "Report",
    department: "Service Clients",
    salutation: "Société",
    prose: (due: string, amount: string) => `Nous vous remercions de régler le montant de la facture avant le ${due} : ${amount}`,
    page: (n: number, of: number) => `Page ${n} / ${of}`,
    schedule: ["Échéance", "Montant"],
    months: ["janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre", "novembre", "décembre"],
    products: ["Prestation de conseil", "Licence logicielle (annuelle)", "Maintenance", "Installation sur site", "Formation du personnel", "Hébergement web", "Papier A4 (carton)", "Gestion de projet"],
    detail: ["déplacement inclus", "Période du 01/03/2024 au 31/03/2024", "N° de série 4711-0815"],
  },
} as const;

const VENDORS: Record<GenLanguage, { name: string; street: string; city: string; country: string }[]> = {
  de: [
    { name: "Hansen Bürotechnik GmbH", street: "Lindenstraße 12", city: "20095 Hamburg", country: "DE" },
    { name: "Kröger & Söhne KG", street: "Am Markt 3", city: "04109 Leipzig", country: "DE" },
    { name: "Alpenblick Software AG", street: "Bahnhofstraße 48", city: "80335 München", country: "DE" },
  ],
  fr: [
    { name: "Atelier Dumont SARL", street: "14 rue des Lilas", city: "69003 Lyon", country: "FR" },
    { name: "Nexa Conseil SAS", street: "27 avenue Jean Jaurès", city: "31000 Toulouse", country: "FR" },
    { name: "Boulanger Informatique SA", street: "5 place de la Gare", city: "59000 Lille", country: "FR" },
  ],
  en: [
    { name: "Bright Harbour Ltd", street: "21 Wharf Road", city: "London N1 7GR", country: "GB" },
    { name: "Northwind Analytics Ltd", street: "4 Castle Street", city: "Edinburgh EH2 3AH", country: "GB" },
    { name: "Greenfield Digital Limited", street: "88 King Street", city: "Manchester M2 4WQ", country: "GB" },
  ],
};

/** Private customers: the courtesy title printed before (or, in German, above) the name. */
const PRIVATE: Record<GenLanguage, { name: string; title: string }> = {
  de: { name: "Thomas Becker", title: "Herrn" },
  fr: { name: "Julien Martin", title: "Monsieur" },
  en: { name: "James Wilson", title: "Mr" },
};
/** A letterhead's slogan under the brand. */
const SLOGAN: Record<GenLanguage, string> = {
  de: "Ihr Partner für Technik und Service",
  fr: "Votre partenaire conseil depuis 1998",
  en: "Quality Service Since 1998",
};
/** A delivery place other than the addressee (a labelled block beside the window). */
const DELIVERY: Record<GenLanguage, string[]> = {
  de: ["Zentrallager Nord", "Industriestraße 12", "28197 Bremen"],
  fr: ["Entrepôt Sud", "12 rue de l'Industrie", "69007 Lyon"],
  en: ["North Warehouse", "4 Dock Road", "Leeds LS1 2AB"],
};

const CUSTOMERS: Record<GenLanguage, { name: string; person?: string; street: string; city: string }[]> = {
  de: [
    { name: "Weber Logistik GmbH", person: "z. Hd. Frau Anna Weber", street: "Hafenweg 7", city: "28195 Bremen" },
    { name: "Stadtwerke Neustadt", street: "Kirchplatz 1", city: "67433 Neustadt" },
    { name: "Müller Haustechnik e.K.", street: "Gartenstraße 22", city: "50667 Köln" },
  ],
  fr: [
    { name: "Maison Lefèvre SAS", person: "À l'attention de M. Paul Lefèvre", street: "3 boulevard Voltaire", city: "75011 Paris" },
    { name: "Cabinet Moreau", street: "18 rue Nationale", city: "44000 Nantes" },
    { name: "Transports Girard SARL", street: "9 chemin des Vignes", city: "33000 Bordeaux" },
  ],
  en: [
    { name: "Riverside Dental Practice", person: "Attn: Dr. Sarah Collins", street: "12 Mill Lane", city: "Bristol BS1 4DJ" },
    { name: "Oakwood Builders Ltd", street: "7 Station Approach", city: "Leeds LS1 5AB" },
    { name: "Harper & Stone LLP", street: "150 High Street", city: "Oxford OX1 4AG" },
  ],
};

// ---------------------------------------------------------------- formatting

function mulberry32(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const r2 = (n: number) => Math.round(n * 100) / 100;

export function formatAmount(n: number, style: GenInvoice["numberFormat"]): string {
  const neg = n < 0;
  const [int, dec] = Math.abs(n).toFixed(2).split(".");
  const sep = style === "dot" ? "," : style === "comma" ? "." : "\u00a0";
  const mark = style === "dot" ? "." : ",";
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, sep).replace(/\u00a0/g, " ");
  return `${neg ? "-" : ""}${grouped}${mark}${dec}`;
}

export function formatDate(iso: string, lang: GenLanguage, style: GenInvoice["dateStyle"]): string {
  const [y, m, d] = iso.split("-").map(Number);
  if (style === "iso") return iso;
  if (style === "long") {
    const month = L[lang].months[m - 1];
    if (lang === "de") return `${d}. ${month} ${y}`;
    if (lang === "fr") return `${d} ${month} ${y}`;
    return `${d} ${month} ${y}`;
  }
  const dd = String(d).padStart(2, "0");
  const mm = String(m).padStart(2, "0");
  if (style === "us") return `${mm}/${dd}/${y}`;
  return lang === "de" ? `${dd}.${mm}.${y}` : `${dd}/${mm}/${y}`;
}

function money(g: GenInvoice, n: number): string {
  const a = formatAmount(n, g.numberFormat);
  return g.currency === "GBP" ? `£${a}` : `${a} €`;
}

// ---------------------------------------------------------------- generation

export interface GenOptions {
  language: GenLanguage;
  layout: GenLayout;
  seed: number;
  creditNote?: boolean;
  items?: number;
  twoRates?: boolean;
  section?: boolean;
  multiLine?: boolean;
  wide?: boolean;
  note?: boolean;
  listPrice?: boolean;
  groupTotal?: boolean;
  vatTable?: boolean;
  totalsInColumns?: boolean;
  carryForward?: boolean;
  schedule?: boolean;
  footerEveryPage?: boolean;
  prose?: boolean;
  department?: boolean;
  windowRight?: boolean;
  salutation?: boolean;
  basesOnly?: boolean;
  buyerPrinted?: boolean;
  itemRecords?: boolean;
  headerless?: boolean;
  prepaid?: boolean;
  logoHead?: boolean;
  noSenderLine?: boolean;
  senderCommas?: boolean;
  footerSentence?: boolean;
  stackedCaptions?: boolean;
  deliveryBeside?: boolean;
  privateCustomer?: boolean;
  brandHead?: boolean;
  personFirst?: boolean;
  /** A contact line ("Contact: Claire Dubois, Service achats") above the addressee's company. */
  contactFirst?: boolean;
  /** Totals as a caption row over a value row, a payment paragraph set beside them in between. */
  totalsGrid?: boolean;
  /** A service-period caption that starts like the date label ("Date de début de prestation : …"). */
  periodCaption?: boolean;
  agentFooter?: boolean;
  /** English only: dates MM/DD/YYYY with day and month both ≤ 12, a +1 phone number in the footer. */
  usDates?: boolean;
}

/** One invoice with its truth, deterministic for a seed. */
export function generateInvoice(o: GenOptions): GenInvoice {
  const rnd = mulberry32(o.seed * 7919 + o.language.length * 31 + o.layout.length);
  const pick = <T,>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];
  const lang = o.language;
  const v = pick(VENDORS[lang]);
  const picked = pick(CUSTOMERS[lang]);
  const c = o.privateCustomer ? { ...PRIVATE[lang], street: picked.street, city: picked.city } : picked;
  const sign = o.creditNote ? -1 : 1;
  const rates = lang === "de" ? [19, 7] : lang === "fr" ? [20, 5.5] : [20, 5];
  const n0 = o.items ?? 2 + Math.floor(rnd() * 4);
  // Captioned records take five rows an item: at most three fit above the totals and footer.
  const n = o.itemRecords ? Math.min(n0, 3) : n0;
  const products = [...L[lang].products].sort(() => rnd() - 0.5);
  const items: GenItem[] = [];
  for (let i = 0; i < n; i++) {
    const quantity = 1 + Math.floor(rnd() * 12);
    const unitPrice = r2(5 + rnd() * 900);
    const rate = o.twoRates && i % 2 === 1 ? rates[1] : rates[0];
    const description: string[] = [products[i % products.length]];
    // US dates everywhere on a US-dated invoice (its detail lines too).
    const detail = (d: string) => (o.usDates ? d.replace(/(\d{2})\/(\d{2})\/(\d{4})/g, "$2/$1/$3") : d);
    if (o.multiLine && i === 0) description.push(detail(pick(L[lang].detail)));
    if (o.multiLine && i === 1) description.push(detail(L[lang].detail[(o.seed + 1) % 3]));
    items.push({ description, quantity, unitPrice, total: r2(sign * quantity * unitPrice), rate });
  }
  const subtotal = r2(items.reduce((s, i) => s + i.total, 0));
  const byRate = new Map<number, number>();
  for (const i of items) byRate.set(i.rate, r2((byRate.get(i.rate) ?? 0) + i.total));
  const taxes = [...byRate].map(([rate, base]) => ({ rate, amount: r2((base * rate) / 100) }));
  const tax = r2(taxes.reduce((s, t) => s + t.amount, 0));
  const year = 2023 + Math.floor(rnd() * 3);
  const month = 1 + Math.floor(rnd() * 12);
  const day0 = 1 + Math.floor(rnd() * 27);
  // US dates: day and month both ≤ 12 on every date printed, so only the locale can tell.
  const day = o.usDates ? 1 + (day0 % 5) : day0;
  const iso = (y: number, m: number, d: number) =>
    `${y}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`;
  const invoiceDate = iso(year, month, day);
  const due = new Date(Date.UTC(year, month - 1, day + (o.usDates ? 7 : 14)));
  const dueDate = iso(due.getUTCFullYear(), due.getUTCMonth() + 1, due.getUTCDate());
  const prefix = pick(["", "RE-", "F", "INV-", ""]);
  const invoiceNo = `${prefix}${year}-${String(100 + Math.floor(rnd() * 9000))}`;
  const vatDigits = String(100000000 + Math.floor(rnd() * 899999999));
  const vat = lang === "de" ? `DE${deVatDigits(vatDigits)}` : lang === "fr" ? `FR${frVatKey(vatDigits)}${vatDigits}` : `GB${vatDigits}`;
  const iban =
    lang === "de"
      ? "DE89 3704 0044 0532 0130 00"
      : lang === "fr"
        ? "FR76 3000 6000 0112 3456 7890 189"
        : "GB33 BUKB 2020 1555 5555 55";
  return {
    id: `${lang}-${o.layout}-${o.seed}${o.creditNote ? "-credit" : ""}`,
    language: lang,
    layout: o.layout,
    variant: Math.floor(rnd() * 3),
    creditNote: !!o.creditNote,
    numberFormat: lang === "en" ? "dot" : lang === "fr" ? pick(["space", "comma"] as const) : "comma",
    dateStyle: ((s) => (o.usDates ? "us" : s))(pick(["numeric", "numeric", "long", lang === "en" ? "long" : "numeric"] as const)),
    currency: lang === "en" ? "GBP" : "EUR",
    invoiceNo,
    invoiceDate,
    dueDate,
    // The template layout's vendor is a brand in capitals without a legal form ("TECNATIVA").
    vendor: {
      ...v,
      vat,
      iban,
      ...(o.layout === "template" ? { name: v.name.split(" ")[0].toUpperCase() } : {}),
      ...(o.agentFooter ? { name: v.name.replace(/\s+(?:GmbH|KG|AG|SARL|SAS|SA|Ltd|Limited)$/, "") } : {}),
    },
    customer: c,
    items,
    section: o.section ? pick(L[lang].section) : undefined,
    wide: !!o.wide,
    note: o.note ? L[lang].note : undefined,
    listPrice: !!o.listPrice,
    groupTotal: !!o.groupTotal,
    vatTable: !!o.vatTable,
    totalsInColumns: !!o.totalsInColumns,
    carryForward: !!o.carryForward,
    schedule: !!o.schedule,
    footerEveryPage: !!o.footerEveryPage,
    prose: !!o.prose,
    department: !!o.department,
    windowRight: !!o.windowRight,
    salutation: !!o.salutation,
    basesOnly: !!o.basesOnly,
    buyerPrinted: !!o.buyerPrinted,
    itemRecords: !!o.itemRecords,
    headerless: !!o.headerless,
    prepaid: !!o.prepaid,
    logoHead: !!o.logoHead,
    noSenderLine: !!o.noSenderLine,
    senderCommas: !!o.senderCommas,
    footerSentence: !!o.footerSentence,
    stackedCaptions: !!o.stackedCaptions,
    deliveryBeside: !!o.deliveryBeside,
    privateCustomer: !!o.privateCustomer,
    brandHead: !!o.brandHead,
    personFirst: !!o.personFirst,
    contactFirst: !!o.contactFirst,
    totalsGrid: !!o.totalsGrid,
    periodCaption: !!o.periodCaption,
    agentFooter: !!o.agentFooter,
    subtotal,
    taxes,
    tax,
    total: r2(subtotal + tax),
  };
}

/** A German VAT number's 9 digits: 8 given digits and their ISO 7064 MOD 11,10 check digit. */
function deVatDigits(digits: string): string {
  let p = 10;
  for (const ch of digits.slice(0, 8)) {
    let s = (Number(ch) + p) % 10;
    if (s === 0) s = 10;
    p = (2 * s) % 11;
  }
  const check = 11 - p;
  return digits.slice(0, 8) + String(check === 10 ? 0 : check);
}

/** A French VAT number's key for a 9-digit SIREN: (12 + 3 × (SIREN mod 97)) mod 97. */
function frVatKey(siren: string): string {
  return String((12 + 3 * (Number(siren) % 97)) % 97).padStart(2, "0");
}

/** The benchmark's generated set: every language × layout, a few seeds, some credit notes. */
export function benchmarkInvoices(): GenInvoice[] {
  const out: GenInvoice[] = [];
  for (const language of ["de", "fr", "en"] as const)
    for (const layout of ["classic", "stacked", "sentence", "captioned", "rightHead", "partyTable", "template"] as const)
      for (let seed = 1; seed <= 4; seed++)
        out.push(
          generateInvoice({
            language,
            layout,
            seed,
            twoRates: seed % 2 === 0,
            section: seed === 3,
            multiLine: seed >= 3,
            wide: seed % 2 === 0,
            note: seed === 2,
            listPrice: seed === 1 || seed === 4,
            vatTable: seed === 2 || seed === 3,
            groupTotal: seed === 3 || seed === 4,
            creditNote: seed === 4 && layout === "stacked",
          }),
        );
  // Role and record variants: a bill printed by the buyer, items as captioned records, US dates.
  for (const language of ["de", "fr", "en"] as const) {
    out.push(generateInvoice({ language, layout: "classic", seed: 5, buyerPrinted: true, twoRates: true }));
    out.push(generateInvoice({ language, layout: "stacked", seed: 5, itemRecords: true, items: 3 }));
    out.push(generateInvoice({ language, layout: "classic", seed: 21, headerless: true, items: 3 }));
    out.push(generateInvoice({ language, layout: "captioned", seed: 22, prepaid: true, twoRates: true }));
    // A logo instead of a letterhead: the issuer named by a comma-separated return-address line or only by a footer sentence.
    out.push(generateInvoice({ language, layout: "classic", seed: 23, logoHead: true, senderCommas: true, footerSentence: true }));
    out.push(generateInvoice({ language, layout: "classic", seed: 24, logoHead: true, noSenderLine: true, footerSentence: true }));
    // A private addressee (courtesy title) with a labelled delivery place beside the window.
    out.push(generateInvoice({ language, layout: "classic", seed: 25, privateCustomer: true, deliveryBeside: true }));
    // A brand and a slogan in the letterhead; the legal name in the return-address line and footer.
    out.push(generateInvoice({ language, layout: "classic", seed: 26, brandHead: true, footerSentence: true }));
    // The contact person printed above the addressee's company.
    out.push(generateInvoice({ language, layout: "classic", seed: 27, personFirst: true }));
    // A contact line over the buyer's company, totals in a caption grid, a period caption by the date.
    out.push(generateInvoice({ language, layout: "stacked", seed: 28, contactFirst: true, totalsGrid: true, periodCaption: true, twoRates: true }));
    out.push(generateInvoice({ language, layout: "classic", seed: 29, totalsGrid: true, periodCaption: true }));
    // A trade name with its VAT number in the letterhead, a billing agent's legal footer.
    out.push(generateInvoice({ language, layout: "classic", seed: 30, agentFooter: true, noSenderLine: true }));
    // Column captions stacked over tight lines, a reference line above each item's amounts.
    out.push(generateInvoice({ language, layout: "classic", seed: 31, stackedCaptions: true, twoRates: true, multiLine: true }));
  }
  out.push(generateInvoice({ language: "en", layout: "classic", seed: 6, usDates: true, multiLine: true }));
  return out;
}

// ---------------------------------------------------------------- rendering

interface Ctx {
  doc: PDFDocument;
  page: PDFPage;
  font: PDFFont;
  bold: PDFFont;
  H: number;
}

function text(ctx: Ctx, x: number, y: number, s: string, opts: { size?: number; bold?: boolean; right?: boolean } = {}) {
  const size = opts.size ?? 9;
  const font = opts.bold ? ctx.bold : ctx.font;
  const w = font.widthOfTextAtSize(s, size);
  ctx.page.drawText(s, { x: opts.right ? x - w : x, y: ctx.H - y - size * 0.8, size, font, color: rgb(0, 0, 0) });
}

function rule(ctx: Ctx, x0: number, x1: number, y: number) {
  ctx.page.drawLine({ start: { x: x0, y: ctx.H - y }, end: { x: x1, y: ctx.H - y }, thickness: 0.5, color: rgb(0.3, 0.3, 0.3) });
}

/** The PDF of a generated invoice. */
export async function renderInvoice(g: GenInvoice): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([595, 842]);
  const ctx: Ctx = {
    doc,
    page,
    font: await doc.embedFont(StandardFonts.Helvetica),
    bold: await doc.embedFont(StandardFonts.HelveticaBold),
    H: 842,
  };
  const lex = L[g.language];
  const k = g.variant;
  const date = formatDate(g.invoiceDate, g.language, g.dateStyle);
  const due = formatDate(g.dueDate, g.language, g.dateStyle);
  const periodStart = formatDate(`${g.invoiceDate.slice(0, 8)}01`, g.language, g.dateStyle);
  // A bill the buyer printed keeps its purchase title (the only sign of who printed it).
  const title = g.buyerPrinted ? lex.purchase : g.creditNote ? lex.credit : lex.title[k % lex.title.length];
  const customerNo = `${10000 + (g.invoiceNo.length * 7919) % 89999}`;
  const titled = g.privateCustomer ? (g.language === "de" ? [PRIVATE.de.title, g.customer.name] : [`${PRIVATE[g.language].title} ${g.customer.name}`]) : [g.customer.name];
  const contact = { de: "Frau Anna Keller", fr: "Claire Dubois", en: "Mr Tom Baker" }[g.language];
  const contactLine = { de: "Kontakt: Anna Keller, Einkauf", fr: "Contact : Claire Dubois, Service achats", en: "Contact: Tom Baker, Purchasing" }[g.language];
  const customerLines = g.personFirst
    ? [contact, g.customer.name, g.customer.street, g.customer.city]
    : g.contactFirst
      ? [contactLine, g.customer.name, g.customer.street, g.customer.city]
    : [...(g.salutation && !g.privateCustomer ? [lex.salutation] : []), ...titled, ...(g.customer.person ? [g.customer.person] : []), g.customer.street, g.customer.city];
  const vendorLines = [g.vendor.street, g.vendor.city];
  let y: number;

  if (g.layout === "classic" && g.buyerPrinted) {
    // The buyer's own print of the vendor's bill: its letterhead, the vendor in the address block.
    text(ctx, 50, 40, g.customer.name, { size: 16, bold: true });
    [g.customer.street, g.customer.city].forEach((l, i) => text(ctx, 50, 60 + i * 11, l, { size: 9 }));
    [g.vendor.name, ...vendorLines].forEach((l, i) => text(ctx, 330, 118 + i * 12, l, { size: 10 }));
    text(ctx, 50, 190, `${title} ${g.invoiceNo}`, { size: 16, bold: true });
    text(ctx, 50, 212, `${lex.date[0]}: ${date}`);
    text(ctx, 300, 212, `${lex.due[0]}: ${due}`);
    y = 245;
  } else if (g.layout === "classic") {
    // Letterhead top left, meta table right (label left, value right-aligned), address window.
    const head = g.department ? `${g.vendor.name} ${lex.department}` : g.vendor.name;
    if (g.logoHead) ctx.page.drawRectangle({ x: 50, y: ctx.H - 70, width: 90, height: 40, color: rgb(0.2, 0.3, 0.6) });
    else if (g.brandHead) {
      text(ctx, 50, 36, g.vendor.name.split(" ")[0].toUpperCase(), { size: 22, bold: true });
      text(ctx, 50, 62, SLOGAN[g.language], { size: 9 });
    } else {
      text(ctx, 50, 40, head, { size: 16, bold: true });
      text(ctx, 50, 62, vendorLines.join(" · "), { size: 8 });
      if (g.agentFooter) text(ctx, 50, 80, `${VAT_CAPTION[g.language]}: ${g.vendor.vat}`, { size: 8 });
    }
    const wx = g.windowRight ? 330 : 50;
    const mx = g.windowRight ? 50 : 340;
    if (!g.noSenderLine)
      text(ctx, wx, 118, g.senderCommas ? [head, ...vendorLines].join(", ") : `${head} · ${vendorLines.join(" · ")}`, { size: 6 });
    customerLines.forEach((l, i) => text(ctx, wx, 132 + i * 12, l, { size: 10 }));
    if (g.deliveryBeside) {
      text(ctx, wx + 160, 132, `${lex.caption.ship}:`, { size: 8, bold: true });
      DELIVERY[g.language].forEach((l, i) => text(ctx, wx + 160, 144 + i * 11, l, { size: 8 }));
    }
    text(ctx, mx, 110, title, { size: 18, bold: true });
    const meta: [string, string][] = [
      [lex.no[k], g.invoiceNo],
      [lex.date[k], date],
      [lex.customerNo, customerNo],
      [lex.due[k], due],
    ];
    meta.forEach(([a, b], i) => {
      text(ctx, mx, 140 + i * 14, a);
      text(ctx, mx + 205, 140 + i * 14, b, { right: true });
    });
    if (g.periodCaption) text(ctx, mx, 200, `${PERIOD[g.language]}: ${periodStart}`, { size: 8 });
    y = 230;
  } else if (g.layout === "stacked") {
    // Title, a row of labels above their values, parties side by side under role headings.
    text(ctx, 50, 40, title, { size: 20, bold: true });
    const meta: [string, string][] = [
      [lex.no[k], g.invoiceNo],
      [lex.date[k], date],
      [lex.due[k], due],
    ];
    meta.forEach(([a, b], i) => {
      text(ctx, 50 + i * 150, 80, a, { size: 8, bold: true });
      text(ctx, 50 + i * 150, 93, b, { size: 10 });
    });
    if (g.periodCaption) text(ctx, 50, 110, `${PERIOD[g.language]}: ${periodStart}`, { size: 8 });
    text(ctx, 50, 130, lex.seller[k], { size: 8, bold: true });
    [g.vendor.name, ...vendorLines, `${g.language === "fr" ? "TVA" : g.language === "de" ? "USt-IdNr." : "VAT"}: ${g.vendor.vat}`].forEach((l, i) =>
      text(ctx, 50, 144 + i * 12, l),
    );
    text(ctx, 320, 130, lex.buyer[k], { size: 8, bold: true });
    customerLines.forEach((l, i) => text(ctx, 320, 144 + i * 12, l));
    y = 230;
  } else if (g.layout === "captioned") {
    // Title and a label/value table top right; role-headed party sections whose lines are
    // captioned ("Raison sociale : …", "Adresse : …"), names in capitals; a delivery section.
    const C = lex.caption;
    text(ctx, 545, 40, title.toUpperCase(), { size: 18, bold: true, right: true });
    const meta: [string, string][] = [
      [lex.no[k], g.invoiceNo],
      [lex.date[k], date],
      [lex.due[k], due],
    ];
    meta.forEach(([a, b], i) => {
      text(ctx, 360, 70 + i * 12, a, { size: 8 });
      text(ctx, 545, 70 + i * 12, b, { size: 8, right: true });
    });
    const section = (x: number, heading: string, lines: [string, string][]) => {
      text(ctx, x, 130, heading.toUpperCase(), { size: 9, bold: true });
      lines.forEach(([cap, v], i) => {
        text(ctx, x, 146 + i * 11, cap, { size: 7 });
        text(ctx, x + 75, 146 + i * 11, v, { size: 8 });
      });
    };
    const reg = g.language === "de" ? "HRB 12345" : g.language === "fr" ? "123 456 789 00012" : "01234567";
    section(50, lex.seller[k], [
      [C.company, g.vendor.name.toUpperCase()],
      [C.address, g.vendor.street],
      ["", g.vendor.city],
      [C.reg, reg],
      [C.vat, g.vendor.vat],
    ]);
    section(320, lex.buyer[k], [
      [C.company, g.customer.name.toUpperCase()],
      [C.address, g.customer.street],
      ["", g.customer.city],
    ]);
    text(ctx, 320, 190, C.ship.toUpperCase(), { size: 8, bold: true });
    text(ctx, 320, 202, `${g.customer.name} – ${lex.department}`, { size: 8 });
    text(ctx, 320, 213, g.customer.street, { size: 8 });
    y = 245;
  } else if (g.layout === "partyTable") {
    // The parties in one table: role headings over two value columns, captions as row labels.
    const C = lex.caption;
    text(ctx, 50, 40, title, { size: 18, bold: true });
    text(ctx, 50, 64, `${lex.no[k]}: ${g.invoiceNo}`, { size: 9 });
    text(ctx, 250, 64, `${lex.date[k]}: ${date}`, { size: 9 });
    text(ctx, 420, 64, `${lex.due[k]}: ${due}`, { size: 9 });
    text(ctx, 160, 100, lex.seller[k], { size: 9, bold: true });
    text(ctx, 360, 100, lex.buyer[k], { size: 9, bold: true });
    rule(ctx, 50, 545, 112);
    const reg = g.language === "de" ? "HRB 12345" : g.language === "fr" ? "123 456 789 00012" : "01234567";
    const rowsT: [string, string, string][] = [
      [C.company, g.vendor.name, g.customer.name],
      [C.address, g.vendor.street, g.customer.street],
      ["", g.vendor.city, g.customer.city],
      [C.vat, g.vendor.vat, ""],
      [C.reg, reg, ""],
    ];
    rowsT.forEach(([cap, a, b], i) => {
      text(ctx, 50, 120 + i * 12, cap, { size: 8 });
      text(ctx, 160, 120 + i * 12, a, { size: 8 });
      if (b) text(ctx, 360, 120 + i * 12, b, { size: 8 });
    });
    y = 200;
  } else if (g.layout === "template") {
    // An office-suite template: title and number in large type, the vendor's block (name, tax
    // id, street, city) where a window address would be, the date at the right, then labelled
    // bill-to and ship-to sections side by side.
    text(ctx, 60, 50, title.toUpperCase(), { size: 22 });
    text(ctx, 60, 78, g.invoiceNo, { size: 22 });
    [g.vendor.name, g.vendor.vat, ...vendorLines].forEach((l, i) => text(ctx, 60, 125 + i * 13, l, { size: 10 }));
    text(ctx, 520, 138, lex.date[0].toUpperCase(), { size: 9, bold: true, right: true });
    text(ctx, 520, 164, date, { size: 9, right: true });
    text(ctx, 530, 200, `${lex.due[0]}: ${due}`, { size: 9, right: true });
    text(ctx, 60, 230, lex.buyer[0].toUpperCase(), { size: 9, bold: true });
    text(ctx, 300, 230, lex.caption.ship.toUpperCase(), { size: 9, bold: true });
    [g.customer.name, g.customer.street, g.customer.city].forEach((l, i) => {
      text(ctx, 60, 246 + i * 13, l, { size: 10 });
      text(ctx, 300, 246 + i * 13, l, { size: 10 });
    });
    y = 310;
  } else if (g.layout === "rightHead") {
    // Letterhead set flush right at the top right, the window left with the return line, the
    // invoice details as "label: value" lines right under the letterhead.
    text(ctx, 545, 40, g.vendor.name, { size: 15, bold: true, right: true });
    vendorLines.forEach((l, i) => text(ctx, 545, 60 + i * 10, l, { size: 8, right: true }));
    text(ctx, 545, 80, `${g.language === "fr" ? "TVA" : g.language === "de" ? "USt-IdNr." : "VAT"}: ${g.vendor.vat}`, { size: 8, right: true });
    text(ctx, 50, 118, `${g.vendor.name} · ${vendorLines.join(" · ")}`, { size: 6 });
    customerLines.forEach((l, i) => text(ctx, 50, 132 + i * 12, l, { size: 10 }));
    text(ctx, 340, 130, `${lex.no[k]}: ${g.invoiceNo}`, { size: 9 });
    text(ctx, 340, 143, `${lex.date[k]}: ${date}`, { size: 9 });
    text(ctx, 340, 156, `${lex.customerNo}: ${customerNo}`, { size: 9 });
    text(ctx, 340, 169, `${lex.due[k]}: ${due}`, { size: 9 });
    text(ctx, 50, 212, title, { size: 16, bold: true });
    y = 240;
  } else {
    // Window address at the top, a header sentence with number and date, vendor only in the footer.
    customerLines.forEach((l, i) => text(ctx, 60, 120 + i * 12, l, { size: 10 }));
    text(ctx, 380, 120, `${lex.customerNo}: ${customerNo}`, { size: 8 });
    text(ctx, 380, 132, `${lex.due[k]}: ${due}`, { size: 8 });
    text(ctx, 50, 200, (g.creditNote ? lex.creditSentence : lex.sentence)(g.invoiceNo, date), { size: 13, bold: true });
    y = 235;
  }

  // The item table.
  if (g.itemRecords) {
    // One captioned record per item: position, price details, then (de: after them) the name.
    const R = lex.records;
    text(ctx, 50, y, R.heading, { size: 11, bold: true });
    y += 20;
    g.items.forEach((it, n) => {
      text(ctx, 55, y, String(n + 1), { bold: true });
      y += 16;
      const nameRow = () => {
        text(ctx, 55, y, R.name);
        text(ctx, 180, y, it.description.join(" "));
        y += 14;
      };
      if (g.language !== "de") nameRow();
      for (const [label, value] of [
        [R.qty, String(it.quantity)],
        [R.price, formatAmount(it.unitPrice, g.numberFormat)],
        [R.total, formatAmount(it.total, g.numberFormat)],
      ] as const) {
        text(ctx, 55, y, label);
        text(ctx, 330, y, value, { right: true });
        y += 13;
      }
      if (g.language === "de") nameRow();
      y += 12;
    });
  } else if (g.wide) {
    const W = lex.wide;
    const X = { pos: 50, code: 75, desc: 130, qty: 345, unit: 352, unitPrice: 450, vat: 490, amount: 545 };
    text(ctx, X.pos, y, W[0], { bold: true, size: 8 });
    text(ctx, X.code, y, W[1], { bold: true, size: 8 });
    text(ctx, X.desc, y, W[2], { bold: true, size: 8 });
    text(ctx, X.qty, y, W[3], { bold: true, size: 8, right: true });
    text(ctx, X.unit, y, W[4], { bold: true, size: 8 });
    text(ctx, X.unitPrice, y, W[5], { bold: true, size: 8, right: true });
    text(ctx, X.vat, y, W[6], { bold: true, size: 8, right: true });
    text(ctx, X.amount, y, W[7], { bold: true, size: 8, right: true });
    rule(ctx, 50, 545, y + 12);
    y += 18;
    if (g.section) {
      text(ctx, X.desc, y, g.section, { bold: true, size: 8 });
      y += 14;
    }
    g.items.forEach((it, n) => {
      text(ctx, X.pos, y, String(n + 1), { size: 8 });
      text(ctx, X.code, y, `A-${1000 + n * 37}`, { size: 8 });
      text(ctx, X.desc, y, it.description[0], { size: 8 });
      text(ctx, X.qty, y, String(it.quantity), { size: 8, right: true });
      text(ctx, X.unit, y, lex.unit[n % lex.unit.length], { size: 8 });
      text(ctx, X.unitPrice, y, formatAmount(it.unitPrice, g.numberFormat), { size: 8, right: true });
      text(ctx, X.vat, y, `${String(it.rate).replace(".", g.numberFormat === "dot" ? "." : ",")} %`, { size: 8, right: true });
      text(ctx, X.amount, y, formatAmount(it.total, g.numberFormat), { size: 8, right: true });
      for (const extra of it.description.slice(1)) {
        y += 10;
        text(ctx, X.desc, y, extra, { size: 7 });
      }
      if (g.listPrice && n === 0) {
        y += 10;
        text(ctx, X.desc, y, `${lex.gross}: ${formatAmount(r2(it.unitPrice * 1.1), g.numberFormat)}`, { size: 7 });
      }
      y += 14;
    });
    if (g.groupTotal) {
      text(ctx, X.desc, y, lex.groupTotal, { size: 8, bold: true });
      text(ctx, X.amount, y, formatAmount(g.subtotal, g.numberFormat), { size: 8, bold: true, right: true });
      y += 14;
    }
  } else {
    const cols = lex.cols[k % 2];
    const X = { desc: 50, qty: 350, unit: 440, amount: 545 };
    if (g.headerless) {
      // No header row: a section heading, then "description … amount" rows with a breakdown.
      text(ctx, X.desc, y, lex.records.heading, { bold: true, size: 11 });
      y += 22;
      for (const it of g.items) {
        text(ctx, X.desc, y, it.description[0], { bold: true });
        text(ctx, X.amount, y, money(g, it.total), { right: true, bold: true });
        y += 13;
        text(ctx, X.desc + 15, y, `${it.quantity} × ${money(g, it.unitPrice)}`, { size: 8 });
        text(ctx, X.amount, y, money(g, it.total), { right: true, size: 8 });
        y += 18;
      }
      y += 6;
    }
    if (!g.headerless && g.stackedCaptions) {
      // Each caption's words on lines 5 pt apart, the currency under the money columns.
      const stack = (x: number, caption: string, money: boolean, right: boolean) => {
        const lines = caption.split(" ");
        if (money) lines.push(`(${g.currency})`);
        lines.forEach((l, i) => text(ctx, x, y + i * 5, l, { size: 7, right }));
        return lines.length;
      };
      const depth = Math.max(stack(X.desc, cols[0], false, false), stack(X.qty, cols[1], false, true), stack(X.unit, cols[2], true, true), stack(X.amount, cols[3], true, true));
      rule(ctx, 50, 545, y + depth * 5 + 4);
      y += depth * 5 + 11;
    } else if (!g.headerless) {
      text(ctx, X.desc, y, cols[0], { bold: true });
      text(ctx, X.qty, y, cols[1], { bold: true, right: true });
      text(ctx, X.unit, y, cols[2], { bold: true, right: true });
      text(ctx, X.amount, y, cols[3], { bold: true, right: true });
      rule(ctx, 50, 545, y + 13);
      y += 20;
    }
    if (g.section) {
      text(ctx, X.desc, y, g.section, { bold: true });
      y += 15;
    }
    let carried = 0;
    for (const [n, it] of (g.headerless ? [] : g.items).entries()) {
      if (g.carryForward && n === Math.ceil(g.items.length / 2)) {
        // Page break: carried-forward sum at the foot, page number; page 2 repeats the letterhead.
        if (g.footerEveryPage) {
          footer({ ...ctx, H: ctx.H - (y + 40 - 770) }, g, vendorLines);
          text(ctx, 545, y + 70, lex.page(1, 2), { size: 8, right: true });
        } else {
          text(ctx, X.desc, y, lex.carry, { bold: true });
          text(ctx, X.amount, y, money(g, r2(carried)), { bold: true, right: true });
          text(ctx, 50, 800, lex.page(1, 2), { size: 8 });
        }
        ctx.page = ctx.doc.addPage([595, 842]);
        text(ctx, 50, 40, g.vendor.name, { size: 12, bold: true });
        text(ctx, 50, 56, vendorLines.join(" · "), { size: 8 });
        text(ctx, 545, 40, `${title} ${g.invoiceNo}`, { size: 9, right: true });
        text(ctx, 545, 52, lex.page(2, 2), { size: 8, right: true });
        y = 100;
        if (!g.footerEveryPage) {
          text(ctx, X.desc, y, lex.carry, { bold: true });
          text(ctx, X.amount, y, money(g, r2(carried)), { bold: true, right: true });
          y += 18;
        }
      }
      carried += it.total;
      if (g.stackedCaptions) {
        text(ctx, X.desc, y, `Ref. A-${101 + n}`, { size: 7 });
        y += 9;
      }
      text(ctx, X.desc, y, it.description[0]);
      text(ctx, X.qty, y, String(it.quantity), { right: true });
      text(ctx, X.unit, y, money(g, it.unitPrice), { right: true });
      text(ctx, X.amount, y, money(g, it.total), { right: true });
      for (const extra of it.description.slice(1)) {
        y += 11;
        text(ctx, X.desc, y, extra, { size: 8 });
      }
      if (g.listPrice && it === g.items[0]) {
        y += 11;
        text(ctx, X.desc, y, `${lex.gross}: ${money(g, r2(it.unitPrice * 1.1))}`, { size: 8 });
      }
      y += 15;
    }
    if (g.groupTotal) {
      text(ctx, X.desc, y, lex.groupTotal, { bold: true });
      text(ctx, X.amount, y, money(g, g.subtotal), { bold: true, right: true });
      y += 15;
    }
  }
  if (g.prose) {
    text(ctx, 50, y, lex.prose(formatDate(g.dueDate, g.language, g.dateStyle), money(g, g.total)), { size: 9 });
    y += 16;
  }
  if (g.note) {
    text(ctx, 50, y, g.note, { size: 8 });
    y += 14;
  }
  rule(ctx, g.totalsInColumns ? 50 : 300, 545, y);
  y += 8;
  // Totals: subtotal, one line per tax rate, total.
  const rate = (r: number) => `${String(r).replace(".", g.numberFormat === "dot" ? "." : ",")} %`;
  const bases = new Map<number, number>();
  for (const it of g.items) bases.set(it.rate, r2((bases.get(it.rate) ?? 0) + it.total));
  const rows: [string, number, boolean][] = g.basesOnly ? [] : [[lex.subtotal[k], g.subtotal, false]];
  for (const t of g.taxes)
    rows.push([
      g.totalsInColumns || g.basesOnly ? lex.plusVat(rate(t.rate), formatAmount(bases.get(t.rate) ?? 0, g.numberFormat)) : `${lex.vat[k]} ${rate(t.rate)}`,
      t.amount,
      false,
    ]);
  if (g.prepaid) {
    const deposit = r2(Math.round(g.total * 0.3));
    rows.push([lex.prepaid[0], g.total, true], [lex.prepaid[1], -deposit, false], [lex.prepaid[2], r2(g.total - deposit), true]);
  } else rows.push([lex.total[k], g.total, true]);
  if (g.totalsGrid) {
    // "TOTAL HT | TOTAL TVA | TOTAL TTC" over their amounts, the payment paragraph beside them.
    const G = GRID[g.language];
    const X = [390, 470, 545];
    G.captions.forEach((c, i) => text(ctx, X[i], y, c, { size: 8, bold: true, right: true }));
    G.paragraph.forEach((l, i) => text(ctx, 50, y + 8 + i * 9, l, { size: 7 }));
    [g.subtotal, g.tax, g.total].forEach((v, i) => text(ctx, X[i], y + 32, formatAmount(v, g.numberFormat), { size: 9, right: true }));
    rows.length = 0;
    y += 48;
  }
  for (const [label, value, strong] of rows) {
    // In columns: the label in the description column, the amount in the amount column.
    text(ctx, g.totalsInColumns ? 50 : 330, y, label, { bold: strong });
    text(ctx, 545, y, money(g, value), { right: true, bold: strong });
    y += 14;
  }
  if (g.schedule) {
    y += 12;
    text(ctx, 50, y, lex.schedule[0], { size: 8, bold: true });
    text(ctx, 545, y, lex.schedule[1], { size: 8, bold: true, right: true });
    y += 13;
    const half = r2(g.total / 2);
    [
      [g.invoiceDate, half],
      [g.dueDate, r2(g.total - half)],
    ].forEach(([d, a]) => {
      text(ctx, 50, y, formatDate(d as string, g.language, g.dateStyle), { size: 8 });
      text(ctx, 545, y, money(g, a as number), { size: 8, right: true });
      y += 12;
    });
  }
  if (g.vatTable) {
    y += 10;
    const VX = [50, 200, 290, 400];
    lex.vatTable.forEach((h, i) => text(ctx, VX[i], y, h, { size: 8, bold: true }));
    y += 13;
    g.taxes.forEach((t, i) => {
      text(ctx, VX[0], y, i === 0 ? "S" : "AA", { size: 8 });
      text(ctx, VX[1], y, formatAmount(bases.get(t.rate) ?? 0, g.numberFormat), { size: 8 });
      text(ctx, VX[2], y, `${String(t.rate).replace(".", g.numberFormat === "dot" ? "." : ",")} %`, { size: 8 });
      text(ctx, VX[3], y, formatAmount(t.amount, g.numberFormat), { size: 8 });
      y += 12;
    });
  }
  y += 20;
  text(ctx, 50, y, lex.pay, { size: 8 });

  if (g.agentFooter) {
    // The billing agent's legal footer: another company, another VAT number.
    rule(ctx, 50, 545, 764);
    AGENT[g.language].forEach((l, i) => {
      const w = ctx.font.widthOfTextAtSize(l, 6.5);
      text(ctx, 297 - w / 2, 770 + i * 9, l, { size: 6.5 });
    });
  } else if (g.buyerPrinted) {
    // The buyer's footer: its contacts only.
    rule(ctx, 50, 545, 764);
    text(ctx, 50, 770, `${g.customer.name} · ${g.customer.street} · ${g.customer.city}`, { size: 7 });
  } else footer(ctx, g, vendorLines);
  return Buffer.from(await doc.save());
}

/** Totals grids: captions over amounts, and the payment paragraph printed beside them. */
const GRID: Record<GenLanguage, { captions: string[]; paragraph: string[] }> = {
  fr: {
    captions: ["TOTAL HT", "TOTAL TVA", "TOTAL TTC"],
    paragraph: [
      "Tout retard de paiement engendre une pénalité exigible",
      "calculée sur la base de trois fois le taux d'intérêt légal.",
      "Indemnité forfaitaire pour frais de recouvrement : 40 €.",
    ],
  },
  de: {
    captions: ["Summe netto", "Summe MwSt.", "Gesamtbetrag"],
    paragraph: [
      "Bei Zahlungsverzug berechnen wir Verzugszinsen",
      "in Höhe von neun Prozentpunkten über dem Basiszins.",
      "Skonto wird nicht gewährt.",
    ],
  },
  en: {
    captions: ["Total net", "Total VAT", "Total due"],
    paragraph: [
      "Late payment incurs interest at 8% above base rate",
      "and a fixed recovery fee as permitted by law.",
      "No discount is given for early payment.",
    ],
  },
};

/** "VAT number" as the letterhead captions it. */
const VAT_CAPTION: Record<GenLanguage, string> = { fr: "N° TVA", de: "USt-IdNr.", en: "VAT No." };

/** A billing agent's legal footer: a company other than the letterhead's, with its own VAT number. */
const AGENT: Record<GenLanguage, string[]> = {
  fr: ["FACTURIA SERVICES SARL au capital de 50 000 EUR - RCS PARIS 987 654 321", "12 boulevard Haussmann, 75009 Paris – N° TVA : FR55 987654321"],
  de: ["Fakturia Abrechnungsdienste GmbH, Sitz Köln, Amtsgericht Köln HRB 99887", "Domstraße 5, 50667 Köln, USt-IdNr.: DE987654321"],
  en: ["Billingworks Services Ltd, registered in England No. 07654321", "1 Fleet Street, London EC4Y 1AA, VAT No.: GB987654321"],
};

/** A service-period caption that starts like the date label. */
const PERIOD: Record<GenLanguage, string> = {
  fr: "Date de début de prestation",
  de: "Datum Leistungsbeginn",
  en: "Date of service start",
};

/** The vendor's legal block at the foot of the page. */
function footer(ctx: Ctx, g: GenInvoice, vendorLines: string[]) {
  const f = 770;
  rule(ctx, 50, 545, f - 6);
  if (g.footerSentence) {
    const city = g.vendor.city.replace(/^[\d\s-]+/, "").trim();
    const lines =
      g.language === "de"
        ? [`${g.vendor.name}, ${g.vendor.street}, ${g.vendor.city}, Sitz der Gesellschaft: ${city}, Amtsgericht ${city} HRB 12345`, `Geschäftsführer: Jan Hansen, USt-IdNr.: ${g.vendor.vat}, IBAN: ${g.vendor.iban}`]
        : g.language === "fr"
          ? [`${g.vendor.name} au capital de 10 000 € – ${g.vendor.street} – ${g.vendor.city} – RCS ${city} B 123 456 789`, `N° TVA : ${g.vendor.vat} – IBAN : ${g.vendor.iban}`]
          : [`${g.vendor.name}, registered in England No. 01234567, registered office: ${g.vendor.street}, ${g.vendor.city}`, `VAT No.: ${g.vendor.vat}, IBAN: ${g.vendor.iban}`];
    lines.forEach((l, i) => {
      const w = ctx.font.widthOfTextAtSize(l, 6.5);
      text(ctx, 297 - w / 2, f + i * 9, l, { size: 6.5 });
    });
    return;
  }
  text(ctx, 50, f, g.vendor.name, { size: 7, bold: true });
  vendorLines.forEach((l, i) => text(ctx, 50, f + 10 + i * 9, l, { size: 7 }));
  text(ctx, 230, f, `${g.language === "fr" ? "N° TVA" : g.language === "de" ? "USt-IdNr." : "VAT No."}: ${g.vendor.vat}`, { size: 7 });
  text(ctx, 230, f + 10, g.language === "de" ? "Geschäftsführer: Jan Hansen" : g.language === "fr" ? "RCS Lyon B 123 456 789" : "Registered in England No. 01234567", { size: 7 });
  text(ctx, 400, f, `IBAN: ${g.vendor.iban}`, { size: 7 });
  text(ctx, 400, f + 10, "BIC: COBADEFFXXX", { size: 7 });
  if (g.dateStyle === "us") text(ctx, 400, f + 20, "Phone: +1 555 123 8069", { size: 7 });
}
