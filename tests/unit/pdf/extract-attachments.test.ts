import { describe, expect, test } from "vitest";
import {
  contentTypeOf,
  extractAttachments,
  safeFileName,
  UniqueNames,
} from "@/lib/engine/pdf/extract-attachments";
import { openPdf } from "@/lib/engine/pdf/open-pdf";
import { encryptPdf, makePdf, makePdfWithAttachments } from "@/tests/helpers/pdf-fixtures";

const attachmentsOf = (bytes: Uint8Array, password?: string) => {
  const doc = openPdf(bytes, password);
  try {
    return extractAttachments(doc);
  } finally {
    doc.destroy();
  }
};

describe("extractAttachments", () => {
  test("document-level files and file-attachment annotations, with names, bytes and types", () => {
    const binary = new Uint8Array([0, 1, 2, 250, 255]);
    const atts = attachmentsOf(
      makePdfWithAttachments([
        { name: "notes.txt", data: "hello" },
        { name: "table.csv", data: "a,b\n1,2\n", mimeType: "text/csv" },
        { name: "blob.bin", data: binary },
        { name: "pinned.json", data: '{"x":1}', via: "annotation" },
      ]),
    );
    expect(atts.map((a) => [a.name, a.contentType, a.source])).toEqual([
      ["notes.txt", "text/plain", "document"],
      ["table.csv", "text/csv", "document"],
      ["blob.bin", "application/octet-stream", "document"],
      ["pinned.json", "application/json", "annotation"],
    ]);
    expect(Buffer.from(atts[0].bytes).toString()).toBe("hello");
    expect(Buffer.from(atts[1].bytes).toString()).toBe("a,b\n1,2\n");
    expect([...atts[2].bytes]).toEqual([...binary]);
    expect(atts[3].pageIndex).toBe(0);
  });

  test("duplicate names are made unique", () => {
    const atts = attachmentsOf(
      makePdfWithAttachments([
        { name: "a.txt", data: "1" },
        { name: "a.txt", data: "2" },
        { name: "A.TXT", data: "3", via: "annotation" },
      ]),
    );
    expect(atts.map((a) => a.name)).toEqual(["a.txt", "a(2).txt", "A(3).TXT"]);
    expect(atts.map((a) => Buffer.from(a.bytes).toString())).toEqual(["1", "2", "3"]);
  });

  test("no attachments → empty list", () => {
    expect(attachmentsOf(makePdf())).toEqual([]);
  });

  test("attachments of an encrypted PDF are decrypted", () => {
    const enc = encryptPdf(makePdfWithAttachments([{ name: "s.txt", data: "secret data" }]), {
      userPassword: "pw",
    });
    expect(Buffer.from(attachmentsOf(enc, "pw")[0].bytes).toString()).toBe("secret data");
  });

  test("names lose path parts and reserved characters", () => {
    expect(safeFileName("C:\\Users\\x\\report.pdf")).toBe("report.pdf");
    expect(safeFileName("../../etc/passwd")).toBe("passwd");
    expect(safeFileName("a<b>?.txt")).toBe("ab.txt");
    expect(safeFileName("..")).toBe("attachment");
    const names = new UniqueNames();
    expect([names.take("x"), names.take("x"), names.take(".env"), names.take(".env")]).toEqual([
      "x",
      "x(2)",
      ".env",
      ".env(2)",
    ]);
  });

  test("content types: declared first, else by extension", () => {
    expect(contentTypeOf("text/csv", "x.bin")).toBe("text/csv");
    expect(contentTypeOf("", "photo.JPG")).toBe("image/jpeg");
    expect(contentTypeOf("garbage type", "x.unknown")).toBe("application/octet-stream");
    expect(contentTypeOf("application/octet-stream", "image.png")).toBe("image/png");
  });
});
