/**
 * Invoices the intelligence tests generate themselves: text placed at positions with pdf-lib
 * in several layouts (labels left of or above their values, blocks side by side, totals with
 * tax/shipping/discount, several currencies and date styles, line items over several pages,
 * vendor only in a legal footer), scanned versions rendered to PNG with MuPDF, and PDFs
 * carrying a Factur-X (CII) or UBL e-invoice as an embedded file. Each invoice comes with the
 * values a parser should read from it.
 */
import * as mupdf from "mupdf";
import { PDFDocument, StandardFonts, rgb, AFRelationship } from "pdf-lib";

export interface TextItem {
  x: number;
  /** Distance of the text's top from the top of the page, in points. */
  y: number;
  text: string;
  size?: number;
  bold?: boolean;
  /** Right-align at x instead of starting there. */
  right?: boolean;
}

export interface Attachment {
  name: string;
  mimeType: string;
  data: Uint8Array;
}

/** A PDF with the given text items per page (Helvetica, WinAnsi: €, £, accents are fine). */
export async function makeTextPdf(
  pages: TextItem[][],
  opts: { size?: [number, number]; attachments?: Attachment[] } = {},
): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const [W, H] = opts.size ?? [595, 842];
  for (const items of pages) {
    const page = doc.addPage([W, H]);
    for (const it of items) {
      const size = it.size ?? 9;
      const font = it.bold ? bold : regular;
      const width = font.widthOfTextAtSize(it.text, size);
      const x = it.right ? it.x - width : it.x;
      page.drawText(it.text, { x, y: H - it.y - size * 0.8, size, font, color: rgb(0, 0, 0) });
    }
  }
  for (const a of opts.attachments ?? []) {
    await doc.attach(a.data, a.name, {
      mimeType: a.mimeType,
      description: "e-invoice",
      afRelationship: AFRelationship.Alternative,
    });
  }
  return Buffer.from(await doc.save());
}

/** Renders page `index` of a PDF to PNG at `dpi`, as a scanner would (no text layer left). */
export function renderPng(pdf: Uint8Array, index = 0, dpi = 200): Buffer {
  const doc = mupdf.Document.openDocument(pdf, "application/pdf");
  try {
    const page = doc.loadPage(index);
    const pix = page.toPixmap(
      mupdf.Matrix.scale(dpi / 72, dpi / 72),
      mupdf.ColorSpace.DeviceGray,
      false,
      true,
    );
    const png = Buffer.from(pix.asPNG());
    pix.destroy();
    page.destroy();
    return png;
  } finally {
    doc.destroy();
  }
}

/** A scanned PDF: each page of `pdf` rendered to an image and placed on a page of its own. */
export function scannedPdf(pdf: Uint8Array, dpi = 200): Buffer {
  const src = mupdf.Document.openDocument(pdf, "application/pdf");
  const out = new mupdf.PDFDocument();
  try {
    for (let i = 0; i < src.countPages(); i++) {
      const page = src.loadPage(i);
      const [x0, y0, x1, y1] = page.getBounds();
      const pix = page.toPixmap(
        mupdf.Matrix.scale(dpi / 72, dpi / 72),
        mupdf.ColorSpace.DeviceGray,
        false,
        true,
      );
      const image = out.addImage(new mupdf.Image(pix));
      const res = out.addObject(out.newDictionary());
      const xobj = out.newDictionary();
      xobj.put("Im0", image);
      res.put("XObject", xobj);
      const w = x1 - x0;
      const h = y1 - y0;
      out.insertPage(-1, out.addPage([0, 0, w, h], 0, res, `q ${w} 0 0 ${h} 0 0 cm /Im0 Do Q`));
      pix.destroy();
      page.destroy();
    }
    return Buffer.from(out.saveToBuffer("compress").asUint8Array());
  } finally {
    src.destroy();
    out.destroy();
  }
}

// ----------------------------------------------------------------------------------------
// Identifiers with valid check digits.

function mod97(digits: string): number {
  let rem = 0;
  for (const c of digits) rem = (rem * 10 + Number(c)) % 97;
  return rem;
}

/** An IBAN with correct check digits for a country and BBAN. */
export function makeIban(country: string, bban: string): string {
  const num = (bban + country + "00").replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
  const cd = String(98 - mod97(num)).padStart(2, "0");
  return `${country}${cd}${bban}`;
}

/** A German USt-IdNr with its ISO 7064 MOD 11,10 check digit. */
export function makeDeVat(eight: string): string {
  let product = 10;
  for (let i = 0; i < 8; i++) {
    let sum = (Number(eight[i]) + product) % 10;
    if (sum === 0) sum = 10;
    product = (2 * sum) % 11;
  }
  let check = 11 - product;
  if (check === 10) check = 0;
  return `DE${eight}${check}`;
}

/** A French TVA number from a SIREN (key = (12 + 3 × (SIREN mod 97)) mod 97). */
export function makeFrVat(siren: string): string {
  const key = (12 + 3 * (Number(siren) % 97)) % 97;
  return `FR${String(key).padStart(2, "0")}${siren}`;
}

/** Groups an IBAN in fours, as printed. */
export function groupIban(iban: string): string {
  return iban.replace(/(.{4})/g, "$1 ").trim();
}

// ----------------------------------------------------------------------------------------
// Invoice specifications and layouts.

export interface Party {
  name: string;
  street: string;
  city: string;
  state?: string;
  postalCode: string;
  country?: string;
  email?: string;
  phone?: string;
  vatId?: string;
}

export interface Item {
  description: string;
  quantity: number;
  unitPrice: number;
}

export type DateStyle =
  "us" | "eu-dot" | "eu-slash" | "iso" | "long-en" | "long-fr" | "long-de" | "long-nl" | "us-long";
export type Layout = "classic" | "above" | "french" | "footer-vendor" | "dutch" | "compact" | "spanish";

export interface InvoiceSpec {
  layout: Layout;
  vendor: Party;
  billTo: Party;
  shipTo?: Party;
  invoiceNo: string;
  /** ISO dates. */
  date: string;
  dueDate?: string;
  poNo?: string;
  orderNo?: string;
  terms?: string;
  currency: "$" | "€" | "£" | "CHF";
  /** How amounts are printed: 1,234.50 or 1.234,50 (or 1 234,50). */
  decimal: "." | ",";
  dateStyle: DateStyle;
  items: Item[];
  taxRate: number;
  shipping?: number;
  discount?: number;
  iban?: string;
  bic?: string;
  bankName?: string;
  accountHolder?: string;
  notes?: string;
  /** Extra labelled fields ("Delivery Date" → value), printed in the header area. */
  extra?: Record<string, string>;
}

/** What a parser should read from an invoice: amounts as plain decimals, ISO dates. */
export interface Expected {
  vendorName: string;
  customerName: string;
  invoiceNo: string;
  invoiceDate: string;
  dueDate?: string;
  poNo?: string;
  total: string;
  subtotal: string;
  tax: string;
  shipping?: string;
  discount?: string;
  iban?: string;
  bic?: string;
  lineTotals: string[];
}

const MONTHS: Record<string, string[]> = {
  en: [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
  ],
  fr: [
    "janvier",
    "février",
    "mars",
    "avril",
    "mai",
    "juin",
    "juillet",
    "août",
    "septembre",
    "octobre",
    "novembre",
    "décembre",
  ],
  de: [
    "Januar",
    "Februar",
    "März",
    "April",
    "Mai",
    "Juni",
    "Juli",
    "August",
    "September",
    "Oktober",
    "November",
    "Dezember",
  ],
  nl: [
    "januari",
    "februari",
    "maart",
    "april",
    "mei",
    "juni",
    "juli",
    "augustus",
    "september",
    "oktober",
    "november",
    "december",
  ],
};

export function formatDate(iso: string, style: DateStyle): string {
  const [y, m, d] = iso.split("-").map(Number);
  const dd = String(d).padStart(2, "0");
  const mm = String(m).padStart(2, "0");
  switch (style) {
    case "us":
      return `${mm}/${dd}/${y}`;
    case "eu-dot":
      return `${dd}.${mm}.${y}`;
    case "eu-slash":
      return `${dd}/${mm}/${y}`;
    case "iso":
      return iso;
    case "long-en":
      return `${d} ${MONTHS.en[m - 1]} ${y}`;
    case "us-long":
      return `${MONTHS.en[m - 1]} ${d}, ${y}`;
    case "long-fr":
      return `${d} ${MONTHS.fr[m - 1]} ${y}`;
    case "long-de":
      return `${d}. ${MONTHS.de[m - 1]} ${y}`;
    case "long-nl":
      return `${d} ${MONTHS.nl[m - 1]} ${y}`;
  }
}

export function formatAmount(
  v: number,
  spec: Pick<InvoiceSpec, "decimal" | "currency">,
  withCurrency = true,
): string {
  const fixed = Math.abs(v).toFixed(2);
  const [int, dec] = fixed.split(".");
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, spec.decimal === "." ? "," : ".");
  const num = `${v < 0 ? "-" : ""}${grouped}${spec.decimal}${dec}`;
  if (!withCurrency) return num;
  if (spec.currency === "€") return spec.decimal === "," ? `${num} €` : `€${num}`;
  if (spec.currency === "CHF") return `CHF ${num}`;
  return `${spec.currency}${num}`;
}

const r2 = (n: number) => Math.round(n * 100) / 100;

export function totalsOf(spec: InvoiceSpec) {
  const lines = spec.items.map((i) => r2(i.quantity * i.unitPrice));
  const subtotal = r2(lines.reduce((s, x) => s + x, 0));
  const discount = spec.discount ?? 0;
  const tax = r2((subtotal - discount) * spec.taxRate);
  const shipping = spec.shipping ?? 0;
  const total = r2(subtotal - discount + tax + shipping);
  return { lines, subtotal, discount, tax, shipping, total };
}

export function expectedOf(spec: InvoiceSpec): Expected {
  const t = totalsOf(spec);
  return {
    vendorName: spec.vendor.name,
    customerName: spec.billTo.name,
    invoiceNo: spec.invoiceNo,
    invoiceDate: spec.date,
    dueDate: spec.dueDate,
    poNo: spec.poNo,
    total: t.total.toFixed(2),
    subtotal: t.subtotal.toFixed(2),
    tax: t.tax.toFixed(2),
    shipping: spec.shipping !== undefined ? t.shipping.toFixed(2) : undefined,
    discount: spec.discount !== undefined ? (-t.discount).toFixed(2) : undefined,
    iban: spec.iban,
    bic: spec.bic,
    lineTotals: t.lines.map((l) => l.toFixed(2)),
  };
}

interface Words {
  invoice: string;
  no: string;
  date: string;
  due: string;
  po: string;
  billTo: string;
  shipTo: string;
  description: string;
  qty: string;
  unitPrice: string;
  amount: string;
  subtotal: string;
  tax: (rate: number) => string;
  shipping: string;
  discount: string;
  total: string;
  terms: string;
  notes: string;
  bank: string;
}

const EN: Words = {
  invoice: "INVOICE",
  no: "Invoice #:",
  date: "Invoice Date:",
  due: "Due Date:",
  po: "P.O. Number:",
  billTo: "Bill To:",
  shipTo: "Ship To:",
  description: "Description",
  qty: "Qty",
  unitPrice: "Unit Price",
  amount: "Amount",
  subtotal: "Subtotal",
  tax: (r) => `Sales Tax (${(r * 100).toFixed(0)}%)`,
  shipping: "Shipping",
  discount: "Discount",
  total: "Total Due",
  terms: "Payment Terms:",
  notes: "Notes:",
  bank: "Bank:",
};

const DE: Words = {
  invoice: "Rechnung",
  no: "Rechnungsnr.",
  date: "Rechnungsdatum",
  due: "Fälligkeitsdatum",
  po: "Bestellnummer",
  billTo: "Rechnungsadresse",
  shipTo: "Lieferadresse",
  description: "Beschreibung",
  qty: "Menge",
  unitPrice: "Einzelpreis",
  amount: "Gesamt",
  subtotal: "Zwischensumme",
  tax: (r) => `MwSt. ${(r * 100).toFixed(0)}%`,
  shipping: "Versandkosten",
  discount: "Rabatt",
  total: "Gesamtbetrag",
  terms: "Zahlungsbedingungen:",
  notes: "Hinweise:",
  bank: "Bank:",
};

const FR: Words = {
  invoice: "FACTURE",
  no: "Facture n°",
  date: "Date :",
  due: "Date d'échéance :",
  po: "Bon de commande :",
  billTo: "Facturer à",
  shipTo: "Livrer à",
  description: "Désignation",
  qty: "Qté",
  unitPrice: "Prix unitaire HT",
  amount: "Montant HT",
  subtotal: "Total HT",
  tax: (r) => `TVA ${(r * 100).toFixed(0)} %`,
  shipping: "Frais de port",
  discount: "Remise",
  total: "Total TTC",
  terms: "Conditions de paiement :",
  notes: "Remarques :",
  bank: "Banque :",
};

const ES: Words = {
  invoice: "FACTURA",
  no: "Nº Factura",
  date: "Fecha",
  due: "Vencimiento",
  po: "Pedido",
  billTo: "",
  shipTo: "Enviar a",
  description: "Concepto",
  qty: "Cantidad",
  unitPrice: "Precio",
  amount: "Importe",
  subtotal: "Base imponible",
  tax: (r) => `IVA ${(r * 100).toFixed(0)}%`,
  shipping: "Gastos de envío",
  discount: "Descuento",
  total: "Total factura",
  terms: "Forma de pago:",
  notes: "Observaciones:",
  bank: "Banco:",
};

const NL: Words = {
  invoice: "FACTUUR",
  no: "Factuurnummer:",
  date: "Factuurdatum:",
  due: "Vervaldatum:",
  po: "Uw ordernummer:",
  billTo: "Factuuradres",
  shipTo: "Afleveradres",
  description: "Omschrijving",
  qty: "Aantal",
  unitPrice: "Prijs per stuk",
  amount: "Bedrag",
  subtotal: "Subtotaal",
  tax: (r) => `BTW ${(r * 100).toFixed(0)}%`,
  shipping: "Verzendkosten",
  discount: "Korting",
  total: "Totaal te betalen",
  terms: "Betalingsvoorwaarden:",
  notes: "Opmerkingen:",
  bank: "Bank:",
};

function cityLine(p: Party): string {
  if (p.state) return `${p.city}, ${p.state} ${p.postalCode}`;
  if (/^[A-Z]{1,2}\d/.test(p.postalCode)) return `${p.city} ${p.postalCode}`;
  return `${p.postalCode} ${p.city}`;
}

function partyLines(p: Party, withContacts = true): string[] {
  const out = [p.name, p.street, cityLine(p)];
  if (p.country) out.push(p.country);
  if (withContacts && p.phone) out.push(`Tel: ${p.phone}`);
  if (withContacts && p.email) out.push(p.email);
  return out;
}

const ROW = 14;
const ITEMS_PER_PAGE = 22;

/** Lays out an invoice; returns the text items of each page. */
export function layoutInvoice(spec: InvoiceSpec): TextItem[][] {
  const w =
    spec.layout === "above"
      ? DE
      : spec.layout === "french"
        ? FR
        : spec.layout === "dutch"
          ? NL
          : spec.layout === "spanish"
            ? ES
            : EN;
  const t = totalsOf(spec);
  const amt = (v: number) => formatAmount(v, spec);
  const num = (v: number) => formatAmount(v, spec, spec.layout === "compact");
  const date = (iso: string) => formatDate(iso, spec.dateStyle);
  const pages: TextItem[][] = [[]];
  let p = pages[0];
  const put = (x: number, y: number, text: string, o: Partial<TextItem> = {}) => p.push({ x, y, text, ...o });
  let y = 50;

  // Head: vendor block (except footer-vendor), title, invoice fields.
  if (spec.layout === "spanish") {
    // Vendor right-aligned at the top right, title top left, customer unlabelled in the window.
    put(545, y, spec.vendor.name, { size: 13, bold: true, right: true });
    partyLines(spec.vendor)
      .slice(1)
      .forEach((l, i) => put(545, y + 18 + i * 11, l, { right: true, size: 8 }));
    if (spec.vendor.vatId)
      put(545, y + 18 + (partyLines(spec.vendor).length - 1) * 11, `NIF: ${spec.vendor.vatId}`, {
        right: true,
        size: 8,
      });
    put(50, y, w.invoice, { size: 20, bold: true });
    partyLines(spec.billTo).forEach((l, i) => put(50, 130 + i * 12, l));
    const cols: [string, string][] = [
      [w.no, spec.invoiceNo],
      [w.date, date(spec.date)],
      ...(spec.dueDate ? ([[w.due, date(spec.dueDate)]] as [string, string][]) : []),
    ];
    cols.forEach(([label, value], i) => {
      put(300 + i * 85, 200, label, { bold: true, size: 8 });
      put(300 + i * 85, 212, value);
    });
    y = 250;
  } else if (spec.layout !== "footer-vendor") {
    put(50, y, spec.vendor.name, { size: 16, bold: true });
    partyLines(spec.vendor)
      .slice(1)
      .forEach((l, i) => put(50, y + 24 + i * 12, l));
    if (spec.vendor.vatId)
      put(50, y + 24 + (partyLines(spec.vendor).length - 1) * 12, `VAT No: ${spec.vendor.vatId}`);
  }
  if (spec.layout !== "spanish") {
    put(545, y, w.invoice, { size: 20, bold: true, right: true });
    y = 160;
  }
  if (spec.layout === "spanish") {
    // Header fields already placed.
  } else if (spec.layout === "above") {
    // Labels in a header row, values under them.
    const cols: [string, string][] = [
      [w.no, spec.invoiceNo],
      [w.date, date(spec.date)],
      ...(spec.dueDate ? ([[w.due, date(spec.dueDate)]] as [string, string][]) : []),
      ...(spec.poNo ? ([[w.po, spec.poNo]] as [string, string][]) : []),
    ];
    cols.forEach(([label, value], i) => {
      put(50 + i * 125, y, label, { bold: true });
      put(50 + i * 125, y + 13, value);
    });
    y += 50;
  } else if (spec.layout === "french") {
    put(50, y, `${w.no} ${spec.invoiceNo} du ${date(spec.date)}`, { size: 12, bold: true });
    if (spec.dueDate) put(50, y + 18, `${w.due} ${date(spec.dueDate)}`);
    if (spec.poNo) put(300, y + 18, `${w.po} ${spec.poNo}`);
    y += 50;
  } else {
    const rows: [string, string][] = [
      [w.no, spec.invoiceNo],
      [w.date, date(spec.date)],
      ...(spec.dueDate ? ([[w.due, date(spec.dueDate)]] as [string, string][]) : []),
      ...(spec.poNo ? ([[w.po, spec.poNo]] as [string, string][]) : []),
      ...Object.entries(spec.extra ?? {}).map(([k, v]) => [`${k}:`, v] as [string, string]),
    ];
    rows.forEach(([label, value], i) => {
      put(350, 80 + i * ROW, label, { bold: true });
      put(545, 80 + i * ROW, value, { right: true });
    });
  }
  // Parties: bill-to and ship-to side by side.
  if (spec.layout !== "spanish") {
    put(50, y, w.billTo, { bold: true });
    partyLines(spec.billTo).forEach((l, i) => put(50, y + 14 + i * 12, l));
  }
  if (spec.shipTo) {
    put(300, y, w.shipTo, { bold: true });
    partyLines(spec.shipTo, false).forEach((l, i) => put(300, y + 14 + i * 12, l));
  }
  y +=
    14 +
    12 * Math.max(partyLines(spec.billTo).length, spec.shipTo ? partyLines(spec.shipTo, false).length : 0) +
    30;

  // Line items, continued on further pages with the header repeated.
  const header = (yy: number) => {
    put(50, yy, w.description, { bold: true });
    put(330, yy, w.qty, { bold: true, right: true });
    put(440, yy, w.unitPrice, { bold: true, right: true });
    put(545, yy, w.amount, { bold: true, right: true });
    return yy + 20;
  };
  y = header(y);
  spec.items.forEach((it, i) => {
    if (i > 0 && i % ITEMS_PER_PAGE === 0) {
      pages.push([]);
      p = pages[pages.length - 1];
      put(50, 40, `${spec.vendor.name} - ${spec.invoiceNo}`, { size: 8 });
      y = header(80);
    }
    put(50, y, it.description);
    put(330, y, String(it.quantity), { right: true });
    put(440, y, num(it.unitPrice), { right: true });
    put(545, y, num(t.lines[i]), { right: true });
    y += ROW;
  });
  y += 16;
  if (y > 650) {
    pages.push([]);
    p = pages[pages.length - 1];
    y = 80;
  }
  // Totals, labels left of the amounts.
  const totals: [string, number, boolean?][] = [[w.subtotal, t.subtotal]];
  if (spec.discount !== undefined) totals.push([w.discount, -t.discount]);
  totals.push([w.tax(spec.taxRate), t.tax]);
  if (spec.shipping !== undefined) totals.push([w.shipping, t.shipping]);
  totals.push([w.total, t.total, true]);
  totals.forEach(([label, v, bold]) => {
    put(360, y, label, { bold });
    put(545, y, amt(v), { right: true, bold });
    y += ROW;
  });
  y += 20;
  if (spec.terms) {
    put(50, y, `${w.terms} ${spec.terms}`);
    y += ROW;
  }
  if (spec.iban) {
    if (spec.bankName) put(50, y, `${w.bank} ${spec.bankName}`);
    if (spec.accountHolder) put(300, y, `Account Name: ${spec.accountHolder}`);
    put(50, y + ROW, `IBAN: ${groupIban(spec.iban)}`);
    if (spec.bic) put(300, y + ROW, `BIC: ${spec.bic}`);
    y += 2 * ROW;
  }
  if (spec.notes) {
    put(50, y + 6, w.notes, { bold: true });
    put(50, y + 6 + 12, spec.notes);
  }
  if (spec.layout === "footer-vendor") {
    const v = spec.vendor;
    put(50, 790, `${v.name} - ${v.street} - ${cityLine(v)}${v.phone ? ` - Tel: ${v.phone}` : ""}`, {
      size: 7,
    });
    put(
      50,
      800,
      `Registered in England and Wales No. 04567812${v.vatId ? ` - VAT Reg. No. ${v.vatId}` : ""}`,
      { size: 7 },
    );
  }
  return pages;
}

export async function invoicePdf(spec: InvoiceSpec, attachments?: Attachment[]): Promise<Buffer> {
  return makeTextPdf(layoutInvoice(spec), { attachments });
}

// ----------------------------------------------------------------------------------------
// Ready-made specifications.

const items = (n: number, seed = 1): Item[] =>
  Array.from({ length: n }, (_, i) => ({
    description: `${["Consulting hours", "Widget type", "Support plan", "Cable set", "Licence seat", "Installation"][(i + seed) % 6]} ${i + 1}`,
    quantity: ((i * 7 + seed) % 5) + 1,
    unitPrice: Math.round((((i * 37 + seed * 11) % 90) + 10.5) * 100) / 100,
  }));

export const SPECS: Record<string, InvoiceSpec> = {
  usClassic: {
    layout: "classic",
    vendor: {
      name: "Brightline Supply Inc.",
      street: "1200 Harbor Blvd",
      city: "Oakland",
      state: "CA",
      postalCode: "94607",
      phone: "(510) 555-0142",
      email: "billing@brightlinesupply.com",
    },
    billTo: {
      name: "Cedar Creek Dental LLC",
      street: "48 Elm Street",
      city: "Portland",
      state: "OR",
      postalCode: "97205",
      email: "office@cedarcreekdental.com",
    },
    shipTo: {
      name: "Cedar Creek Dental Annex",
      street: "52 Elm Street",
      city: "Portland",
      state: "OR",
      postalCode: "97205",
    },
    invoiceNo: "INV-10482",
    date: "2024-03-05",
    dueDate: "2024-04-04",
    poNo: "PO-7731",
    terms: "Net 30",
    currency: "$",
    decimal: ".",
    dateStyle: "us",
    items: items(4),
    taxRate: 0.0825,
    shipping: 25,
    notes: "Thank you for your business. Late payments incur 1.5% monthly interest.",
    extra: { "Delivery Date": "03/01/2024" },
  },
  deAbove: {
    layout: "above",
    vendor: {
      name: "Nordwerk Maschinenbau GmbH",
      street: "Industriestraße 14",
      city: "Bremen",
      postalCode: "28195",
      country: "Deutschland",
      phone: "+49 421 555 0190",
      vatId: makeDeVat("81230457"),
    },
    billTo: {
      name: "Kessler Logistik AG",
      street: "Hafenweg 3",
      city: "Hamburg",
      postalCode: "20457",
      country: "Deutschland",
    },
    invoiceNo: "RE-2024-0317",
    date: "2024-03-17",
    dueDate: "2024-04-16",
    poNo: "B-55102",
    terms: "30 Tage netto",
    currency: "€",
    decimal: ",",
    dateStyle: "eu-dot",
    items: [
      { description: "Wartung Förderband", quantity: 2, unitPrice: 1250 },
      { description: "Ersatzteil Antriebsrolle", quantity: 6, unitPrice: 89.9 },
      { description: "Anfahrtspauschale", quantity: 1, unitPrice: 75 },
    ],
    taxRate: 0.19,
    iban: makeIban("DE", "370400440532013000"),
    bic: "COBADEFFXXX",
    bankName: "Commerzbank Bremen",
  },
  frTwoColumn: {
    layout: "french",
    vendor: {
      name: "Atelier Lumière SARL",
      street: "12 rue des Tanneurs",
      city: "Lyon",
      postalCode: "69002",
      country: "France",
      email: "contact@atelier-lumiere.fr",
      vatId: makeFrVat("532198744"),
    },
    billTo: { name: "Boulangerie Marchand", street: "5 place Bellecour", city: "Lyon", postalCode: "69002" },
    shipTo: {
      name: "Boulangerie Marchand - Dépôt",
      street: "77 avenue Jean Jaurès",
      city: "Villeurbanne",
      postalCode: "69100",
    },
    invoiceNo: "F2024-0089",
    date: "2024-03-12",
    dueDate: "2024-04-11",
    currency: "€",
    decimal: ",",
    dateStyle: "long-fr",
    items: [
      { description: "Suspension laiton", quantity: 3, unitPrice: 340 },
      { description: "Pose et raccordement", quantity: 1, unitPrice: 480 },
    ],
    taxRate: 0.2,
    shipping: 35,
    iban: makeIban("FR", "20041010050500013M02606"),
    bic: "PSSTFRPPLYO",
  },
  ukFooterVendor: {
    layout: "footer-vendor",
    vendor: {
      name: "Thistle & Pine Ltd",
      street: "14 Grange Road",
      city: "Edinburgh",
      postalCode: "EH9 1UH",
      phone: "0131 496 0123",
      vatId: "GB 284 1137 52",
    },
    billTo: {
      name: "Harbour Books Ltd",
      street: "3 Quay Street",
      city: "Bristol",
      postalCode: "BS1 4DJ",
      country: "United Kingdom",
    },
    invoiceNo: "TP-5521",
    date: "2024-02-29",
    dueDate: "2024-03-14",
    currency: "£",
    decimal: ".",
    dateStyle: "long-en",
    items: items(3, 4),
    taxRate: 0.2,
    discount: 10,
    iban: makeIban("GB", "NWBK60161331926819"),
    bic: "NWBKGB2L",
  },
  nlDutch: {
    layout: "dutch",
    vendor: {
      name: "Van Dijk Installatietechniek B.V.",
      street: "Keizersgracht 221",
      city: "Amsterdam",
      postalCode: "1016 DV",
      country: "Nederland",
      vatId: "NL859012345B01",
    },
    billTo: { name: "Bakkerij De Molen", street: "Dorpsstraat 8", city: "Utrecht", postalCode: "3511 AB" },
    invoiceNo: "2024-1187",
    date: "2024-04-18",
    dueDate: "2024-05-02",
    currency: "€",
    decimal: ",",
    dateStyle: "long-nl",
    items: items(3, 2),
    taxRate: 0.21,
    iban: makeIban("NL", "ABNA0417164300"),
    bic: "ABNANL2A",
  },
  multiPage: {
    layout: "classic",
    vendor: {
      name: "Quarry Hill Electronics Corp.",
      street: "800 Market Street",
      city: "Denver",
      state: "CO",
      postalCode: "80202",
      email: "ar@quarryhill.com",
    },
    billTo: {
      name: "Summit Robotics Inc.",
      street: "17 Canyon Road",
      city: "Boulder",
      state: "CO",
      postalCode: "80302",
    },
    invoiceNo: "QH-90017",
    date: "2024-01-22",
    dueDate: "2024-02-21",
    currency: "$",
    decimal: ".",
    dateStyle: "us-long",
    items: items(50, 3),
    taxRate: 0.05,
  },
  esRightVendor: {
    layout: "spanish",
    vendor: {
      name: "Cerámicas del Sur S.L.",
      street: "Calle Mayor 45",
      city: "Sevilla",
      postalCode: "41001",
      country: "España",
      vatId: "B41234567",
    },
    billTo: { name: "Restaurante La Ola", street: "Paseo Marítimo 3", city: "Málaga", postalCode: "29016" },
    invoiceNo: "2024/0456",
    date: "2024-06-14",
    dueDate: "2024-07-14",
    currency: "€",
    decimal: ",",
    dateStyle: "eu-slash",
    items: [
      { description: "Azulejo artesanal 20x20", quantity: 120, unitPrice: 3.75 },
      { description: "Transporte y montaje", quantity: 1, unitPrice: 180 },
    ],
    taxRate: 0.21,
  },
  chCompact: {
    layout: "compact",
    vendor: {
      name: "Alpenglas AG",
      street: "Bahnhofstrasse 21",
      city: "Zürich",
      postalCode: "8001",
      country: "Schweiz",
    },
    billTo: { name: "Hotel Seeblick", street: "Seestrasse 4", city: "Luzern", postalCode: "6004" },
    invoiceNo: "AG-3345",
    date: "2024-05-06",
    currency: "CHF",
    decimal: ".",
    dateStyle: "iso",
    items: items(2, 5),
    taxRate: 0.081,
  },
};

// ----------------------------------------------------------------------------------------
// E-invoices.

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** A Factur-X / ZUGFeRD (EN 16931 profile) CII XML for a spec. */
export function ciiXml(spec: InvoiceSpec): string {
  const t = totalsOf(spec);
  const d = (iso: string) => iso.replace(/-/g, "");
  const party = (tag: string, p: Party) => `<ram:${tag}><ram:Name>${esc(p.name)}</ram:Name>
    ${p.email ? `<ram:DefinedTradeContact><ram:EmailURIUniversalCommunication><ram:URIID>${esc(p.email)}</ram:URIID></ram:EmailURIUniversalCommunication></ram:DefinedTradeContact>` : ""}
    <ram:PostalTradeAddress><ram:PostcodeCode>${esc(p.postalCode)}</ram:PostcodeCode><ram:LineOne>${esc(p.street)}</ram:LineOne><ram:CityName>${esc(p.city)}</ram:CityName><ram:CountryID>DE</ram:CountryID></ram:PostalTradeAddress>
    ${p.vatId ? `<ram:SpecifiedTaxRegistration><ram:ID schemeID="VA">${esc(p.vatId)}</ram:ID></ram:SpecifiedTaxRegistration>` : ""}</ram:${tag}>`;
  const lines = spec.items
    .map(
      (it, i) => `<ram:IncludedSupplyChainTradeLineItem>
  <ram:AssociatedDocumentLineDocument><ram:LineID>${i + 1}</ram:LineID></ram:AssociatedDocumentLineDocument>
  <ram:SpecifiedTradeProduct><ram:Name>${esc(it.description)}</ram:Name></ram:SpecifiedTradeProduct>
  <ram:SpecifiedLineTradeAgreement><ram:NetPriceProductTradePrice><ram:ChargeAmount>${it.unitPrice.toFixed(2)}</ram:ChargeAmount></ram:NetPriceProductTradePrice></ram:SpecifiedLineTradeAgreement>
  <ram:SpecifiedLineTradeDelivery><ram:BilledQuantity unitCode="C62">${it.quantity}</ram:BilledQuantity></ram:SpecifiedLineTradeDelivery>
  <ram:SpecifiedLineTradeSettlement><ram:ApplicableTradeTax><ram:TypeCode>VAT</ram:TypeCode><ram:CategoryCode>S</ram:CategoryCode><ram:RateApplicablePercent>${(spec.taxRate * 100).toFixed(0)}</ram:RateApplicablePercent></ram:ApplicableTradeTax>
  <ram:SpecifiedTradeSettlementLineMonetarySummation><ram:LineTotalAmount>${t.lines[i].toFixed(2)}</ram:LineTotalAmount></ram:SpecifiedTradeSettlementLineMonetarySummation></ram:SpecifiedLineTradeSettlement>
</ram:IncludedSupplyChainTradeLineItem>`,
    )
    .join("\n");
  return `<?xml version="1.0" encoding="UTF-8"?>
<rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100" xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100" xmlns:udt="urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100">
<rsm:ExchangedDocumentContext><ram:GuidelineSpecifiedDocumentContextParameter><ram:ID>urn:cen.eu:en16931:2017</ram:ID></ram:GuidelineSpecifiedDocumentContextParameter></rsm:ExchangedDocumentContext>
<rsm:ExchangedDocument><ram:ID>${esc(spec.invoiceNo)}</ram:ID><ram:TypeCode>380</ram:TypeCode><ram:IssueDateTime><udt:DateTimeString format="102">${d(spec.date)}</udt:DateTimeString></ram:IssueDateTime>
${spec.notes ? `<ram:IncludedNote><ram:Content>${esc(spec.notes)}</ram:Content></ram:IncludedNote>` : ""}</rsm:ExchangedDocument>
<rsm:SupplyChainTradeTransaction>
${lines}
<ram:ApplicableHeaderTradeAgreement>${party("SellerTradeParty", spec.vendor)}${party("BuyerTradeParty", spec.billTo)}
${spec.poNo ? `<ram:BuyerOrderReferencedDocument><ram:IssuerAssignedID>${esc(spec.poNo)}</ram:IssuerAssignedID></ram:BuyerOrderReferencedDocument>` : ""}</ram:ApplicableHeaderTradeAgreement>
<ram:ApplicableHeaderTradeDelivery>${spec.shipTo ? `<ram:ShipToTradeParty><ram:Name>${esc(spec.shipTo.name)}</ram:Name><ram:PostalTradeAddress><ram:PostcodeCode>${esc(spec.shipTo.postalCode)}</ram:PostcodeCode><ram:LineOne>${esc(spec.shipTo.street)}</ram:LineOne><ram:CityName>${esc(spec.shipTo.city)}</ram:CityName><ram:CountryID>DE</ram:CountryID></ram:PostalTradeAddress></ram:ShipToTradeParty>` : ""}</ram:ApplicableHeaderTradeDelivery>
<ram:ApplicableHeaderTradeSettlement><ram:InvoiceCurrencyCode>EUR</ram:InvoiceCurrencyCode>
${spec.iban ? `<ram:SpecifiedTradeSettlementPaymentMeans><ram:TypeCode>58</ram:TypeCode><ram:PayeePartyCreditorFinancialAccount><ram:IBANID>${spec.iban}</ram:IBANID></ram:PayeePartyCreditorFinancialAccount>${spec.bic ? `<ram:PayeeSpecifiedCreditorFinancialInstitution><ram:BICID>${spec.bic}</ram:BICID></ram:PayeeSpecifiedCreditorFinancialInstitution>` : ""}</ram:SpecifiedTradeSettlementPaymentMeans>` : ""}
<ram:ApplicableTradeTax><ram:CalculatedAmount>${t.tax.toFixed(2)}</ram:CalculatedAmount><ram:TypeCode>VAT</ram:TypeCode><ram:BasisAmount>${(t.subtotal - t.discount).toFixed(2)}</ram:BasisAmount><ram:CategoryCode>S</ram:CategoryCode><ram:RateApplicablePercent>${(spec.taxRate * 100).toFixed(0)}</ram:RateApplicablePercent></ram:ApplicableTradeTax>
<ram:SpecifiedTradePaymentTerms>${spec.terms ? `<ram:Description>${esc(spec.terms)}</ram:Description>` : ""}${spec.dueDate ? `<ram:DueDateDateTime><udt:DateTimeString format="102">${d(spec.dueDate)}</udt:DateTimeString></ram:DueDateDateTime>` : ""}</ram:SpecifiedTradePaymentTerms>
<ram:SpecifiedTradeSettlementHeaderMonetarySummation><ram:LineTotalAmount>${t.subtotal.toFixed(2)}</ram:LineTotalAmount><ram:ChargeTotalAmount>0.00</ram:ChargeTotalAmount><ram:AllowanceTotalAmount>${t.discount.toFixed(2)}</ram:AllowanceTotalAmount><ram:TaxBasisTotalAmount>${(t.subtotal - t.discount).toFixed(2)}</ram:TaxBasisTotalAmount><ram:TaxTotalAmount currencyID="EUR">${t.tax.toFixed(2)}</ram:TaxTotalAmount><ram:GrandTotalAmount>${t.total.toFixed(2)}</ram:GrandTotalAmount><ram:DuePayableAmount>${t.total.toFixed(2)}</ram:DuePayableAmount></ram:SpecifiedTradeSettlementHeaderMonetarySummation>
</ram:ApplicableHeaderTradeSettlement>
</rsm:SupplyChainTradeTransaction>
</rsm:CrossIndustryInvoice>`;
}

/** A UBL 2.1 invoice XML (XRechnung-UBL / Peppol shape) for a spec. */
export function ublXml(spec: InvoiceSpec): string {
  const t = totalsOf(spec);
  const party = (p: Party) => `<cac:Party><cac:PartyName><cbc:Name>${esc(p.name)}</cbc:Name></cac:PartyName>
<cac:PostalAddress><cbc:StreetName>${esc(p.street)}</cbc:StreetName><cbc:CityName>${esc(p.city)}</cbc:CityName><cbc:PostalZone>${esc(p.postalCode)}</cbc:PostalZone><cac:Country><cbc:IdentificationCode>NL</cbc:IdentificationCode></cac:Country></cac:PostalAddress>
${p.vatId ? `<cac:PartyTaxScheme><cbc:CompanyID>${esc(p.vatId)}</cbc:CompanyID><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:PartyTaxScheme>` : ""}
${p.email ? `<cac:Contact><cbc:ElectronicMail>${esc(p.email)}</cbc:ElectronicMail></cac:Contact>` : ""}</cac:Party>`;
  const lines = spec.items
    .map(
      (
        it,
        i,
      ) => `<cac:InvoiceLine><cbc:ID>${i + 1}</cbc:ID><cbc:InvoicedQuantity unitCode="C62">${it.quantity}</cbc:InvoicedQuantity><cbc:LineExtensionAmount currencyID="EUR">${t.lines[i].toFixed(2)}</cbc:LineExtensionAmount>
<cac:Item><cbc:Name>${esc(it.description)}</cbc:Name><cac:ClassifiedTaxCategory><cbc:ID>S</cbc:ID><cbc:Percent>${(spec.taxRate * 100).toFixed(0)}</cbc:Percent><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:ClassifiedTaxCategory></cac:Item>
<cac:Price><cbc:PriceAmount currencyID="EUR">${it.unitPrice.toFixed(2)}</cbc:PriceAmount></cac:Price></cac:InvoiceLine>`,
    )
    .join("\n");
  return `<?xml version="1.0" encoding="UTF-8"?>
<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2" xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">
<cbc:CustomizationID>urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0</cbc:CustomizationID>
<cbc:ID>${esc(spec.invoiceNo)}</cbc:ID><cbc:IssueDate>${spec.date}</cbc:IssueDate>${spec.dueDate ? `<cbc:DueDate>${spec.dueDate}</cbc:DueDate>` : ""}
<cbc:InvoiceTypeCode>380</cbc:InvoiceTypeCode>${spec.notes ? `<cbc:Note>${esc(spec.notes)}</cbc:Note>` : ""}<cbc:DocumentCurrencyCode>EUR</cbc:DocumentCurrencyCode>
${spec.poNo ? `<cac:OrderReference><cbc:ID>${esc(spec.poNo)}</cbc:ID></cac:OrderReference>` : ""}
<cac:AccountingSupplierParty>${party(spec.vendor)}</cac:AccountingSupplierParty>
<cac:AccountingCustomerParty>${party(spec.billTo)}</cac:AccountingCustomerParty>
${spec.iban ? `<cac:PaymentMeans><cbc:PaymentMeansCode>58</cbc:PaymentMeansCode><cac:PayeeFinancialAccount><cbc:ID>${spec.iban}</cbc:ID>${spec.bic ? `<cac:FinancialInstitutionBranch><cbc:ID>${spec.bic}</cbc:ID></cac:FinancialInstitutionBranch>` : ""}</cac:PayeeFinancialAccount></cac:PaymentMeans>` : ""}
${spec.terms ? `<cac:PaymentTerms><cbc:Note>${esc(spec.terms)}</cbc:Note></cac:PaymentTerms>` : ""}
<cac:TaxTotal><cbc:TaxAmount currencyID="EUR">${t.tax.toFixed(2)}</cbc:TaxAmount><cac:TaxSubtotal><cbc:TaxableAmount currencyID="EUR">${t.subtotal.toFixed(2)}</cbc:TaxableAmount><cbc:TaxAmount currencyID="EUR">${t.tax.toFixed(2)}</cbc:TaxAmount></cac:TaxSubtotal></cac:TaxTotal>
<cac:LegalMonetaryTotal><cbc:LineExtensionAmount currencyID="EUR">${t.subtotal.toFixed(2)}</cbc:LineExtensionAmount><cbc:TaxExclusiveAmount currencyID="EUR">${t.subtotal.toFixed(2)}</cbc:TaxExclusiveAmount><cbc:TaxInclusiveAmount currencyID="EUR">${t.total.toFixed(2)}</cbc:TaxInclusiveAmount><cbc:PayableAmount currencyID="EUR">${t.total.toFixed(2)}</cbc:PayableAmount></cac:LegalMonetaryTotal>
${lines}
</Invoice>`;
}

/** The invoice PDF with its CII XML attached as factur-x.xml (Factur-X / ZUGFeRD). */
export async function facturXPdf(spec: InvoiceSpec): Promise<Buffer> {
  return invoicePdf(spec, [
    { name: "factur-x.xml", mimeType: "text/xml", data: new TextEncoder().encode(ciiXml(spec)) },
  ]);
}

/** The invoice PDF with a UBL XML attached (XRechnung-UBL). */
export async function ublPdf(spec: InvoiceSpec): Promise<Buffer> {
  return invoicePdf(spec, [
    { name: "xrechnung.xml", mimeType: "application/xml", data: new TextEncoder().encode(ublXml(spec)) },
  ]);
}

// ----------------------------------------------------------------------------------------
// A labelled set of generated documents of every built-in type (two per type, different
// wording and languages), for the built-in classifier's tests.

export interface LabelledDocument {
  label: string;
  name: string;
  pages: TextItem[][];
  organisation?: string;
  country?: string;
}

/** Lines of text stacked from the top; a first line in large bold type when `title` is set. */
function page(lines: string[], title?: string, x = 60): TextItem[] {
  const out: TextItem[] = [];
  let y = 50;
  if (title) {
    out.push({ x, y, text: title, size: 18, bold: true });
    y += 36;
  }
  for (const l of lines) {
    if (l !== "") out.push({ x, y, text: l, size: 10 });
    y += 15;
  }
  return out;
}

export function labelledDocuments(): LabelledDocument[] {
  return [
    {
      label: "invoice",
      name: "invoice-us",
      pages: layoutInvoice(SPECS.usClassic),
      organisation: "Brightline Supply Inc.",
      country: "United States",
    },
    {
      label: "invoice",
      name: "invoice-de",
      pages: layoutInvoice(SPECS.deAbove),
      organisation: "Nordwerk Maschinenbau GmbH",
      country: "Germany",
    },
    {
      label: "receipt",
      name: "receipt-store",
      pages: [
        page(
          [
            "GreenLeaf Market",
            "221 Pine Ave, Austin, TX 78701",
            "Store #0412   Register 3   Cashier: Dana",
            "",
            "Bananas 1.2 lb            0.83",
            "Oat milk                  3.49",
            "Bread, sourdough          4.99",
            "SUBTOTAL                  9.31",
            "TAX                       0.77",
            "TOTAL                    10.08",
            "VISA ****4411            10.08",
            "AUTH CODE 0831A   TERMINAL 22",
            "CHANGE DUE                0.00",
            "Thank you for shopping with us!",
          ],
          "SALES RECEIPT",
        ),
      ],
      country: "United States",
    },
    {
      label: "receipt",
      name: "receipt-payment",
      pages: [
        page(
          [
            "Received from: Jonas Keller",
            "Amount paid: EUR 350.00",
            "Payment received by bank transfer on 14.02.2024",
            "For: Rent February 2024, flat 3B",
            "Receipt no. 2024-021",
            "Signature of landlord: ____________",
          ],
          "Payment Receipt",
        ),
      ],
    },
    {
      label: "purchase order",
      name: "po-en",
      pages: [
        page(
          [
            "Harbor Foods Corp.",
            "PO Number: 4500017723   PO Date: 02/11/2024",
            "Vendor: Pacific Packaging LLC",
            "Ship To: Harbor Foods Warehouse, 90 Dock Rd, Tacoma, WA 98421",
            "Requested by: M. Ortiz    Approved by: L. Chen",
            "Item   Description            Qty   Unit Price   Total",
            "1      Carton 40x30x20        500   0.82         410.00",
            "2      Tape roll 48mm         60    2.10         126.00",
            "Please supply the goods above by 03/01/2024. Ship via UPS Ground.",
            "Terms: Net 45",
          ],
          "PURCHASE ORDER",
        ),
      ],
      organisation: "Harbor Foods Corp.",
    },
    {
      label: "purchase order",
      name: "po-fr",
      pages: [
        page(
          [
            "Société Durand SAS",
            "N° de commande : BC-2024-118   Date : 05/03/2024",
            "Fournisseur : Imprimerie Martin",
            "Adresse de livraison : 4 rue Pasteur, 31000 Toulouse",
            "Désignation              Quantité    Prix unitaire",
            "Flyers A5 couleur         2000        0,09",
            "Affiches A2               50          1,80",
            "Délai de livraison souhaité : 15/03/2024",
          ],
          "BON DE COMMANDE",
        ),
      ],
      organisation: "Société Durand SAS",
    },
    {
      label: "quote",
      name: "quote-en",
      pages: [
        page(
          [
            "Skyline Roofing Ltd",
            "Quote No: Q-3381   Date: 9 April 2024",
            "Prepared for: Mr and Mrs Patel, 12 Orchard Close, Leeds LS6 2AB",
            "Replace 40 m2 of roof tiles                 £2,400.00",
            "Scaffolding (2 weeks)                       £650.00",
            "Total estimate                              £3,050.00",
            "This quote is valid until 9 May 2024.",
            "To accept this quotation, sign and return: ____________",
          ],
          "QUOTATION",
        ),
      ],
      organisation: "Skyline Roofing Ltd",
      country: "United Kingdom",
    },
    {
      label: "quote",
      name: "quote-de",
      pages: [
        page(
          [
            "Malerbetrieb Schulz GmbH",
            "Angebotsnummer: A-2024-077",
            "Angebot für: Praxis Dr. Weber, Lindenstraße 9, 50674 Köln",
            "Innenanstrich Wartezimmer 45 m²        1.350,00 €",
            "Material                                420,00 €",
            "Gesamt netto                            1.770,00 €",
            "Das Angebot ist gültig bis 30.06.2024.",
          ],
          "Angebot",
        ),
      ],
      organisation: "Malerbetrieb Schulz GmbH",
    },
    {
      label: "bank statement",
      name: "statement-en",
      pages: [
        page(
          [
            "Northbridge Bank plc",
            "Account Statement",
            "Account name: K. Ibrahim   Sort code: 20-45-77   Account number: 40311286",
            "Statement period: 1 March 2024 to 31 March 2024",
            "Opening balance                          1,204.55",
            "02 Mar  Card payment TESCO              -54.20        1,150.35",
            "05 Mar  Salary ACME LTD                2,450.00       3,600.35",
            "12 Mar  Direct debit COUNCIL TAX        -142.00       3,458.35",
            "Total deposits 2,450.00   Total withdrawals 196.20",
            "Closing balance                          3,458.35",
          ],
          "Bank Statement",
        ),
      ],
      organisation: "Northbridge Bank plc",
    },
    {
      label: "bank statement",
      name: "statement-nl",
      pages: [
        page(
          [
            "Rekeningafschrift nr. 3 / 2024",
            "IBAN: NL91 ABNA 0417 1643 00",
            "Periode: 01-03-2024 t/m 31-03-2024",
            "Beginsaldo                 812,40",
            "04-03  Albert Heijn     -63,15",
            "10-03  Salaris          2.310,00",
            "Eindsaldo                  3.059,25",
            "Bij: 2.310,00   Af: 63,15",
          ],
          "Rekeningafschrift",
        ),
      ],
    },
    {
      label: "contract",
      name: "contract-services",
      pages: [
        page(
          [
            'This Services Agreement (the "Agreement") is made on 1 June 2024 between',
            'Orbit Analytics Inc. (hereinafter the "Provider") and Lakeside Clinic LLC (the "Client").',
            "WHEREAS the Client wishes to engage the Provider; the parties agree as follows:",
            "1. Services. The Provider shall deliver the services set out in Schedule A.",
            "2. Term and Termination. This Agreement shall remain in force for twelve months.",
            "3. Confidentiality. Each party shall keep the other party's information confidential.",
            "4. Governing Law. This Agreement is governed by the laws of the State of New York.",
          ],
          "SERVICES AGREEMENT",
        ),
        page([
          "IN WITNESS WHEREOF the parties have signed this Agreement.",
          "Signed by: ____________ for Orbit Analytics Inc.",
          "Signed by: ____________ for Lakeside Clinic LLC",
        ]),
      ],
    },
    {
      label: "contract",
      name: "contract-rental",
      pages: [
        page(
          [
            "Mietvertrag über Wohnraum",
            "zwischen Herrn Klaus Berger (Vermieter) und Frau Anna Roth (Mieterin)",
            "§ 1 Mietsache: Wohnung im 2. OG, Gartenweg 4, 04109 Leipzig",
            "§ 2 Mietzeit: Das Mietverhältnis beginnt am 01.07.2024 und läuft auf unbestimmte Zeit.",
            "§ 3 Miete: Die monatliche Miete beträgt 780,00 €.",
            "§ 4 Kündigung: Die Kündigungsfrist beträgt drei Monate.",
            "Unterschrift Vermieter ____________   Unterschrift Mieterin ____________",
          ],
          "Mietvertrag",
        ),
      ],
    },
    {
      label: "resume",
      name: "resume-en",
      pages: [
        page(
          [
            "Priya Raman",
            "priya.raman@example.com · +44 7700 900123 · linkedin.com/in/priyaraman",
            "Professional Summary",
            "Data engineer with 6 years of experience building pipelines.",
            "Work Experience",
            "2020–2024  Senior Data Engineer, Finch Ltd, London",
            "2018–2020  Data Analyst, Gravel & Co, Bristol",
            "Education",
            "MSc Computer Science, University of Manchester",
            "Skills",
            "Python, SQL, Spark, Airflow",
            "Languages: English, Tamil",
          ],
          "Curriculum Vitae",
        ),
      ],
    },
    {
      label: "resume",
      name: "resume-de",
      pages: [
        page(
          [
            "Jonas Albrecht",
            "Hauptstraße 12, 69117 Heidelberg · jonas.albrecht@example.de",
            "Berufserfahrung",
            "2019 – heute   Projektleiter, Bauwerk AG",
            "2015 – 2019    Bauingenieur, Stadt Mannheim",
            "Ausbildung",
            "2010 – 2015    Bauingenieurwesen (M.Sc.), KIT Karlsruhe",
            "Kenntnisse",
            "AutoCAD, MS Project, Englisch (fließend)",
          ],
          "Lebenslauf",
        ),
      ],
    },
    {
      label: "tax form",
      name: "tax-1040",
      pages: [
        page(
          [
            "Department of the Treasury — Internal Revenue Service",
            "U.S. Individual Income Tax Return   OMB No. 1545-0074",
            "Filing Status:  [ ] Single  [ ] Married filing jointly",
            "Your first name and middle initial ____________  Last name ____________",
            "Your social security number ____________",
            "1  Wages, salaries, tips (attach Form W-2) ____________",
            "11 Adjusted gross income ____________",
            "15 Taxable income ____________",
          ],
          "Form 1040",
        ),
      ],
      country: "United States",
    },
    {
      label: "tax form",
      name: "tax-w9",
      pages: [
        page(
          [
            "Request for Taxpayer Identification Number and Certification",
            "Internal Revenue Service",
            "1 Name (as shown on your income tax return) ____________",
            "3 Federal tax classification: [ ] Individual [ ] C Corporation [ ] S Corporation",
            "Part I   Taxpayer Identification Number (TIN)",
            "Social security number ____________ or Employer identification number ____________",
            "Part II  Certification — Under penalties of perjury, I certify that ...",
          ],
          "Form W-9",
        ),
      ],
    },
    {
      label: "utility bill",
      name: "utility-electric",
      pages: [
        page(
          [
            "Riverside Power & Light",
            "Your electricity bill",
            "Account number: 7730-11852   Service address: 14 Maple St, Springfield, IL 62704",
            "Billing period: Feb 1 – Feb 29, 2024",
            "Meter number: E-449182   Previous reading: 18,220   Current reading: 18,861",
            "Usage: 641 kWh",
            "Energy charge 641 kWh x $0.142        $91.02",
            "Customer charge                        $12.00",
            "Amount due by Mar 20, 2024            $103.02",
          ],
          "Electricity Bill",
        ),
      ],
      organisation: "Riverside Power & Light",
      country: "United States",
    },
    {
      label: "utility bill",
      name: "utility-water",
      pages: [
        page(
          [
            "Thames Valley Water",
            "Water and sewerage charges",
            "Customer reference: 55-120-771",
            "Supply address: 8 Mill Lane, Reading RG1 8AA",
            "Meter reading 04/01/2024: 1,204 m3   Meter reading 04/04/2024: 1,236 m3",
            "Consumption: 32 m3",
            "Water supply   32 m3 x £1.79    £57.28",
            "Standing charge                  £9.50",
            "Total to pay                     £66.78",
          ],
          "Your water bill",
        ),
      ],
      country: "United Kingdom",
    },
    {
      label: "delivery note",
      name: "delivery-en",
      pages: [
        page(
          [
            "Atlas Components Ltd",
            "Delivery Note No: DN-88213   Ship Date: 12/04/2024",
            "Deliver to: Kestrel Engineering, Unit 5, Westfield Industrial Estate, Derby DE21 4XJ",
            "Carrier: DPD   Tracking number: 1550 8821 3301",
            "Item code   Description             Qty ordered   Qty shipped",
            "AC-1001     Bearing 6204-2RS        40            40",
            "AC-2210     Shaft coupling 12mm     10            8 (2 on backorder)",
            "Received in good condition by: ____________   Date: ________",
          ],
          "DELIVERY NOTE",
        ),
      ],
      organisation: "Atlas Components Ltd",
    },
    {
      label: "delivery note",
      name: "delivery-de",
      pages: [
        page(
          [
            "Holzbau Maier GmbH",
            "Lieferschein Nr. LS-4471   Lieferdatum: 22.04.2024",
            "Lieferanschrift: Baustelle Rosenweg 7, 79098 Freiburg",
            "Pos.  Artikel                 Menge   Einheit",
            "1     Konstruktionsvollholz   24      Stück",
            "2     OSB-Platte 18 mm        30      Stück",
            "Ware erhalten: ____________ (Unterschrift)",
          ],
          "Lieferschein",
        ),
      ],
      organisation: "Holzbau Maier GmbH",
    },
    {
      label: "letter",
      name: "letter-en",
      pages: [
        page([
          "Greenway Housing Association",
          "17 Canal Street, Manchester M1 3HE",
          "",
          "3 May 2024",
          "",
          "Ms Laura Bennett",
          "22 Rowan Court, Salford M6 5QT",
          "",
          "Dear Ms Bennett,",
          "Re: Repairs to your kitchen window",
          "Thank you for reporting the damaged window. Our contractor will visit on 10 May.",
          "Please let us know if this date does not suit you.",
          "",
          "Yours sincerely,",
          "Tom Hale",
          "Tenancy Officer",
        ]),
      ],
      organisation: "Greenway Housing Association",
    },
    {
      label: "letter",
      name: "letter-fr",
      pages: [
        page([
          "Mairie de Villeneuve",
          "Place de la République, 47300 Villeneuve-sur-Lot",
          "",
          "Villeneuve, le 2 avril 2024",
          "",
          "Objet : Inscription scolaire",
          "Madame, Monsieur,",
          "Nous avons bien reçu votre demande d'inscription pour la rentrée 2024.",
          "Le dossier complet doit être déposé avant le 30 avril.",
          "Veuillez agréer, Madame, Monsieur, l'expression de nos salutations distinguées.",
          "Le Maire",
        ]),
      ],
    },
    {
      label: "report",
      name: "report-annual",
      pages: [
        page(
          [
            "Annual Report 2023",
            "Table of Contents",
            "1. Executive Summary",
            "2. Introduction",
            "3. Findings",
            "4. Recommendations",
            "Appendix A: Methodology",
          ],
          "Community Health Trust",
        ),
        page([
          "1. Executive Summary",
          "In 2023 the trust served 14,200 patients, a 9% increase on 2022.",
          "2. Introduction",
          "This report presents the results of our annual review and the analysis of outcomes.",
          "3. Findings",
          "Figure 1 shows waiting times by month; the analysis indicates a steady decline.",
          "4. Recommendations",
          "We recommend expanding evening clinics. Conclusion: demand keeps growing.",
        ]),
      ],
    },
    {
      label: "report",
      name: "report-lab",
      pages: [
        page(
          [
            "Abstract",
            "We measured the tensile strength of recycled PET fibres under varying humidity.",
            "1 Introduction",
            "2 Methodology",
            "Samples were conditioned for 48 h; see Table 2 and Figure 3.",
            "3 Results and Discussion",
            "Strength fell by 12% above 80% relative humidity.",
            "4 Conclusions",
            "References",
            "[1] Smith, J. (2021) Polymer Testing 94.",
          ],
          "Technical Report TR-2024-07",
        ),
      ],
    },
    {
      label: "form",
      name: "form-application",
      pages: [
        page(
          [
            "Please print clearly and complete all sections.",
            "First name: ____________________   Last name: ____________________",
            "Date of birth: ____/____/________",
            "Address: ______________________________________",
            "City: ______________   ZIP: ________   Phone: ______________",
            "Email: ______________________",
            "Check one:  [ ] New member   [ ] Renewal",
            "Signature of applicant: ____________________   Date: ________",
            "For office use only: ________",
          ],
          "Membership Application Form",
        ),
      ],
    },
    {
      label: "form",
      name: "form-registration",
      pages: [
        page(
          [
            "Anmeldeformular – Sportverein Blau-Weiß e.V.",
            "Name: ______________________   Vorname: ______________________",
            "Geburtsdatum: __________",
            "Straße: ______________________   PLZ/Ort: ______________________",
            "Telefon: ______________   E-Mail: ______________________",
            "[ ] Erwachsene   [ ] Jugendliche   [ ] Familie",
            "Ort, Datum: ____________   Unterschrift: ____________",
          ],
          "Formular",
        ),
      ],
    },
    {
      label: "other",
      name: "other-menu",
      pages: [
        page(
          [
            "Starters",
            "Tomato soup with basil",
            "Garlic bread",
            "Mains",
            "Grilled salmon, lemon butter",
            "Mushroom risotto",
            "Desserts",
            "Apple crumble",
            "Chocolate mousse",
          ],
          "Trattoria Bella",
        ),
      ],
    },
    {
      label: "other",
      name: "other-poem",
      pages: [
        page(
          [
            "The fog comes",
            "on little cat feet.",
            "It sits looking",
            "over harbor and city",
            "on silent haunches",
            "and then moves on.",
          ],
          "Fog",
        ),
      ],
    },
  ];
}
