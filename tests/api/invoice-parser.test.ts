import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { startQuire, waitForJob, type QuireServer } from "../helpers/quire-server";
import { uploadBytes } from "../helpers/api-client";
import { startLoopbackServer } from "../helpers/loopback-server";
import { generateInvoice, renderInvoice, truthOf } from "../helpers/invoice-gen";

let q: QuireServer;
let callbacks: Awaited<ReturnType<typeof startLoopbackServer>>;

beforeAll(async () => {
  callbacks = await startLoopbackServer((_req, res) => res.end("ok"));
  q = await startQuire({ env: { SYNC_TIMEOUT_MS: "180000", EGRESS_ALLOW: `127.0.0.1:${callbacks.port}` } });
}, 120_000);
afterAll(async () => {
  await q?.stop();
  await callbacks?.close();
});

async function parse(json: Record<string, unknown>) {
  const r = await q.api("/v1/ai-invoice-parser", { json });
  expect(r.status).toBe(200);
  expect(r.body.status).toBe("created");
  return waitForJob(q, r.body.jobId, 120_000);
}

describe("POST /v1/ai-invoice-parser on generated invoices", () => {
  it("a German invoice (sentence header, vendor in the footer): fields, currency extension, callback", async () => {
    const g = generateInvoice({ language: "de", layout: "sentence", seed: 3, twoRates: true });
    const t = truthOf(g);
    const src = await uploadBytes(q, await renderInvoice(g), "rechnung.pdf");
    const done = await parse({ url: src, callback: `${callbacks.origin}/invoice-hook`, customField: "currency, deliveryDate" });
    expect(done.status, JSON.stringify(done)).toBe("success");
    expect(done.body.invoice.invoiceNo).toBe(t.invoiceNo);
    expect(done.body.invoice.invoiceDate).toBe(t.invoiceDate);
    expect(done.body.vendor.name).toBe(t.vendor);
    expect(done.body.customer.billTo.name).toBe(t.customer);
    expect(Number(done.body.paymentDetails.total)).toBeCloseTo(t.total, 2);
    expect(Number(done.body.paymentDetails.tax)).toBeCloseTo(t.tax, 2);
    expect(done.body.paymentDetails.currency).toBe("EUR");
    expect(done.body.currency).toBe("EUR");
    expect(done.body.lineItems.flat()).toHaveLength(g.items.length);
    const deadline = Date.now() + 20_000;
    while (!callbacks.requests.some((x) => x.url === "/invoice-hook") && Date.now() < deadline)
      await new Promise((s) => setTimeout(s, 200));
    const hit = callbacks.requests.find((x) => x.url === "/invoice-hook");
    expect(hit).toBeDefined();
    expect(JSON.parse(hit!.body.toString()).body.invoice.invoiceNo).toBe(t.invoiceNo);
    // The job list names the finished invoice (the dashboard's invoice list reads it).
    const list = await q.api("/v1/jobs?limit=10&q=ai-invoice-parser", { method: "GET" });
    expect(list.status).toBe(200);
    const listed = list.body.jobs.find((j: { jobId: string }) => j.jobId === done.jobId);
    expect(listed.invoice).toEqual({
      vendor: t.vendor,
      invoiceNo: t.invoiceNo,
      invoiceDate: t.invoiceDate,
      total: done.body.paymentDetails.total,
      currency: "EUR",
    });
  }, 150_000);

  it("a French credit note with two tax rates, field sources on request", async () => {
    const g = generateInvoice({ language: "fr", layout: "stacked", seed: 4, twoRates: true, creditNote: true });
    const t = truthOf(g);
    const src = await uploadBytes(q, await renderInvoice(g), "avoir.pdf");
    const done = await parse({ url: src, profiles: JSON.stringify({ IncludeFieldSources: true, IncludeConfidence: true }) });
    expect(done.status, JSON.stringify(done)).toBe("success");
    expect(Number(done.body.paymentDetails.total)).toBeCloseTo(t.total, 2);
    expect(Number(done.body.paymentDetails.subtotal)).toBeCloseTo(t.subtotal, 2);
    expect(Number(done.body.paymentDetails.tax)).toBeCloseTo(t.tax, 2);
    expect(done.fieldSources["paymentDetails.total"]).toMatchObject({ page: 0 });
    // Totals that reconcile (net + Σ tax per rate = gross) are the surest values.
    expect(done.confidence["paymentDetails.total"]).toBeGreaterThanOrEqual(0.9);
    expect(done.confidence["invoice.invoiceNo"]).toBeGreaterThan(0);
    expect(Object.values(done.confidence).every((v) => typeof v === "number" && v > 0 && v <= 1)).toBe(true);
  }, 150_000);

  it("a file that is not an invoice: success with few fields, not a crash", async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const page = doc.addPage([595, 842]);
    page.drawText("Minutes of the garden club meeting", { x: 50, y: 780, size: 16, font });
    page.drawText("We discussed the roses and the new compost heap.", { x: 50, y: 740, size: 10, font });
    const src = await uploadBytes(q, Buffer.from(await doc.save()), "minutes.pdf");
    const done = await parse({ url: src });
    expect(done.status, JSON.stringify(done)).toBe("success");
    expect(done.body.invoice?.invoiceNo).toBeUndefined();
    expect(done.body.paymentDetails?.total).toBeUndefined();
  }, 150_000);

  it("more than 100 pages: the job fails with a clear message", async () => {
    const doc = await PDFDocument.create();
    for (let i = 0; i < 101; i++) doc.addPage([200, 200]);
    const src = await uploadBytes(q, Buffer.from(await doc.save()), "huge.pdf");
    const done = await parse({ url: src });
    expect(done.status).toBe("failed");
    expect(done.message).toMatch(/101 pages.*at most 100/);
  }, 150_000);
});
