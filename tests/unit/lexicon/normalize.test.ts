import { describe, expect, it } from "vitest";
import { dehyphenate, fold, foldKeepLength, normalizeText, stripElisions, wordsOf } from "@/lib/engine/lexicon/normalize";
import { HeadIndex, stemsOf } from "@/lib/engine/lexicon/compounds";
import { detectLanguage } from "@/lib/engine/lexicon/languages";
import { countriesIn, countryOf } from "@/lib/engine/lexicon/countries";

describe("normalisation", () => {
  it("folds case, accents, ß, ligatures, full-width forms and typographic marks", () => {
    expect(fold("Straße ÉTÉ ﬁnal Ｒｅｃｈｎｕｎｇ N° “x” – y")).toBe('strasse ete final rechnung no "x" - y');
    expect(fold("Ａ１²")).toBe("a12");
  });

  it("keeps offsets when asked", () => {
    const s = "Straße Ñ °";
    expect(foldKeepLength(s)).toHaveLength(s.length);
    expect(foldKeepLength(s)).toBe("straße n o");
  });

  it("removes French and Italian elisions, in either apostrophe", () => {
    expect(stripElisions(fold("Facture d’acompte, l'AVOIR, qu'il, dell’ordine, nell'anno"))).toBe(
      "facture acompte, avoir, il, ordine, anno",
    );
    // An apostrophe that is not an elision stays (English possessive, O'Neil).
    expect(stripElisions("o'neil's invoice")).toBe("o'neil's invoice");
  });

  it("joins words hyphenated at line ends, not suspended hyphens or capitals", () => {
    expect(dehyphenate("Schluss-\nrechnung Nr. 5")).toBe("Schlussrechnung Nr. 5");
    expect(dehyphenate("Liefer-\nund Rechnungsadresse")).toBe("Liefer-\nund Rechnungsadresse");
    expect(dehyphenate("E-\nMail")).toBe("E-\nMail");
    expect(normalizeText("Teil-\r\nrechnung")).toBe("teilrechnung");
  });

  it("splits words after normalising", () => {
    expect(wordsOf("N° de la facture : F-2024/01")).toEqual(["no", "de", "la", "facture", "f", "2024", "01"]);
  });
});

describe("compounds and inflections", () => {
  const de = new HeadIndex(["rechnung", "gutschrift", "abrechnung", "vertrag", "lieferschein"], "de");
  const nl = new HeadIndex(["factuur", "nota", "overeenkomst"], "nl");

  it("finds the head noun of German compounds and plurals", () => {
    for (const w of ["handelsrechnung", "teilrechnung", "schlussrechnung", "proformarechnung", "stornorechnung", "rechnungen"])
      expect(de.find(w)?.head, w).toBe("rechnung");
    expect(de.find("handelsrechnung")).toEqual({ head: "rechnung", role: "compound", modifier: "handels" });
    expect(de.find("rechnung")).toEqual({ head: "rechnung", role: "word", modifier: "" });
    expect(de.find("gutschriften")?.head).toBe("gutschrift");
    expect(de.find("mietvertrage")?.head).toBe("vertrag");
    expect(de.find("lieferscheine")?.head).toBe("lieferschein");
  });

  it("keeps the longest head and refuses particle modifiers", () => {
    expect(de.find("lohnabrechnung")?.head).toBe("abrechnung");
    expect(de.find("verrechnung")).toBeUndefined();
    expect(de.find("berechnung")).toBeUndefined();
    expect(de.find("rechnungsnummer")).toBeUndefined();
  });

  it("reads a head used as modifier: Rechnungs|nummer, Rechnungs|korrektur", () => {
    expect(de.findModifier("rechnungsnummer")).toEqual({ head: "rechnung", rest: "nummer" });
    expect(de.findModifier("rechnungskorrektur")).toEqual({ head: "rechnung", rest: "korrektur" });
    expect(nl.findModifier("factuurdatum")).toEqual({ head: "factuur", rest: "datum" });
    expect(de.findModifier("rechnung")).toBeUndefined();
  });

  it("finds Dutch compounds and plurals", () => {
    expect(nl.find("creditfactuur")).toEqual({ head: "factuur", role: "compound", modifier: "credit" });
    expect(nl.find("facturen")?.head).toBeUndefined(); // an irregular plural is listed as its own form
    expect(nl.find("huurovereenkomst")?.head).toBe("overeenkomst");
  });

  it("strips Romance plurals", () => {
    expect(stemsOf("fatture", "it")).toContain("fattura");
    expect(stemsOf("facturas", "es")).toContain("factura");
    expect(stemsOf("factures", "fr")).toContain("facture");
  });
});

describe("language and country names", () => {
  it("guesses the language of a page", () => {
    expect(
      detectLanguage("Sehr geehrte Damen und Herren, anbei erhalten Sie unsere Rechnung für die Lieferung. Bitte überweisen Sie den Betrag auf das Konto."),
    ).toBe("de");
    // Invoices carry little prose: a few function words among labels and numbers still tell.
    expect(detectLanguage("Invoice 103767\nYour Reference  Salesperson  Due Date  Payment Terms\nSubtotal 573.00\nTotal € Incl. VAT 681.87\nThank you for your order, please pay within 14 days.")).toBe("en");
    expect(detectLanguage("Nous vous remercions de votre commande et vous prions de trouver ci-joint la facture.")).toBe("fr");
    expect(detectLanguage("12,00 34,50")).toBeUndefined();
  });

  it("knows country names in every supported language", () => {
    expect(countryOf("Allemagne")).toBe("DE");
    expect(countryOf("Duitsland")).toBe("DE");
    expect(countryOf("Estados Unidos da América")).toBe("US");
    expect(countryOf("Paesi Bassi")).toBe("NL");
    expect(countriesIn("Lieferung nach Frankreich und Österreich").map((c) => c.code)).toEqual(["FR", "AT"]);
  });
});
