import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  buildPrompt,
  fillWithLlm,
  isInDocument,
  llmConfigFromEnv,
  mergeAnswer,
  missingFields,
  parseAnswer,
} from "@/lib/engine/invoice/llm";
import type { InvoiceBody } from "@/lib/engine/invoice/types";

const DOC = `ACME Widgets Ltd  INVOICE
Invoice No: 4411  Date: 12/03/2024
Bill to: Zeta Corp
Subtotal  100.00
VAT 20%  20.00
Total  £120.00
Payment due within 14 days`;

describe("LLM backend (optional)", () => {
  let server: Server;
  let url = "";
  const seen: { auth?: string; body: any }[] = [];
  let answer: unknown = {};

  beforeAll(async () => {
    server = createServer((req, res) => {
      let data = "";
      req.on("data", (c) => (data += c));
      req.on("end", () => {
        seen.push({ auth: req.headers.authorization, body: JSON.parse(data) });
        res.setHeader("content-type", "application/json");
        res.end(
          JSON.stringify({
            choices: [{ message: { content: "```json\n" + JSON.stringify(answer) + "\n```" } }],
          }),
        );
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it("is off unless INVOICE_LLM_URL is set", () => {
    expect(llmConfigFromEnv({})).toBeUndefined();
    expect(
      llmConfigFromEnv({ INVOICE_LLM_URL: "http://x/v1", INVOICE_LLM_MODEL: "m", INVOICE_LLM_KEY: "k" }),
    ).toMatchObject({ url: "http://x/v1", model: "m", key: "k" });
  });

  it("asks only for the missing fields and sends the document text", () => {
    const body: InvoiceBody = { invoice: { invoiceNo: "4411" } };
    const missing = missingFields(body);
    expect(missing).toContain("vendor.name");
    expect(missing).not.toContain("invoice.invoiceNo");
    const [system, user] = buildPrompt(DOC, body, missing);
    expect(system.content).toMatch(/never guess/);
    expect(user.content).toContain("- vendor.name");
    expect(user.content).toContain("Invoice No: 4411");
  });

  it("merges only missing fields whose values are printed in the document", () => {
    const body: InvoiceBody = { invoice: { invoiceNo: "4411" }, paymentDetails: { total: "120.00" } };
    const ans = parseAnswer(
      JSON.stringify({
        "vendor.name": "ACME Widgets Ltd",
        invoice: { invoiceNo: "9999", invoiceDate: "2024-03-12", poNo: "PO-1" },
        "paymentDetails.tax": "20.00",
        "paymentDetails.total": "999.00",
        "customer.billTo.name": "Zeta Corporation International",
      }),
    );
    const filled = mergeAnswer(body, ans, missingFields(body), DOC);
    expect(filled.sort()).toEqual(["invoice.invoiceDate", "paymentDetails.tax", "vendor.name"]);
    expect(body).toEqual({
      vendor: { name: "ACME Widgets Ltd" },
      invoice: { invoiceNo: "4411", invoiceDate: "2024-03-12" },
      paymentDetails: { total: "120.00", tax: "20.00" },
    });
    expect(isInDocument("paymentDetails.subtotal", "100", DOC)).toBe(true);
    expect(isInDocument("invoice.poNo", "PO-1", DOC)).toBe(false);
  });

  it("calls an OpenAI-compatible endpoint on 127.0.0.1 and fills from its answer", async () => {
    answer = {
      "vendor.name": "ACME Widgets Ltd",
      "customer.billTo.name": "Zeta Corp",
      "invoice.orderNo": "made-up",
    };
    const body: InvoiceBody = { invoice: { invoiceNo: "4411" } };
    const r = await fillWithLlm(body, DOC, { url, key: "secret", model: "test-model", timeoutMs: 5000 });
    expect(r.error).toBeUndefined();
    expect(r.filled.sort()).toEqual(["customer.billTo.name", "vendor.name"]);
    expect(body.customer?.billTo?.name).toBe("Zeta Corp");
    const req = seen[seen.length - 1];
    expect(req.auth).toBe("Bearer secret");
    expect(req.body.model).toBe("test-model");
    expect(req.body.messages).toHaveLength(2);
  });

  it("reports a failing backend without failing the parse", async () => {
    const r = await fillWithLlm({}, DOC, { url: "http://127.0.0.1:9/v1", model: "m", timeoutMs: 2000 });
    expect(r.filled).toEqual([]);
    expect(r.error).toMatch(/LLM backend/);
  });
});
