/**
 * Item tables laid out as e-invoicing tools print them: column captions stacked over several
 * tight lines, items several lines tall with reference lines and captioned gross / discount /
 * net figures between their amount rows, captions that touch, and allowances computed on a
 * base amount under the items.
 */
import { describe, expect, it } from "vitest";
import { parseInvoice } from "@/lib/engine/invoice/parse-invoice";
import { line, page } from "@/tests/helpers/layout-words";

const items = (words: Parameters<typeof page>[0]) =>
  ((parseInvoice([page(words)]).body as Record<string, any>).lineItems ?? []).flat() as Record<string, string>[];

const letterhead = [
  line(50, 40, "Atelier Lumen SARL", 14, true),
  line(50, 60, "12 rue des Arts, 69001 Lyon", 8),
  line(360, 40, "FACTURE N° : F-2024-118", 10),
  line(360, 54, "Date : 14/03/2024", 10),
];

/** A French four-column table: captions at y 200, then item rows (description, quantity, unit price, amount). */
const frTable = (captions: [string, string, string, string], rows: [string, string, string, string][]) => [
  line(50, 200, captions[0], 8),
  line(300, 200, captions[1], 8),
  line(350, 200, captions[2], 8),
  line(440, 200, captions[3], 8),
  ...rows.flatMap(([desc, qty, price, amount], n) => [
    line(50, 220 + n * 14, desc, 9),
    line(302, 220 + n * 14, qty, 9),
    line(360, 220 + n * 14, price, 9),
    line(444, 220 + n * 14, amount, 9),
  ]),
];
const lampRows: [string, string, string, string][] = [
  ["Lampe de bureau", "2", "50,00", "100,00"],
  ["Abat-jour", "1", "20,00", "20,00"],
];

describe("a header whose captions are stacked over several lines", () => {
  // "Total / (EUR)" is on the first and third caption lines: no single line names the column.
  const header = [
    line(300, 200, "Unit", 8),
    line(430, 200, "Total", 8),
    line(50, 204.5, "Description", 8),
    line(240, 204.5, "Qty", 8),
    line(300, 204.5, "Price (EUR)", 8),
    line(500, 204.5, "VAT", 8),
    line(430, 209, "(EUR)", 8),
  ];

  it("reads the stacked captions as one header: the line total is its own column", () => {
    const got = items([
      ...letterhead,
      ...header,
      line(50, 226, "Consulting services", 9),
      line(242, 226, "2", 9),
      line(300, 226, "60,00", 9),
      line(430, 226, "120,00", 9),
      line(500, 226, "20%", 9),
      line(50, 240, "Travel expenses", 9),
      line(242, 240, "1", 9),
      line(300, 240, "35,50", 9),
      line(430, 240, "35,50", 9),
      line(500, 240, "20%", 9),
      line(350, 270, "TOTAL HT 155,50", 10),
    ]);
    expect(got).toHaveLength(2);
    expect(got.map((i) => i.total)).toEqual(["120.00", "35.50"]);
    expect(got.map((i) => i.unitPrice)).toEqual(["60.00", "35.50"]);
    expect(got.map((i) => i.quantity)).toEqual(["2", "1"]);
    expect(got[0].description).toBe("Consulting services");
  });

  it("items several lines tall, with references and captioned figures between their amount rows, are each one item", () => {
    const item = (y: number, n: number, desc: string, qty: string, gross: string, disc: string, net: string, total: string) => [
      line(50, y, `Ref: A-${n}00`, 8),
      line(300, y, `(Gross: ${gross})`, 8),
      line(50, y + 9, `Order line: ${n}`, 8),
      line(110, y + 9, desc, 8),
      line(300, y + 9, `(Discount: ${disc})`, 8),
      line(242, y + 9, qty, 8),
      line(430, y + 9, total, 8),
      line(500, y + 9, "20%", 8),
      line(50, y + 18, `Buyer ref: BR-${n}`, 8),
      line(300, y + 18, `(Net): ${net}`, 8),
      line(50, y + 27, `Origin: FR`, 8),
    ];
    const got = items([
      ...letterhead,
      ...header,
      ...item(226, 1, "Lamp", "2", "65,00", "5,00", "60,00", "120,00"),
      ...item(270, 2, "Shade", "3", "31,00", "1,00", "30,00", "90,00"),
      ...item(314, 3, "Bulb", "1", "7,00", "0,00", "7,00", "7,00"),
      line(350, 380, "TOTAL HT 217,00", 10),
    ]);
    expect(got.map((i) => i.total)).toEqual(["120.00", "90.00", "7.00"]);
    expect(got.map((i) => i.quantity)).toEqual(["2", "3", "1"]);
    // The captioned discount printed where the unit price goes is not taken as the unit price.
    expect(got.every((i) => i.unitPrice === undefined)).toBe(true);
  });
});

describe("cells of the item rows", () => {
  it("captions printed without a gap ('Code article, Désignation'): a description is not cut between their columns", () => {
    const got = items([
      ...letterhead,
      line(50, 200, "Code article, Désignation", 8),
      line(300, 200, "Qté", 8),
      line(360, 200, "P.U. HT", 8),
      line(440, 200, "Montant HT", 8),
      // The description starts left of where the captions' boundary falls.
      line(50, 220, "A-1", 9),
      line(80, 220, "Lampe de bureau laiton", 9),
      line(302, 220, "2", 9),
      line(360, 220, "60,00", 9),
      line(440, 220, "120,00", 9),
      line(50, 234, "B-22", 9),
      line(80, 234, "Abat-jour lin naturel", 9),
      line(302, 234, "1", 9),
      line(360, 234, "35,00", 9),
      line(440, 234, "35,00", 9),
      line(350, 260, "TOTAL HT 155,00", 10),
    ]);
    expect(got).toHaveLength(2);
    expect(got.map((i) => i.description)).toEqual(["Lampe de bureau laiton", "Abat-jour lin naturel"]);
    expect(got.map((i) => i.itemCode)).toEqual(["A-1", "B-22"]);
  });

  it("allowances and charges computed on a base amount ('5,00% sur 100,00 EUR') under the items are not items", () => {
    const allowance = (y: number, text: string, rate: string, amount: string) => [
      line(50, y, text, 9),
      line(372, y, `${rate} sur`, 9),
      line(416, y, "100,00 EUR", 9),
      line(484, y, amount, 9),
      line(530, y, "20,00%", 9),
    ];
    const got = items([
      ...letterhead,
      line(50, 200, "Désignation", 8),
      line(330, 200, "P.U. HT", 8),
      line(380, 200, "Unité", 8),
      line(420, 200, "Qté", 8),
      line(470, 200, "Montant HT", 8),
      line(530, 200, "TVA", 8),
      line(50, 220, "Lampe de bureau", 9),
      line(330, 220, "50,00", 9),
      line(382, 220, "PCE", 9),
      line(420, 220, "2,00", 9),
      line(480, 220, "100,00", 9),
      line(530, 220, "20,00%", 9),
      ...allowance(244, "REMISE : REMISE COMMERCIALE", "5,00%", "-5,00"),
      ...allowance(256, "CHARGE : FRAIS DEPLACEMENT", "10,00%", "10,00"),
      ...allowance(268, "CHARGE : EMBALLAGE", "2,00%", "2,00"),
      line(350, 300, "TOTAL HT 107,00", 10),
    ]);
    expect(got).toHaveLength(1);
    expect(got[0].total).toBe("100.00");
  });

  it("an item whose amount row has no text takes its reference and description lines from right above and below", () => {
    const got = items([
      ...letterhead,
      line(50, 200, "Code", 8),
      line(110, 200, "Désignation", 8),
      line(300, 200, "Qté", 8),
      line(360, 200, "P.U. HT", 8),
      line(440, 200, "Montant HT", 8),
      line(50, 220, "# ligne BC: 1", 8),
      line(110, 220, "PRESTATION SUPPORT - Description de l'article", 8),
      line(302, 225, "5,00", 9),
      line(360, 225, "40,00", 9),
      line(440, 225, "200,00", 9),
      line(50, 230, ":59878541259876", 8),
      line(110, 230, "Période de 01/01/2023 au 31/01/2023", 8),
      line(350, 270, "TOTAL HT 200,00", 10),
    ]);
    expect(got).toHaveLength(1);
    expect(got[0].total).toBe("200.00");
    expect(got[0].description).toBe("PRESTATION SUPPORT - Description de l'article\nPériode de 01/01/2023 au 31/01/2023");
  });

  it("after a discount row, a row with an amount but no quantity or unit price is an adjustment, not an item", () => {
    const got = items([
      ...letterhead,
      ...frTable(["Désignation", "Qté", "P.U. HT", "Montant HT"], lampRows),
      line(80, 270, "REMISE : REMISE COMMERCIALE", 9),
      line(444, 270, "-5,00", 9),
      line(80, 300, "CHARGE : FRAIS DEPLACEMENT", 9),
      line(444, 300, "10,00", 9),
      line(350, 340, "TOTAL HT 125,00", 10),
    ]);
    expect(got.map((i) => i.total)).toEqual(["100.00", "20.00"]);
  });

  it("captions OCR ran together ('P.U.HT(EUR)', 'Montant(EUR)') still name their columns", () => {
    const got = items([
      ...letterhead,
      ...frTable(["Désignation", "Qté", "P.U.HT(EUR)", "Montant(EUR)"], lampRows),
      line(350, 270, "TOTAL HT 120,00", 10),
    ]);
    expect(got.map((i) => [i.unitPrice, i.total])).toEqual([
      ["50.00", "100.00"],
      ["20.00", "20.00"],
    ]);
  });
});

