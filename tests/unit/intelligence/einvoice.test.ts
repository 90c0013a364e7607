import { describe, expect, it } from "vitest";
import { readInvoice } from "@/lib/engine/invoice/read-invoice";
import { readEInvoice } from "@/lib/engine/invoice/einvoice/read-einvoice";
import { parseXml, textAt } from "@/lib/engine/invoice/einvoice/xml";
import {
  SPECS,
  ciiXml,
  facturXPdf,
  totalsOf,
  ublPdf,
  ublXml,
  invoicePdf,
} from "@/tests/helpers/invoice-fixtures";

describe("e-invoices embedded in the PDF are read exactly", () => {
  it("Factur-X / ZUGFeRD (CII)", async () => {
    const spec = SPECS.deAbove;
    const t = totalsOf(spec);
    const res = await readInvoice(await facturXPdf(spec), { noLlm: true, customFields: ["currency"] });
    expect(res.source).toBe("einvoice");
    expect(res.message).toMatch(/embedded UN\/CEFACT CII .*"factur-x\.xml".*exactly|exactly.*factur-x\.xml/);
    expect(res.body.vendor).toMatchObject({
      name: spec.vendor.name,
      entityId: spec.vendor.vatId,
      address: { city: "Bremen", postalCode: "28195", streetAddress: spec.vendor.street },
    });
    expect(res.body.customer?.billTo?.name).toBe(spec.billTo.name);
    expect(res.body.invoice).toEqual({ invoiceNo: spec.invoiceNo, invoiceDate: spec.date, poNo: spec.poNo });
    expect(res.body.paymentDetails).toMatchObject({
      total: t.total.toFixed(2),
      subtotal: t.subtotal.toFixed(2),
      tax: t.tax.toFixed(2),
      dueDate: spec.dueDate,
      paymentTerms: spec.terms,
      bankingInformation: { iban: spec.iban, swiftBicCode: spec.bic },
    });
    expect(res.body.lineItems?.[0]).toHaveLength(3);
    expect(res.body.lineItems?.[0][1]).toEqual({
      position: "2",
      description: "Ersatzteil Antriebsrolle",
      quantity: "6",
      unit: "C62",
      unitPrice: "89.90",
      taxRate: "19",
      total: "539.40",
    });
    expect(res.body.currency).toBe("EUR");
    expect(res.fieldSources).toEqual({});
  });

  it("XRechnung UBL", async () => {
    const spec = SPECS.nlDutch;
    const t = totalsOf(spec);
    const res = await readInvoice(await ublPdf(spec), { noLlm: true });
    expect(res.message).toMatch(/UBL e-invoice "xrechnung\.xml"/);
    expect(res.body.vendor).toMatchObject({ name: spec.vendor.name, entityId: spec.vendor.vatId });
    expect(res.body.paymentDetails).toMatchObject({
      total: t.total.toFixed(2),
      tax: t.tax.toFixed(2),
      dueDate: spec.dueDate,
    });
    expect(res.body.paymentDetails?.bankingInformation).toMatchObject({
      iban: spec.iban,
      swiftBicCode: spec.bic,
    });
    expect(res.body.lineItems?.[0].map((i) => i.total)).toEqual(t.lines.map((l) => l.toFixed(2)));
  });

  it("a PDF without an e-invoice is read from its layout", async () => {
    const res = await readInvoice(await invoicePdf(SPECS.nlDutch), { noLlm: true });
    expect(res.source).toBe("layout");
  });

  it("other XML is not taken for an invoice; malformed or DOCTYPE XML is refused", () => {
    expect(readEInvoice("<note><to>x</to></note>")).toBeUndefined();
    expect(() => parseXml("<a><b></a>")).toThrow(/mismatched/);
    expect(() => parseXml('<!DOCTYPE x [<!ENTITY a "b">]><x>&a;</x>')).toThrow(/DOCTYPE/);
    expect(textAt(parseXml("<a><b>1 &amp; 2</b><c><![CDATA[<x>]]></c></a>"), "b")).toBe("1 & 2");
    expect(readEInvoice(ciiXml(SPECS.usClassic))?.syntax).toBe("CII");
    expect(readEInvoice(ublXml(SPECS.usClassic))?.syntax).toBe("UBL");
  });
});
