/**
 * Form-grid invoices (captions in boxes over their values, values set flush right in wide boxes,
 * the number printed as "Nº …" under the document title), the national tax-id captions that name
 * the country (and so the currency), and the Portuguese labels. Fixtures generated here.
 */
import { afterAll, describe, expect, it } from "vitest";
import { readInvoice } from "@/lib/engine/invoice/read-invoice";
import { countryOfTaxIdNames } from "@/lib/engine/invoice/parse-invoice";
import { LABELS, matchLabelAt } from "@/lib/engine/invoice/labels";
import { fold } from "@/lib/engine/invoice/text-utils";
import { shutdownOcr } from "@/lib/engine/ocr/pool";
import { makeTextPdf } from "@/tests/helpers/invoice-fixtures";

afterAll(() => shutdownOcr());

interface GridLex {
  title: string[];
  issuer: string;
  street: string;
  city: string;
  captions: { name: string; id: string; date: string };
  /** The section heading over the buyer's captions. */
  role: string;
  buyer: string;
  buyerId: string;
  money: { base: string; tax: string; net: string; total: string; freight: string };
  amounts: { base: string; tax: string; net: string; total: string };
}

const LEX: Record<"pt" | "en" | "de", GridLex> = {
  pt: {
    title: ["NOTA FISCAL", "ELETRÔNICA"],
    issuer: "Padaria Boa Vista Ltda",
    street: "Rua das Flores, 120",
    city: "Campinas - SP",
    captions: { name: "NOME / RAZÃO SOCIAL", id: "CNPJ / CPF", date: "DATA DA EMISSÃO" },
    role: "DESTINATÁRIO / REMETENTE",
    buyer: "Mercado Central Comércio Ltda",
    buyerId: "12.345.678/0001-90",
    money: { base: "BASE DE CÁLCULO", tax: "VALOR DO IMPOSTO", net: "VALOR TOTAL DOS PRODUTOS", total: "VALOR TOTAL DA NOTA", freight: "VALOR DO FRETE" },
    amounts: { base: "1.200,00", tax: "216,00", net: "1.200,00", total: "1.200,00" },
  },
  en: {
    title: ["TAX", "INVOICE"],
    issuer: "Copperfield Tools Ltd",
    street: "14 Foundry Lane",
    city: "Sheffield S1 2AB",
    captions: { name: "CUSTOMER NAME", id: "CUSTOMER VAT NO.", date: "DATE OF ISSUE" },
    role: "BILL TO",
    buyer: "Harbourside Joinery Ltd",
    buyerId: "GB123456789",
    money: { base: "ITEMS", tax: "VAT AMOUNT", net: "NET TOTAL", total: "INVOICE TOTAL", freight: "FREIGHT" },
    amounts: { base: "1,200.00", tax: "240.00", net: "1,200.00", total: "1,440.00" },
  },
  de: {
    title: ["RECHNUNG"],
    issuer: "Brandt Metallbau GmbH",
    street: "Industriestraße 9",
    city: "44135 Dortmund",
    captions: { name: "KUNDE", id: "USt-IdNr. des Kunden", date: "RECHNUNGSDATUM" },
    role: "RECHNUNGSEMPFÄNGER",
    buyer: "Schulte Bau GmbH",
    buyerId: "DE811234567",
    money: { base: "POSITIONEN", tax: "UMSATZSTEUER", net: "NETTOBETRAG", total: "GESAMTBETRAG", freight: "FRACHT" },
    amounts: { base: "1.200,00", tax: "228,00", net: "1.200,00", total: "1.428,00" },
  },
};

/** A boxed form: issuer left, title centre with "Nº …" under it, caption rows over value rows. */
async function gridPdf(l: GridLex, no: string, date: string) {
  const items: { x: number; y: number; text: string; size?: number; bold?: boolean; right?: boolean }[] = [];
  items.push({ x: 40, y: 60, text: l.issuer, size: 12, bold: true });
  items.push({ x: 60, y: 80, text: l.street, size: 8 });
  items.push({ x: 60, y: 90, text: l.city, size: 8 });
  l.title.forEach((t, i) => items.push({ x: 270, y: 60 + i * 12, text: t, size: i === 0 ? 12 : 8, bold: i === 0 }));
  items.push({ x: 270, y: 100, text: `Nº ${no}`, size: 10, bold: true });
  // Parties: captions in small type over their values.
  items.push({ x: 20, y: 150, text: l.role, size: 6, bold: true });
  items.push({ x: 20, y: 160, text: l.captions.name, size: 5 });
  items.push({ x: 400, y: 160, text: l.captions.id, size: 5 });
  items.push({ x: 500, y: 160, text: l.captions.date, size: 5 });
  items.push({ x: 20, y: 167, text: l.buyer, size: 7 });
  items.push({ x: 400, y: 167, text: l.buyerId, size: 7 });
  items.push({ x: 500, y: 167, text: date, size: 7 });
  // Money boxes: captions left in their boxes, amounts flush right at the box's right edge.
  const X = [20, 140, 260, 420];
  const caps = [l.money.base, l.money.tax, l.money.freight, l.money.net];
  caps.forEach((c, i) => items.push({ x: X[i], y: 220, text: c, size: 5 }));
  [l.amounts.base, l.amounts.tax, "0,00".replace(",", l === LEX.en ? "." : ","), l.amounts.net].forEach((a, i) =>
    items.push({ x: (X[i + 1] ?? 580) - 4, y: 228, text: a, size: 7, right: true }),
  );
  const Y = [20, 200, 420];
  [l.money.freight, "OBS", l.money.total].forEach((c, i) => items.push({ x: Y[i], y: 245, text: c, size: 5 }));
  items.push({ x: 576, y: 253, text: l.amounts.total, size: 7, right: true });
  return makeTextPdf([items]);
}

describe("form grids: captions over values in boxes", () => {
  it("pt: number under the title, issue date, net products and note total from flush-right boxes, BRL from the CNPJ caption", async () => {
    const res = await readInvoice(await gridPdf(LEX.pt, "000.123.456", "05/03/2025"), { noLlm: true });
    const b = res.body as Record<string, any>;
    expect(b.invoice?.invoiceNo).toBe("000.123.456");
    expect(b.invoice?.invoiceDate).toBe("2025-03-05");
    expect(b.paymentDetails?.total).toBe("1200.00");
    expect(b.paymentDetails?.subtotal).toBe("1200.00");
    expect(b.paymentDetails?.currency).toBe("BRL");
    expect(b.customer?.billTo?.name).toBe(LEX.pt.buyer);
  });

  it("en: the same grid with English captions", async () => {
    const res = await readInvoice(await gridPdf(LEX.en, "4711-22", "05/03/2025"), { noLlm: true });
    const b = res.body as Record<string, any>;
    expect(b.customer?.billTo?.name).toBe(LEX.en.buyer);
    expect(b.invoice?.invoiceNo).toBe("4711-22");
    expect(b.invoice?.invoiceDate).toBe("2025-03-05");
    expect(b.paymentDetails?.total).toBe("1440.00");
    expect(b.paymentDetails?.subtotal).toBe("1200.00");
    expect(b.paymentDetails?.tax).toBe("240.00");
  });

  it("de: the same grid with German captions", async () => {
    const res = await readInvoice(await gridPdf(LEX.de, "2025-0815", "05.03.2025"), { noLlm: true });
    const b = res.body as Record<string, any>;
    expect(b.customer?.billTo?.name).toBe(LEX.de.buyer);
    expect(b.invoice?.invoiceNo).toBe("2025-0815");
    expect(b.invoice?.invoiceDate).toBe("2025-03-05");
    expect(b.paymentDetails?.total).toBe("1428.00");
    expect(b.paymentDetails?.subtotal).toBe("1200.00");
  });
});

describe("the country named by national tax-id captions", () => {
  it("one country named → its code; none or several → undefined", () => {
    expect(countryOfTaxIdNames("CNPJ / CPF 12.345.678/0001-90")).toBe("BR");
    expect(countryOfTaxIdNames("SIRET 123 456 789 00012")).toBe("FR");
    expect(countryOfTaxIdNames("USt-IdNr. DE123456789")).toBe("DE");
    expect(countryOfTaxIdNames("Partita IVA 01234567890")).toBe("IT");
    expect(countryOfTaxIdNames("KvK 12345678")).toBe("NL");
    expect(countryOfTaxIdNames("Invoice 4711 Total 12.00")).toBeUndefined();
    expect(countryOfTaxIdNames("SIRET 1 — USt-IdNr. DE1")).toBeUndefined();
  });
});

describe("item-table headers in pt, es, it, nl", () => {
  const HEADERS: Record<string, { cols: string[]; dec: "," | "." }> = {
    pt: { cols: ["CÓDIGO", "DESCRIÇÃO DOS PRODUTOS / SERVIÇOS", "NCM/SH", "CFOP", "UN.", "QTD.", "V.UNIT.", "V.TOTAL", "V.ICMS", "%ICMS"], dec: "," },
    es: { cols: ["Cód.", "Descripción", "", "", "Unid.", "Cant.", "Precio unitario", "Importe", "", ""], dec: "," },
    it: { cols: ["Codice", "Descrizione", "", "", "UM", "Qtà", "Prezzo unitario", "Importo", "", ""], dec: "," },
    nl: { cols: ["Code", "Omschrijving", "", "", "Eenheid", "Aantal", "Stukprijs", "Bedrag", "", ""], dec: "," },
  };
  const X = [20, 70, 230, 270, 300, 330, 390, 450, 500, 540];
  const rows = [
    ["A-100", "Farinha de trigo 25 kg", "11010010", "5102", "SC", "4", "52,50", "210,00", "25,20", "12,00"],
    ["B-220", "Fermento biológico 500 g", "21021090", "5102", "UN", "12", "8,75", "105,00", "12,60", "12,00"],
    ["C-310", "Açúcar refinado 5 kg", "17019900", "5102", "PC", "6", "19,90", "119,40", "14,33", "12,00"],
  ];
  for (const [lang, h] of Object.entries(HEADERS)) {
    it(`${lang}: three items, quantity, unit price and line total by their columns`, async () => {
      const items: { x: number; y: number; text: string; size?: number; bold?: boolean }[] = [
        { x: 40, y: 40, text: "Padaria Boa Vista Ltda", size: 12, bold: true },
      ];
      h.cols.forEach((c, i) => c && items.push({ x: X[i], y: 200, text: c, size: 6, bold: true }));
      rows.forEach((r, j) => r.forEach((v, i) => h.cols[i] && items.push({ x: X[i], y: 212 + j * 10, text: v, size: 6 })));
      const res = await readInvoice(await makeTextPdf([items]), { noLlm: true });
      const got = ((res.body.lineItems ?? []) as Record<string, string>[][]).flat();
      expect(got.map((i) => Number(i.total))).toEqual([210, 105, 119.4]);
      expect(got.map((i) => Number(i.quantity))).toEqual([4, 12, 6]);
      expect(got.map((i) => Number(i.unitPrice))).toEqual([52.5, 8.75, 19.9]);
    });
  }
});

describe("tax abbreviations printed with dots", () => {
  it.each([
    ["Total H.T.", "subtotal"],
    ["Total HT", "subtotal"],
    ["Total T.T.C.", "total"],
    ["Montant T.T.C.", "total"],
    ["T.V.A. 20 %", "tax"],
    ["M.W.St. 19 %", "tax"],
    ["I.V.A. 21 %", "tax"],
  ])("%s → %s", (text, field) => {
    expect(matchLabelAt(fold(text), 0, LABELS)?.label.field).toBe(field);
  });

  it("an invoice whose totals say H.T. / T.V.A. / T.T.C.", async () => {
    const items = [
      { x: 50, y: 40, text: "Atelier Dumont SARL", size: 14, bold: true },
      { x: 50, y: 58, text: "14 rue des Lilas · 69003 Lyon", size: 8 },
      { x: 340, y: 100, text: "Facture n° F-2025-031", size: 11, bold: true },
      { x: 340, y: 114, text: "Date : 12/03/2025", size: 9 },
      { x: 330, y: 300, text: "Total H.T." },
      { x: 545, y: 300, text: "1 250,00 €", right: true },
      { x: 330, y: 314, text: "T.V.A. 20 %" },
      { x: 545, y: 314, text: "250,00 €", right: true },
      { x: 330, y: 328, text: "Total T.T.C.", bold: true },
      { x: 545, y: 328, text: "1 500,00 €", right: true, bold: true },
    ];
    const res = await readInvoice(await makeTextPdf([items]), { noLlm: true });
    const p = (res.body as Record<string, any>).paymentDetails;
    expect([p?.subtotal, p?.tax, p?.total]).toEqual(["1250.00", "250.00", "1500.00"]);
  });
});

describe("a tight form grid: the value row touches the caption's box", () => {
  it("the value row starting inside the caption's box is still its value", async () => {
    const items = [
      { x: 40, y: 40, text: "Padaria Boa Vista Ltda", size: 12, bold: true },
      { x: 270, y: 40, text: "NOTA FISCAL", size: 12, bold: true },
      { x: 270, y: 56, text: "Nº 000.000.046", size: 10, bold: true },
      { x: 20, y: 250, text: "BASE DE CÁLCULO", size: 5 },
      { x: 140, y: 250, text: "VALOR DO IMPOSTO", size: 5 },
      { x: 260, y: 250, text: "VALOR APROX. TRIBUTOS", size: 5 },
      { x: 434, y: 250, text: "VALOR TOTAL DOS PRODUTOS", size: 5 },
      { x: 130, y: 255, text: "0,00", size: 9, right: true },
      { x: 250, y: 255, text: "0,00", size: 9, right: true },
      { x: 428, y: 255, text: "1.318,67", size: 9, right: true },
      { x: 587, y: 255, text: "3.267,60", size: 9, right: true },
      { x: 20, y: 268, text: "VALOR DO FRETE", size: 5 },
      { x: 140, y: 268, text: "DESCONTO", size: 5 },
      { x: 434, y: 268, text: "VALOR TOTAL DA NOTA", size: 5 },
      { x: 130, y: 273, text: "0,00", size: 9, right: true },
      { x: 250, y: 273, text: "0,00", size: 9, right: true },
      { x: 587, y: 273, text: "3.267,60", size: 9, right: true },
    ];
    const res = await readInvoice(await makeTextPdf([items]), { noLlm: true });
    const b = res.body as Record<string, any>;
    expect(b.invoice?.invoiceNo).toBe("000.000.046");
    expect(b.paymentDetails?.subtotal).toBe("3267.60");
    expect(b.paymentDetails?.total).toBe("3267.60");
  });
});

describe("item rows without an amount or a quantity continue the item above", () => {
  it("stray zeros of a wrapped line in the number columns do not make it an item", async () => {
    const X = { desc: 50, qty: 330, price: 430, amount: 545 };
    const items: { x: number; y: number; text: string; size?: number; bold?: boolean; right?: boolean }[] = [
      { x: 50, y: 40, text: "Brandt Metallbau GmbH", size: 14, bold: true },
      { x: 340, y: 90, text: "Rechnungsnummer: RE-2025-17", size: 9 },
      { x: 340, y: 102, text: "Rechnungsdatum: 05.03.2025", size: 9 },
      { x: X.desc, y: 200, text: "Bezeichnung", bold: true },
      { x: X.qty, y: 200, text: "Menge", bold: true, right: true },
      { x: X.price, y: 200, text: "Einzelpreis", bold: true, right: true },
      { x: X.amount, y: 200, text: "Betrag", bold: true, right: true },
    ];
    const rows: [string, string, string, string][] = [
      ["Stahlträger HEB 200", "4", "212,50", "850,00"],
      ["Förderkennzeichen SC830015", "0", "0", ""],
      ["Montage vor Ort", "6", "75,00", "450,00"],
      ["Lieferung frei Baustelle", "", "", ""],
      ["Schweißarbeiten", "3", "90,00", "270,00"],
    ];
    rows.forEach(([d, q, p, a], i) => {
      const y = 216 + i * 13;
      items.push({ x: X.desc, y, text: d });
      if (q) items.push({ x: X.qty, y, text: q, right: true });
      if (p) items.push({ x: X.price, y, text: p, right: true });
      if (a) items.push({ x: X.amount, y, text: a, right: true });
    });
    items.push({ x: 330, y: 300, text: "Gesamtbetrag" }, { x: 545, y: 300, text: "1.570,00 €", right: true });
    const res = await readInvoice(await makeTextPdf([items]), { noLlm: true });
    const got = ((res.body.lineItems ?? []) as Record<string, string>[][]).flat();
    expect(got.map((i) => Number(i.total))).toEqual([850, 450, 270]);
    expect(got[0].description).toContain("SC830015");
    expect(got[1].description).toContain("Lieferung frei Baustelle");
  });
});

describe("total and net labels in seven languages", () => {
  it.each([
    ["Rechnungssumme", "total"],
    ["Endsumme", "total"],
    ["Zahlbetrag", "total"],
    ["Betrag brutto", "total"],
    ["Summe inkl. MwSt.", "total"],
    ["Total général", "total"],
    ["Eindtotaal", "total"],
    ["Importe a pagar", "total"],
    ["Totale complessivo", "total"],
    ["Total geral", "total"],
    ["Nettosumme", "subtotal"],
    ["Summe der Positionen", "subtotal"],
    ["Summe aller Positionen", "subtotal"],
    ["Betrag netto", "subtotal"],
    ["Summe exkl. MwSt.", "subtotal"],
    ["Total hors TVA", "subtotal"],
    ["Montant hors taxes", "subtotal"],
    ["Net HT", "subtotal"],
    ["Totaal netto", "subtotal"],
    ["Importe neto", "subtotal"],
    ["Totale netto", "subtotal"],
  ])("%s → %s", (text, field) => {
    expect(matchLabelAt(fold(text), 0, LABELS)?.label.field).toBe(field);
  });
});

describe("document-number, due-date and issuer-role labels", () => {
  it.each([
    ["Belegnummer", "invoiceNo"],
    ["Dokument-Nr.", "invoiceNo"],
    ["Número de documento", "invoiceNo"],
    ["Document number", "invoiceNo"],
    ["Payable before", "dueDate"],
    ["Netto bis", "dueDate"],
    ["Vencimento", "dueDate"],
    ["Da pagare entro", "dueDate"],
    ["Auftragnehmer", "vendor"],
    ["Cedente / prestatore", "vendor"],
    ["Prestador de serviços", "vendor"],
  ])("%s → %s", (text, field) => {
    expect(matchLabelAt(fold(text), 0, LABELS)?.label.field).toBe(field);
  });
});
