import { forwardToUpstream, isApiPath } from "@/lib/dashboard/server/forward";
import { jsonError, withSession } from "@/lib/dashboard/server/route";

type Ctx = { params: Promise<{ path: string[] }> };

/** /api/proxy/v1/... → the account's upstream /v1/..., with the key added on the server. */
const handle = withSession<Ctx>(async (req, user, ctx) => {
  const { path } = await ctx.params;
  const apiPath = "/" + path.map(encodeURIComponent).join("/");
  if (!isApiPath(apiPath)) return jsonError(404, `Not an API path: ${apiPath}`);
  return forwardToUpstream(req, user, apiPath);
});

export const dynamic = "force-dynamic";
export { handle as GET, handle as POST, handle as PUT, handle as DELETE, handle as PATCH };
