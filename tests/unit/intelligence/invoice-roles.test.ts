/**
 * Party roles and locale signals on generated invoices: the bill a buyer printed from its own
 * system (its letterhead, the vendor in the address block) and US dates told by the issuer's
 * North American phone number when every printed date reads both ways.
 */
import { afterAll, describe, expect, it } from "vitest";
import { readInvoice } from "@/lib/engine/invoice/read-invoice";
import { shutdownOcr } from "@/lib/engine/ocr/pool";
import { generateInvoice, renderInvoice, truthOf, type GenOptions } from "@/tests/helpers/invoice-gen";

afterAll(() => shutdownOcr());

async function parse(o: GenOptions) {
  const g = generateInvoice(o);
  const res = await readInvoice(await renderInvoice(g), { noLlm: true });
  return { g, t: truthOf(g), body: res.body as Record<string, any>, notes: (res as { notes?: string[] }).notes };
}

describe("a vendor bill printed by the buyer", () => {
  for (const language of ["de", "fr", "en"] as const) {
    it(`${language}: the letterhead is the buyer's, the address block names the vendor`, async () => {
      const { g, t, body } = await parse({ language, layout: "classic", seed: 2, buyerPrinted: true });
      expect(g.buyerPrinted).toBe(true);
      expect(body.vendor?.name).toBe(t.vendor);
      expect(body.customer?.billTo?.name).toBe(t.customer);
      expect(body.invoice?.invoiceNo).toBe(t.invoiceNo);
      expect(Number(body.paymentDetails?.total)).toBeCloseTo(t.total, 2);
    });
  }

  it("an ordinary invoice with the same letterhead layout keeps its roles", async () => {
    const { t, body } = await parse({ language: "en", layout: "classic", seed: 2 });
    expect(body.vendor?.name).toBe(t.vendor);
    expect(body.customer?.billTo?.name).toBe(t.customer);
  });
});

describe("US dates", () => {
  for (const seed of [1, 2, 3]) {
    it(`seed ${seed}: MM/DD/YYYY with day and month ≤ 12, a +1 phone number → month first`, async () => {
      const { g, t, body } = await parse({ language: "en", layout: "classic", seed, usDates: true });
      expect(g.dateStyle).toBe("us");
      const [, m, d] = g.invoiceDate.split("-").map(Number);
      expect(m <= 12 && d <= 12).toBe(true);
      expect(body.invoice?.invoiceDate).toBe(t.invoiceDate);
      expect(body.paymentDetails?.dueDate).toBe(t.dueDate);
    });
  }

  it("the same dates without a North American phone number read day first (European default)", async () => {
    const g = generateInvoice({ language: "en", layout: "classic", seed: 1, usDates: true });
    const dmy = { ...g, dateStyle: "numeric" as const };
    const res = await readInvoice(await renderInvoice(dmy), { noLlm: true });
    expect((res.body as any).invoice?.invoiceDate).toBe(g.invoiceDate);
  });
});

describe("line items printed as captioned records (no item table)", () => {
  for (const language of ["de", "fr", "en"] as const) {
    it(`${language}: one item per record, name, quantity, unit price and line total`, async () => {
      const { g, t, body } = await parse({ language, layout: "stacked", seed: 2, itemRecords: true, items: 3 });
      expect(g.itemRecords).toBe(true);
      const items = (body.lineItems ?? []).flat() as Record<string, string>[];
      expect(items.map((i) => Number(i.total))).toEqual(t.lineItems.map((i) => i.total));
      expect(items.map((i) => i.description)).toEqual(t.lineItems.map((i) => i.description));
      expect(items.map((i) => Number(i.quantity))).toEqual(t.lineItems.map((i) => i.quantity));
      expect(items.map((i) => Number(i.unitPrice))).toEqual(t.lineItems.map((i) => i.unitPrice));
      // The totals are still read from the totals block.
      expect(Number(body.paymentDetails?.total)).toBeCloseTo(t.total, 2);
      expect(Number(body.paymentDetails?.subtotal)).toBeCloseTo(t.subtotal, 2);
    });
  }

  it("an invoice with an item table does not read its rows as records", async () => {
    const { t, body } = await parse({ language: "de", layout: "classic", seed: 1, items: 3 });
    expect((body.lineItems ?? []).flat().length).toBe(t.lineItems.length);
  });
});

describe("header sentences and titles", () => {
  for (const language of ["de", "en", "fr"] as const) {
    it(`${language}: a credit note's title sentence gives its number and date ("Gutschrift Nr. … vom …")`, async () => {
      const { t, body } = await parse({ language, layout: "sentence", seed: 12, creditNote: true, wide: true, totalsInColumns: true });
      expect(body.invoice?.invoiceNo).toBe(t.invoiceNo);
      expect(body.invoice?.invoiceDate).toBe(t.invoiceDate);
      expect(Number(body.paymentDetails?.total)).toBeCloseTo(t.total, 2);
    });
  }

  it("a payment sentence with ', den …' is not a place-and-date line; the header sentence's date stays", async () => {
    const { t, body } = await parse({ language: "de", layout: "sentence", seed: 14, twoRates: true, prose: true });
    expect(body.invoice?.invoiceDate).toBe(t.invoiceDate);
    expect(body.paymentDetails?.dueDate).toBe(t.dueDate);
  });

  it("the role word in a 'Vendor Bill' title is not the vendor's section heading", async () => {
    const { t, body } = await parse({ language: "en", layout: "classic", seed: 16, twoRates: true, prose: true, buyerPrinted: true });
    expect(body.vendor?.name).toBe(t.vendor);
    expect(body.customer?.billTo?.name).toBe(t.customer);
  });
});

describe("party sections side by side with captioned lines; a letterhead set flush right", () => {
  for (const language of ["de", "fr", "en"] as const) {
    for (const seed of [10, 11, 12]) {
      it(`${language} seed ${seed}: each role heading's own column gives its captioned name (seller left, buyer right, names in capitals)`, async () => {
        const { g, t, body } = await parse({ language, layout: "captioned", seed });
        expect(g.layout).toBe("captioned");
        expect(body.vendor?.name?.toLowerCase()).toBe(t.vendor.toLowerCase());
        expect(body.customer?.billTo?.name?.toLowerCase()).toBe(t.customer.toLowerCase());
        expect(body.invoice?.invoiceNo).toBe(t.invoiceNo);
        expect(Number(body.paymentDetails?.total)).toBeCloseTo(t.total, 2);
      });
    }

    it(`${language}: the letterhead flush right at the top right is the vendor; the window left is the buyer`, async () => {
      const { t, body } = await parse({ language, layout: "rightHead", seed: 5, twoRates: true });
      expect(body.vendor?.name).toBe(t.vendor);
      expect(body.customer?.billTo?.name).toBe(t.customer);
      expect(body.invoice?.invoiceDate).toBe(t.invoiceDate);
      expect(Number(body.paymentDetails?.tax)).toBeCloseTo(t.tax, 2);
    });
  }
});

describe("an office-suite template: the vendor's block where a window address would be, the buyer labelled below", () => {
  for (const language of ["de", "fr", "en"] as const) {
    it(`${language}: a capitalised brand without a legal form is the vendor; the number alone under the title`, async () => {
      const { g, t, body } = await parse({ language, layout: "template", seed: 14, twoRates: true });
      expect(g.vendor.name).toBe(g.vendor.name.toUpperCase());
      expect(body.vendor?.name).toBe(t.vendor);
      expect(body.customer?.billTo?.name).toBe(t.customer);
      expect(body.invoice?.invoiceNo).toBe(t.invoiceNo);
      expect(body.invoice?.invoiceDate).toBe(t.invoiceDate);
    });
  }

  it("a credit note's number alone under its title", async () => {
    const { t, body } = await parse({ language: "de", layout: "template", seed: 12, creditNote: true });
    expect(body.invoice?.invoiceNo).toBe(t.invoiceNo);
    expect(Number(body.paymentDetails?.total)).toBeCloseTo(t.total, 2);
  });

  for (const language of ["de", "fr", "en"] as const) {
    it(`${language}: parties in one table (role headings over value columns, captions as row labels)`, async () => {
      const { t, body } = await parse({ language, layout: "partyTable", seed: 7 });
      expect(body.vendor?.name).toBe(t.vendor);
      expect(body.customer?.billTo?.name).toBe(t.customer);
      expect(body.invoice?.invoiceNo).toBe(t.invoiceNo);
    });
  }
});

describe("an addressee set where letterheads stand", () => {
  // The issuer only in the legal footer (a logo, no sender line), the addressee on the right
  // (Swiss and French window position) with an attention line: the block is addressed to a
  // person at the buyer, so it is the buyer's, not the issuer's letterhead.
  for (const language of ["de", "fr", "en"] as const) {
    it(`${language}: the right-hand block with '${{ de: "z. Hd.", fr: "À l'attention de", en: "Attn:" }[language]}' is the buyer; the footer's company the vendor`, async () => {
      const { g, t, body } = await parse({ language, layout: "classic", seed: 3067, logoHead: true, noSenderLine: true, windowRight: true });
      expect(g.customer.person).toMatch(/^(?:z\. Hd\.|À l'attention de|Attn:)/);
      expect(body.vendor?.name).toBe(t.vendor);
      expect(body.customer?.billTo?.name).toBe(t.customer);
    });
  }
});

describe("captions inside a role section", () => {
  it("a company caption beats a contact person's 'Name:'; a placeholder is never a name", async () => {
    const { makeTextPdf } = await import("@/tests/helpers/invoice-fixtures");
    const row = (y: number, cap: string, value: string, x = 50) => [
      { x, y, text: cap, size: 9 },
      { x: x + 110, y, text: value, size: 9 },
    ];
    const items = [
      { x: 50, y: 40, text: "Rechnung", size: 18, bold: true },
      { x: 50, y: 90, text: "Informationen zum Verkäufer", size: 11, bold: true },
      ...row(110, "Name:", "Jan Hansen"),
      ...row(124, "Firmenname:", "Brandt Metallbau GmbH"),
      ...row(138, "Ort:", "44135 Dortmund"),
      { x: 50, y: 170, text: "Informationen zum Käufer", size: 11, bold: true },
      ...row(190, "Name:", "nicht vorhanden"),
      ...row(204, "Firmenname:", "Schulte Bau GmbH"),
      { x: 50, y: 240, text: "Rechnungsnummer:", size: 9 },
      { x: 160, y: 240, text: "RE-2025-0815", size: 9 },
      { x: 50, y: 254, text: "Rechnungsdatum:", size: 9 },
      { x: 160, y: 254, text: "05.03.2025", size: 9 },
      { x: 300, y: 300, text: "Gesamtbetrag", size: 9 },
      { x: 545, y: 300, text: "1.428,00 €", size: 9, right: true },
    ];
    const res = await readInvoice(await makeTextPdf([items]), { noLlm: true });
    const b = res.body as Record<string, any>;
    expect(b.vendor?.name).toBe("Brandt Metallbau GmbH");
    expect(b.customer?.billTo?.name).toBe("Schulte Bau GmbH");
  });

  // A form of caption cells over value cells (Brazil's DANFSe, German and French form layouts):
  // the name caption has no colon and its value stands under it; so do the number and the date,
  // whose captions may carry a qualifier without digits.
  const grids = {
    de: { title: "Rechnung", no: "Rechnungsnummer", date: "Rechnungsdatum (TT.MM.JJJJ)", seller: "LIEFERANT", buyer: "KÄUFER", name: "Firmenname / Name", place: "Ort", total: "Gesamtbetrag", dateText: "05.03.2025" },
    fr: { title: "Facture", no: "Numéro de facture", date: "Date de facture (JJ/MM/AAAA)", seller: "FOURNISSEUR", buyer: "ACHETEUR", name: "Raison sociale", place: "Ville", total: "Total TTC", dateText: "05/03/2025" },
    en: { title: "Invoice", no: "Invoice number", date: "Invoice date (DD/MM/YYYY)", seller: "SUPPLIER", buyer: "BUYER", name: "Company name", place: "City", total: "Total due", dateText: "05/03/2025" },
    pt: { title: "DANFSe", no: "Número da NFS-e", date: "Data e hora da emissão da NFS-e", seller: "PRESTADOR / FORNECEDOR", buyer: "TOMADOR / ADQUIRENTE", name: "Nome / Nome Empresarial", place: "Município / Sigla UF", total: "Valor total", dateText: "05/03/2025 10:00:00" },
  };
  for (const [language, g] of Object.entries(grids)) {
    it(`${language}: caption cells over value cells — '${g.name}' over the name is a label, the value under it the name`, async () => {
      const { makeTextPdf } = await import("@/tests/helpers/invoice-fixtures");
      const cells = (y: number, pairs: [number, string][]) => pairs.map(([x, text]) => ({ x, y, text, size: 8 }));
      const party = (y: number, heading: string, name: string, vat: string, place: string) => [
        ...cells(y, [[50, heading], [250, "VAT / USt-IdNr."], [420, "Telefon / Phone"]]),
        ...cells(y + 12, [[250, vat], [420, "+49 231 123456"]]),
        ...cells(y + 28, [[50, g.name], [250, g.place]]),
        ...cells(y + 40, [[50, name], [250, place]]),
      ];
      const items = [
        { x: 50, y: 40, text: g.title, size: 16, bold: true },
        ...cells(70, [[50, g.no], [250, g.date]]),
        ...cells(82, [[50, "RE-2025-0815"], [250, g.dateText]]),
        ...party(120, g.seller, "Brandt Metallbau GmbH", "DE123456789", "Dortmund"),
        ...party(200, g.buyer, "Schulte Bau GmbH", "DE987654321", "Essen"),
        { x: 300, y: 300, text: g.total, size: 9 },
        { x: 545, y: 300, text: "1.428,00 €", size: 9, right: true },
      ];
      const res = await readInvoice(await makeTextPdf([items]), { noLlm: true });
      const b = res.body as Record<string, any>;
      expect(b.vendor?.name).toBe("Brandt Metallbau GmbH");
      expect(b.customer?.billTo?.name).toBe("Schulte Bau GmbH");
      expect(b.invoice?.invoiceNo).toBe("RE-2025-0815");
      expect(b.invoice?.invoiceDate).toBe("2025-03-05");
    });
  }

  it("placeholders are not names", async () => {
    const { notAPartyName } = await import("@/lib/engine/lexicon/invoice-fields");
    for (const t of ["nicht vorhanden", "n/a", "N/A", "non renseigné", "não informado", "niet beschikbaar", "—"])
      expect(notAPartyName(t)).toBe(true);
    expect(notAPartyName("Brandt Metallbau GmbH")).toBe(false);
  });

  it("OCR's misreadings of headings, letter-spaced titles and contact addresses are not names", async () => {
    const { notAPartyName, isHeadingOnly } = await import("@/lib/engine/lexicon/invoice-fields");
    // One letter misread (umlaut, dropped letter), a title spaced out or broken up by OCR.
    for (const t of ["Informationen zum Verkiufer", "Erweitere Adresse Rechnungempfanger", "FACTU U R.", "I N V O I C E", "R E C H N U N G"])
      expect(isHeadingOnly(t)).toBe(true);
    // E-mail (also spaced on one side by OCR) and web addresses.
    for (const t of ["tina @tester.de", "info@acme.de", "www.acme.de", "https://acme.de"]) expect(notAPartyName(t)).toBe(true);
    // Names stay names: short words are matched exactly, a free-standing "@" is not an e-mail.
    for (const t of ["Brandt Metallbau GmbH", "Kunden Service", "A B C", "Coolblue B.V.", "Amazon.com", "Acme @ Home Ltd", "Lieferanten"])
      expect(notAPartyName(t)).toBe(false);
  });
});

describe("an item table without a header row", () => {
  for (const language of ["de", "fr", "en"] as const) {
    it(`${language}: 'description … amount' rows with indented breakdowns, taken because they add up to the net`, async () => {
      const { t, body } = await parse({ language, layout: "classic", seed: 21, headerless: true, items: 3 });
      const items = (body.lineItems ?? []).flat() as Record<string, string>[];
      expect(items.map((i) => i.description)).toEqual(t.lineItems.map((i) => i.description));
      expect(items.map((i) => Number(i.total))).toEqual(t.lineItems.map((i) => i.total));
      expect(Number(body.paymentDetails?.subtotal)).toBeCloseTo(t.subtotal, 2);
    });
  }
});

describe("a deposit paid before: the grand total is not the amount due", () => {
  for (const language of ["de", "fr", "en"] as const) {
    it(`${language}: gross total, deposit and amount due printed; total = gross, net + tax reconcile`, async () => {
      const { g, t, body } = await parse({ language, layout: "captioned", seed: 22, prepaid: true, twoRates: true });
      expect(g.prepaid).toBe(true);
      expect(Number(body.paymentDetails?.total)).toBeCloseTo(t.total, 2);
      expect(Number(body.paymentDetails?.subtotal)).toBeCloseTo(t.subtotal, 2);
      expect(Number(body.paymentDetails?.tax)).toBeCloseTo(t.tax, 2);
    });
  }
});

describe("tax per rate as rows of their own, outside any item table", () => {
  for (const language of ["de", "fr", "en"] as const) {
    it(`${language}: "plus 20 % VAT on <base> … <tax>" rows under item records give tax and net`, async () => {
      const { t, body } = await parse({ language, layout: "stacked", seed: 10, twoRates: true, totalsInColumns: true, itemRecords: true });
      expect(Number(body.paymentDetails?.tax)).toBeCloseTo(t.tax, 2);
      expect(Number(body.paymentDetails?.total)).toBeCloseTo(t.total, 2);
      expect(Number(body.paymentDetails?.subtotal)).toBeCloseTo(t.subtotal, 2);
    });
  }
});
