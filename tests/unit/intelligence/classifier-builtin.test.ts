import { describe, expect, it } from "vitest";
import * as mupdf from "mupdf";
import { classifyBuiltin, DOCUMENT_TYPES } from "@/lib/engine/classify/builtin";
import { extractPageTexts } from "@/lib/engine/text/words";
import { labelledDocuments, makeTextPdf, type TextItem } from "@/tests/helpers/invoice-fixtures";
import { GEN_LANGS, generateDocuments, type GeneratedDocument } from "@/tests/helpers/classify-fixtures";

async function pagesOfItems(items: TextItem[][]) {
  const pdf = await makeTextPdf(items);
  const d = mupdf.Document.openDocument(pdf, "application/pdf");
  try {
    return extractPageTexts(d, [...Array(d.countPages()).keys()]);
  } finally {
    d.destroy();
  }
}

/** A one-page document from lines (the first in large bold type when `title` is given). */
function page(lines: string[], title?: string): TextItem[][] {
  const out: TextItem[] = [];
  let y = 50;
  if (title) {
    out.push({ x: 60, y, text: title, size: 18, bold: true });
    y += 36;
  }
  for (const l of lines) {
    if (l !== "") out.push({ x: 60, y, text: l, size: 10 });
    y += 15;
  }
  return [out];
}

describe("built-in classification of the labelled set", () => {
  const docs = labelledDocuments();
  // A utility bill is an invoice with the sub-class "utility bill".
  const want = (label: string) => (label === "utility bill" ? "invoice" : label);

  it("knows every label of the set as a type", () => {
    for (const d of docs) expect(DOCUMENT_TYPES).toContain(want(d.label));
  });

  it("classifies every document of the set right, utility bills as invoices with their sub-class", async () => {
    const wrong: string[] = [];
    for (const doc of docs) {
      const r = classifyBuiltin(await pagesOfItems(doc.pages));
      if (r.type !== want(doc.label)) wrong.push(`${doc.name}: ${r.type} (want ${doc.label}) ${JSON.stringify(r.scores)}`);
      if (doc.label === "utility bill" && !r.subclasses.includes("utility bill")) wrong.push(`${doc.name}: no utility bill sub-class`);
    }
    expect(wrong).toEqual([]);
  });

  it("names the issuing organisation and the country where they can be read", async () => {
    const wrong: string[] = [];
    for (const doc of docs.filter((d) => d.organisation || d.country)) {
      const r = classifyBuiltin(await pagesOfItems(doc.pages));
      if (doc.organisation && r.organisation !== doc.organisation) wrong.push(`${doc.name}: organisation ${r.organisation}`);
      if (doc.country && r.country !== doc.country) wrong.push(`${doc.name}: country ${r.country}`);
    }
    expect(wrong).toEqual([]);
  });
});

describe("titles in every supported language: compounds, inflections, elisions", () => {
  const bodies: Record<string, string[]> = {
    de: [
      "Nordwerk GmbH, Lindenstraße 14, 80331 München",
      "Nr. 2024-0117        Datum 12.03.2024",
      "Wartung der Anlage und Prüfung      2      450,00 €      900,00 €",
      "Netto      900,00 €",
      "MwSt. 19 %      171,00 €",
      "Gesamt      1.071,00 €",
      "Bitte überweisen Sie den Betrag bis zum 26.03.2024 auf unser Konto.",
    ],
    fr: [
      "Lumen SAS, 12 rue de la Paix, 75002 Paris",
      "N° 2024-0117        Date 12/03/2024",
      "Maintenance de la machine et des outils      2      450,00 €      900,00 €",
      "Total HT      900,00 €",
      "TVA 20 %      180,00 €",
      "Total TTC      1 080,00 €",
      "Nous vous remercions de votre confiance et restons à votre disposition.",
    ],
    nl: [
      "Vega B.V., Damrak 70, 1012 LM Amsterdam",
      "Nr. 2024-0117        Datum 12-03-2024",
      "Onderhoud van de machine en het gereedschap      2      450,00 €      900,00 €",
      "Subtotaal      900,00 €",
      "BTW 21 %      189,00 €",
      "Totaal      1.089,00 €",
      "Wij danken u voor uw vertrouwen en zijn graag van dienst.",
    ],
    it: [
      "Orion S.r.l., Via Torino 41, 20123 Milano",
      "N. 2024-0117        Data 12/03/2024",
      "Manutenzione della macchina e degli attrezzi      2      450,00 €      900,00 €",
      "Imponibile      900,00 €",
      "IVA 22 %      198,00 €",
      "Totale      1.098,00 €",
      "Vi ringraziamo per la fiducia e restiamo a disposizione per le vostre domande.",
    ],
  };
  const cases: [string, string, string, string[]][] = [
    ["Handelsrechnung", "de", "invoice", []],
    ["Teilrechnung", "de", "invoice", []],
    ["Schlussrechnung", "de", "invoice", []],
    ["Rechnungskorrektur", "de", "invoice", ["credit note"]],
    ["Proformarechnung", "de", "invoice", ["pro forma"]],
    ["Gutschrift", "de", "invoice", ["credit note"]],
    ["Stornorechnung", "de", "invoice", ["credit note"]],
    ["Rech-\nnungen", "de", "invoice", []],
    ["Creditfactuur", "nl", "invoice", ["credit note"]],
    ["Facturen", "nl", "invoice", []],
    ["Facture d’acompte", "fr", "invoice", []],
    ["L'AVOIR", "fr", "invoice", ["credit note"]],
    ["Fatture", "it", "invoice", []],
    ["Nota di credito", "it", "invoice", ["credit note"]],
  ];
  for (const [title, lang, type, subs] of cases)
    it(`${title} (${lang}) → ${[type, ...subs].join(" + ")}`, async () => {
      const [first, second] = title.split("\n");
      const items = page(bodies[lang], first);
      // A title hyphenated over two lines: the second part on the next line in the same type.
      if (second) items[0].splice(1, 0, { x: 60, y: 72, text: second, size: 18, bold: true });
      const r = classifyBuiltin(await pagesOfItems(items));
      expect(r.type, JSON.stringify(r.scores)).toBe(type);
      expect(r.subclasses).toEqual(subs);
    });

  it("a French credit note word means nothing on an English page (\"avoir\" is a verb there)", async () => {
    const r = classifyBuiltin(await pagesOfItems(page(["We hope to avoir any delay.", "Kind regards"], "Avoir")));
    expect(r.type).not.toBe("invoice");
  });

  it("a word that only contains a type's noun is not that type (Lohnabrechnung is a payslip)", async () => {
    const r = classifyBuiltin(
      await pagesOfItems(
        page(
          [
            "Mitarbeiter: Anna Keller   Personalnummer 4411",
            "Abrechnungsmonat: März 2024",
            "Bruttobezüge      4.200,00 €",
            "Lohnsteuer      -612,00 €",
            "Sozialversicherung      -840,00 €",
            "Auszahlungsbetrag      2.748,00 €",
          ],
          "Lohnabrechnung",
        ),
      ),
    );
    expect(r.type).toBe("payslip");
  });

  it("a report that names invoices in running text is no invoice", async () => {
    const prose = "The audit reviewed how invoices are approved and paid by the finance department in every region.";
    const r = classifyBuiltin(
      await pagesOfItems(page(["1. Introduction", prose, prose, "2. Findings", prose, prose, "3. Conclusion", prose], "Internal Audit Report")),
    );
    expect(r.type).toBe("report");
  });
});

/** Share of right answers per language for one set of generated documents. */
async function measure(docs: GeneratedDocument[]) {
  const per = new Map<string, { inv: number; invOk: number; non: number; nonOk: number; type: number; typeOk: number }>();
  const wrong: string[] = [];
  for (const d of docs) {
    const r = classifyBuiltin(await pagesOfItems(d.pages));
    const t = per.get(d.lang) ?? { inv: 0, invOk: 0, non: 0, nonOk: 0, type: 0, typeOk: 0 };
    if (d.type === "invoice") {
      t.inv++;
      if (r.type === "invoice") t.invOk++;
    } else {
      t.non++;
      if (r.type !== "invoice") t.nonOk++;
    }
    t.type++;
    if (r.type === d.type && (!d.subclass || (r.subclasses as string[]).includes(d.subclass))) t.typeOk++;
    else wrong.push(`${d.name} [${d.layout}]: ${r.type}+${r.subclasses.join("+")}`);
    if (r.countryCode && d.strongCountries.length > 0 && !d.strongCountries.includes(r.countryCode))
      wrong.push(`${d.name}: country ${r.countryCode} contradicts ${d.strongCountries.join(",")}`);
    per.set(d.lang, t);
  }
  return { per, wrong };
}

describe("generated documents of every type in every supported language", () => {
  for (const set of ["tune", "eval"] as const)
    it(`${set} set: ≥ 95 % of invoices are invoices and ≥ 95 % of the rest are not, per language; no country against a VAT id, IBAN or phone`, async () => {
      const docs = generateDocuments({ set, perKind: 1, seed: 3 });
      const { per, wrong } = await measure(docs);
      expect([...per.keys()].sort()).toEqual([...GEN_LANGS].sort());
      for (const [lang, t] of per) {
        expect(t.invOk / t.inv, `${lang} invoices; misses: ${wrong.join("; ")}`).toBeGreaterThanOrEqual(0.95);
        expect(t.nonOk / t.non, `${lang} non-invoices; misses: ${wrong.join("; ")}`).toBeGreaterThanOrEqual(0.95);
        expect(t.typeOk / t.type, `${lang} types; misses: ${wrong.join("; ")}`).toBeGreaterThanOrEqual(0.85);
      }
      expect(wrong.filter((w) => w.includes("contradicts"))).toEqual([]);
    }, 120_000);
});
