import { describe, expect, test } from "vitest";
import { openPdf } from "@/lib/engine/pdf/open-pdf";
import { formatPdfDate, parsePdfDate, readInfo } from "@/lib/engine/pdf/read-info";
import { encryptPdf, makePdf, type EncryptOptions } from "@/tests/helpers/pdf-fixtures";

const infoOf = (bytes: Uint8Array, password?: string) => {
  const doc = openPdf(bytes, password);
  try {
    return readInfo(doc);
  } finally {
    doc.destroy();
  }
};

describe("readInfo", () => {
  test("metadata, page count, size and dates of a plain PDF", () => {
    const info = infoOf(
      makePdf({
        pages: 4,
        info: {
          Title: "Quarterly report",
          Author: "Ada Lovelace",
          Subject: "Numbers",
          Keywords: "q1, report",
          Creator: "Quire tests",
          CreationDate: "D:20240102030405Z",
          ModDate: "D:20241231235959+01'00'",
        },
      }),
    );
    expect(info).toMatchObject({
      PageCount: 4,
      Title: "Quarterly report",
      Author: "Ada Lovelace",
      Subject: "Numbers",
      Keywords: "q1, report",
      Creator: "Quire tests",
      Bookmarks: "",
      CreationDate: "1/2/2024 3:04:05 AM",
      ModificationDate: "12/31/2024 10:59:59 PM",
      Encrypted: false,
      EncryptionAlgorithm: 0,
    });
    expect(typeof info.Producer).toBe("string");
    expect(info.PageRectangle).toEqual({
      Location: { IsEmpty: true, X: 0, Y: 0 },
      Size: "612, 792",
      X: 0,
      Y: 0,
      Width: 612,
      Height: 792,
      Left: 0,
      Top: 0,
      Right: 612,
      Bottom: 792,
      IsEmpty: false,
    });
    for (const [k, v] of Object.entries(info)) if (k.startsWith("Permission")) expect(v, k).toBe(true);
  });

  test("absent metadata is empty strings, never undefined", () => {
    const info = infoOf(makePdf());
    for (const key of [
      "Author",
      "Title",
      "Subject",
      "Keywords",
      "CreationDate",
      "ModificationDate",
      "Bookmarks",
    ] as const) {
      expect(info[key]).toBe("");
    }
  });

  test("A4 size keeps decimals; a rotated first page swaps width and height", () => {
    expect(infoOf(makePdf({ size: [595.276, 841.89] })).PageRectangle.Size).toBe("595.276, 841.89");
    const rotated = infoOf(makePdf({ rotate: 90 })).PageRectangle;
    expect(rotated.Size).toBe("792, 612");
    expect([rotated.Width, rotated.Height, rotated.Right, rotated.Bottom]).toEqual([792, 612, 792, 612]);
  });

  test("bookmarks are the outline titles, one per line, depth first", () => {
    const info = infoOf(
      makePdf({
        pages: 3,
        bookmarks: [
          { title: "Intro", page: 0, children: [{ title: "Scope", page: 1 }] },
          { title: "Results", page: 2 },
        ],
      }),
    );
    expect(info.Bookmarks).toBe("Intro\nScope\nResults");
  });

  test("restricted permissions of an encrypted PDF come from /P", () => {
    const enc = encryptPdf(makePdf({ pages: 2 }), {
      userPassword: "u",
      ownerPassword: "o",
      permissions: ["print", "copy", "accessibility"],
    });
    const info = infoOf(enc, "u");
    expect(info).toMatchObject({
      PageCount: 2,
      Encrypted: true,
      EncryptionAlgorithm: 4,
      PermissionPrinting: true,
      PermissionContentExtraction: true,
      PermissionAccessibility: true,
      PermissionModifyDocument: false,
      PermissionModifyAnnotations: false,
      PermissionFillForms: false,
      PermissionAssemble: false,
      PermissionHighQualityPrint: false,
    });
    // The owner password unlocks the file but the declared permissions are reported as they are.
    expect(infoOf(enc, "o").PermissionAssemble).toBe(false);
  });

  test.each([
    ["rc4-40", 1],
    ["rc4-128", 2],
    ["aes-128", 3],
    ["aes-256", 4],
  ] as const)("EncryptionAlgorithm of %s is %i", (algorithm, code) => {
    const enc = encryptPdf(makePdf(), {
      userPassword: "",
      ownerPassword: "o",
      algorithm,
    } satisfies EncryptOptions);
    const info = infoOf(enc);
    expect(info.Encrypted).toBe(true);
    expect(info.EncryptionAlgorithm).toBe(code);
  });

  test("revision 2 (RC4 40-bit) derives the later permission bits from the early ones", () => {
    const enc = encryptPdf(makePdf(), {
      ownerPassword: "o",
      algorithm: "rc4-40",
      permissions: ["print", "modify"],
    });
    const info = infoOf(enc);
    expect(info).toMatchObject({
      PermissionPrinting: true,
      PermissionHighQualityPrint: true,
      PermissionModifyDocument: true,
      PermissionAssemble: true,
      PermissionContentExtraction: false,
      PermissionAccessibility: false,
      PermissionModifyAnnotations: false,
      PermissionFillForms: false,
    });
  });
});

describe("PDF dates", () => {
  test.each([
    ["D:20240102030405Z", "1/2/2024 3:04:05 AM"],
    ["D:20240102150405Z", "1/2/2024 3:04:05 PM"],
    ["D:20240102000000Z", "1/2/2024 12:00:00 AM"],
    ["D:20240102120000Z", "1/2/2024 12:00:00 PM"],
    ["D:20240102030405+02'00'", "1/2/2024 1:04:05 AM"],
    ["D:20240101010000+05'30'", "12/31/2023 7:30:00 PM"],
    ["D:20240102030405-08'00", "1/2/2024 11:04:05 AM"],
    ["D:20240102030405+0200", "1/2/2024 1:04:05 AM"],
    ["20240102030405", "1/2/2024 3:04:05 AM"],
    ["D:2024", "1/1/2024 12:00:00 AM"],
    ["D:202403", "3/1/2024 12:00:00 AM"],
    ["", ""],
    ["yesterday", ""],
    ["D:20241302030405Z", ""],
  ])("%s → %s", (pdfDate, shown) => {
    expect(formatPdfDate(pdfDate)).toBe(shown);
  });

  test("parsePdfDate normalises to UTC", () => {
    expect(parsePdfDate("D:20240102030405+02'00'")?.toISOString()).toBe("2024-01-02T01:04:05.000Z");
  });
});
