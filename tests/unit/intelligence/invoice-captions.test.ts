/**
 * Captions and role words read by their place on the page, not by the first words of a line:
 * a party name that starts with a role word, a contact line over the buyer's company, a longer
 * caption that only starts like a known label, and totals set as a caption grid under the items.
 */
import { afterAll, describe, expect, it } from "vitest";
import { parseInvoice } from "@/lib/engine/invoice/parse-invoice";
import { readInvoice } from "@/lib/engine/invoice/read-invoice";
import { shutdownOcr } from "@/lib/engine/ocr/pool";
import { generateInvoice, renderInvoice, truthOf, type GenOptions } from "@/tests/helpers/invoice-gen";
import { line, page } from "@/tests/helpers/layout-words";

afterAll(() => shutdownOcr());

const body = (words: Parameters<typeof page>[0]) =>
  parseInvoice([page(words)]).body as Record<string, any>;

describe("a role word is a heading only when it stands alone or is set off", () => {
  it("a buyer named 'Client Services Ltd' under 'Bill to' is the buyer, not a second heading", () => {
    const b = body([
      line(50, 40, "Northwind Analytics Ltd", 16, true),
      line(50, 62, "12 High Street · London EC1A 1BB", 8),
      line(340, 110, "INVOICE", 18, true),
      line(340, 140, "Invoice No: INV-2041"),
      line(340, 154, "Invoice Date: 14/03/2024"),
      line(50, 130, "Bill to", 9, true),
      line(50, 144, "Client Services Ltd"),
      line(50, 156, "4 Market Road"),
      line(50, 168, "Leeds LS1 4AB"),
    ]);
    expect(b.customer?.billTo?.name).toBe("Client Services Ltd");
    expect(b.customer?.billTo?.address?.city).toBe("Leeds");
  });

  it("'Seller: ACME' still names the seller inline", () => {
    const b = body([
      line(340, 40, "INVOICE", 18, true),
      line(340, 70, "Invoice No: 77-1"),
      line(50, 120, "Seller: Acme Tools GmbH"),
      line(50, 132, "Hafenstraße 3"),
      line(50, 144, "20095 Hamburg"),
    ]);
    expect(b.vendor?.name).toBe("Acme Tools GmbH");
  });

  it("a party named by role with an article under its heading ('LE CLIENT') is the name", () => {
    const b = body([
      line(340, 40, "FACTURE N° : F-2024-9", 10),
      line(340, 60, "Adresse du Client", 9, true),
      line(345, 72, "LE CLIENT"),
      line(345, 84, "58 rue de la mer"),
      line(345, 96, "06000 NICE"),
    ]);
    expect(b.customer?.billTo?.name).toBe("LE CLIENT");
  });
});

describe("a longer caption that starts like a label names another value", () => {
  it("'Date de début de prestation : …' is not the invoice date", () => {
    const b = body([
      line(340, 40, "FACTURE", 18, true),
      line(340, 70, "Facture N° : F-88"),
      line(50, 100, "DATE DE DEBUT DE PRESTATION : 01/01/2022"),
      line(50, 112, "DATE DE FACTURE ASSOCIÉE : 01/12/2021"),
      line(340, 82, "Date :"),
      line(480, 82, "31/01/2022"),
    ]);
    expect(b.invoice?.invoiceDate).toBe("2022-01-31");
  });
});

async function parse(o: GenOptions) {
  const g = generateInvoice(o);
  const res = await readInvoice(await renderInvoice(g), { noLlm: true });
  return { g, t: truthOf(g), b: res.body as Record<string, any> };
}

describe("generated invoices: contact line, period caption, totals grid", () => {
  for (const language of ["de", "fr", "en"] as const)
    for (const [layout, seed] of [
      ["stacked", 28],
      ["classic", 29],
    ] as const)
      it(`${language} ${layout}: every header field and the item count`, async () => {
        const { g, t, b } = await parse({
          language,
          layout,
          seed,
          contactFirst: layout === "stacked",
          totalsGrid: true,
          periodCaption: true,
          twoRates: layout === "stacked",
        });
        // The period starts on the 1st: a different date from the invoice's on these seeds.
        expect(g.invoiceDate.endsWith("-01")).toBe(false);
        expect(b.invoice?.invoiceNo).toBe(t.invoiceNo);
        expect(b.invoice?.invoiceDate).toBe(t.invoiceDate);
        expect(b.vendor?.name).toBe(t.vendor);
        expect(b.customer?.billTo?.name).toBe(t.customer);
        expect(Number(b.paymentDetails?.subtotal)).toBeCloseTo(t.subtotal, 2);
        expect(Number(b.paymentDetails?.tax)).toBeCloseTo(t.tax, 2);
        expect(Number(b.paymentDetails?.total)).toBeCloseTo(t.total, 2);
        // The totals grid's amounts (and the paragraph beside it) are not an item.
        expect(b.lineItems?.flat().length).toBe(g.items.length);
      });
});

describe("a legal footer names the issuer only when its VAT number is the letterhead's", () => {
  const head = [
    line(50, 40, "Bright Harbour", 16, true),
    line(50, 62, "21 Wharf Road", 8),
    line(50, 72, "London N1 7GR", 8),
    line(50, 90, "VAT No.: GB123456789", 8),
    line(340, 110, "INVOICE", 18, true),
    line(340, 140, "Invoice No: INV-2041"),
    line(340, 154, "Invoice Date: 14/03/2024"),
    line(340, 190, "Bill to", 9, true),
    line(340, 204, "Weber Logistics Ltd"),
    line(340, 216, "4 Market Road"),
    line(340, 228, "Leeds LS1 4AB"),
  ];
  it("a billing agent's footer (another VAT number) leaves the letterhead the issuer", () => {
    const b = body([
      ...head,
      line(120, 770, "Billingworks Services Ltd, registered in England No. 07654321", 6.5),
      line(120, 779, "1 Fleet Street, London EC4Y 1AA, VAT No.: GB987654321", 6.5),
    ]);
    expect(b.vendor?.name).toBe("Bright Harbour");
    expect(b.vendor?.address?.city).toBe("London");
  });
  it("the owner's footer (the letterhead's VAT number) gives the issuer's legal name", () => {
    const b = body([
      ...head,
      line(120, 770, "BH Trading Group Ltd, registered in England No. 07654321", 6.5),
      line(120, 779, "21 Wharf Road, London N1 7GR, VAT No.: GB 123 456 789", 6.5),
    ]);
    expect(b.vendor?.name).toBe("BH Trading Group Ltd");
  });
  for (const language of ["de", "fr", "en"] as const)
    it(`${language} classic, generated: a trade name and its VAT number over an agent's footer`, async () => {
      const { t, b } = await parse({ language, layout: "classic", seed: 30, agentFooter: true, noSenderLine: true });
      expect(t.vendor).not.toMatch(/\b(?:GmbH|SARL|SAS|SA|Ltd|Limited|KG|AG)$/);
      expect(b.vendor?.name).toBe(t.vendor);
      expect(b.customer?.billTo?.name).toBe(t.customer);
      expect(Number(b.paymentDetails?.total)).toBeCloseTo(t.total, 2);
    });
});

describe("a letter's heading: the date alone under the number", () => {
  const parties = [
    line(50, 120, "Adatum Corporation"),
    line(50, 132, "Station Road, 21"),
    line(50, 144, "48436 Düsseldorf"),
    line(400, 120, "CRONUS DE"),
    line(400, 132, "Hofstraße 12"),
    line(400, 144, "20097 Hamburg"),
  ];
  it("'Invoice 103767' over 'February 17, 2026' dates the invoice", () => {
    const b = body([line(50, 40, "Invoice 103767", 14, true), line(50, 57, "February 17, 2026"), ...parties]);
    expect(b.invoice?.invoiceNo).toBe("103767");
    expect(b.invoice?.invoiceDate).toBe("2026-02-17");
  });
  it("a sentence under the number that mentions a date does not", () => {
    const b = body([line(50, 40, "Invoice 103767", 14, true), line(50, 57, "Delivered on February 17, 2026 by road"), ...parties]);
    expect(b.invoice?.invoiceNo).toBe("103767");
    expect(b.invoice?.invoiceDate).toBeUndefined();
  });
});

describe("the return-address line over the window is the vendor's", () => {
  it("the addressee set right under it is the buyer, not the sender", () => {
    const b = body([
      line(240, 40, "Kraxi GmbH", 14, true),
      line(400, 80, "Flugzeugallee 17", 9),
      line(400, 91, "12345 Papierfeld", 9),
      line(400, 102, "info@kraxi.com", 9),
      line(400, 113, "www.kraxi.com", 9),
      line(50, 118, "Kraxi GmbH • Flugzeugallee 17 • 12345 Papierfeld • Deutschland", 9),
      line(50, 140, "Papierflieger-Vertriebs-GmbH", 12),
      line(50, 153, "Rabattstr. 25", 12),
      line(50, 166, "34567 Osterhausen", 12),
      line(50, 200, "Rechnungsnummer: 2019-03"),
      line(300, 200, "Rechnungsdatum: 6. September 2019"),
      line(50, 790, "Kraxi GmbH", 7, true),
      line(50, 800, "Amtsgericht Papierfeld HRB 4711", 7),
    ]);
    expect(b.vendor?.name).toBe("Kraxi GmbH");
    expect(b.customer?.billTo?.name).toBe("Papierflieger-Vertriebs-GmbH");
    expect(b.customer?.billTo?.address?.city).toBe("Osterhausen");
  });
});

describe("a document title wrapped onto its number caption", () => {
  it.each([
    ["FACTURE", "AFFACTURÉE N°", "UC1_2023020_AFF"],
    ["INVOICE", "NUMBER", "INV-7781"],
    ["RECHNUNG", "Nr.", "RE-2024-118"],
  ])("'%s' over '%s' beside the number", (title, caption, id) => {
    const b = body([
      line(50, 40, "Atelier Lumen SARL", 14, true),
      line(50, 60, "12 rue des Arts, 69001 Lyon", 8),
      line(340, 40, title, 12, true),
      line(340, 54, caption, 10),
      line(460, 54, id, 10),
      line(340, 68, "Date : 14/03/2024", 10),
    ]);
    expect(b.invoice?.invoiceNo).toBe(id);
  });
});

