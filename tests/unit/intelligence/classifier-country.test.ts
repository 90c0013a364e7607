import { describe, expect, it } from "vitest";
import { countryEvidence, weighCountry } from "@/lib/engine/lexicon/country-evidence";
import { detectCountry } from "@/lib/engine/classify/builtin";
import { placeCountries } from "@/lib/engine/lexicon/places";
import { makeIbanFor, makeVatFor } from "@/tests/helpers/classify-fixtures";

const seq = (() => {
  let a = 7;
  return () => ((a = (a * 48271) % 2147483647) / 2147483647);
})();

const answer = (lines: (string | { text: string; label?: string })[]) =>
  weighCountry(countryEvidence(lines.map((l) => (typeof l === "string" ? { text: l } : l))));

const kinds = (lines: string[]) => countryEvidence(lines.map((text) => ({ text }))).map((e) => `${e.kind}:${e.countries.join("/")}`);

describe("country evidence, kind by kind", () => {
  it("VAT ids: prefix, the country's format and check digits", () => {
    for (const c of ["DE", "FR", "BE", "IT", "NL", "PT", "ES", "AT", "GB"]) {
      const vat = makeVatFor(c, seq)!;
      const e = countryEvidence([{ text: `VAT ${vat}` }]).find((x) => x.kind === "vat");
      expect(e?.countries, `${c} ${vat}`).toEqual([c]);
      expect(e?.weight, `${c} ${vat} has valid check digits`).toBe(4);
    }
    // Right format, wrong check digits: counts only beside a VAT label.
    expect(countryEvidence([{ text: "USt-IdNr. DE123456789" }]).find((x) => x.kind === "vat")?.weight).toBe(3);
    expect(countryEvidence([{ text: "Ref DE123456789" }]).find((x) => x.kind === "vat")?.weight).toBe(1);
    // Not a VAT id: a word and digits that do not fit the country's format.
    expect(kinds(["IT 2024 report", "DE 12 34"])).toEqual([]);
  });

  it("IBANs: country code, length and the mod-97 check", () => {
    const iban = makeIbanFor("NL", seq)!;
    expect(answer([`IBAN ${iban.replace(/(.{4})/g, "$1 ")}`])).toMatchObject({ code: "NL", reason: "agreed" });
    const broken = iban.slice(0, 2) + (iban[2] === "9" ? "1" : "9") + iban.slice(3);
    expect(kinds([broken])).toEqual([]);
    // A VAT reader never takes an IBAN's first characters for a German VAT id.
    expect(kinds(["DE89 3704 0044 0532 0130 00"])).toEqual(["iban:DE"]);
  });

  it("phone numbers: +CC anywhere, 00CC only beside a phone label", () => {
    expect(answer(["Tel. +49 (0) 421 555 123"]).code).toBe("DE");
    expect(answer(["Fax: 0033 1 44 55 66 77"]).code).toBe("FR");
    expect(kinds(["Order 0049 421 555 123"])).toEqual([]);
    // +1 is the United States or Canada: alone it names neither.
    expect(answer(["Phone +1 415 555 0100"]).code).toBeUndefined();
    expect(answer(["Phone +1 415 555 0100", "Oakland, CA 94607"]).code).toBe("US");
  });

  it("national ids with check digits (CNPJ, SIRET)", () => {
    expect(answer(["CNPJ: 11.222.333/0001-81"]).code).toBe("BR");
    expect(kinds(["11.222.333/0001-82"])).toEqual([]);
    expect(answer(["SIRET 732 829 320 00074"]).code).toBe("FR");
  });

  it("country names in every supported language, on an address line", () => {
    for (const name of ["Germany", "Deutschland", "Allemagne", "Alemania", "Germania", "Duitsland", "Alemanha"])
      expect(answer(["Nordwerk GmbH", "Bahnhofstr. 22", "49393 Lohne", name]).code, name).toBe("DE");
    // A country in a list or a sentence is a mention, too weak alone.
    expect(answer(["Exports to France grew"]).code).toBeUndefined();
  });

  it("labelled country codes: Land: DE, Country: FR", () => {
    expect(answer([{ text: "DE", label: "Land:" }]).code).toBe("DE");
    expect(answer(["Country: FR"]).code).toBe("FR");
  });

  it("postal codes only with a place or state they belong to", () => {
    expect(answer(["Lilienthalallee 26, 80786 München"]).code).toBe("DE");
    expect(answer(["12 rue de la Paix", "75002 Paris"]).code).toBe("FR");
    expect(answer(["Damrak 70", "1012 LM Amsterdam"]).code).toBe("NL");
    expect(answer(["1200 Harbor Blvd", "Oakland, CA 94607"]).code).toBe("US");
    expect(answer(["77 Elm Street", "Springfield, Illinois 62701"]).code).toBe("US");
    expect(answer(["221 High Street", "London SW1A 2AA"]).code).toBe("GB");
    expect(placeCountries("80331", "munchen")).toEqual(["DE"]);
    // A Munich code at a Paris place fits no country.
    expect(placeCountries("80331", "paris")).toEqual([]);
  });

  it("a German five-digit postal code without a US state is not a US ZIP code", () => {
    for (const lines of [
      ["Kraxi GmbH", "Flugzeugallee 17", "12345 Papierfeld"],
      ["Muster GmbH · DE 80331 München"],
      ["Rabattstr. 25", "34567 Osterhausen"],
    ])
      expect(answer(lines).code, lines.join(" / ")).not.toBe("US");
    expect(answer(["Rabattstr. 25", "34567 Osterhausen"]).code).toBeUndefined();
  });

  it("currency alone is too weak to name a country", () => {
    expect(answer(["Total 1.234,00 €"]).code).toBeUndefined();
    expect(answer(["Total £66.78"]).code).toBeUndefined();
  });
});

describe("weighing the evidence", () => {
  it("conflicting VAT ids, IBANs or phones → no country", () => {
    const de = makeVatFor("DE", seq)!;
    const fr = makeVatFor("FR", seq)!;
    const split = answer([`USt-IdNr. ${de}`, `N° TVA ${fr}`]);
    expect(split.code).toBeUndefined();
    expect(split.reason).toBe("conflict");
    expect(answer([`BTW ${makeVatFor("BE", seq)}`, `IBAN ${makeIbanFor("NL", seq)}`]).code).toBeUndefined();
    expect(answer([`USt-IdNr. ${de}`, "Tel. +33 1 44 55 66 77"]).code).toBeUndefined();
  });

  it("the customer's own VAT id does not outvote the issuer's", () => {
    const de = makeVatFor("DE", seq)!;
    const fr = makeVatFor("FR", seq)!;
    expect(answer([`USt-IdNr. ${de}`, `Your VAT ID: ${fr}`]).code).toBe("DE");
    expect(answer([`USt-IdNr. ${de}`, { text: fr, label: "Kunde USt-IdNr." }]).code).toBe("DE");
    // The issuer's service line is the issuer's.
    expect(answer([`USt-IdNr. ${de}`, "Kundenservice: +49 30 1234 5678"]).code).toBe("DE");
  });

  it("an address never answers against a VAT id, IBAN or phone", () => {
    // Issuer's phone +1 (US or Canada), customer's address in India: no answer rather than India.
    expect(answer(["YourCompany", "+1 555 123 8069", "Best Designers", "203, Systems Plaza", "400001 Mumbai", "India"]).code).toBeUndefined();
  });

  it("addresses alone decide when they agree, and not when they split", () => {
    expect(answer(["12 rue de la Paix", "75002 Paris", "France"]).code).toBe("FR");
    expect(answer(["12 rue de la Paix", "75002 Paris", "France", "Lindenstraße 14", "80331 München", "Deutschland"]).code).toBeUndefined();
  });

  it("detectCountry reads plain text lines", () => {
    expect(detectCountry("USt-IdNr. DE811907980\nTel. +49 421 555 123")).toBe("Germany");
    expect(detectCountry("Hello world")).toBeUndefined();
  });
});
