import NextAuth from "next-auth/next";
import { getAuthOptions } from "@/lib/auth/next-auth";

type Ctx = { params: Promise<{ nextauth: string[] }> };

/** next-auth's endpoints (sign-in, sign-out, session, CSRF, OIDC callback). */
async function handler(req: Request, ctx: Ctx) {
  return NextAuth(req as never, ctx as never, getAuthOptions());
}

export const dynamic = "force-dynamic";
export { handler as GET, handler as POST };
