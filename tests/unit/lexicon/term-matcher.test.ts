import { describe, expect, it } from "vitest";
import { matchTerms, termTokens } from "@/lib/engine/lexicon/term-matcher";
import { documentTerms, DOCUMENT_TYPES, TYPE_EVIDENCE } from "@/lib/engine/lexicon/document-types";
import { LANGUAGES } from "@/lib/engine/lexicon/languages";

const titles = (line: string, lang?: Parameters<typeof matchTerms>[1]) =>
  matchTerms(line, lang)
    .filter((m) => m.term.kind === "title")
    .map((m) => (m.term.kind === "title" ? `${m.term.type}${m.term.sub ? "/" + m.term.sub : ""}:${m.role}` : ""));
const evidence = (line: string) =>
  matchTerms(line).flatMap((m) => (m.term.kind === "evidence" ? [m.term.evidence] : []));

describe("document-type vocabulary", () => {
  it("names every type but other in every supported language", () => {
    const terms = documentTerms();
    for (const type of DOCUMENT_TYPES.filter((t) => t !== "other" && t !== "letter"))
      for (const lang of LANGUAGES)
        expect(terms.some((t) => t.kind === "title" && t.type === type && t.lang === lang), `${type} ${lang}`).toBe(true);
    for (const type of Object.keys(TYPE_EVIDENCE)) expect(DOCUMENT_TYPES).toContain(type);
  });
});

describe("term matcher", () => {
  it("reads German and Dutch compounds by their head noun", () => {
    expect(titles("Handelsrechnung Nr. 4711")).toEqual(["invoice:compound"]);
    expect(titles("Teilschlussrechnung")).toEqual(["invoice:compound"]);
    expect(titles("Mietverträge")).toEqual(["contract:compound"]);
    expect(titles("Verkoopfactuur")).toEqual(["invoice:compound"]);
    expect(titles("Huurovereenkomst")).toEqual(["contract:compound"]);
  });

  it("takes the longest reading: a listed compound, a label, not the bare noun", () => {
    expect(titles("Lohnabrechnung März")).toEqual(["payslip:phrase"]);
    expect(titles("Stornorechnung")).toEqual(["invoice/credit note:phrase"]);
    expect(titles("Invoice Number: 12")).toEqual([]);
    expect(evidence("Invoice Number: 12")).toEqual(["invoiceRef"]);
    expect(evidence("Rechnungsnummer 12")).toEqual(["invoiceRef"]);
  });

  it("knows a word that only starts with a type's noun is about it (Rechnungs|adresse)", () => {
    const m = matchTerms("Rechnungsanschrift");
    expect(m.map((x) => [x.role, x.part])).toEqual([["modifier", "anschrift"]]);
  });

  it("reads elisions, plurals and accents", () => {
    expect(titles("Facture d’acompte")).toEqual(["invoice:phrase"]);
    expect(titles("Fatture")).toEqual(["invoice:phrase"]);
    expect(titles("Nota Fiscal Eletrônica")).toEqual(["invoice:phrase"]);
    expect(titles("FACTURAS")).toEqual(["invoice:phrase"]);
  });

  it("counts words of one language only on its pages when they are common words elsewhere", () => {
    expect(titles("Avoir", "fr")).toEqual(["invoice/credit note:phrase"]);
    expect(titles("Avoir", "en")).toEqual([]);
    expect(titles("Avoir")).toEqual([]);
  });

  it("reads letter-spaced titles as one word", () => {
    expect(titles("R E C H N U N G")).toEqual(["invoice:phrase"]);
    expect(titles("F A C T U R E")).toEqual(["invoice:phrase"]);
    expect(evidence("F A C T U R E  N° 12")).toEqual(["invoiceRef"]);
  });

  it("joins compounds written with hyphens when the joined word has a known head", () => {
    expect(termTokens("Pro-forma-Rechnung")).toEqual(["proformarechnung"]);
    expect(termTokens("E-Mail: x@y.de")).toEqual(["e", "mail", "x", "y", "de"]);
  });
});

describe("words that end in a type's noun but name something else", () => {
  it("annual accounts, calculus and laws are no invoices", () => {
    for (const w of ["Jahresrechnung 2023", "Erfolgsrechnung", "Wahrscheinlichkeitsrechnung", "Jaarrekening 2023", "Finance Bill 2024"])
      expect(titles(w), w).toEqual(["null:phrase"]);
  });
});
