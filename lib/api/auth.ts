import "server-only";
import type { IncomingMessage } from "node:http";
import { QuireError } from "@/lib/core/errors";
import { findApiKey } from "@/lib/auth/api-keys";

export interface Caller {
  accountId: string;
  keyId: string;
  via: "api" | "dashboard";
  /** The balance read with the key (for answers that only report it). */
  balance: number;
}

/** x-api-key on every /v1 and /v2 request; 401 in the envelope when missing or not a live key. */
export async function authenticate(req: IncomingMessage): Promise<Caller> {
  const raw = req.headers["x-api-key"];
  const key = (Array.isArray(raw) ? raw[0] : raw)?.trim();
  if (!key) throw new QuireError(401, "Missing API key: send it in the x-api-key header.");
  const row = await findApiKey(key);
  if (!row) throw new QuireError(401, "Invalid or revoked API key (x-api-key).");
  return { accountId: row.accountId, keyId: row.id, via: row.kind === "dashboard" ? "dashboard" : "api", balance: row.balance };
}
