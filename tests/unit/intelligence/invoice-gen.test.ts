import { afterAll, describe, expect, it } from "vitest";
import { readInvoice } from "@/lib/engine/invoice/read-invoice";
import { findAmounts, pickAmount } from "@/lib/engine/invoice/amounts";
import { isTaxRateText } from "@/lib/engine/invoice/line-items";
import { shutdownOcr } from "@/lib/engine/ocr/pool";
import {
  currencyOfCountry,
  isHeadingOnly,
  isIdentifierToken,
  notAPartyName,
  withoutDepartment,
} from "@/lib/engine/lexicon/invoice-fields";
import {
  formatAmount,
  generateInvoice,
  renderInvoice,
  truthOf,
  type GenOptions,
} from "@/tests/helpers/invoice-gen";

afterAll(() => shutdownOcr());

const num = (s: unknown) => Number(s);

async function parse(o: GenOptions) {
  const g = generateInvoice(o);
  const pdf = await renderInvoice(g);
  const res = await readInvoice(pdf, { noLlm: true });
  return { g, t: truthOf(g), body: res.body as Record<string, any> };
}

function expectHeader(t: ReturnType<typeof truthOf>, body: Record<string, any>) {
  expect(body.invoice?.invoiceNo).toBe(t.invoiceNo);
  expect(body.invoice?.invoiceDate).toBe(t.invoiceDate);
  expect(body.vendor?.name).toBe(t.vendor);
  expect(String(body.vendor?.entityId ?? "").replace(/\s/g, "")).toBe(t.vendorTaxId);
  expect(num(body.paymentDetails?.total)).toBeCloseTo(t.total, 2);
  expect(num(body.paymentDetails?.subtotal)).toBeCloseTo(t.subtotal, 2);
  expect(body.paymentDetails?.currency).toBe(t.currency);
}

describe("generated invoices: layouts × languages", () => {
  for (const language of ["de", "fr", "en"] as const) {
    it(`${language}: letterhead, address window, meta table with labels left of right-aligned values`, async () => {
      const { t, body } = await parse({ language, layout: "classic", seed: 1 });
      expectHeader(t, body);
      expect(num(body.paymentDetails?.tax)).toBeCloseTo(t.tax, 2);
      expect(body.paymentDetails?.dueDate).toBe(t.dueDate);
    });

    it(`${language}: labels above values, parties under role headings, two tax rates summed`, async () => {
      const { g, t, body } = await parse({ language, layout: "stacked", seed: 3, twoRates: true });
      expect(g.taxes.length).toBe(2);
      expectHeader(t, body);
      expect(body.customer?.billTo?.name).toBe(t.customer);
      // Tax = the sum over the rates, not one rate's amount.
      expect(num(body.paymentDetails?.tax)).toBeCloseTo(t.tax, 2);
    });

    it(`${language}: header sentence gives number and date; vendor only in the legal footer; window addressee is the buyer`, async () => {
      const { t, body } = await parse({ language, layout: "sentence", seed: 3 });
      expect(body.invoice?.invoiceNo).toBe(t.invoiceNo);
      expect(body.invoice?.invoiceDate).toBe(t.invoiceDate);
      expect(body.vendor?.name).toBe(t.vendor);
      expect(body.customer?.billTo?.name).toBe(t.customer);
      expect(num(body.paymentDetails?.total)).toBeCloseTo(t.total, 2);
    });
  }

  it("an attention line under the addressee's company: the company is the bill-to name", async () => {
    for (const language of ["de", "en"] as const) {
      const { g, body } = await parse({ language, layout: "classic", seed: 2 });
      expect(g.customer.person).toBeDefined();
      expect(body.customer?.billTo?.name).toBe(g.customer.name);
    }
  });

  it("section-heading rows are not items; multi-line descriptions stay one item", async () => {
    const { g, body } = await parse({ language: "de", layout: "classic", seed: 1, section: true, multiLine: true });
    const items = (body.lineItems as Record<string, string>[][]).flat();
    expect(items.length).toBe(g.items.length);
    expect(items.map((i) => num(i.total))).toEqual(g.items.map((i) => i.total));
    expect(items.some((i) => i.description?.includes(g.section!))).toBe(false);
  });

  it("a list-price sub-line, a group subtotal row and a VAT summary table are not items", async () => {
    for (const language of ["de", "fr", "en"] as const) {
      const { g, body } = await parse({ language, layout: "classic", seed: 5, wide: true, listPrice: true, groupTotal: true, vatTable: true, twoRates: true });
      const items = (body.lineItems as Record<string, string>[][]).flat();
      expect(items.map((i) => num(i.total))).toEqual(g.items.map((i) => i.total));
      expect(num(body.paymentDetails?.tax)).toBeCloseTo(g.tax, 2);
    }
  });

  it("a credit note's amounts are negative", async () => {
    const { t, body } = await parse({ language: "en", layout: "stacked", seed: 1, creditNote: true });
    expect(t.total).toBeLessThan(0);
    expect(num(body.paymentDetails?.total)).toBeCloseTo(t.total, 2);
    expect(num(body.paymentDetails?.subtotal)).toBeCloseTo(t.subtotal, 2);
  });
});

describe("invoice lexicon and value mechanisms", () => {
  it("headings, captions, identifiers, streets and sentences are never a party name", () => {
    for (const s of ["NF-e", "DANFE", "Übersicht", "Rechnung Nr.", "NOME / RAZÃO SOCIAL", "/ REMETENTE", "Informationen zum Verkäufer", "Bill BILL/2022/0002", "INV/2024/00005", "Hutsepotstraat 94", "12 rue de la Paix", "Bitte überweisen Sie den Betrag innerhalb von 14 Tagen"])
      expect(notAPartyName(s), s).toBe(true);
    for (const s of ["Kraxi GmbH", "Atelier Dumont SARL", "Bright Harbour Ltd", "OYO 4189 Resort", "Contribuinte A", "Harper & Stone LLP"])
      expect(notAPartyName(s), s).toBe(false);
    expect(isHeadingOnly("Facture N°")).toBe(true);
  });

  it("identifiers are told from amounts and dates", () => {
    expect(isIdentifierToken("F2025-1119")).toBe(true);
    expect(isIdentifierToken("BILL/2022/0002")).toBe(true);
    expect(isIdentifierToken("£1,887.31")).toBe(false);
    expect(isIdentifierToken("12.06.2024")).toBe(false);
    expect(isIdentifierToken("20%")).toBe(false);
  });

  it("amounts in the de/fr/en conventions", () => {
    expect(pickAmount("19 597,15 €", ",")?.value).toBe(19597.15);
    expect(pickAmount("1.234,56 €", ",")?.value).toBe(1234.56);
    expect(pickAmount("£1,234.56", ".")?.value).toBe(1234.56);
    // A space separates two numbers unless a decimal comma follows three-digit groups.
    expect(findAmounts("Qty 2 150.00", ".").map((a) => a.value)).toEqual([2, 150]);
    expect(formatAmount(-1234.5, "space")).toBe("-1 234,50");
  });

  it("currency from a country", () => {
    expect(currencyOfCountry("DE")).toBe("EUR");
    expect(currencyOfCountry("gb")).toBe("GBP");
    expect(currencyOfCountry("BR")).toBe("BRL");
    expect(currencyOfCountry(undefined)).toBeUndefined();
  });
});

describe("rows the item table's columns let through that are not items", () => {
  for (const language of ["de", "fr", "en"] as const) {
    it(`${language}: totals in the table's columns, tax per rate as "plus 20 % VAT on <base>" rows`, async () => {
      const { g, t, body } = await parse({ language, layout: "classic", seed: 2, items: 6, twoRates: true, totalsInColumns: true });
      expect(body.lineItems.flat().map((i: Record<string, string>) => i.description)).toEqual(g.items.map((i) => i.description[0]));
      expect(num(body.paymentDetails?.total)).toBeCloseTo(t.total, 2);
      expect(num(body.paymentDetails?.subtotal)).toBeCloseTo(t.subtotal, 2);
      expect(num(body.paymentDetails?.tax)).toBeCloseTo(t.tax, 2);
    });

    it(`${language}: items over two pages with carried-forward sums and the letterhead repeated`, async () => {
      const { g, t, body } = await parse({ language, layout: "stacked", seed: 1, items: 6, carryForward: true });
      const items = body.lineItems.flat() as Record<string, string>[];
      expect(items).toHaveLength(g.items.length);
      expect(items.map((i) => num(i.total))).toEqual(g.items.map((i) => i.total));
      expect(num(body.paymentDetails?.total)).toBeCloseTo(t.total, 2);
    });

    it(`${language}: two items split by a page break: the carried sum after the one item above is not an item`, async () => {
      const { g, body } = await parse({ language, layout: "stacked", seed: 7039, items: 2, carryForward: true });
      const items = body.lineItems.flat() as Record<string, string>[];
      expect(g.items).toHaveLength(2);
      expect(items.map((i) => num(i.total))).toEqual(g.items.map((i) => i.total));
    });

    it(`${language}: items without a header row, then 'plus 20 % VAT on …' in the same column: the tax row is not an item`, async () => {
      const { g, body } = await parse({ language, layout: "sentence", seed: 2079, headerless: true, basesOnly: true, prepaid: true, totalsInColumns: true, footerSentence: true });
      const items = body.lineItems.flat() as Record<string, string>[];
      expect(items.map((i) => num(i.total))).toEqual(g.items.map((i) => i.total));
    });

    it(`${language}: a table continued on page 2 without its header, a VAT table under it: the items above that table count`, async () => {
      const { g, body } = await parse({ language, layout: "stacked", seed: 7018, items: 3, carryForward: true, vatTable: true });
      const items = body.lineItems.flat() as Record<string, string>[];
      expect(items.map((i) => num(i.total))).toEqual(g.items.map((i) => i.total));
    });

    it(`${language}: the legal footer (VAT id, IBAN split by the column edges) under a table continued on page 2`, async () => {
      const { g, body } = await parse({ language, layout: "classic", seed: 2, items: 6, carryForward: true, footerEveryPage: true });
      const items = body.lineItems.flat() as Record<string, string>[];
      expect(items.map((i) => i.description)).toEqual(g.items.map((i) => i.description[0]));
    });

    it(`${language}: column captions stacked over tight lines, a reference line above each item's amounts`, async () => {
      const { g, t, body } = await parse({ language, layout: "classic", seed: 31, stackedCaptions: true, twoRates: true, multiLine: true });
      expectHeader(t, body);
      const items = body.lineItems.flat() as Record<string, string>[];
      expect(items.map((i) => [num(i.quantity), num(i.unitPrice), num(i.total)])).toEqual(g.items.map((i) => [i.quantity, i.unitPrice, i.total]));
      // Each reference line leads its own item; no caption line ("price", "(EUR)") is item text.
      items.forEach((it, n) => {
        expect(it.description.split("\n")).toEqual([`Ref. A-${101 + n}`, ...g.items[n].description]);
      });
    });

    it(`${language}: a payment sentence across the table's width ending in an amount`, async () => {
      const { g, t, body } = await parse({ language, layout: "stacked", seed: 1, items: 5, prose: true });
      expect(body.lineItems.flat()).toHaveLength(g.items.length);
      expect(num(body.paymentDetails?.total)).toBeCloseTo(t.total, 2);
    });

    it(`${language}: an instalment schedule under the totals`, async () => {
      const { g, t, body } = await parse({ language, layout: "sentence", seed: 2, items: 4, schedule: true });
      expect(body.lineItems.flat()).toHaveLength(g.items.length);
      expect(num(body.paymentDetails?.total)).toBeCloseTo(t.total, 2);
    });
  }

  it("a tax word with a rate is a tax row; an item's name with a number is not", () => {
    expect(isTaxRateText("zzgl. 19 % MwSt. auf 1.234,56")).toBe(true);
    expect(isTaxRateText("plus 20% VAT")).toBe(true);
    expect(isTaxRateText("TVA 5,5 %")).toBe(true);
    expect(isTaxRateText("Network switch 24 ports")).toBe(false);
    expect(isTaxRateText("Rabatt 10 %")).toBe(false);
    expect(isTaxRateText("Tax consulting")).toBe(false);
  });
});

describe("a department after the vendor's name", () => {
  for (const language of ["de", "fr", "en"] as const)
    it(`${language}: the letterhead names the vendor's customer service; the vendor is the organisation`, async () => {
      const { t, body } = await parse({ language, layout: "classic", seed: 2, department: true });
      expect(body.vendor?.name).toBe(t.vendor);
    });

  it("keeps names that only contain a department word, or are nothing but a department", () => {
    expect(withoutDepartment("Free Service Abonnés")).toBe("Free");
    expect(withoutDepartment("Acme GmbH - Buchhaltung")).toBe("Acme GmbH");
    expect(withoutDepartment("Northwind Ltd Accounts Receivable")).toBe("Northwind Ltd");
    expect(withoutDepartment("Customer Service")).toBe("Customer Service");
    expect(withoutDepartment("Service Experts GmbH")).toBe("Service Experts GmbH");
    expect(withoutDepartment("Kundenservice Müller KG")).toBe("Kundenservice Müller KG");
  });
});

describe("the addressee: window on either side, a form of address above the name", () => {
  for (const language of ["de", "fr", "en"] as const) {
    it(`${language}: the address window on the right, the invoice details on the left`, async () => {
      const { t, body } = await parse({ language, layout: "classic", seed: 3, windowRight: true });
      expect(body.customer?.billTo?.name).toBe(t.customer);
      expectHeader(t, body);
    });

    it(`${language}: a salutation line ("Firma", "Société", "Messrs") above the addressee is not its name`, async () => {
      for (const layout of ["classic", "stacked", "sentence"] as const) {
        const { t, body } = await parse({ language, layout, seed: 1, salutation: true });
        expect(body.customer?.billTo?.name).toBe(t.customer);
      }
    });
  }

  it("a form of address alone is a heading, a name with it is not", () => {
    expect(isHeadingOnly("Messrs")).toBe(true);
    expect(isHeadingOnly("Spett.le")).toBe(true);
    expect(notAPartyName("Société")).toBe(true);
    expect(notAPartyName("Frau Anna Weber")).toBe(false);
    expect(notAPartyName("Société Générale")).toBe(false);
  });
});

describe("the net printed only as each rate's base", () => {
  for (const language of ["de", "fr", "en"] as const)
    for (const inColumns of [false, true])
      it(`${language}: "plus 20 % VAT on <base>" rows ${inColumns ? "in the table's columns" : "in the totals block"}, no subtotal line, two rates`, async () => {
        const { g, t, body } = await parse({ language, layout: "classic", seed: 2, twoRates: true, basesOnly: true, totalsInColumns: inColumns });
        expect(body.lineItems.flat()).toHaveLength(g.items.length);
        expect(num(body.paymentDetails?.subtotal)).toBeCloseTo(t.subtotal, 2);
        expect(num(body.paymentDetails?.tax)).toBeCloseTo(t.tax, 2);
        expect(num(body.paymentDetails?.total)).toBeCloseTo(t.total, 2);
      });
});

describe("an item's own tax-rate cell", () => {
  it("'19 % USt' right of the quantity keeps the row an item", async () => {
    const { PDFDocument, StandardFonts } = await import("pdf-lib");
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const page = doc.addPage([595, 842]);
    const put = (x: number, y: number, s: string, right = false) =>
      page.drawText(s, { x: right ? x - font.widthOfTextAtSize(s, 9) : x, y: 842 - y, size: 9, font });
    put(50, 60, "Rechnung Nr. 4711 vom 12.06.2024");
    [["Beschreibung", 50], ["Menge", 300], ["Einzelpreis", 380], ["MwSt.", 450], ["Betrag", 545]].forEach(([h, x]) => put(x as number, 200, h as string, (x as number) > 50));
    const rows: [string, string, string, string, string][] = [
      ["Beratung", "2", "100,00", "19 % USt", "200,00"],
      ["Bücher", "3", "10,00", "7 % USt", "30,00"],
    ];
    rows.forEach((r, i) => {
      const y = 220 + i * 15;
      put(50, y, r[0]);
      put(300, y, r[1], true);
      put(380, y, r[2], true);
      put(450, y, r[3], true);
      put(545, y, r[4], true);
    });
    put(330, 270, "Nettobetrag");
    put(545, 270, "230,00", true);
    put(330, 284, "Gesamtbetrag");
    put(545, 284, "262,10", true);
    const res = await readInvoice(Buffer.from(await doc.save()), { noLlm: true });
    const items = ((res.body as Record<string, any>).lineItems ?? []).flat() as Record<string, string>[];
    expect(items.map((i) => i.description)).toEqual(["Beratung", "Bücher"]);
  });
});
