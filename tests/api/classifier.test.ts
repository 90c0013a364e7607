import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startQuire, type QuireServer } from "../helpers/quire-server";
import { uploadBytes } from "../helpers/api-client";
import { makeTextPdf } from "../helpers/invoice-fixtures";
import { makeVatFor } from "../helpers/classify-fixtures";

let q: QuireServer;

beforeAll(async () => {
  q = await startQuire({ env: { SYNC_TIMEOUT_MS: "180000" } });
}, 120_000);
afterAll(async () => q?.stop());

const seq = (() => {
  let a = 11;
  return () => ((a = (a * 48271) % 2147483647) / 2147483647);
})();

/** A German invoice titled with a compound (Schlussrechnung), German VAT id, a customer in Austria. */
async function germanInvoice(vat: string) {
  const lines = [
    "Nordwerk Maschinenbau GmbH · Mühlweg 7 · 97215 Uffenheim",
    "",
    "Alpenbau GmbH",
    "Hauptplatz 4",
    "8430 Leibnitz",
    "Österreich",
    "",
    "Rechnungsnr. 2024-0117          Datum 12.03.2024",
    "Leistungszeitraum: Februar 2024",
    "Pos.  Bezeichnung                    Menge   Einzelpreis      Betrag",
    "1     Wartung Fräsmaschine FM-200     2      450,00 €         900,00 €",
    "2     Ersatzteile laut Liste          1      312,40 €         312,40 €",
    "Nettobetrag                                                 1.212,40 €",
    "zzgl. 19 % MwSt.                                              230,36 €",
    "Gesamtbetrag                                                1.442,76 €",
    "Zahlbar bis 26.03.2024 ohne Abzug.",
    `USt-IdNr. ${vat}   Amtsgericht Würzburg HRB 1234`,
  ];
  const items = [{ x: 56, y: 150, text: "Schlussrechnung", size: 16, bold: true }];
  lines.forEach((t, i) => t && items.push({ x: 56, y: 60 + i * 14 + (i >= 7 ? 70 : 0), text: t, size: 9, bold: false }));
  return makeTextPdf([items]);
}

describe("built-in classification over HTTP", () => {
  it("POST /v1/pdf/classifier (German invoice: type invoice first, country Germany from its VAT id)", async () => {
    const vat = makeVatFor("DE", seq)!;
    const src = await uploadBytes(q, await germanInvoice(vat), "schlussrechnung.pdf");
    const r = await q.api("/v1/pdf/classifier", { json: { url: src, profiles: { IncludeMatchDetails: true } } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const classes = (r.body.body.classes as { class: string }[]).map((c) => c.class);
    expect(classes[0]).toBe("invoice");
    expect(classes).toContain("Germany");
    expect(classes).not.toContain("United States");
    expect(classes).not.toContain("Austria");
    expect(r.body.pageCount).toBe(1);
    const details = r.body.matches[0];
    expect(details.logic).toBe("builtin");
    expect(details.countryCode).toBe("DE");
    expect(details.countryEvidence.some((e: { kind: string; text: string }) => e.kind === "vat" && e.text === vat)).toBe(true);
  }, 120_000);

  it("POST /v1/pdf/classifier (a letter is not an invoice; a credit note is an invoice with the class credit note)", async () => {
    const letter = await makeTextPdf([
      [
        "Stadtwerke Musterhausen",
        "Sehr geehrte Frau Keller,",
        "wir möchten Sie über die Änderung unserer Öffnungszeiten ab dem kommenden Monat informieren.",
        "Bei Fragen steht Ihnen unser Team jederzeit gerne zur Verfügung.",
        "Mit freundlichen Grüßen",
        "Jonas Weber",
      ].map((text, i) => ({ x: 56, y: 60 + i * 20, text, size: 10 })),
    ]);
    const r1 = await q.api("/v1/pdf/classifier", { json: { url: await uploadBytes(q, letter, "brief.pdf") } });
    expect(r1.status, JSON.stringify(r1.body)).toBe(200);
    expect(r1.body.body.classes[0].class).toBe("letter");

    const credit = await makeTextPdf([
      [
        { x: 56, y: 50, text: "AVOIR", size: 18, bold: true },
        ...[
          "Lumen SAS, 12 rue de la Paix, 75002 Paris",
          "N° 2024-0042 du 12/03/2024, relatif à la facture 2024-0031",
          "Retour de marchandise      -2      45,00 €      -90,00 €",
          "Total HT      -90,00 €",
          "TVA 20 %      -18,00 €",
          "Total TTC      -108,00 €",
          "Nous vous remercions de votre confiance.",
        ].map((text, i) => ({ x: 56, y: 90 + i * 16, text, size: 9 })),
      ],
    ]);
    const r2 = await q.api("/v1/pdf/classifier", { json: { url: await uploadBytes(q, credit, "avoir.pdf") } });
    expect(r2.status, JSON.stringify(r2.body)).toBe(200);
    const classes = (r2.body.body.classes as { class: string }[]).map((c) => c.class);
    expect(classes.slice(0, 2)).toEqual(["invoice", "credit note"]);
    expect(classes).toContain("France");
  }, 120_000);
});
