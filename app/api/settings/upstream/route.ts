import { z } from "zod";
import { isQuireError } from "@/lib/core/errors";
import { jsonError, withSession } from "@/lib/dashboard/server/route";
import { clearRemoteUpstream, getRemoteUpstream, setRemoteUpstream } from "@/lib/auth/upstream";

const bodySchema = z.object({
  baseUrl: z.string().url("baseUrl: give an absolute http(s) URL").refine((u) => /^https?:\/\//i.test(u), "baseUrl: use http or https"),
  apiKey: z.string().min(1, "apiKey: give the key of the remote service").max(500),
});

/** The account's upstream: Quire's engine, or a remote base URL (key never returned). */
export const GET = withSession(async (_req, user) => {
  const remote = await getRemoteUpstream(user.accountId);
  return Response.json(remote ? { mode: "remote", baseUrl: remote.baseUrl, keyHint: remote.keyHint } : { mode: "engine", baseUrl: null, keyHint: null });
});

/** Tests the remote service with the credit-balance call, then stores it (key sealed). */
export const PUT = withSession(async (req, user) => {
  const parsed = bodySchema.safeParse(await req.json().catch(() => null));
  if (!parsed.success) return jsonError(400, parsed.error.issues[0]?.message ?? "Invalid body");
  const baseUrl = parsed.data.baseUrl.replace(/\/+$/, "");
  try {
    const remainingCredits = await setRemoteUpstream(user.accountId, baseUrl, parsed.data.apiKey);
    return Response.json({ ok: true, remainingCredits });
  } catch (e) {
    return jsonError(isQuireError(e) ? e.status : 500, isQuireError(e) ? e.message : "Could not check the remote service.");
  }
});

/** Back to Quire's own engine. */
export const DELETE = withSession(async (_req, user) => {
  await clearRemoteUpstream(user.accountId);
  return Response.json({ ok: true });
});

export const dynamic = "force-dynamic";
