import * as mupdf from "mupdf";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { barcodeFormats, readPageBarcodes } from "@/lib/engine/barcode/read-barcodes";
import { barcodePage } from "@/tests/helpers/barcode-fixtures";

// zxing-wasm must take its WebAssembly from node_modules, never from the network.
const fetched: string[] = [];
const realFetch = globalThis.fetch;
beforeAll(() => {
  globalThis.fetch = (async (input: unknown) => {
    fetched.push(String(input));
    throw new Error("no network in this test");
  }) as typeof fetch;
});
afterAll(() => {
  globalThis.fetch = realFetch;
});

describe("readPageBarcodes", () => {
  test("QR code, Data Matrix and Code 128 on one page; formats narrow the search", async () => {
    const page = await barcodePage([
      { bcid: "qrcode", text: "https://bytescout.com/doc/1" },
      { bcid: "datamatrix", text: "DM-0042" },
      { bcid: "code128", text: "ORDER-7" },
    ]);
    const doc = new mupdf.PDFDocument(page);
    try {
      const all = await readPageBarcodes(doc, 0, []);
      expect(all.map((b) => [b.format, b.text]).sort()).toEqual([
        ["Code128", "ORDER-7"],
        ["DataMatrix", "DM-0042"],
        ["QRCode", "https://bytescout.com/doc/1"],
      ]);
      const qrOnly = await readPageBarcodes(doc, 0, barcodeFormats(["qrcode"]));
      expect(qrOnly.map((b) => b.text)).toEqual(["https://bytescout.com/doc/1"]);
      expect(fetched).toEqual([]);
    } finally {
      doc.destroy();
    }
  });

  test("barcodeFormats: the macro's names, all, unknown → 400", () => {
    expect(barcodeFormats(["qrcode", "datamatrix"])).toEqual(["QRCode", "MicroQRCode", "RMQRCode", "DataMatrix"]);
    expect(barcodeFormats(["Code128", "all"])).toEqual([]);
    expect(() => barcodeFormats(["qr"])).toThrow(expect.objectContaining({ status: 400, message: expect.stringMatching(/unknown barcode type "qr"/) }));
  });
});
