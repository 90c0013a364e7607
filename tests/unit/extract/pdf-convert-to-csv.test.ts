import { readFileSync } from "node:fs";
import { afterAll, afterEach, describe, expect, test } from "vitest";
import { QuireError } from "@/lib/core/errors";
import { parseParams } from "@/lib/operations/wire";
import { shutdownOcr } from "@/lib/engine/ocr/pool";
import { operation } from "@/lib/operations/pdf-convert-to-csv/contract";
import { run } from "@/lib/operations/pdf-convert-to-csv/runner";
import {
  cleanupContexts,
  contextFor,
  expectedCsv,
  gridRows,
  imageToPdf,
  makeTablesPdf,
  makeVectorTextPdf,
  renderPagePng,
  type PageSpec,
} from "@/tests/helpers/extract-fixtures";
import { encryptPdf, makeDamagedPdf } from "@/tests/helpers/pdf-fixtures";

afterEach(cleanupContexts);
afterAll(shutdownOcr);

const grid = gridRows(3, 3);
const tablePage: PageSpec = { tables: [{ x: 60, y: 100, cols: [100, 100, 100], rows: grid }] };

async function csvOf(bytes: Uint8Array, params: Record<string, unknown> = {}, fileName?: string) {
  const ctx = await contextFor(operation.params, bytes, params, fileName);
  const result = await run(ctx);
  return { result, csv: result.inlineText ?? "", ctx };
}

async function errorOf(p: Promise<unknown>): Promise<QuireError> {
  try {
    await p;
  } catch (e) {
    return e as QuireError;
  }
  throw new Error("expected an error");
}

describe("pdf-convert-to-csv runner", () => {
  test("a bordered table: CSV text inline and in the output file, every cell quoted, CR LF", async () => {
    const { result, csv } = await csvOf(makeTablesPdf([tablePage]));
    expect(csv).toBe(expectedCsv(grid));
    expect(result.pageCount).toBe(1);
    expect(result.outputs?.[0].contentType).toBe("text/csv");
    expect(result.outputs?.[0].name).toBe("source.csv");
    expect(readFileSync(result.outputs![0].path, "utf8")).toBe(csv);
  });

  test("name sets the output file name", async () => {
    const { result } = await csvOf(makeTablesPdf([tablePage]), { name: "tables" });
    expect(result.outputs?.[0].name).toBe("tables.csv");
  });

  test("pages selects 0-based pages; out of range → 449, malformed → 450", async () => {
    const pdf = makeTablesPdf([{ texts: [{ x: 60, y: 60, text: "First page" }] }, { texts: [{ x: 60, y: 60, text: "Second page" }] }]);
    const { csv, result } = await csvOf(pdf, { pages: "1" });
    expect(csv).toBe('"Second page"\r\n');
    expect(result.pageCount).toBe(1);
    expect((await errorOf(csvOf(pdf, { pages: "5" }))).status).toBe(449);
    expect((await errorOf(csvOf(pdf, { pages: "x-" }))).status).toBe(450);
  });

  test("rect and ExtractionArea limit the area; outside the page or malformed → 454", async () => {
    const pdf = makeTablesPdf([{ ...tablePage, texts: [{ x: 60, y: 40, text: "Title" }] }]);
    const inArea = await csvOf(pdf, { rect: "50 90 320 200" });
    expect(inArea.csv).toBe(expectedCsv(grid));
    const viaProfile = await csvOf(pdf, { profiles: { ExtractionArea: [50, 90, 320, 200] } });
    expect(viaProfile.csv).toBe(expectedCsv(grid));
    expect((await errorOf(csvOf(pdf, { rect: "700 900 10 10" }))).status).toBe(454);
    expect((await errorOf(csvOf(pdf, { rect: "10 10 abc" }))).status).toBe(454);
    expect((await errorOf(csvOf(pdf, { rect: "10 10 0 20" }))).status).toBe(454);
  });

  test("lineGrouping 1 joins wrapped rows; unwrap joins with spaces", async () => {
    const rows = [["Code", "Description", "Amount"], ["A1", "Consulting services\nfor March", "1,200.00"], ["B2", "Travel", "300.00"]];
    const pdf = makeTablesPdf([{ tables: [{ x: 60, y: 80, cols: [60, 200, 100], rows, borders: "none" }] }]);
    expect((await csvOf(pdf)).csv.split("\r\n").length - 1).toBe(4);
    expect((await csvOf(pdf, { lineGrouping: "1" })).csv).toBe(expectedCsv(rows, false));
    expect((await csvOf(pdf, { lineGrouping: "1", unwrap: true })).csv).toBe(expectedCsv(rows, true));
    expect((await csvOf(pdf, { profiles: { LineGroupingMode: "GroupByRows" }, unwrap: true })).csv).toBe(expectedCsv(rows, true));
    // lineGrouping 3 joins the orphaned line with a space.
    expect((await csvOf(pdf, { lineGrouping: "3" })).csv).toBe(expectedCsv(rows, true));
  });

  test("ColumnDetectionMode BorderedTables keeps only ruled tables", async () => {
    const pdf = makeTablesPdf([{ ...tablePage, texts: [{ x: 60, y: 40, text: "Title" }] }]);
    expect((await csvOf(pdf)).csv).toBe('"Title"\r\n' + expectedCsv(grid));
    expect((await csvOf(pdf, { profiles: { ColumnDetectionMode: "BorderedTables" } })).csv).toBe(expectedCsv(grid));
  });

  test("wrong or missing password → 441; the right one works", async () => {
    const pdf = encryptPdf(makeTablesPdf([tablePage]), { userPassword: "secret" });
    expect((await errorOf(csvOf(pdf))).status).toBe(441);
    expect((await errorOf(csvOf(pdf, { password: "nope" }))).status).toBe(441);
    expect((await csvOf(pdf, { password: "secret" })).csv).toBe(expectedCsv(grid));
  });

  test("damaged or non-PDF input → 442", async () => {
    for (const kind of ["random", "truncated", "html", "empty"] as const) {
      expect((await errorOf(csvOf(makeDamagedPdf(kind)))).status, kind).toBe(442);
    }
  });

  test("a page tree that fails only when a page is loaded → 442 naming the page, not 500", async () => {
    const missing = await errorOf(csvOf(makeDamagedPdf("kids-missing")));
    expect(missing.status).toBe(442);
    expect(missing.message).toMatch(/page 1 cannot be read \(malformed page tree\)/);
    const broken = await errorOf(csvOf(makeDamagedPdf("kids-broken")));
    expect(broken.status).toBe(442);
    expect(broken.message).toMatch(/page 2 cannot be read \(cycle in page tree\)/);
  });

  test("unknown language → 400 naming the installed ones; malformed → 400", async () => {
    const pdf = makeTablesPdf([tablePage]);
    const e = await errorOf(csvOf(pdf, { lang: "xyz" }));
    expect(e.status).toBe(400);
    expect(e.message).toMatch(/eng/);
    expect(e.message).toMatch(/fra/);
    expect((await errorOf(csvOf(pdf, { lang: "english" }))).status).toBe(400);
    // eng+fra is accepted.
    expect((await csvOf(pdf, { lang: "eng+fra" })).csv).toBe(expectedCsv(grid));
  });

  test("OCRResolution outside 72–1200 → 454 at the contract", () => {
    for (const v of [10, 71, 1201]) {
      const e = (() => {
        try {
          parseParams({ url: "https://x/y.pdf", profiles: { OCRResolution: v } }, operation.params);
        } catch (err) {
          return err as QuireError;
        }
      })();
      expect(e?.status, String(v)).toBe(454);
    }
    expect(() => parseParams({ url: "https://x/y.pdf", profiles: "{'OCRResolution': '150'}" }, operation.params)).not.toThrow();
  });

  test("profile keys are read in their wire spellings (with and without ())", () => {
    const p = parseParams(
      {
        url: "https://x/y.pdf",
        lineGrouping: 1,
        profiles: JSON.stringify({
          "OCRImagePreprocessingFilters.AddGrayscale()": "true",
          "OCRImagePreprocessingFilters.AddGammaCorrection()": ["1.4"],
          ColumnDetectionMode: "contentgroupsai",
          DetectNewColumnBySpacesRatio: "2",
          SaveImages: "Embed",
        }),
      },
      operation.params,
    );
    expect(p.lineGrouping).toBe("1");
    expect(p.profiles?.["OCRImagePreprocessingFilters.AddGrayscale"]).toBe(true);
    expect(p.profiles?.["OCRImagePreprocessingFilters.AddGammaCorrection"]).toEqual(["1.4"]);
    expect(p.profiles?.ColumnDetectionMode).toBe("ContentGroupsAI");
  });

  test("bad DetectNewColumnBySpacesRatio or gamma → 454; ExtractShadowLikeText false with OCRMode Always → 454", async () => {
    const pdf = makeTablesPdf([tablePage]);
    expect((await errorOf(csvOf(pdf, { profiles: { DetectNewColumnBySpacesRatio: "wide" } }))).status).toBe(454);
    expect((await errorOf(csvOf(pdf, { profiles: { "OCRImagePreprocessingFilters.AddGammaCorrection": ["-1"] } }))).status).toBe(454);
    expect((await errorOf(csvOf(pdf, { profiles: { ExtractShadowLikeText: false, OCRMode: "Always" } }))).status).toBe(454);
  });

  test("ExtractShadowLikeText false skips invisible text", async () => {
    const pdf = makeTablesPdf([{ texts: [{ x: 60, y: 60, text: "Visible words here" }, { x: 60, y: 100, text: "Hidden layer text", invisible: true }] }]);
    expect((await csvOf(pdf)).csv).toBe('"Visible words here"\r\n"Hidden layer text"\r\n');
    expect((await csvOf(pdf, { profiles: { ExtractShadowLikeText: false } })).csv).toBe('"Visible words here"\r\n');
  });

  test("SaveImages Embed puts a data URI in a cell; OuterFile adds the image as an output", async () => {
    const png = renderPagePng(makeTablesPdf([{ size: [100, 40], texts: [{ x: 5, y: 5, text: "Logo", size: 20 }] }]), 0, 72);
    const withImage = Buffer.from(imageToPdf(png, 72));
    const none = await csvOf(withImage, { profiles: { OCRMode: "Never" } });
    expect(none.csv).toBe("");
    const embed = await csvOf(withImage, { profiles: { OCRMode: "Never", SaveImages: "Embed" } });
    expect(embed.csv).toMatch(/^"data:image\/png;base64,[A-Za-z0-9+/=]+"\r\n$/);
    const outer = await csvOf(withImage, { profiles: { OCRMode: "Never", SaveImages: "OuterFile" } });
    expect(outer.csv).toBe('"image-page0-1.png"\r\n');
    expect(outer.result.outputs?.[1].name).toBe("image-page0-1.png");
  });

  test("OCRMode: Never leaves a scan empty, Auto OCRs it, SaveVectors reads vector-drawn text", async () => {
    const scan = imageToPdf(renderPagePng(makeTablesPdf([{ texts: [{ x: 60, y: 60, text: "Scanned invoice total", size: 16 }] }]), 0, 200), 200);
    expect((await csvOf(scan, { profiles: { OCRMode: "Never" } })).csv).toBe("");
    expect((await csvOf(scan)).csv).toBe('"Scanned invoice total"\r\n');
    const vector = makeVectorTextPdf("HELLO THE TOE");
    expect((await csvOf(vector, { profiles: { OCRMode: "Never" } })).csv).toBe("");
    // The pixel font spaces words a full em apart. Its square 5×7 O reads as O with tesseract.js's
    // eng model and as U with the fast models of Debian's native Tesseract.
    expect((await csvOf(vector, { profiles: { SaveVectors: true } })).csv).toMatch(/^"HELL[OU]","THE","T[OU]E"\r\n$/);
  });

  test("OCRAutoModeMinExistingTextLength and OCRMode Always / TextFromVectors reach the OCR", async () => {
    const short = makeTablesPdf([{ size: [300, 100], texts: [{ x: 20, y: 20, text: "Hi there", size: 20 }] }]);
    const logs = async (params: Record<string, unknown>) => {
      const ctx = await contextFor(operation.params, short, params);
      const r = await run(ctx);
      return { csv: r.inlineText, log: ctx.logs.join("\n") };
    };
    expect((await logs({})).log).toMatch(/1 OCRed/); // 7 characters < 8
    expect((await logs({ profiles: { OCRAutoModeMinExistingTextLength: 3 } })).log).toMatch(/0 OCRed/);
    const always = await logs({ profiles: { OCRMode: "Always", OCRAutoModeMinExistingTextLength: 0 } });
    expect(always.log).toMatch(/1 OCRed/);
    expect(always.csv).toBe('"Hi there"\r\n');
    const vectors = await logs({ profiles: { OCRMode: "TextFromVectors" } });
    expect(vectors.log).toMatch(/1 OCRed/);
    expect(vectors.csv).toBe('"Hi there"\r\n'); // OCR words on top of the text layer are dropped
  });

  test("a page whose text runs sideways is turned upright unless RotationAngle is given", async () => {
    const rows = gridRows(3, 3);
    const pdf = makeTablesPdf([{ rotate: 90, tables: [{ x: 60, y: 80, cols: [100, 100, 100], rows, borders: "none" }] }]);
    expect((await csvOf(pdf)).csv).toBe(expectedCsv(rows));
    expect((await csvOf(pdf, { profiles: { RotationAngle: 0 } })).csv).not.toBe(expectedCsv(rows));
    expect((await csvOf(pdf, { profiles: { RotationAngle: 3 } })).csv).toBe(expectedCsv(rows));
  });

  test("an image source (PNG) is OCRed; RotationAngle turns a sideways scan upright", async () => {
    const pdf = makeTablesPdf([{ size: [400, 120], texts: [{ x: 20, y: 40, text: "Quarterly report", size: 24 }] }]);
    const png = renderPagePng(pdf, 0, 200);
    expect((await csvOf(png, {}, "scan.png")).csv).toBe('"Quarterly report"\r\n');
    const sideways = makeTablesPdf([{ size: [400, 120], rotate: 90, texts: [{ x: 20, y: 40, text: "Quarterly report", size: 24 }] }]);
    const sidewaysPng = renderPagePng(sideways, 0, 200);
    expect((await csvOf(sidewaysPng, { profiles: { RotationAngle: 3 } }, "scan.png")).csv).toBe('"Quarterly report"\r\n');
  });
});
