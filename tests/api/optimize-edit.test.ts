import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as mupdf from "mupdf";
import { startQuire, waitForJob, type QuireServer } from "../helpers/quire-server";
import { download, uploadBytes } from "../helpers/api-client";
import { makeImagePdf, photoJpeg } from "../helpers/optimize-fixtures";
import { FORM_FIXTURE_FIELDS, makeFormPdf, makePdf } from "../helpers/pdf-fixtures";
import { readPdf, renderPdfPage } from "../helpers/convert-fixtures";

let q: QuireServer;
let photoPdf: Buffer;
let photoUrl: string;

beforeAll(async () => {
  q = await startQuire();
  const jpeg = await photoJpeg(2400, 1800, 7, 95);
  // A 2400×1800 photo placed at 4×3 inches: 600 ppi, well above the 225 ppi threshold.
  photoPdf = makeImagePdf([{ images: [{ image: { type: "jpeg", data: jpeg }, x: 36, y: 36, width: 288, height: 216 }], text: ["Photo page"] }]);
  photoUrl = await uploadBytes(q, photoPdf, "photo.pdf", "application/pdf");
}, 120_000);
afterAll(async () => q?.stop());

function fieldValues(bytes: Buffer) {
  const doc = mupdf.PDFDocument.openDocument(bytes, "application/pdf") as mupdf.PDFDocument;
  const out: Record<string, string> = {};
  for (let i = 0; i < doc.countPages(); i++) {
    for (const w of (doc.loadPage(i) as mupdf.PDFPage).getWidgets()) out[w.getName()] = w.getValue();
  }
  return out;
}

describe("compression and editing over HTTP", () => {
  it("POST /v2/pdf/compress (default config: smaller, sizes reported, text kept)", async () => {
    const r = await q.api("/v2/pdf/compress", { json: { url: photoUrl } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.inputFileSize).toBe(photoPdf.length);
    expect(r.body.fileSize).toBeLessThan(photoPdf.length / 2);
    const out = (await download(r.body.url)).bytes;
    expect(out.length).toBe(r.body.fileSize);
    expect(readPdf(out).texts[0]).toContain("Photo page");
  }, 60_000);

  it("POST /v2/pdf/compress (config as a JSON string; skip images → never bigger than the input)", async () => {
    const config = JSON.stringify({ images: { color: { skip: true }, grayscale: { skip: true }, monochrome: { skip: true } }, save: { garbage: 4 } });
    const r = await q.api("/v2/pdf/compress", { json: { url: photoUrl, config } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.fileSize).toBeLessThanOrEqual(photoPdf.length);
    const bad = await q.api("/v2/pdf/compress", { json: { url: photoUrl, config: "{not json" } });
    expect(bad.status).toBe(454);
  }, 60_000);

  it("POST /v1/pdf/optimize (deprecated; urls + fileSize; profiles JPEGQuality)", async () => {
    const r = await q.api("/v1/pdf/optimize", { json: { url: photoUrl, profiles: "{ 'JPEGQuality': 20, 'ResamplingResolution': 72 }" } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.urls).toHaveLength(1);
    expect(r.body.fileSize).toBeLessThan(photoPdf.length);
    const a = await q.api("/v1/pdf/optimize", { json: { url: photoUrl, async: true } });
    expect((await waitForJob(q, a.body.jobId, 60_000)).status).toBe("success");
  }, 90_000);

  it("POST /v1/pdf/edit/add (text with macros at x/y, colour, link; fields filled)", async () => {
    const src = await uploadBytes(q, makePdf({ pages: 2 }), "edit.pdf");
    const r = await q.api("/v1/pdf/edit/add", {
      json: {
        url: src,
        annotations: JSON.stringify([
          { text: "Stamp {{$$PageNumber}}/{{$$PageCount}}", x: 300, y: 400, size: 20, color: "FF0000", pages: "0-", link: "https://example.org/" },
          { text: "Box", x: 50, y: 700, width: 120, height: 40, size: 14, transparent: "false", color: "0000FF" },
        ]),
      },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const out = (await download(r.body.url)).bytes;
    const doc = readPdf(out);
    expect(doc.texts[0]).toContain("Stamp 1/2");
    expect(doc.texts[1]).toContain("Stamp 2/2");
    // Red text around (300, 400) pt: somewhere in that band a pixel is strongly red.
    const page = renderPdfPage(out, 0, 72);
    let red = false;
    for (let x = 300; x < 420 && !red; x++) for (let y = 400; y < 425 && !red; y++) {
      const [rr, g, b] = page.pixel(x, y);
      red = rr > 180 && g < 80 && b < 80;
    }
    expect(red).toBe(true);
    const m = mupdf.PDFDocument.openDocument(out, "application/pdf");
    const links = m.loadPage(0).getLinks().map((l) => l.getURI());
    expect(links).toContain("https://example.org/");
  }, 60_000);

  it("POST /v1/pdf/edit/add (fill fields by name; unknown name → 400 naming the fields)", async () => {
    const src = await uploadBytes(q, await makeFormPdf(), "form.pdf");
    const r = await q.api("/v1/pdf/edit/add", {
      json: { url: src, fields: [{ fieldName: "name", text: "Bob" }, { fieldName: "agree", text: "False" }, { fieldName: "country", text: "France" }] },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const values = fieldValues((await download(r.body.url)).bytes);
    expect(values.name).toBe("Bob");
    expect(values.country).toBe("France");
    const bad = await q.api("/v1/pdf/edit/add", { json: { url: src, fields: [{ fieldName: "nope", text: "x" }] } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain(FORM_FIXTURE_FIELDS[0].FieldName);
  });
});
