import { afterAll, describe, expect, it } from "vitest";
import { readInvoice } from "@/lib/engine/invoice/read-invoice";
import { shutdownOcr } from "@/lib/engine/ocr/pool";
import { invoiceHeadline } from "@/lib/operations/ai-invoice-parser/headline";
import { fileNameOf, invoiceListRow } from "@/lib/dashboard/invoices/list";
import type { JobSummary } from "@/lib/dashboard/data/api-types";
import { generateInvoice, renderInvoice, truthOf } from "@/tests/helpers/invoice-gen";

afterAll(() => shutdownOcr());

const job = (over: Partial<JobSummary>): JobSummary => ({
  jobId: "job-1",
  operation: "ai-invoice-parser",
  path: "/v1/ai-invoice-parser",
  status: "success",
  isAsync: true,
  via: "api",
  source: "http://127.0.0.1:3000/files/abc/r%C3%A9sum%C3%A9%20invoice.pdf?X-Amz-Signature=deadbeef&X-Amz-Expires=3600",
  createdAt: "2026-11-24T10:00:00.000Z",
  startedAt: null,
  finishedAt: null,
  durationMs: null,
  credits: 2,
  pageCount: 1,
  message: null,
  ...over,
});

describe("invoice list: each invoice named by vendor, number, date and total", () => {
  it("reads the headline from a parsed generated invoice's stored result", async () => {
    const g = generateInvoice({ language: "de", layout: "classic", seed: 5 });
    const t = truthOf(g);
    const res = await readInvoice(await renderInvoice(g), { noLlm: true });
    const h = invoiceHeadline({ body: res.body, pageCount: 1 });
    expect(h?.vendor).toBe(t.vendor);
    expect(h?.invoiceNo).toBe(t.invoiceNo);
    expect(h?.invoiceDate).toBe(t.invoiceDate);
    expect(Number(h?.total)).toBeCloseTo(t.total, 2);
    expect(h?.currency).toBe("EUR");
    const row = invoiceListRow(job({ invoice: h }));
    expect(row).toMatchObject({ title: t.vendor, named: true, invoiceNo: t.invoiceNo, invoiceDate: t.invoiceDate });
    expect(row.total).toBe(`${h?.total} EUR`);
  });

  it("leaves out what the parser did not find, and names nothing for a result without a body", () => {
    expect(invoiceHeadline({ body: { invoice: { invoiceNo: "  " }, paymentDetails: { total: "12.00" } } })).toEqual({ total: "12.00" });
    expect(invoiceHeadline({ body: {} })).toBeUndefined();
    expect(invoiceHeadline(null)).toBeUndefined();
    expect(invoiceHeadline({ body: { vendor: { name: 42 } } })).toBeUndefined();
  });

  it("falls back to the file's name (never the signed URL) and then the job id", () => {
    expect(fileNameOf(job({}).source)).toBe("résumé invoice.pdf");
    const row = invoiceListRow(job({ status: "failed" }));
    expect(row).toMatchObject({ title: "résumé invoice.pdf", named: false, invoiceNo: null, total: null, status: "failed" });
    expect(invoiceListRow(job({ source: null })).title).toBe("job-1");
    expect(invoiceListRow(job({ invoice: { total: "9.50" } })).total).toBe("9.50");
  });
});
