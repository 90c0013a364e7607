/**
 * The issuer without a printed letterhead (a logo only): named by the return-address line over the
 * address window (fields separated by "·" or by commas) and the legal footer (columns, or sentences
 * of comma-separated fields with the capital clause); the addressee stays the bill-to, without its
 * courtesy title ("Monsieur Julien Martin"), and a labelled delivery place beside it is the ship-to;
 * a brand in the letterhead ("NORTHWIND") gives way to the legal name printed elsewhere; a contact
 * person printed above the addressee's company leaves the company as the bill-to. And a caption wrapped over
 * two lines ("Abweichender / Handelsname:") is part of a label, never a party's name.
 */
import { afterAll, describe, expect, it } from "vitest";
import { parseParty, personAboveOrganisation, wrappedCaptionHead, type BlockLine } from "@/lib/engine/invoice/parties";
import { withoutCourtesyTitle } from "@/lib/engine/lexicon/invoice-fields";
import { readInvoice } from "@/lib/engine/invoice/read-invoice";
import { shutdownOcr } from "@/lib/engine/ocr/pool";
import { generateInvoice, renderInvoice, truthOf, type GenOptions } from "@/tests/helpers/invoice-gen";

afterAll(() => shutdownOcr());

async function parse(o: GenOptions) {
  const g = generateInvoice(o);
  const res = await readInvoice(await renderInvoice(g), { noLlm: true });
  return { g, t: truthOf(g), body: res.body as Record<string, any> };
}

describe("a logo instead of a printed letterhead", () => {
  for (const language of ["de", "fr", "en"] as const)
    for (const v of [{ logoHead: true }, { logoHead: true, noSenderLine: true }, { logoHead: true, windowRight: true }]) {
      it(`${language} ${JSON.stringify(v)}: vendor from the return-address line or footer, bill-to the addressee`, async () => {
        const { t, body } = await parse({ language, layout: "classic", seed: 3, ...v });
        expect(body.vendor?.name).toBe(t.vendor);
        expect(body.customer?.billTo?.name).toBe(t.customer);
      });
    }
});

describe("the issuer named only by a comma-separated return-address line or a legal footer sentence", () => {
  for (const language of ["de", "fr", "en"] as const)
    for (const seed of [1, 2, 3, 4])
      for (const v of [
        { logoHead: true, senderCommas: true, footerSentence: true },
        { logoHead: true, noSenderLine: true, footerSentence: true },
        { logoHead: true, windowRight: true, senderCommas: true, footerSentence: true },
      ]) {
        it(`${language} seed ${seed} ${Object.keys(v).join("+")}: the vendor is the issuer, the addressee the bill-to`, async () => {
          const { g, t, body } = await parse({ language, layout: "classic", seed, ...v });
          expect(body.vendor?.name).toBe(t.vendor);
          expect(body.customer?.billTo?.name).toBe(t.customer);
          expect(Number(body.paymentDetails?.total)).toBeCloseTo(t.total, 2);
          if ("noSenderLine" in v) {
            // The footer sentence is the only place of the vendor's address: its street and city,
            // without the register, court or capital clause around them.
            const a = body.vendor?.address ?? {};
            expect(a.streetAddress).toBe(g.vendor.street);
            expect(`${a.postalCode} ${a.city}`.split(" ").sort()).toEqual(g.vendor.city.split(" ").sort());
          }
        });
      }
});

describe("a brand in the letterhead, the legal name in the return-address line or footer", () => {
  for (const language of ["de", "fr", "en"] as const)
    for (const seed of [1, 2, 3])
      for (const v of [{ brandHead: true }, { brandHead: true, noSenderLine: true }, { brandHead: true, footerSentence: true, senderCommas: true }]) {
        it(`${language} seed ${seed} ${Object.keys(v).join("+")}: the vendor is the legal name`, async () => {
          const { t, body } = await parse({ language, layout: "classic", seed, ...v });
          expect(body.vendor?.name).toBe(t.vendor);
          expect(body.customer?.billTo?.name).toBe(t.customer);
        });
      }

  it("a brand printed everywhere without a legal name stays the brand (template layout)", async () => {
    const { t, body } = await parse({ language: "en", layout: "template", seed: 1 });
    expect(body.vendor?.name).toBe(t.vendor);
  });
});

describe("the addressee of the window", () => {
  for (const language of ["de", "fr", "en"] as const)
    for (const seed of [1, 2, 3])
      for (const v of [{ privateCustomer: true }, { deliveryBeside: true }, { privateCustomer: true, deliveryBeside: true, logoHead: true }, { privateCustomer: true, windowRight: true }]) {
        it(`${language} seed ${seed} ${Object.keys(v).join("+")}: bill-to is the addressee without a courtesy title, the delivery place is ship-to`, async () => {
          const { g, t, body } = await parse({ language, layout: "classic", seed, ...v });
          expect(body.customer?.billTo?.name).toBe(t.customer);
          expect(body.vendor?.name).toBe(t.vendor);
          if (g.deliveryBeside) expect(body.customer?.shipTo?.name).not.toBe(t.customer);
        });
      }

  for (const language of ["de", "fr", "en"] as const)
    for (const seed of [1, 2, 3, 4])
      for (const v of [{ personFirst: true }, { personFirst: true, windowRight: true }, { personFirst: true, logoHead: true }]) {
        it(`${language} seed ${seed} ${Object.keys(v).join("+")}: the company under its contact person is the bill-to`, async () => {
          const { t, body } = await parse({ language, layout: "classic", seed, ...v });
          expect(body.customer?.billTo?.name).toBe(t.customer);
          expect(body.vendor?.name).toBe(t.vendor);
        });
      }

  it("a person above an organisation: only with a legal form, or after a courtesy title", () => {
    expect(personAboveOrganisation("Claire Dubois", "Maison Lefèvre SAS")).toBe(true);
    expect(personAboveOrganisation("Mr Tom Baker", "Riverside Dental Practice")).toBe(true);
    expect(personAboveOrganisation("Claire Dubois", "Riverside Dental Practice")).toBe(false);
    expect(personAboveOrganisation("Thomas Becker", "Hafenweg 7")).toBe(false);
    expect(personAboveOrganisation("Weber Logistik GmbH", "Anna Weber")).toBe(false);
    expect(personAboveOrganisation("Mr Tom Baker", "12 Mill Lane")).toBe(false);
  });

  it("a courtesy title goes, a name stays", () => {
    expect(withoutCourtesyTitle("Monsieur Julien Martin")).toBe("Julien Martin");
    expect(withoutCourtesyTitle("Mr James Wilson")).toBe("James Wilson");
    expect(withoutCourtesyTitle("Frau Dr. Anna Weber")).toBe("Dr. Anna Weber");
    expect(withoutCourtesyTitle("Mme Claire Dubois")).toBe("Claire Dubois");
    // Not followed by a capitalised name: left as printed.
    expect(withoutCourtesyTitle("Madame")).toBe("Madame");
    expect(withoutCourtesyTitle("Messrs Smith & Sons")).toBe("Messrs Smith & Sons");
    expect(withoutCourtesyTitle("Hansen Bürotechnik GmbH")).toBe("Hansen Bürotechnik GmbH");
  });
});

const line = (text: string, x0: number, y0: number): BlockLine => ({
  text,
  words: [],
  box: { page: 0, x0, y0, x1: x0 + text.length * 5, y1: y0 + 9 },
});

describe("a caption wrapped over two lines", () => {
  it("is not taken as the party's name", () => {
    const r = parseParty([line("Abweichender", 50, 100), line("Handelsname:", 50, 110), line("Register-/", 50, 124), line("Registriernummer:", 50, 134)]);
    expect(r.party.name).toBeUndefined();
  });

  it("a name above a caption is kept when it has a legal form, or several words", () => {
    expect(parseParty([line("Hansen GmbH", 50, 100), line("Kontakt:", 50, 110)]).party.name).toBe("Hansen GmbH");
    expect(parseParty([line("Atelier Dupont Lyon", 50, 100), line("Contact :", 50, 110)]).party.name).toBe("Atelier Dupont Lyon");
  });

  it("needs the caption in the same column, ending in a colon", () => {
    expect(wrappedCaptionHead(line("Abweichender", 50, 100), line("Handelsname:", 50, 110))).toBe(true);
    expect(wrappedCaptionHead(line("Register-/", 50, 100), line("Registriernummer:", 50, 110))).toBe(true);
    expect(wrappedCaptionHead(line("Abweichender", 50, 100), line("Handelsname:", 200, 110))).toBe(false);
    expect(wrappedCaptionHead(line("Abweichender", 50, 100), line("Hauptstraße 5", 50, 110))).toBe(false);
    expect(wrappedCaptionHead(line("Abweichender", 50, 100), undefined)).toBe(false);
  });
});
