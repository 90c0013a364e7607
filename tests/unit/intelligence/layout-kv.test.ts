import { describe, expect, it } from "vitest";
import type { Word } from "@/lib/engine/text/types";
import { line, page } from "@/tests/helpers/layout-words";
import { buildLayout } from "@/lib/engine/invoice/layout";
import { findLabels, valuesFor } from "@/lib/engine/invoice/kv";
import { parseInvoice } from "@/lib/engine/invoice/parse-invoice";
import { reconcileTotals, type AmountCandidate } from "@/lib/engine/invoice/totals";

describe("layout: rows and segments", () => {
  it("splits a row at wide gaps and keeps stacked lines apart", () => {
    const l = buildLayout([
      page([
        line(50, 100, "Invoice No:"),
        line(200, 100, "A-17"),
        line(50, 112, "Coolblue"),
        line(50, 116.5, "Weena 664", 10),
      ]),
    ]);
    const rows = l.pages[0].rows.map((r) => r.segments.map((s) => s.text));
    expect(rows[0]).toEqual(["Invoice No:", "A-17"]);
    expect(rows.flat()).toContain("Coolblue");
    expect(rows.flat()).toContain("Weena 664");
  });
});

describe("label/value pairs", () => {
  const values = (words: Word[][]) => {
    const layout = buildLayout([page(words)]);
    return findLabels(layout).map((o) => ({
      field: o.hit.label.field,
      values: valuesFor(o, layout, new Set()).map((v) => `${v.direction}:${v.text}`),
    }));
  };

  it("reads a value inline, right of the label, and under it", () => {
    expect(values([line(50, 100, "Invoice Date: 03/20/2023")])[0]).toEqual({
      field: "invoiceDate",
      values: ["inline:03/20/2023"],
    });
    expect(values([line(50, 100, "Invoice Number:"), line(400, 100, "42183017")])[0]).toEqual({
      field: "invoiceNo",
      values: ["right:42183017"],
    });
    const below = values([line(50, 100, "Due Date:", 10, true), line(50, 114, "04/04/2023")]);
    expect(below[0]).toEqual({ field: "dueDate", values: ["below:04/04/2023"] });
  });

  it("prefers the longest label (order date is not order + value)", () => {
    expect(values([line(50, 100, "Order Date: 12/01/2023")])[0].field).toBe("orderDate");
    expect(values([line(50, 100, "Bill to Address:"), line(50, 114, "ATTN: Acme Ltd")])[0].field).toBe(
      "billTo",
    );
  });

  it("finds several labels in one segment when they end with a colon", () => {
    const v = values([line(50, 100, "Date: 01/02/2024 Terms: Net 30")]);
    expect(v.map((x) => x.field)).toEqual(["invoiceDate", "paymentTerms"]);
    expect(v[1].values).toEqual(["inline:Net 30"]);
  });
});

describe("parseInvoice on hand-built words", () => {
  it("reads labels left of and above their values, parties and totals", () => {
    const words = [
      line(50, 40, "Acme Tools GmbH", 16, true),
      line(50, 62, "Werkstraße 5"),
      line(50, 74, "10115 Berlin"),
      line(50, 86, "USt-IdNr.: DE 232 446 240"),
      line(450, 40, "RECHNUNG", 18, true),
      line(50, 150, "Rechnungsnr.", 10, true),
      line(200, 150, "Datum", 10, true),
      line(350, 150, "Fällig am", 10, true),
      line(50, 164, "R-2024-55"),
      line(200, 164, "05.03.2024"),
      line(350, 164, "19.03.2024"),
      line(50, 200, "Rechnungsadresse:", 10, true),
      line(50, 214, "Beta Handel KG"),
      line(50, 226, "Hauptstraße 1"),
      line(50, 238, "80331 München"),
      line(50, 300, "Beschreibung", 10, true),
      line(300, 300, "Menge", 10, true),
      line(400, 300, "Preis", 10, true),
      line(500, 300, "Betrag", 10, true),
      line(50, 320, "Schrauben M5"),
      line(310, 320, "10"),
      line(400, 320, "1,50"),
      line(500, 320, "15,00"),
      line(50, 334, "Bohrer 8 mm"),
      line(310, 334, "2"),
      line(400, 334, "42,50"),
      line(500, 334, "85,00"),
      line(380, 380, "Nettobetrag"),
      line(500, 380, "100,00 €"),
      line(380, 394, "MwSt. 19%"),
      line(500, 394, "19,00 €"),
      line(380, 408, "Gesamtbetrag", 10, true),
      line(500, 408, "119,00 €", 10, true),
    ];
    const r = parseInvoice([page(words)]);
    expect(r.body.vendor).toMatchObject({
      name: "Acme Tools GmbH",
      address: { postalCode: "10115", city: "Berlin", streetAddress: "Werkstraße 5" },
      entityId: "DE 232 446 240",
    });
    expect(r.body.invoice).toMatchObject({ invoiceNo: "R-2024-55", invoiceDate: "2024-03-05" });
    expect(r.body.customer?.billTo).toMatchObject({
      name: "Beta Handel KG",
      address: { city: "München", postalCode: "80331" },
    });
    expect(r.body.paymentDetails).toMatchObject({
      dueDate: "2024-03-19",
      subtotal: "100.00",
      tax: "19.00",
      total: "119.00",
    });
    expect(r.body.lineItems).toEqual([
      [
        { description: "Schrauben M5", quantity: "10", unitPrice: "1.50", total: "15.00" },
        { description: "Bohrer 8 mm", quantity: "2", unitPrice: "42.50", total: "85.00" },
      ],
    ]);
    expect(r.fieldSources["invoice.invoiceNo"]).toMatchObject({ page: 0, x: 50, y: 164 });
    expect(r.fieldSources["paymentDetails.total"]).toMatchObject({ page: 0, x: 500 });
  });

  it("omits what is not printed and invents nothing", () => {
    const r = parseInvoice([
      page([
        line(50, 50, "INVOICE", 18, true),
        line(50, 100, "Invoice #: 77"),
        line(300, 200, "Total"),
        line(500, 200, "$12.00"),
      ]),
    ]);
    // currency is the extension read from the printed symbol.
    expect(r.body).toEqual({ invoice: { invoiceNo: "77" }, paymentDetails: { total: "12.00", currency: "USD" } });
  });
});

describe("totals reconciliation", () => {
  const c = (
    field: AmountCandidate["field"],
    value: number,
    score = 2,
    row = String(Math.random()),
  ): AmountCandidate => ({
    field,
    value,
    text: value.toFixed(2),
    box: { page: 0, x0: 0, y0: 0, x1: 1, y1: 1 },
    score,
    order: 0,
    rowKey: row,
  });

  it("chooses the combination where subtotal + tax − discount + shipping = total", () => {
    const chosen = reconcileTotals([
      c("subtotal", 112),
      c("subtotal", 150.9),
      c("subtotal", 262.9),
      c("tax", 16.94),
      c("tax", 112.9),
      c("total", 279.84, 1),
    ]);
    expect(chosen.subtotal?.value).toBe(262.9);
    expect(chosen.tax?.map((t) => t.value)).toEqual([16.94]);
    expect(chosen.total?.value).toBe(279.84);
    expect(chosen.reconciled).toBe(true);
  });

  it("uses discount and shipping when they reconcile", () => {
    const chosen = reconcileTotals([
      c("subtotal", 100),
      c("discount", -10),
      c("tax", 18),
      c("shipping", 5),
      c("total", 113),
    ]);
    expect([
      chosen.subtotal?.value,
      chosen.discount?.value,
      chosen.shipping?.value,
      chosen.total?.value,
    ]).toEqual([100, -10, 5, 113]);
  });

  it("reports the tax base ('Net total') as the subtotal when the lines' subtotal is adjusted by allowances and charges", () => {
    const chosen = reconcileTotals([
      c("subtotal", 25597.74),
      c("discount", -767.93),
      c("shipping", 47.9),
      c("subtotal", 24877.71),
      c("tax", 42.28),
      c("total", 24919.99),
    ]);
    expect(chosen.subtotal?.value).toBe(24877.71);
    expect(chosen.total?.value).toBe(24919.99);
    expect(chosen.tax?.map((t) => t.value)).toEqual([42.28]);
    expect(chosen.discount?.value).toBe(-767.93);
  });

  it("sums tax printed per rate", () => {
    const chosen = reconcileTotals([
      c("subtotal", 200),
      c("tax", 21, 2, "a"),
      c("tax", 9, 2, "b"),
      c("total", 230),
    ]);
    expect(chosen.tax?.map((t) => t.value).sort()).toEqual([21, 9]);
  });
});
