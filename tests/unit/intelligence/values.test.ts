import { describe, expect, it } from "vitest";
import { findAmounts, pickAmount, detectDecimalMark, findCurrency } from "@/lib/engine/invoice/amounts";
import { detectDateOrder, parseDate } from "@/lib/engine/invoice/dates";
import { checkTaxId, repairIban, validAbaRouting, validBic, validIban } from "@/lib/engine/invoice/validate";
import { parseAddress, parseCityLine } from "@/lib/engine/invoice/address";
import { readId, readTaxId, readIban } from "@/lib/engine/invoice/values";

describe("amounts (normalised in form only)", () => {
  it.each([
    ["$ 1,234.50", ".", "1234.50", "USD"],
    ["1.234,50 €", ",", "1234.50", "EUR"],
    ["EUR 12,00", ",", "12.00", "EUR"],
    ["£99.9", ".", "99.9", "GBP"],
    ["CHF 1'250.00", ".", "1250.00", "CHF"],
    ["(45.00)", ".", "-45.00", undefined],
    ["100.00-", ".", "-100.00", undefined],
    ["-€10.00", ".", "-10.00", "EUR"],
    ["Rs 1939", ".", "1939", "INR"],
    // French grouping with plain spaces before a decimal comma is one number.
    ["1 234,56", ",", "1234.56", undefined],
    ["2 150.00", ".", "150.00", undefined],
  ])("%s → %s", (text, dec, want, cur) => {
    const a = pickAmount(text, dec as "." | ",");
    expect(a?.text).toBe(want);
    expect(a?.currency).toBe(cur);
  });

  it("skips percentages, dates and long identifiers", () => {
    expect(pickAmount("Tax 15% on $ 112.90")?.text).toBe("112.90");
    expect(findAmounts("15.00%")[0].isPercent).toBe(true);
    expect(pickAmount("03/20/2023")).toBeUndefined();
    expect(pickAmount("August 3 , 2014")).toBeUndefined();
    expect(pickAmount("VAT/TIN: 29670869006")).toBeUndefined();
  });

  it("judges the decimal mark and the currency of a document", () => {
    expect(detectDecimalMark("Total 1.234,56 €  Tax 12,00")).toBe(",");
    expect(detectDecimalMark("Total $1,234.56 Tax 12.00")).toBe(".");
    expect(findCurrency("Total 12,00 €  Tax 2,00 €")).toBe("EUR");
  });
});

describe("dates (ISO 8601 out)", () => {
  it.each([
    ["03/20/2023", "DMY", "2023-03-20"],
    ["20/03/2023", "MDY", "2023-03-20"],
    ["04/05/2023", "MDY", "2023-04-05"],
    ["04/05/2023", "DMY", "2023-05-04"],
    ["21.05.14", "MDY", "2014-05-21"],
    ["2023-03-20", "DMY", "2023-03-20"],
    ["7. Mai 2014", "DMY", "2014-05-07"],
    ["02 Juillet 2015", "DMY", "2015-07-02"],
    ["12 mars 2024", "DMY", "2024-03-12"],
    ["18 april 2014", "DMY", "2014-04-18"],
    ["August 3 , 2014", "DMY", "2014-08-03"],
    ["March 5th, 2024", "DMY", "2024-03-05"],
    ["20-Mar-2023", "DMY", "2023-03-20"],
    ["20 de marzo de 2023", "DMY", "2023-03-20"],
    ["8-9-2022", "DMY", "2022-09-08"],
  ])("%s (%s) → %s", (text, order, iso) => {
    expect(parseDate(text, order as "DMY" | "MDY")?.iso).toBe(iso);
  });

  it("rejects impossible dates", () => {
    expect(parseDate("31/02/2023")).toBeUndefined();
    expect(parseDate("Invoice 42183017")).toBeUndefined();
  });

  it("orders ambiguous dates by the document's other dates, then its locale", () => {
    expect(detectDateOrder("Date 04/05/2023 Due 04/25/2023", false)).toBe("MDY");
    expect(detectDateOrder("Date 04/05/2023 Due 25/05/2023", true)).toBe("DMY");
    expect(detectDateOrder("Date 04/05/2023", true)).toBe("MDY");
    expect(detectDateOrder("Date 04/05/2023", false)).toBe("DMY");
  });
});

describe("identifiers", () => {
  it("validates IBAN check digits and lengths", () => {
    expect(validIban("DE89 3704 0044 0532 0130 00")).toBe("DE89370400440532013000");
    expect(validIban("NL91ABNA0417164300")).toBe("NL91ABNA0417164300");
    expect(validIban("NL91ABNA0417164301")).toBeUndefined();
    expect(validIban("US1234567890")).toBeUndefined();
    expect(readIban("IBAN : FR76 10107 00245 00617052317 39 - BIC : BREDFRPP")?.value).toBe(
      "FR7610107002450061705231739",
    );
  });

  it("repairs an IBAN misread by OCR only when the check digits then pass", () => {
    expect(repairIban("NL58RAB00198723202")).toBe("NL58RABO0198723202");
    expect(repairIban("NL58RAB00198723203")).toBeUndefined();
  });

  it("checks BIC shape and country", () => {
    expect(validBic("INGBNL2A")).toBe("INGBNL2A");
    expect(validBic("HELADEF1GEL")).toBe("HELADEF1GEL");
    expect(validBic("INVOICE1")).toBeUndefined();
    expect(validBic("ABCDXX12")).toBeUndefined();
  });

  it("checks tax identifiers where a format exists", () => {
    expect(checkTaxId("NL810433941B01")?.valid).toBe(true);
    expect(checkTaxId("DE 232 446 240")?.valid).toBe(true);
    expect(checkTaxId("DE 232 446 241")?.valid).toBe(false);
    expect(checkTaxId("FR 604 219 388 61")?.valid).toBe(true);
    expect(checkTaxId("06AABCO6063D1ZQ")?.valid).toBe(true);
    expect(checkTaxId("06AABCO6063D1ZX")?.valid).toBe(false);
    expect(checkTaxId("12-3456789")?.kind).toBe("EIN");
    expect(checkTaxId("CHE-116.281.710 MWST")?.valid).toBe(true);
    expect(readTaxId("KvK Rotterdam 24330087")?.value).toBe("24330087");
    expect(readTaxId(": DE 232 446 240 Steuer")?.value).toBe("DE 232 446 240");
    expect(validAbaRouting("021000021")).toBe("021000021");
    expect(validAbaRouting("021000022")).toBeUndefined();
  });

  it("reads identifiers after a label", () => {
    expect(readId("# BLR_WFLD20151000982590")?.value).toBe("BLR_WFLD20151000982590");
    expect(readId("n°562044387 du 02 Juillet 2015")?.value).toBe("562044387");
    expect(readId("03/20/2023")).toBeUndefined();
    expect(readId("Summary")).toBeUndefined();
  });
});

describe("addresses", () => {
  it.each([
    ["Fremont CA 94538", { city: "Fremont", state: "CA", postalCode: "94538" }],
    ["Seattle, WA 98109-5210, US", { city: "Seattle", state: "WA", postalCode: "98109-5210", country: "US" }],
    ["3012 CN Rotterdam", { city: "Rotterdam", postalCode: "3012 CN" }],
    ["75371 Paris Cedex 08", { city: "Paris Cedex 08", postalCode: "75371" }],
    ["D-63571 Gelnhausen", { city: "Gelnhausen", postalCode: "63571" }],
    ["London SW1A 1AA", { city: "London", postalCode: "SW1A 1AA" }],
    ["Toronto, ON M5V 2T6", { city: "Toronto", state: "ON", postalCode: "M5V 2T6" }],
    ["Sydney NSW 2000", { city: "Sydney", state: "NSW", postalCode: "2000" }],
    ["Lucknow 226010 Uttar Pradesh", { city: "Lucknow", postalCode: "226010", state: "Uttar Pradesh" }],
  ])("%s", (line, want) => {
    expect(parseCityLine(line)).toMatchObject(want);
  });

  it("reads street, city and country lines, and one-line addresses", () => {
    expect(
      parseAddress(["4557 De Silva St", "Building AA", "Fremont CA 94538", "United States"])?.address,
    ).toEqual({
      streetAddress: "4557 De Silva St, Building AA",
      city: "Fremont",
      state: "CA",
      postalCode: "94538",
      country: "United States",
    });
    expect(parseAddress(["4557 De Silva St, Fremont, CA 94538, United States"])?.address).toMatchObject({
      streetAddress: "4557 De Silva St",
      city: "Fremont",
      state: "CA",
      postalCode: "94538",
      country: "United States",
    });
    expect(parseAddress(["93B Sai Yu Chung", "Yuen Long, N.T.", "Hong Kong"])?.address).toMatchObject({
      country: "Hong Kong",
      streetAddress: "93B Sai Yu Chung",
    });
  });

  it("does not read a street line as a city line", () => {
    expect(parseCityLine("4557 De Silva St")).toBeUndefined();
    expect(parseCityLine("1200 Harbor Blvd")).toBeUndefined();
  });
});
