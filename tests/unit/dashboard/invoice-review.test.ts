import { describe, expect, it } from "vitest";
import { buildInvoiceSections, readConfidence } from "@/lib/dashboard/invoices/invoice";

describe("invoice review model", () => {
  it("shows the currency with the payment details", () => {
    const sections = buildInvoiceSections({ paymentDetails: { total: "12.00", currency: "EUR" } });
    const fields = sections.flatMap((s) => s.groups.flatMap((g) => g.fields));
    expect(fields.find((f) => f.path === "paymentDetails.currency")).toMatchObject({ label: "Currency", value: "EUR" });
    expect(fields.find((f) => f.path === "paymentDetails.dueDate")?.value).toBeNull();
  });

  it("reads the confidence extension, dropping malformed entries", () => {
    expect(
      readConfidence({ confidence: { "vendor.name": 0.85, "paymentDetails.total": 0.95, bad: "x", worse: 7 } }),
    ).toEqual({ "vendor.name": 0.85, "paymentDetails.total": 0.95 });
    expect(readConfidence({})).toEqual({});
  });
});
