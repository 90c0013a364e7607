import "server-only";
import { createCipheriv, createDecipheriv } from "node:crypto";
import { QuireError } from "@/lib/core/errors";

/** The public API's DataEncryption/DataDecryption algorithms: AES-CBC with PKCS#7 padding. */
export type AesAlgorithm = "AES128" | "AES192" | "AES256";

export interface AesOptions {
  algorithm: AesAlgorithm;
  key: string | undefined;
  iv: string | undefined;
  /** Field names used in error messages (default DataEncryptionKey/IV or DataDecryptionKey/IV). */
  keyField?: string;
  ivField?: string;
}

const KEY_BYTES: Record<AesAlgorithm, number> = { AES128: 16, AES192: 24, AES256: 32 };
const IV_BYTES = 16;
const CIPHER: Record<AesAlgorithm, string> = {
  AES128: "aes-128-cbc",
  AES192: "aes-192-cbc",
  AES256: "aes-256-cbc",
};

/** Encrypts bytes (profiles DataEncryptionAlgorithm/Key/IV): AES-CBC, PKCS#7 padding. */
export function encryptData(bytes: Uint8Array, options: AesOptions): Buffer {
  const { key, iv } = materials(options, "DataEncryptionKey", "DataEncryptionIV");
  const cipher = createCipheriv(CIPHER[options.algorithm], key, iv);
  return Buffer.concat([cipher.update(bytes), cipher.final()]);
}

/**
 * Decrypts bytes (profiles DataDecryptionAlgorithm/Key/IV). A wrong key or IV usually breaks the
 * PKCS#7 padding → 454 naming the fields; when it does not (about 1 time in 256) the result is
 * noise and the PDF parser answers 442 instead.
 */
export function decryptData(bytes: Uint8Array, options: AesOptions): Buffer {
  const { key, iv } = materials(options, "DataDecryptionKey", "DataDecryptionIV");
  if (bytes.byteLength === 0 || bytes.byteLength % 16 !== 0) {
    throw new QuireError(
      454,
      `profiles.${options.keyField ?? "DataDecryptionKey"}: the source is ${bytes.byteLength} bytes, not a whole number of 16-byte AES blocks, so it is not AES-CBC encrypted data.`,
    );
  }
  const decipher = createDecipheriv(CIPHER[options.algorithm], key, iv);
  try {
    return Buffer.concat([decipher.update(bytes), decipher.final()]);
  } catch {
    throw new QuireError(
      454,
      `profiles: could not decrypt the source with ${options.algorithm}: the ${options.keyField ?? "DataDecryptionKey"} or ${options.ivField ?? "DataDecryptionIV"} is wrong, or the file was not encrypted with AES-CBC and PKCS#7 padding.`,
    );
  }
}

function materials(options: AesOptions, keyDefault: string, ivDefault: string): { key: Buffer; iv: Buffer } {
  const keyField = options.keyField ?? keyDefault;
  const ivField = options.ivField ?? ivDefault;
  if (!(options.algorithm in KEY_BYTES)) {
    throw new QuireError(
      454,
      `profiles: the AES algorithm must be AES128, AES192 or AES256, got "${String(options.algorithm)}".`,
    );
  }
  return {
    key: parseSecret(options.key, KEY_BYTES[options.algorithm], keyField, options.algorithm),
    iv: parseSecret(options.iv, IV_BYTES, ivField, options.algorithm),
  };
}

/**
 * Reads a key or IV given as text: its UTF-8 bytes when they have the exact length (the common
 * client practice, e.g. a 32-character key for AES256), else hex, else base64 of exactly that
 * many bytes. Anything else → 454 stating the lengths expected.
 */
export function parseSecret(
  value: string | undefined,
  length: number,
  field: string,
  algorithm: AesAlgorithm,
): Buffer {
  if (value === undefined || value === "") {
    throw new QuireError(454, `profiles.${field}: required with ${algorithm} (${length} bytes).`);
  }
  const utf8 = Buffer.from(value, "utf8");
  if (utf8.length === length) return utf8;
  const trimmed = value.trim();
  if (/^(?:0x)?[0-9a-fA-F]+$/.test(trimmed)) {
    const hex = trimmed.replace(/^0x/, "");
    if (hex.length === length * 2) return Buffer.from(hex, "hex");
  }
  if (/^[A-Za-z0-9+/_-]+={0,2}$/.test(trimmed)) {
    const b64 = Buffer.from(trimmed.replace(/-/g, "+").replace(/_/g, "/"), "base64");
    if (b64.length === length) return b64;
  }
  throw new QuireError(
    454,
    `profiles.${field}: ${algorithm} needs ${length} bytes here: ${length} characters of text, ${length * 2} hex digits, or base64 of ${length} bytes; got ${utf8.length} characters.`,
  );
}
