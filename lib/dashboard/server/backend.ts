import "server-only";
import { verifyUserPassword, findUserByEmail as findUserRow } from "@/lib/auth/users";
import {
  clearRemoteUpstream,
  getProxyTarget,
  getRemoteUpstream as getRemote,
  setRemoteUpstream,
} from "@/lib/auth/upstream";

/**
 * The dashboard's one doorway to the lead's server modules (users, keys, upstream, database).
 * Every caller in app/ goes through here, so a change of those modules is a one-file change.
 */

export interface DashboardUser {
  id: string;
  accountId: string;
  email: string;
  name: string;
  role: "admin" | "user";
}

export interface ProxyTarget {
  baseUrl: string;
  apiKey: string;
  isRemote: boolean;
}

/** Checks an email + password against Quire's users (scrypt hashes). */
export async function verifyUser(email: string, password: string): Promise<DashboardUser | null> {
  return verifyUserPassword(email, password);
}

/** Finds a user by email (OIDC sign-in maps the identity provider's email to a Quire user). */
export async function findUserByEmail(email: string): Promise<DashboardUser | null> {
  const row = await findUserRow(email);
  return row ? { id: row.id, accountId: row.accountId, email: row.email, name: row.name, role: row.role } : null;
}

/** This server's own engine, as seen from server code. */
export function engineBaseUrl(): string {
  return process.env.QUIRE_INTERNAL_URL ?? `http://127.0.0.1:${process.env.PORT ?? 3000}`;
}

/** Where the proxy sends an account's calls, and with which key (lib/auth/upstream). */
export async function getTarget(accountId: string): Promise<ProxyTarget> {
  return getProxyTarget(accountId);
}

/** The remote upstream of an account (without its key), or null for Quire's own engine. */
export async function getRemoteUpstream(accountId: string): Promise<{ baseUrl: string; keyHint: string } | null> {
  return getRemote(accountId);
}

/**
 * Tests a remote service with the credit-balance call through the egress guard (so nobody can
 * point the proxy at an internal address), then stores it with the key sealed. Returns its balance.
 */
export async function saveRemoteUpstream(accountId: string, baseUrl: string, apiKey: string): Promise<number> {
  return setRemoteUpstream(accountId, baseUrl, apiKey);
}

/** Back to Quire's own engine. */
export async function removeRemoteUpstream(accountId: string): Promise<void> {
  await clearRemoteUpstream(accountId);
}
