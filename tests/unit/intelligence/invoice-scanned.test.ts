import { afterAll, describe, expect, it } from "vitest";
import { readInvoice } from "@/lib/engine/invoice/read-invoice";
import { shutdownOcr } from "@/lib/engine/ocr/pool";
import { SPECS, expectedOf, invoicePdf, renderPng, scannedPdf } from "@/tests/helpers/invoice-fixtures";

afterAll(() => shutdownOcr());

/** Fields an OCR'd invoice must still give exactly (names may lose an accent to OCR). */
function core(body: Record<string, any>) {
  return {
    customerName: body.customer?.billTo?.name,
    invoiceNo: body.invoice?.invoiceNo,
    invoiceDate: body.invoice?.invoiceDate,
    dueDate: body.paymentDetails?.dueDate,
    total: body.paymentDetails?.total,
    subtotal: body.paymentDetails?.subtotal,
    tax: body.paymentDetails?.tax,
    iban: body.paymentDetails?.bankingInformation?.iban,
    lineTotals: ((body.lineItems ?? []) as Record<string, string>[][]).flat().map((i) => i.total),
  };
}

describe("ai-invoice-parser: scanned invoices (OCR)", () => {
  it("a scanned PDF (page is one image)", async () => {
    const spec = SPECS.ukFooterVendor;
    const e = expectedOf(spec);
    const res = await readInvoice(scannedPdf(await invoicePdf(spec), 200), { noLlm: true });
    expect(res.message).toMatch(/OCR on page\(s\) 0/);
    expect(res.body.vendor?.name).toBe(spec.vendor.name);
    expect(core(res.body)).toEqual({
      customerName: e.customerName,
      invoiceNo: e.invoiceNo,
      invoiceDate: e.invoiceDate,
      dueDate: e.dueDate,
      total: e.total,
      subtotal: e.subtotal,
      tax: e.tax,
      iban: e.iban,
      lineTotals: e.lineTotals,
    });
  }, 60_000);

  it("a PNG photo of an invoice (French, decimal comma, long date)", async () => {
    const spec = SPECS.frTwoColumn;
    const e = expectedOf(spec);
    const res = await readInvoice(renderPng(await invoicePdf(spec), 0, 200), { noLlm: true });
    expect(res.pageCount).toBe(1);
    expect(res.body.vendor?.name).toMatch(/^Atelier Lumi.re SARL$/);
    expect(core(res.body)).toEqual({
      customerName: e.customerName,
      invoiceNo: e.invoiceNo,
      invoiceDate: e.invoiceDate,
      dueDate: e.dueDate,
      total: e.total,
      subtotal: e.subtotal,
      tax: e.tax,
      iban: e.iban,
      lineTotals: e.lineTotals,
    });
  }, 60_000);
});
