import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import * as mupdf from "mupdf";
import { afterAll, describe, expect, test } from "vitest";
import { permissionValue, type Permissions } from "@/lib/engine/pdf/security";
import { run as add } from "@/lib/operations/pdf-security-add/runner";
import { run as remove } from "@/lib/operations/pdf-security-remove/runner";
import { encryptPdf, makePdf, pageTexts } from "@/tests/helpers/pdf-fixtures";
import { messageOf, runRunner, statusOf, workspace } from "./run-helper";

/** pdf-security-add / -remove runners, checked with MuPDF and, when installed, qpdf and poppler. */

const ws = workspace();
afterAll(() => ws.cleanup());

const hasTool = (t: string) => {
  try {
    execFileSync(t, ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
};
const QPDF = hasTool("qpdf");
const POPPLER = hasTool("pdfinfo");

const none: Permissions = {
  print: false,
  printHighQuality: false,
  modify: false,
  copy: false,
  annotate: false,
  fillForms: false,
  accessibility: false,
  assemble: false,
};

function write(bytes: Uint8Array, name: string) {
  const file = path.join(ws.dir, name);
  fs.writeFileSync(file, bytes);
  return file;
}

/** qpdf's view: `--show-encryption` lines as a map, and `supplied`: which password opened it. */
function qpdfShow(file: string, password: string): Record<string, string> {
  const out = execFileSync("qpdf", ["--show-encryption", `--password=${password}`, file]).toString();
  const supplied = /Supplied password is (\w+) password/.exec(out)?.[1] ?? "none";
  return Object.fromEntries([["supplied", supplied], ...
    out
      .split("\n")
      .map((l) => /^([^:=]+?)\s*[:=]\s*(.*)$/.exec(l.trim()))
      .filter((m): m is RegExpExecArray => !!m)
      .map((m) => [m[1], m[2]]),
  ]);
}

/** poppler's view: `pdfinfo -upw` / `-opw` Encrypted line. */
function popplerEncrypted(file: string, flag: "-upw" | "-opw", password: string): string {
  const out = execFileSync("pdfinfo", [flag, password, file]).toString();
  return /Encrypted:\s+(.*)/.exec(out)![1];
}

describe("permissionValue", () => {
  test("nothing allowed, everything allowed, print without high quality", () => {
    expect(permissionValue(none)).toBe(-3904);
    const all = Object.fromEntries(Object.keys(none).map((k) => [k, true])) as unknown as Permissions;
    expect(permissionValue(all)).toBe(-4);
    const PERMISSION_BITS = 0xf3c; // bits 3-6 and 9-12
    expect(permissionValue({ ...none, print: true }) & PERMISSION_BITS).toBe(1 << 2);
    expect(permissionValue({ ...none, printHighQuality: true })).toBe(-3904); // no print, no high-quality print
  });
});

describe("pdf-security-add runner", () => {
  const sample = {
    url: "x",
    ownerPassword: "123456",
    userPassword: "654321",
    encryptionAlgorithm: "AES_128bit" as const,
    allowAccessibilitySupport: true,
    allowAssemblyDocument: true,
    allowPrintDocument: true,
    allowFillForms: true,
    allowModifyDocument: true,
    allowContentExtraction: true,
    allowModifyAnnotations: true,
    printQuality: "HighResolution" as const,
  };

  test("the official sample's parameters: AES-128, both passwords, every permission", async () => {
    const r = await runRunner(add, sample, [ws.source("sample1.pdf", makePdf({ pages: 2 }))], ws.dir);
    expect(r.pageCount).toBe(2);
    const doc = new mupdf.PDFDocument(r.files[0]);
    try {
      expect(doc.needsPassword()).toBe(true);
      expect(doc.authenticatePassword("654321")).toBe(2);
      expect(doc.hasPermission("print-hq")).toBe(true);
    } finally {
      doc.destroy();
    }
    expect(pageTexts(r.files[0], "654321")).toEqual(["Page 1", "Page 2"]);
    if (QPDF) {
      const q = qpdfShow(write(r.files[0], "sample-aes128.pdf"), "654321");
      expect(q.R).toBe("4");
      expect(q["stream encryption method"]).toBe("AESv2");
      for (const k of ["extract for accessibility", "extract for any purpose", "print high resolution", "modify document assembly", "modify forms", "modify annotations", "modify other"]) {
        expect(q[k], k).toBe("allowed");
      }
    }
  });

  test.each([
    ["AES_256bit", "6", "AESv3", "AES-256"],
    ["AES_128bit", "4", "AESv2", "AES"],
    ["RC4_128bit", "3", undefined, "RC4"],
  ] as const)("%s with print and copy only: the same permissions in qpdf and poppler", async (alg, R, method, popplerAlg) => {
    const r = await runRunner(
      add,
      { url: "x", ownerPassword: "own,er", userPassword: "us er", encryptionAlgorithm: alg, allowPrintDocument: true, allowContentExtraction: true, printQuality: "LowResolution" },
      [ws.source("p.pdf", makePdf())],
      ws.dir,
    );
    const file = write(r.files[0], `perm-${alg}.pdf`);
    if (QPDF) {
      const q = qpdfShow(file, "us er");
      expect(q.R).toBe(R);
      if (method) expect(q["file encryption method"]).toBe(method);
      expect(q.supplied).toBe("user");
      expect(q["print low resolution"]).toBe("allowed");
      expect(q["print high resolution"]).toBe("not allowed");
      expect(q["extract for any purpose"]).toBe("allowed");
      for (const k of ["extract for accessibility", "modify document assembly", "modify forms", "modify annotations", "modify other"]) {
        expect(q[k], k).toBe("not allowed");
      }
      // The owner password opens it too, with every right.
      expect(qpdfShow(file, "own,er").supplied).toBe("owner");
    }
    if (POPPLER) {
      expect(popplerEncrypted(file, "-upw", "us er")).toBe(`yes (print:yes copy:yes change:no addNotes:no algorithm:${popplerAlg})`);
      expect(popplerEncrypted(file, "-opw", "own,er")).toMatch(/^yes \(/);
    }
  });

  test("default algorithm is AES_256bit; defaults allow nothing; no user password opens freely", async () => {
    const r = await runRunner(add, { url: "x", ownerPassword: "boss" }, [ws.source("p.pdf", makePdf())], ws.dir);
    expect(r.message).toMatch(/AES_256bit/);
    const doc = new mupdf.PDFDocument(r.files[0]);
    try {
      expect(doc.needsPassword()).toBe(false);
      for (const perm of ["print", "copy", "edit", "annotate", "form", "accessibility", "assemble"] as const) {
        expect(doc.hasPermission(perm), perm).toBe(false);
      }
    } finally {
      doc.destroy();
    }
    if (QPDF) expect(qpdfShow(write(r.files[0], "default.pdf"), "").R).toBe("6");
  });

  test("RC4_40bit: the four permissions it knows", async () => {
    const r = await runRunner(add, { url: "x", ownerPassword: "o", userPassword: "u", encryptionAlgorithm: "RC4_40bit", allowPrintDocument: true }, [ws.source("p.pdf", makePdf())], ws.dir);
    const file = write(r.files[0], "rc4-40.pdf");
    if (QPDF) {
      const q = qpdfShow(file, "u");
      expect(q.R).toBe("2");
      expect(q["print low resolution"]).toBe("allowed");
      expect(q["extract for any purpose"]).toBe("not allowed");
      expect(q["modify other"]).toBe("not allowed");
    }
    if (POPPLER) expect(popplerEncrypted(file, "-upw", "u")).toBe("yes (print:yes copy:no change:no addNotes:no algorithm:RC4)");
  });

  test("only a user password: a random owner password is set and reported", async () => {
    const r = await runRunner(add, { url: "x", userPassword: "u" }, [ws.source("p.pdf", makePdf())], ws.dir);
    expect(r.message).toMatch(/random/);
    expect(pageTexts(r.files[0], "u")).toEqual(["Page 1"]);
  });

  test("bad input: no password at all (400), a non-ASCII password with AES_128bit (400), a restricted source without its owner password (443)", async () => {
    const src = [ws.source("p.pdf", makePdf())];
    expect(await messageOf(runRunner(add, { url: "x" }, src, ws.dir))).toMatch(/^ownerPassword: /);
    const p = runRunner(add, { url: "x", ownerPassword: "pässwort", encryptionAlgorithm: "AES_128bit" }, src, ws.dir);
    expect(await statusOf(p)).toBe(400);
    // AES-256 takes any character.
    const ok = await runRunner(add, { url: "x", ownerPassword: "o", userPassword: "pässwört ✓" }, src, ws.dir);
    expect(pageTexts(ok.files[0], "pässwört ✓")).toEqual(["Page 1"]);
    const restricted = [ws.source("r.pdf", encryptPdf(makePdf(), { userPassword: "u", ownerPassword: "o", permissions: ["print"] }))];
    expect(await statusOf(runRunner(add, { url: "x", ownerPassword: "new", password: "u" }, restricted, ws.dir))).toBe(443);
    const changed = await runRunner(add, { url: "x", ownerPassword: "new", userPassword: "nu", password: "o" }, restricted, ws.dir);
    expect(pageTexts(changed.files[0], "nu")).toEqual(["Page 1"]);
  });
});

describe("pdf-security-remove runner", () => {
  test("with the user or the owner password: no encryption, no restrictions", async () => {
    const src = encryptPdf(makePdf({ pages: 2 }), { userPassword: "admin@123", ownerPassword: "owner", permissions: ["print"] });
    for (const password of ["admin@123", "owner"]) {
      const r = await runRunner(remove, { url: "x", password }, [ws.source("ProtectedPDFFile.pdf", src)], ws.dir);
      const doc = new mupdf.PDFDocument(r.files[0]);
      try {
        expect(doc.needsPassword()).toBe(false);
        expect(doc.getTrailer().get("Encrypt").isNull()).toBe(true);
        expect(doc.hasPermission("copy")).toBe(true);
      } finally {
        doc.destroy();
      }
      expect(pageTexts(r.files[0])).toEqual(["Page 1", "Page 2"]);
      if (QPDF) expect(execFileSync("qpdf", ["--show-encryption", write(r.files[0], "open.pdf")]).toString()).toMatch(/File is not encrypted/);
    }
  });

  test("a missing or wrong password → 441; an unencrypted PDF comes back as it was", async () => {
    const src = [ws.source("p.pdf", encryptPdf(makePdf(), { userPassword: "u" }))];
    expect(await statusOf(runRunner(remove, { url: "x" }, src, ws.dir))).toBe(441);
    expect(await statusOf(runRunner(remove, { url: "x", password: "nope" }, src, ws.dir))).toBe(441);
    const r = await runRunner(remove, { url: "x" }, [ws.source("plain.pdf", makePdf())], ws.dir);
    expect(r.message).toMatch(/not encrypted/);
    expect(pageTexts(r.files[0])).toEqual(["Page 1"]);
  });
});
