import { describe, expect, it } from "vitest";
import * as mupdf from "mupdf";
import { classifyBuiltin, detectCountry, DOCUMENT_TYPES } from "@/lib/engine/classify/builtin";
import { extractPageTexts } from "@/lib/engine/text/words";
import { labelledDocuments, makeTextPdf } from "@/tests/helpers/invoice-fixtures";

async function pagesOf(doc: Awaited<ReturnType<typeof labelledDocuments>>[number]) {
  const pdf = await makeTextPdf(doc.pages);
  const d = mupdf.Document.openDocument(pdf, "application/pdf");
  try {
    return extractPageTexts(d, [...Array(d.countPages()).keys()]);
  } finally {
    d.destroy();
  }
}

describe("built-in classification on a labelled set of generated documents", () => {
  const docs = labelledDocuments();

  it("covers every document type", () => {
    expect(new Set(docs.map((d) => d.label))).toEqual(new Set(DOCUMENT_TYPES));
  });

  it("classifies every document of the set right", async () => {
    const results: string[] = [];
    let right = 0;
    for (const doc of docs) {
      const r = classifyBuiltin(await pagesOf(doc));
      if (r.type === doc.label) right++;
      else results.push(`${doc.name}: ${r.type} (want ${doc.label}) ${JSON.stringify(r.scores)}`);
    }
    expect(results).toEqual([]);
    expect(right).toBe(docs.length);
  });

  it("names the issuing organisation and the country where they can be read", async () => {
    const wrong: string[] = [];
    for (const doc of docs.filter((d) => d.organisation || d.country)) {
      const r = classifyBuiltin(await pagesOf(doc));
      if (doc.organisation && r.organisation !== doc.organisation)
        wrong.push(`${doc.name}: organisation ${r.organisation}`);
      if (doc.country && r.country !== doc.country) wrong.push(`${doc.name}: country ${r.country}`);
    }
    expect(wrong).toEqual([]);
  });

  it("reads country signals: addresses, VAT prefixes, phone codes, US ZIP codes", () => {
    expect(detectCountry("1200 Harbor Blvd\nOakland, CA 94607")).toBe("United States");
    expect(detectCountry("USt-IdNr. DE811907980\nTel. +49 421 555")).toBe("Germany");
    expect(detectCountry("Keizersgracht 221\n1016 DV Amsterdam\nNederland")).toBe("Netherlands");
    expect(detectCountry("Hello world")).toBeUndefined();
  });
});
