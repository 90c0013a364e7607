import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startQuire, type QuireServer } from "../helpers/quire-server";
import { download, uploadBytes } from "../helpers/api-client";
import { makeParserInvoicePdf, makeParserInvoicesPdf, parserInvoiceTemplate } from "../helpers/docparser-fixtures";
import { imageToPdf, renderPagePng } from "../helpers/extract-fixtures";

/**
 * HTML templates and document parser templates over HTTP: list (built-in + own), get, create,
 * update, delete; syntax errors named by line; another account's template is 404.
 */

let q: QuireServer;
let otherKey: string;

beforeAll(async () => {
  q = await startQuire();
  const r = await q.cli(["create-user", "tpl-other@test.local", "--password", "password123", "--credits", "10"]);
  otherKey = /api key:\s+(qk_\S+)/.exec(r.out)![1];
}, 120_000);
afterAll(async () => q?.stop());

describe("/v1/templates/html", () => {
  it("lists the built-in invoice template (type system) with the public API's fields", async () => {
    const r = await q.api("/v1/templates/html");
    expect(r.status).toBe(200);
    expect(r.body.templates[0]).toEqual({ id: 1, type: "system", title: "Invoice", description: expect.any(String) });
    expect(r.body.credits).toBe(0);
    const one = await q.api("/v1/templates/html/1");
    expect(one.body.body).toContain("{{invoiceNumber}}");
    expect(JSON.parse(one.body.test_json).invoiceNumber).toBe("2026-0042");
  });

  it("creates, reads, updates and deletes the account's own template; ids start at 100", async () => {
    const made = await q.api("/v1/templates/html/new/update", {
      json: { title: "Letter", description: "A letter", body: "<p>Dear {{name}},</p>", test_json: { name: "Ada" } },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    expect(made.body.id).toBeGreaterThanOrEqual(100);
    expect(made.body.type).toBe("user");
    expect(made.body.test_json).toBe('{"name":"Ada"}');
    const id = made.body.id;

    const listed = (await q.api("/v1/templates/html")).body.templates;
    expect(listed.map((t: { id: number }) => t.id)).toContain(id);

    const changed = await q.api(`/v1/templates/html/${id}/update`, { json: { body: "<p>Hello {{name}}</p>" } });
    expect(changed.body.body).toBe("<p>Hello {{name}}</p>");
    expect(changed.body.title).toBe("Letter");
    expect(Date.parse(changed.body.updated_at)).toBeGreaterThan(0);

    const gone = await q.api(`/v1/templates/html/${id}`, { method: "DELETE" });
    expect(gone.body).toMatchObject({ error: false, deleted: id });
    expect((await q.api(`/v1/templates/html/${id}`)).status).toBe(404);
  });

  it("refuses a template with a syntax error with 400 naming its line, and saves nothing", async () => {
    const before = (await q.api("/v1/templates/html")).body.templates.length;
    const r = await q.api("/v1/templates/html/new/update", { json: { title: "Broken", body: "<ul>\n{{#items}}\n<li>{{name}}</li>\n</ul>" } });
    expect(r.status).toBe(400);
    expect(r.body.message).toMatch(/^body: line 2, column 1: Unclosed section "items"/);
    expect((await q.api("/v1/templates/html")).body.templates.length).toBe(before);
  });

  it("built-in templates are read-only; another account's template is 404 and reveals nothing", async () => {
    const sys = await q.api("/v1/templates/html/1/update", { json: { body: "x" } });
    expect(sys.status).toBe(400);
    expect(sys.body.message).toMatch(/built-in/);
    const mine = await q.api("/v1/templates/html/new/update", { json: { title: "Private", body: "secret {{x}}" } });
    for (const r of [
      await q.api(`/v1/templates/html/${mine.body.id}`, { key: otherKey }),
      await q.api(`/v1/templates/html/${mine.body.id}/update`, { json: { body: "stolen" }, key: otherKey }),
      await q.api(`/v1/templates/html/${mine.body.id}`, { method: "DELETE", key: otherKey }),
    ]) {
      expect(r.status).toBe(404);
      expect(JSON.stringify(r.body)).not.toContain("secret");
    }
    expect((await q.api(`/v1/templates/html/${mine.body.id}`)).body.body).toBe("secret {{x}}");
    expect((await q.api("/v1/templates/html/abc")).status).toBe(400);
  });
});

describe("/v1/documentparser/templates", () => {
  it("keeps document parser templates apart from HTML templates", async () => {
    const made = await q.api("/v1/documentparser/templates/new/update", {
      json: { title: "Invoices", body: "templateName: Invoices\nfields:\n  total:\n    expression: 'Total{{Spaces}}{{Number}}'\n" },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const parsers = (await q.api("/v1/documentparser/templates")).body.templates;
    expect(parsers.map((t: { id: number }) => t.id)).toEqual([made.body.id]);
    expect((await q.api(`/v1/templates/html/${made.body.id}`)).status).toBe(404);
  });
});

describe("/v1/pdf/documentparser", () => {
  let invoice: string;
  beforeAll(async () => {
    invoice = await uploadBytes(q, makeParserInvoicePdf(), "invoice.pdf");
  });

  it("inline JSON: every field and the items table, charged per page", async () => {
    const r = await q.api("/v1/pdf/documentparser", { json: { url: invoice, template: parserInvoiceTemplate, inline: true } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.credits).toBe(2);
    const objects = r.body.body.objects as Array<{ name: string; value?: unknown; rows?: unknown[] }>;
    expect(Object.fromEntries(objects.filter((o) => "value" in o).map((o) => [o.name, o.value]))).toEqual({
      companyName: "ACME Supplies Ltd.",
      invoiceNumber: "INV-2026-0042",
      invoiceDate: "2026-11-24T00:00:00",
      billTo: "Globex Corporation\n1 Main Street",
      total: 1419,
    });
    expect(objects.find((o) => o.name === "items")!.rows).toHaveLength(3);
    expect((objects.find((o) => o.name === "items") as unknown as { columns: string[] }).columns).toEqual(["description", "quantity", "unitPrice", "itemTotal"]);
  });

  it("a stored template by templateId, answered as a CSV file; XML as a file too", async () => {
    const saved = await q.api("/v1/documentparser/templates/new/update", { json: { title: "ACME", body: parserInvoiceTemplate } });
    const csv = await q.api("/v1/pdf/documentparser", { json: { url: invoice, templateId: saved.body.id, outputFormat: "CSV", name: "acme" } });
    expect(csv.status, JSON.stringify(csv.body)).toBe(200);
    expect(csv.body.name).toBe("acme.csv");
    const text = (await download(csv.body.url)).bytes.toString("utf8");
    expect(text).toContain("invoiceNumber,INV-2026-0042");
    expect(text).toContain("Toner cartridge,2,62,124");
    const xml = await q.api("/v1/pdf/documentparser", { json: { url: invoice, templateId: String(saved.body.id), outputFormat: "XML" } });
    expect((await download(xml.body.url)).bytes.toString("utf8")).toContain('<field name="invoiceNumber"');
  });

  it("generateCsvHeaders: false drops the header lines and keeps every value", async () => {
    const on = await q.api("/v1/pdf/documentparser", { json: { url: invoice, template: parserInvoiceTemplate, outputFormat: "CSV" } });
    const off = await q.api("/v1/pdf/documentparser", { json: { url: invoice, template: parserInvoiceTemplate, outputFormat: "CSV", generateCsvHeaders: false } });
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    const withHeaders = (await download(on.body.url)).bytes.toString("utf8").split(/\r?\n/);
    const without = (await download(off.body.url)).bytes.toString("utf8").split(/\r?\n/);
    // The table's column names are a header line; without headers only the values remain.
    expect(withHeaders).toContain("description,quantity,unitPrice,itemTotal");
    expect(without).not.toContain("description,quantity,unitPrice,itemTotal");
    expect(without.length).toBeLessThan(withHeaders.length);
    expect(without).toContain("Toner cartridge,2,62,124");
    expect(without.join("\n")).toContain("INV-2026-0042");
  });

  it("pages limits the parse to the pages asked for (0-based) and charges only those", async () => {
    const two = await uploadBytes(q, makeParserInvoicesPdf([{ number: "INV-2026-0001" }, { number: "INV-2026-0002" }]), "two.pdf");
    const read = async (pages?: string) => {
      const r = await q.api("/v1/pdf/documentparser", { json: { url: two, template: parserInvoiceTemplate, inline: true, ...(pages ? { pages } : {}) } });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      const objects = r.body.body.objects as Array<{ name: string; value?: unknown }>;
      return { number: objects.find((o) => o.name === "invoiceNumber")?.value, credits: r.body.credits };
    };
    expect(await read()).toEqual({ number: "INV-2026-0001", credits: 3 });
    expect(await read("1")).toEqual({ number: "INV-2026-0002", credits: 2 });
  });

  it("a scan (an image-only page) is read through OCR with the same template", async () => {
    const scan = await uploadBytes(q, imageToPdf(renderPagePng(makeParserInvoicePdf(), 0, 200), 200), "scan.pdf");
    const r = await q.api("/v1/pdf/documentparser", { json: { url: scan, template: parserInvoiceTemplate, inline: true } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const objects = r.body.body.objects as Array<{ name: string; value?: unknown; rows?: unknown[] }>;
    const value = (n: string) => objects.find((o) => o.name === n)?.value;
    expect(value("invoiceNumber")).toBe("INV-2026-0042");
    expect(value("total")).toBe(1419);
    expect(objects.find((o) => o.name === "items")!.rows).toHaveLength(3);
  }, 120_000);

  it("a bad template answers 400 with its line before any page is read; an unknown templateId 404; nothing charged", async () => {
    const before = (await q.api("/v1/account/credit/balance")).body.remainingCredits;
    const bad = await q.api("/v1/pdf/documentparser", { json: { url: invoice, template: "fields:\n  total:\n    expression: 'T{{Nmber}}'\n" } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/^template: line 3: total: unknown macro \{\{Nmber\}\}/);
    const missing = await q.api("/v1/pdf/documentparser", { json: { url: invoice, templateId: 99999 } });
    expect(missing.status).toBe(404);
    const other = await q.api("/v1/pdf/documentparser", { json: { url: invoice, templateId: 1 }, key: otherKey });
    expect(other.status).toBe(404);
    expect((await q.api("/v1/account/credit/balance")).body.remainingCredits).toBe(before);
    const stored = await q.api("/v1/documentparser/templates/new/update", { json: { body: "fields:\n  a:\n    dataType: nope\n    expression: x\n" } });
    expect(stored.status).toBe(400);
    expect(stored.body.message).toMatch(/^body: line 3: dataType: "nope"/);
  });
});
