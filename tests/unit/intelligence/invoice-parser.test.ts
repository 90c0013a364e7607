import { afterAll, describe, expect, it } from "vitest";
import * as mupdf from "mupdf";
import { readInvoice } from "@/lib/engine/invoice/read-invoice";
import { parseCustomFields } from "@/lib/engine/invoice/parse-invoice";
import { shutdownOcr } from "@/lib/engine/ocr/pool";
import {
  SPECS,
  expectedOf,
  invoicePdf,
  makeTextPdf,
  type Expected,
  type InvoiceSpec,
} from "@/tests/helpers/invoice-fixtures";

afterAll(() => shutdownOcr());

type Body = Awaited<ReturnType<typeof readInvoice>>["body"];

function got(body: Body): Expected {
  const b = body as Record<string, any>;
  return {
    vendorName: b.vendor?.name,
    customerName: b.customer?.billTo?.name,
    invoiceNo: b.invoice?.invoiceNo,
    invoiceDate: b.invoice?.invoiceDate,
    dueDate: b.paymentDetails?.dueDate,
    poNo: b.invoice?.poNo,
    total: b.paymentDetails?.total,
    subtotal: b.paymentDetails?.subtotal,
    tax: b.paymentDetails?.tax,
    shipping: b.paymentDetails?.shipping,
    discount: b.paymentDetails?.discount,
    iban: b.paymentDetails?.bankingInformation?.iban,
    bic: b.paymentDetails?.bankingInformation?.swiftBicCode,
    lineTotals: ((b.lineItems ?? []) as Record<string, string>[][]).flat().map((i) => i.total),
  };
}

/** Expected values with the fields the spec leaves out dropped. */
function want(spec: InvoiceSpec): Partial<Expected> {
  return Object.fromEntries(Object.entries(expectedOf(spec)).filter(([, v]) => v !== undefined));
}

describe("ai-invoice-parser: generated invoices in many layouts (text layer)", () => {
  it.each(Object.keys(SPECS))("%s", async (name) => {
    const spec = SPECS[name];
    const res = await readInvoice(await invoicePdf(spec), { noLlm: true });
    expect(res.source).toBe("layout");
    expect(got(res.body)).toMatchObject(want(spec));
  });

  it("labels left of values (US): parties, addresses, contacts, PO, terms, notes", async () => {
    const res = await readInvoice(await invoicePdf(SPECS.usClassic), { noLlm: true });
    expect(res.body.vendor).toEqual({
      name: "Brightline Supply Inc.",
      address: { streetAddress: "1200 Harbor Blvd", city: "Oakland", state: "CA", postalCode: "94607" },
      contactInformation: { phone: "(510) 555-0142", email: "billing@brightlinesupply.com" },
    });
    expect(res.body.customer?.billTo).toMatchObject({
      name: "Cedar Creek Dental LLC",
      contactInformation: { email: "office@cedarcreekdental.com" },
    });
    expect(res.body.customer?.shipTo).toEqual({
      name: "Cedar Creek Dental Annex",
      address: { streetAddress: "52 Elm Street", city: "Portland", state: "OR", postalCode: "97205" },
    });
    expect(res.body.paymentDetails?.paymentTerms).toBe("Net 30");
    expect(res.body.others?.notes).toMatch(/^Thank you for your business/);
    expect(res.body.lineItems?.[0][0]).toEqual({
      description: "Widget type 1",
      quantity: "2",
      unitPrice: "21.50",
      total: "43.00",
    });
  });

  it("labels above values (German, decimal comma, dd.mm.yyyy), banking details, VAT id", async () => {
    const res = await readInvoice(await invoicePdf(SPECS.deAbove), { noLlm: true });
    expect(res.body.vendor?.entityId).toBe(SPECS.deAbove.vendor.vatId);
    expect(res.body.vendor?.address).toMatchObject({
      city: "Bremen",
      postalCode: "28195",
      country: "Deutschland",
    });
    expect(res.body.paymentDetails?.bankingInformation).toMatchObject({
      iban: SPECS.deAbove.iban,
      swiftBicCode: "COBADEFFXXX",
      bankName: "Commerzbank Bremen",
    });
    expect(res.body.paymentDetails?.paymentTerms).toBe("30 Tage netto");
    expect(res.body.lineItems?.[0].map((i) => i.description)).toEqual([
      "Wartung Förderband",
      "Ersatzteil Antriebsrolle",
      "Anfahrtspauschale",
    ]);
  });

  it("French two-column parties (Facturer à / Livrer à) and a long French date", async () => {
    const res = await readInvoice(await invoicePdf(SPECS.frTwoColumn), { noLlm: true });
    expect(res.body.customer?.billTo?.name).toBe("Boulangerie Marchand");
    expect(res.body.customer?.shipTo?.name).toBe("Boulangerie Marchand - Dépôt");
    expect(res.body.customer?.shipTo?.address).toMatchObject({ city: "Villeurbanne", postalCode: "69100" });
    expect(res.body.vendor?.entityId).toBe(SPECS.frTwoColumn.vendor.vatId);
  });

  it("vendor named only in the legal footer, discount printed negative", async () => {
    const res = await readInvoice(await invoicePdf(SPECS.ukFooterVendor), { noLlm: true });
    expect(res.body.vendor).toMatchObject({
      name: "Thistle & Pine Ltd",
      entityId: "GB 284 1137 52",
      address: { city: "Edinburgh", postalCode: "EH9 1UH" },
    });
    expect(res.body.paymentDetails?.discount).toBe("-10.00");
  });

  it("line items over three pages with the header repeated stay one table", async () => {
    const spec = SPECS.multiPage;
    const res = await readInvoice(await invoicePdf(spec), { noLlm: true });
    expect(res.pageCount).toBe(3);
    expect(res.body.lineItems).toHaveLength(1);
    expect(res.body.lineItems?.[0]).toHaveLength(50);
    expect(res.body.lineItems?.[0][49].description).toBe(spec.items[49].description);
  });

  it("customField values appear in body under the caller's names", async () => {
    const res = await readInvoice(await invoicePdf(SPECS.usClassic), {
      noLlm: true,
      customFields: parseCustomFields("deliveryDate, purchaseOrderRef, customerReference, currency"),
    });
    expect(res.body.deliveryDate).toBe("2024-03-01");
    expect(res.body.purchaseOrderRef).toBe("PO-7731");
    expect(res.body.currency).toBe("USD");
    expect(res.body.customerReference).toBeUndefined();
  });

  it("fieldSources gives page and box of each value", async () => {
    const res = await readInvoice(await invoicePdf(SPECS.usClassic), { noLlm: true });
    const src = res.fieldSources["invoice.invoiceNo"];
    expect(src.page).toBe(0);
    expect(src.x).toBeGreaterThan(450);
    expect(src.y).toBeGreaterThan(75);
    expect(src.y).toBeLessThan(95);
    expect(res.fieldSources["vendor.name"]).toMatchObject({ page: 0, x: 50 });
    expect(res.fieldSources["lineItems.0.0.total"]).toBeDefined();
  });

  it("only one invoice per file: a second invoice is left out and the message says so", async () => {
    const { layoutInvoice } = await import("@/tests/helpers/invoice-fixtures");
    const pages = [
      ...layoutInvoice(SPECS.usClassic),
      ...layoutInvoice({
        ...SPECS.usClassic,
        invoiceNo: "INV-20000",
        items: SPECS.usClassic.items.slice(0, 1),
      }),
    ];
    const res = await readInvoice(await makeTextPdf(pages), { noLlm: true });
    expect(res.body.invoice?.invoiceNo).toBe("INV-10482");
    expect(res.body.lineItems?.[0]).toHaveLength(4);
    expect(res.message).toMatch(/holds 2 invoices .*INV-10482, INV-20000.*only the first/);
  });

  it("refuses more than 100 pages with a clear error", async () => {
    const doc = new mupdf.PDFDocument();
    for (let i = 0; i < 101; i++)
      doc.insertPage(-1, doc.addPage([0, 0, 200, 200], 0, doc.newDictionary(), ""));
    const bytes = doc.saveToBuffer("").asUint8Array().slice();
    doc.destroy();
    await expect(readInvoice(bytes, { noLlm: true })).rejects.toMatchObject({
      status: 400,
      message: expect.stringMatching(/101 pages.*at most 100/),
    });
  });

  it("a file that is not an invoice yields an empty body and says so", async () => {
    const res = await readInvoice(
      await makeTextPdf([[{ x: 50, y: 50, text: "Minutes of the garden club meeting" }]]),
      { noLlm: true },
    );
    expect(res.body).toEqual({});
    expect(res.message).toMatch(/No invoice fields/);
  });
});

describe("customField parsing", () => {
  it.each([
    ["deliveryDate, purchaseOrderRef", ["deliveryDate", "purchaseOrderRef"]],
    ['["storeNumber","lineTotal"]', ["storeNumber", "lineTotal"]],
    ['{"fields": ["departmentCode"]}', ["departmentCode"]],
    ["Customer Reference", ["customerReference"]],
    ["", []],
  ])("%s", (raw, names) => {
    expect(parseCustomFields(raw)).toEqual(names);
  });
});
