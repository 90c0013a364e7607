import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { describe, expect, test } from "vitest";
import { QuireError } from "@/lib/core/errors";
import { decryptData, encryptData, parseSecret, type AesAlgorithm } from "@/lib/engine/crypto/aes-data";

const statusOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(QuireError);
    return (e as QuireError).status;
  }
  return undefined;
};

const KEYS: Record<AesAlgorithm, string> = {
  AES128: "0123456789abcdef",
  AES192: "0123456789abcdef01234567",
  AES256: "0123456789abcdef0123456789abcdef",
};
const IV = "fedcba9876543210";

describe("AES data encryption", () => {
  test.each(Object.keys(KEYS) as AesAlgorithm[])("%s round trip of several sizes", (algorithm) => {
    for (const size of [0, 1, 15, 16, 17, 4096]) {
      const data = randomBytes(size);
      const enc = encryptData(data, { algorithm, key: KEYS[algorithm], iv: IV });
      expect(enc.length).toBe((Math.floor(size / 16) + 1) * 16); // PKCS#7 always pads
      expect(decryptData(enc, { algorithm, key: KEYS[algorithm], iv: IV }).equals(data)).toBe(true);
    }
  });

  test("matches openssl enc -aes-256-cbc (node:crypto with the same key and IV) both ways", () => {
    const data = Buffer.from("%PDF-1.7 some bytes to protect\n");
    const key = Buffer.from(KEYS.AES256);
    const iv = Buffer.from(IV);
    const c = createCipheriv("aes-256-cbc", key, iv);
    const theirs = Buffer.concat([c.update(data), c.final()]);
    expect(decryptData(theirs, { algorithm: "AES256", key: KEYS.AES256, iv: IV }).equals(data)).toBe(true);
    const ours = encryptData(data, { algorithm: "AES256", key: KEYS.AES256, iv: IV });
    expect(ours.equals(theirs)).toBe(true);
    const d = createDecipheriv("aes-256-cbc", key, iv);
    expect(Buffer.concat([d.update(ours), d.final()]).equals(data)).toBe(true);
  });

  test("NIST SP 800-38A F.2.1 CBC-AES128 vector (hex key and IV)", () => {
    const plain = Buffer.from("6bc1bee22e409f96e93d7e117393172a", "hex");
    const enc = encryptData(plain, {
      algorithm: "AES128",
      key: "2b7e151628aed2a6abf7158809cf4f3c",
      iv: "000102030405060708090a0b0c0d0e0f",
    });
    expect(enc.subarray(0, 16).toString("hex")).toBe("7649abac8119b246cee98e9b12e9197d");
  });

  test("keys as UTF-8 text, hex or base64 of the exact length", () => {
    const raw = randomBytes(32);
    expect(parseSecret(raw.toString("hex"), 32, "DataEncryptionKey", "AES256").equals(raw)).toBe(true);
    expect(parseSecret(raw.toString("base64"), 32, "DataEncryptionKey", "AES256").equals(raw)).toBe(true);
    expect(parseSecret(raw.toString("base64url"), 32, "DataEncryptionKey", "AES256").equals(raw)).toBe(true);
    expect(parseSecret(KEYS.AES256, 32, "DataEncryptionKey", "AES256").toString()).toBe(KEYS.AES256);
  });

  test("wrong key or IV length → 454 saying what is expected", () => {
    expect(statusOf(() => encryptData(Buffer.from("x"), { algorithm: "AES256", key: "short", iv: IV }))).toBe(
      454,
    );
    expect(() => encryptData(Buffer.from("x"), { algorithm: "AES256", key: "short", iv: IV })).toThrow(
      /DataEncryptionKey: AES256 needs 32 bytes/,
    );
    expect(() =>
      encryptData(Buffer.from("x"), { algorithm: "AES128", key: KEYS.AES128, iv: "tiny" }),
    ).toThrow(/DataEncryptionIV/);
    expect(
      statusOf(() => encryptData(Buffer.from("x"), { algorithm: "AES128", key: undefined, iv: IV })),
    ).toBe(454);
  });

  test("decrypting with the wrong key → 454 naming the decryption fields", () => {
    const enc = encryptData(Buffer.from("hello world, this is the source"), {
      algorithm: "AES128",
      key: KEYS.AES128,
      iv: IV,
    });
    let hits = 0;
    for (const wrong of ["aaaaaaaaaaaaaaaa", "bbbbbbbbbbbbbbbb", "cccccccccccccccc", "dddddddddddddddd"]) {
      try {
        decryptData(enc, { algorithm: "AES128", key: wrong, iv: IV });
      } catch (e) {
        expect((e as QuireError).status).toBe(454);
        expect((e as QuireError).message).toMatch(/DataDecryptionKey/);
        hits++;
      }
    }
    expect(hits).toBeGreaterThanOrEqual(3); // 1 in 256 wrong keys still pads correctly
  });

  test("data that is not whole AES blocks → 454", () => {
    expect(
      statusOf(() =>
        decryptData(Buffer.from("%PDF-1.4 plain"), { algorithm: "AES128", key: KEYS.AES128, iv: IV }),
      ),
    ).toBe(454);
  });
});
