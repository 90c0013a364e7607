import "server-only";
import { getConfig } from "@/lib/core/config";
import { getRemoteUpstream } from "@/lib/auth/upstream";
import type { SessionUser } from "@/lib/auth/users";

/** The public base URL of the API the account talks to (for "copy as curl"). Never the key. */
export async function getApiBase(user: SessionUser): Promise<string> {
  const remote = await getRemoteUpstream(user.accountId).catch(() => null);
  return remote?.baseUrl ?? getConfig().publicUrl;
}
