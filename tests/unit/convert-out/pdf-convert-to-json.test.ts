import { readFileSync } from "node:fs";
import { afterEach, describe, expect, test } from "vitest";
import { operation as json2Op } from "@/lib/operations/pdf-convert-to-json2/contract";
import { run as runJson2 } from "@/lib/operations/pdf-convert-to-json2/runner";
import { operation as metaOp } from "@/lib/operations/pdf-convert-to-json-meta/contract";
import { run as runMeta } from "@/lib/operations/pdf-convert-to-json-meta/runner";
import { operation as jsonOp } from "@/lib/operations/pdf-convert-to-json/contract";
import { run as runJson } from "@/lib/operations/pdf-convert-to-json/runner";
import { operation as xmlOp } from "@/lib/operations/pdf-convert-to-xml/contract";
import { run as runXml } from "@/lib/operations/pdf-convert-to-xml/runner";
import { cleanupContexts, contextFor, makeTablesPdf, type PageSpec } from "@/tests/helpers/extract-fixtures";

afterEach(cleanupContexts);

const page: PageSpec = {
  texts: [
    { x: 72, y: 60, text: "Invoice", size: 18, bold: true, color: [0.8, 0, 0] },
    { x: 72, y: 100, text: "Customer:" },
    { x: 300, y: 100, text: "ACME & Sons <Ltd>", italic: true },
  ],
  tables: [
    {
      x: 72,
      y: 140,
      cols: [100, 80, 80],
      rows: [
        ["Item", "Qty", "Price"],
        ["Bolts", "4", "1.50"],
      ],
    },
  ],
};

type Tree = { document: { info?: Record<string, unknown>; page: { "@index": unknown; row: { "@table"?: unknown; column: { text?: Record<string, unknown> }[] }[] }[] } };

async function tree(run: typeof runJson, op: typeof jsonOp, params: Record<string, unknown> = {}) {
  const r = await run(await contextFor(op.params, makeTablesPdf([page, { texts: [{ x: 72, y: 72, text: "Second page" }] }]), params));
  const body = (r.fields?.body ?? JSON.parse(readFileSync(r.outputs![0].path, "utf8"))) as Tree;
  return { body, r };
}

describe("pdf-convert-to-json", () => {
  test("rows of text objects with boxes, fonts and colours; attributes as strings", async () => {
    const { body, r } = await tree(runJson, jsonOp);
    expect(r.outputs?.[0].name).toBe("source.json");
    expect(r.pageCount).toBe(2);
    const p0 = body.document.page[0];
    expect(p0["@index"]).toBe("0");
    const title = p0.row[0].column[0].text!;
    expect(title["#text"]).toBe("Invoice");
    expect(title["@fontStyle"]).toBe("Bold");
    expect(title["@color"]).toBe("#CC0000");
    expect(Number(title["@fontSize"])).toBeCloseTo(18, 0);
    expect(Number(title["@x"])).toBeCloseTo(72, 0);
    expect(typeof title["@x"]).toBe("string");
    // "Customer:" and the name are two columns of one row.
    const customer = p0.row[1].column.map((c) => c.text!["#text"]);
    expect(customer).toEqual(["Customer:", "ACME & Sons <Ltd>"]);
    expect(p0.row[1].column[1].text!["@fontStyle"]).toBe("Italic");
    expect(body.document.page[1].row[0].column[0].text!["#text"]).toBe("Second page");
  });

  test("inline puts the object in body; pages selects", async () => {
    const { body, r } = await tree(runJson, jsonOp, { inline: true, pages: "1" });
    expect(r.outputs).toEqual([]);
    expect(body.document.page).toHaveLength(1);
    expect(body.document.page[0]["@index"]).toBe("1");
  });
});

describe("pdf-convert-to-json2", () => {
  test("table rows with their cells; columns hold the text as a string beside box and font, numbers typed", async () => {
    const r = await runJson2(await contextFor(json2Op.params, makeTablesPdf([page, { texts: [{ x: 72, y: 72, text: "Second page" }] }]), { inline: true, pages: "0" }));
    const doc = (r.fields!.body as { document: { pageCount: number; pageCountWithOCRPerformed: number; page: { index: number; row: { table?: number; column: Record<string, unknown>[] }[] }[] } }).document;
    expect(doc.pageCount).toBe(2);
    expect(doc.pageCountWithOCRPerformed).toBe(0);
    expect(doc.page[0].index).toBe(0);
    const tableRows = doc.page[0].row.filter((row) => row.table === 1);
    expect(tableRows.map((row) => row.column.map((c) => c.text))).toEqual([
      ["Item", "Qty", "Price"],
      ["Bolts", "4", "1.50"],
    ]);
    const qty = tableRows[1].column[1];
    expect(typeof qty.x).toBe("number");
    expect(qty.x as number).toBeGreaterThan(172);
    expect(qty.fontIsBold).toBe(false);
    const title = doc.page[0].row[0].column[0];
    expect([title.text, title.fontIsBold, title.color]).toEqual(["Invoice", true, "#CC0000"]);
  });
});

describe("pdf-convert-to-json-meta", () => {
  test("the tree plus the document info", async () => {
    const { body } = await tree(runMeta, metaOp, { inline: true });
    expect(body.document.info?.PageCount).toBe(2);
    expect(body.document.info).toHaveProperty("PageRectangle");
    expect(body.document.page).toHaveLength(2);
  });
});

describe("pdf-convert-to-xml", () => {
  test("well-formed XML with escaped text and font attributes", async () => {
    const r = await runXml(await contextFor(xmlOp.params, makeTablesPdf([page]), {}));
    const xml = r.inlineText!;
    expect(r.outputs?.[0].name).toBe("source.xml");
    expect(xml.startsWith('<?xml version="1.0" encoding="utf-8"?>')).toBe(true);
    expect(xml).toContain(">ACME &amp; Sons &lt;Ltd&gt;</text>");
    expect(xml).toMatch(/<text fontName="[^"]+" fontSize="18.00" fontStyle="Bold" color="#CC0000" x="72.\d\d" y="[\d.]+" width="[\d.]+" height="[\d.]+">Invoice<\/text>/);
    expect(xml.match(/<page /g)).toHaveLength(1);
    expect(xml.trimEnd().endsWith("</document>")).toBe(true);
  });
});
