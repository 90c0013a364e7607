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
