import "server-only";
import crypto from "node:crypto";
import { getServerSecret } from "@/lib/core/config";

function key(purpose: string) {
  return crypto.createHash("sha256").update(`quire:${purpose}:${getServerSecret()}`).digest();
}

/** Encrypts a secret for storage (AES-256-GCM with a key derived from the server secret). */
export function sealSecret(plain: string, purpose = "box"): string {
  const iv = crypto.randomBytes(12);
  const c = crypto.createCipheriv("aes-256-gcm", key(purpose), iv);
  const body = Buffer.concat([c.update(plain, "utf8"), c.final()]);
  return ["v1", iv.toString("base64url"), c.getAuthTag().toString("base64url"), body.toString("base64url")].join(".");
}

/** Decrypts what sealSecret produced; throws if it was tampered with or the secret changed. */
export function openSecret(sealed: string, purpose = "box"): string {
  const [v, iv, tag, body] = sealed.split(".");
  if (v !== "v1") throw new Error("unknown sealed format");
  const d = crypto.createDecipheriv("aes-256-gcm", key(purpose), Buffer.from(iv, "base64url"));
  d.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([d.update(Buffer.from(body, "base64url")), d.final()]).toString("utf8");
}

/** HMAC-SHA256 (base64url) with a key derived from the server secret, for signed links. */
export function signValue(value: string, purpose = "link"): string {
  return crypto.createHmac("sha256", key(purpose)).update(value).digest("base64url");
}

export function isSignatureValid(value: string, signature: string, purpose = "link"): boolean {
  const expected = Buffer.from(signValue(value, purpose));
  const got = Buffer.from(signature);
  return expected.length === got.length && crypto.timingSafeEqual(expected, got);
}
