import "server-only";
import crypto from "node:crypto";
import type * as mupdf from "mupdf";
import { QuireError } from "@/lib/core/errors";

/** The encryption algorithms by the public API's names, and MuPDF's names for them. */
export const ENCRYPTION_ALGORITHMS = {
  RC4_40bit: "rc4-40",
  RC4_128bit: "rc4-128",
  AES_128bit: "aes-128",
  AES_256bit: "aes-256",
} as const;
export type EncryptionAlgorithm = keyof typeof ENCRYPTION_ALGORITHMS;

/** What a reader holding only the user password may do (ISO 32000-1 Table 22). */
export interface Permissions {
  print: boolean;
  /** With print: full quality; without, printing is limited to a low-resolution image. */
  printHighQuality: boolean;
  modify: boolean;
  copy: boolean;
  annotate: boolean;
  fillForms: boolean;
  accessibility: boolean;
  assemble: boolean;
}

/** /P bit of each permission (ISO 32000-1 Table 22, bit n is 1 << (n - 1)). */
const BITS: Record<keyof Permissions, number> = {
  print: 1 << 2,
  modify: 1 << 3,
  copy: 1 << 4,
  annotate: 1 << 5,
  fillForms: 1 << 8,
  accessibility: 1 << 9,
  assemble: 1 << 10,
  printHighQuality: 1 << 11,
};

/** Reserved bits 7–8 and 13–32 set, bits 1–2 clear, every permission bit clear: allows nothing. */
const NOTHING_ALLOWED = -3904;

/** The signed 32-bit /P value of a set of permissions. */
export function permissionValue(p: Permissions): number {
  let v = NOTHING_ALLOWED;
  for (const [key, bit] of Object.entries(BITS) as [keyof Permissions, number][]) {
    if (key === "printHighQuality" ? p.print && p.printHighQuality : p[key]) v |= bit;
  }
  return v;
}

export interface EncryptOptions {
  userPassword?: string;
  /** Empty: a random one is made, so nobody can lift the restrictions. */
  ownerPassword?: string;
  algorithm: EncryptionAlgorithm;
  permissions: Permissions;
}

/** Longest password MuPDF keeps whole (its buffers hold 127 bytes of UTF-8). */
const MAX_PASSWORD_BYTES = 127;

/**
 * The document's bytes encrypted with the given passwords, algorithm and permissions (a full
 * rewrite; any earlier encryption is replaced). Save options go to MuPDF as an object, so
 * passwords may contain commas. Returns whether the owner password was generated.
 */
export function encryptDocument(doc: mupdf.PDFDocument, o: EncryptOptions): { bytes: Uint8Array; ownerGenerated: boolean } {
  const user = o.userPassword ?? "";
  let owner = o.ownerPassword ?? "";
  for (const [field, value] of [["userPassword", user], ["ownerPassword", owner]] as const) {
    if (Buffer.byteLength(value, "utf8") > MAX_PASSWORD_BYTES) {
      throw new QuireError(400, `${field}: at most ${MAX_PASSWORD_BYTES} bytes (UTF-8).`);
    }
    // Before AES-256 a password is bytes in PDFDocEncoding (ISO 32000-1 §7.6.3.3), which readers
    // derive differently from what is typed; printable ASCII reads the same everywhere.
    if (o.algorithm !== "AES_256bit" && /[^\x20-\x7e]/.test(value)) {
      throw new QuireError(
        400,
        `${field}: ${o.algorithm} passwords must be printable ASCII; use AES_256bit for other characters.`,
      );
    }
  }
  const ownerGenerated = owner === "";
  if (ownerGenerated) owner = crypto.randomBytes(24).toString("base64url");
  return {
    bytes: save(doc, {
      encrypt: ENCRYPTION_ALGORITHMS[o.algorithm],
      "user-password": user,
      "owner-password": owner,
      permissions: String(permissionValue(o.permissions)),
    }),
    ownerGenerated,
  };
}

/** The document's bytes without encryption (the caller has opened it with a password). */
export function decryptDocument(doc: mupdf.PDFDocument): Uint8Array {
  return save(doc, { encrypt: "none" });
}

function save(doc: mupdf.PDFDocument, options: Record<string, string>): Uint8Array {
  const buf = doc.saveToBuffer(options);
  try {
    return buf.asUint8Array().slice();
  } finally {
    buf.destroy();
  }
}
