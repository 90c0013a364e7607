import { describe, expect, it } from "vitest";
import { getPageTexts } from "@/lib/engine/text/page-texts";
import { parseDocument } from "@/lib/engine/docparser/parse-document";
import { checkParserTemplate, parseParserTemplate, requireParserTemplate } from "@/lib/engine/docparser/template";
import { convertValue, parseDate, parseDecimal } from "@/lib/engine/docparser/convert-value";
import { toCsv, toXml } from "@/lib/engine/docparser/write-output";
import { compileExpression } from "@/lib/engine/docparser/macros";
import { makeParserInvoicePdf, parserInvoiceTemplate } from "../../helpers/docparser-fixtures";

describe("document parser templates", () => {
  it("reads the template guide's YAML: fields of each type, a table with typed columns, keywords", () => {
    const [t] = requireParserTemplate(parserInvoiceTemplate);
    expect(t.name).toBe("ACME invoice");
    expect(t.fields.map((f) => [f.name, f.kind, f.dataType])).toEqual([
      ["companyName", "static", "string"],
      ["invoiceNumber", "regex", "string"],
      ["invoiceDate", "regex", "date"],
      ["billTo", "rectangle", "string"],
      ["total", "regex", "decimal"],
    ]);
    expect(t.tables[0].columns.map((c) => c.dataType)).toEqual(["string", "integer", "decimal", "decimal"]);
    expect(t.keywords).toHaveLength(1);
  });

  it("reads JSON arrays of templates and version 2 spellings (static: true, rect, type: decimal)", () => {
    const json = JSON.stringify([
      { templateName: "B", templatePriority: 2, fields: { a: { expression: "x" } } },
      { templateName: "A", templatePriority: 1, fields: { company: { expression: "ACME", static: true }, total: { expression: "T (\\d+)", type: "decimal" }, box: { rect: [1, 2, 3, 4] } } },
    ]);
    const r = parseParserTemplate(json);
    if ("problem" in r) throw new Error(r.problem.message);
    expect(r.templates.map((t) => t.name)).toEqual(["A", "B"]);
    expect(r.templates[0].fields.map((f) => [f.kind, f.dataType])).toEqual([["static", "string"], ["regex", "decimal"], ["rectangle", "string"]]);
  });

  it("names the line of every kind of mistake", () => {
    const cases: Array<[string, number, RegExp]> = [
      ["fields:\n  a:\n    expression: 'x{{Nope}}'\n", 3, /unknown macro \{\{Nope\}\}/],
      ["fields:\n  a:\n    expression: 'x('\n", 3, /invalid expression/],
      ["fields:\n  a:\n    expression: x\n    dataType: money\n", 4, /dataType: "money"/],
      ["fields:\n  a:\n    type: rectangle\n    rectangle: [1, 2]\n", 4, /rectangle is \[x, y, width, height\]/],
      ["tables:\n  - name: t\n    row:\n      expression: '(?<a>x)'\n    columns:\n      - name: b\n", 6, /column "b" has no \(\?<b>/],
      ["fields: [\n  bad", 2, /./],
      ["templateName: empty\n", 1, /no fields and no tables/],
    ];
    for (const [text, line, message] of cases) {
      const problems = checkParserTemplate(text);
      expect(problems, text).toHaveLength(1);
      expect(problems[0].line, text).toBe(line);
      expect(problems[0].message, text).toMatch(message);
    }
    expect(() => requireParserTemplate("fields:\n  a:\n    expression: '{{X}}'\n")).toThrow(/^template: line 3: a: unknown macro/);
  });

  it("a template with 10,000 fields is read and run in bounded time", async () => {
    const lines = ["fields:"];
    for (let i = 0; i < 10_000; i++) lines.push(`  f${i}:\n    expression: 'Item{{Spaces}}(${i})'`);
    const started = Date.now();
    const [t] = requireParserTemplate(lines.join("\n"));
    expect(t.fields).toHaveLength(10_000);
    const texts = await getPageTexts(makeParserInvoicePdf());
    const r = parseDocument(texts.pages, [t]);
    expect(r.objects).toHaveLength(10_000);
    expect(Date.now() - started).toBeLessThan(20_000);
    const tooMany = ["fields:"];
    for (let i = 0; i < 10_001; i++) tooMany.push(`  f${i}: x`);
    expect(checkParserTemplate(tooMany.join("\n"))[0].message).toMatch(/more than 10000 fields/);
  });
});

describe("values and macros", () => {
  it("numbers follow the culture unless the text says otherwise", () => {
    expect(parseDecimal("1,250.00")).toBe(1250);
    expect(parseDecimal("1.250,00", "de-DE")).toBe(1250);
    expect(parseDecimal("1 250,50 €", "fr-FR")).toBe(1250.5);
    expect(parseDecimal("(45.00)")).toBe(-45);
    expect(parseDecimal("12,5", "en-US")).toBe(12.5);
    expect(parseDecimal("abc")).toBeNull();
  });

  it("dates by format, ISO, the culture's order and month names in four languages", () => {
    expect(parseDate("11/24/2026", "MM/dd/yyyy")).toBe("2026-11-24T00:00:00");
    expect(parseDate("24.11.2026", undefined, "de-DE")).toBe("2026-11-24T00:00:00");
    expect(parseDate("2026-11-24")).toBe("2026-11-24T00:00:00");
    expect(parseDate("24 novembre 2026", undefined, "fr-FR")).toBe("2026-11-24T00:00:00");
    expect(parseDate("März 3, 2026")).toBe("2026-03-03T00:00:00");
    expect(parseDate("31/02/2026", "dd/MM/yyyy")).toBeNull();
    expect(convertValue("not a date", "date", "en-US")).toBe("not a date");
  });

  it("macros expand to expressions that find what their names say", () => {
    const find = (expr: string, text: string) => {
      const c = compileExpression(expr);
      if ("error" in c) throw new Error(c.error);
      return c.regex.exec(text)?.[1];
    };
    expect(find("Total{{Spaces}}({{Number}})", "Sub 3\nTotal   1,234.56 EUR")).toBe("1,234.56");
    expect(find("({{Email}})", "write to billing@acme.example now")).toBe("billing@acme.example");
    expect(find("Due:{{Spaces}}({{Date}})", "Due: 24 Nov 2026")).toBe("24 Nov 2026");
    expect(find("(?i)invoice{{Spaces}}({{Digits}})", "INVOICE 42")).toBe("42");
  });
});

describe("parsing a document", () => {
  it("finds every field and the items table of a generated invoice, with boxes", async () => {
    const texts = await getPageTexts(makeParserInvoicePdf());
    const r = parseDocument(texts.pages, requireParserTemplate(parserInvoiceTemplate));
    expect(r.detected).toBe(true);
    const field = (n: string) => r.objects.find((o) => o.name === n) as { value: unknown; x?: number; pageIndex: number | null };
    expect(field("companyName").value).toBe("ACME Supplies Ltd.");
    expect(field("invoiceNumber").value).toBe("INV-2026-0042");
    expect(field("invoiceNumber").x).toBeGreaterThan(100);
    expect(field("invoiceNumber").pageIndex).toBe(0);
    expect(field("invoiceDate").value).toBe("2026-11-24T00:00:00");
    expect(field("billTo").value).toBe("Globex Corporation\n1 Main Street");
    expect(field("total").value).toBe(1419);
    const table = r.objects.find((o) => o.objectType === "table") as { rows: Array<Record<string, { value: unknown }>> };
    expect(table.rows.map((row) => [row.description.value, row.quantity.value, row.unitPrice.value, row.itemTotal.value])).toEqual([
      ["Paper A4", 10, 4.5, 45],
      ["Toner cartridge", 2, 62, 124],
      ["Stapler", 1, 1250, 1250],
    ]);
    const csv = toCsv(r, true);
    expect(csv).toContain("name,value\r\ncompanyName,ACME Supplies Ltd.\r\n");
    expect(csv).toContain("items\r\ndescription,quantity,unitPrice,itemTotal\r\nPaper A4,10,4.5,45\r\n");
    const xml = toXml(r);
    expect(xml).toMatch(/<field name="total" pageIndex="0" x="[\d.]+" y="[\d.]+" width="[\d.]+" height="[\d.]+">1419<\/field>/);
    expect(xml).toContain("<description>Toner cartridge</description>");
  });

  it("fields that are not on the page are null, not errors", async () => {
    const texts = await getPageTexts(makeParserInvoicePdf());
    const r = parseDocument(texts.pages, requireParserTemplate("fields:\n  iban:\n    expression: 'IBAN:{{Spaces}}({{IBAN}})'\n"));
    expect(r.objects[0]).toEqual({ name: "iban", objectType: "field", value: null, pageIndex: null });
    expect(r.detected).toBe(false);
  });
});

describe("the pdf-documentparser runner", () => {
  it("writes the result file in the asked format and answers JSON inline as an object", async () => {
    const { operation } = await import("@/lib/operations/pdf-documentparser/contract");
    const { run } = await import("@/lib/operations/pdf-documentparser/runner");
    const { contextFor, cleanupContexts } = await import("../../helpers/extract-fixtures");
    const { readFile } = await import("node:fs/promises");
    try {
      const xml = await run(await contextFor(operation.params, makeParserInvoicePdf(), { template: parserInvoiceTemplate, outputFormat: "XML", name: "acme.pdf" }));
      expect(xml.outputs![0].name).toBe("acme.xml");
      expect(await readFile(xml.outputs![0].path, "utf8")).toContain("<field name=\"invoiceNumber\"");
      expect(xml.pageCount).toBe(1);
      const inline = await run(await contextFor(operation.params, makeParserInvoicePdf(), { template: parserInvoiceTemplate, inline: true }));
      expect(inline.outputs).toBeUndefined();
      expect((inline.fields!.body as { templateName: string }).templateName).toBe("ACME invoice");
      await expect(run(await contextFor(operation.params, makeParserInvoicePdf(), {}))).rejects.toThrow(/template: give a document parser template/);
    } finally {
      await cleanupContexts();
    }
  });
});
