import "server-only";
import type { AuthOptions, Session } from "next-auth";
import { getServerSession } from "next-auth/next";
import CredentialsProvider from "next-auth/providers/credentials";
import { redirect } from "next/navigation";
import { getConfig, getServerSecret } from "@/lib/core/config";
import { findSessionUser, verifyUserPassword, type SessionUser } from "./users";
import { clearSignInFailures, recordSignInFailure, signInDelayMs, signInRetryAfter } from "./sign-in-limit";
import { createSession, isSessionValid, revokeSession } from "./sessions";


/** The OIDC provider, when OIDC_ISSUER + OIDC_CLIENT_ID + OIDC_CLIENT_SECRET are set. */
export function oidcConfigured(): { id: string; name: string } | null {
  if (!process.env.OIDC_ISSUER || !process.env.OIDC_CLIENT_ID || !process.env.OIDC_CLIENT_SECRET) return null;
  return { id: "oidc", name: process.env.OIDC_NAME ?? "Single sign-on" };
}

/**
 * The client's address as Quire's HTTP handler resolved it: it rewrites X-Forwarded-For to the
 * socket's address, or to what a trusted proxy (TRUST_PROXY) reported, before Next.js runs. No
 * other header (X-Real-IP...) is believed.
 */
function clientIp(headers: Record<string, unknown> | undefined): string {
  const fwd = headers?.["x-forwarded-for"];
  const first = typeof fwd === "string" ? fwd.split(",")[0]?.trim() : undefined;
  return first || "local";
}

function buildAuthOptions(): AuthOptions {
  // next-auth v4 reads its own origin from NEXTAUTH_URL; Quire's PUBLIC_URL is that origin.
  process.env.NEXTAUTH_URL ??= getConfig().publicUrl;
  const providers: AuthOptions["providers"] = [
    CredentialsProvider({
      id: "credentials",
      name: "Email and password",
      credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
      async authorize(credentials, req) {
        const email = String(credentials?.email ?? "").trim();
        const password = String(credentials?.password ?? "");
        if (!email || !password) return null;
        const ip = clientIp(req?.headers as Record<string, unknown> | undefined);
        const wait = signInRetryAfter(email, ip);
        if (wait > 0) throw new Error(`Too many attempts. Try again in ${Math.ceil(wait / 60)} min.`);
        const delay = signInDelayMs(email);
        if (delay > 0) await new Promise((r) => setTimeout(r, delay));
        const user = await verifyUserPassword(email, password);
        if (!user) {
          recordSignInFailure(email, ip);
          return null;
        }
        clearSignInFailures(email, ip);
        return user;
      },
    }),
  ];
  const oidc = oidcConfigured();
  if (oidc) {
    const issuer = process.env.OIDC_ISSUER!.replace(/\/+$/, "");
    providers.push({
      id: oidc.id,
      name: oidc.name,
      type: "oauth",
      wellKnown: `${issuer}/.well-known/openid-configuration`,
      clientId: process.env.OIDC_CLIENT_ID,
      clientSecret: process.env.OIDC_CLIENT_SECRET,
      authorization: { params: { scope: "openid email profile" } },
      idToken: true,
      checks: ["pkce", "state"],
      profile(p: { sub: string; email?: string; name?: string }) {
        return { id: p.sub, email: p.email ?? "", name: p.name ?? p.email ?? "" };
      },
    });
  }
  return {
    secret: getServerSecret(),
    session: { strategy: "jwt", maxAge: getConfig().sessionMaxAge, updateAge: 15 * 60 },
    pages: { signIn: "/sign-in", error: "/sign-in" },
    providers,
    events: {
      // Sign-out revokes the session server-side: the cookie, even if copied, stops working.
      async signOut({ token }) {
        await revokeSession((token as { sid?: string } | null)?.sid);
      },
    },
    callbacks: {
      async signIn({ user, account }) {
        if (account?.provider === "credentials") return true;
        // An identity provider only signs in people who already have a Quire user (same email).
        return Boolean(user.email && (await findSessionUser(user.email)));
      },
      async jwt({ token, user, account }) {
        if (!(user && account)) {
          // Every use of the cookie: its server-side session must still be valid (not signed out).
          return (await isSessionValid(token.sid)) ? token : { revoked: true };
        }
        if (user && account) {
          const u =
            account.provider === "credentials"
              ? (user as unknown as SessionUser)
              : await findSessionUser(String(user.email));
          if (u) {
            token.sub = u.id;
            token.accountId = u.accountId;
            token.role = u.role;
            token.email = u.email;
            token.name = u.name || u.email;
            token.sid = await createSession(u.id, getConfig().sessionMaxAge);
          }
        }
        return token;
      },
      async session({ session, token }) {
        session.user = {
          id: String(token.sub ?? ""),
          accountId: String(token.accountId ?? ""),
          role: token.role === "admin" ? "admin" : "user",
          email: String(token.email ?? ""),
          name: String(token.name ?? ""),
        };
        return session;
      },
    },
  };
}

let cached: AuthOptions | undefined;
/** next-auth options, built lazily (never at import or build time: the secret lives in DATA_DIR). */
export function getAuthOptions(): AuthOptions {
  cached ??= buildAuthOptions();
  return cached;
}

export type { SessionUser };

/** The signed-in user of this request, or null. */
export async function getSessionUser(): Promise<SessionUser | null> {
  const session = (await getServerSession(getAuthOptions())) as Session | null;
  const u = session?.user as Partial<SessionUser> | undefined;
  if (!u?.id || !u.accountId) return null;
  return u as SessionUser;
}

/**
 * For pages and layouts: the signed-in user, or a redirect to the sign-in page that comes back
 * to the page asked for (a deep link to /credits lands on /credits after signing in).
 */
export async function requirePageUser(): Promise<SessionUser> {
  const user = await getSessionUser();
  if (!user) {
    const { headers } = await import("next/headers");
    const from = safeReturnPath((await headers()).get("x-quire-path"));
    redirect(from && from !== "/" ? `/sign-in?next=${encodeURIComponent(from)}` : "/sign-in");
  }
  return user;
}

/** A path on this site to return to after signing in; null for anything else (other hosts, the API). */
export function safeReturnPath(p: string | null | undefined): string | null {
  if (!p || !p.startsWith("/") || p.startsWith("//") || p.startsWith("/\\")) return null;
  if (/^\/(sign-in|api\/|_next\/|v1\/)/.test(p)) return null;
  return p.slice(0, 2000);
}

declare module "next-auth" {
  interface Session {
    user: SessionUser;
  }
}
declare module "next-auth/jwt" {
  interface JWT {
    accountId?: string;
    role?: "admin" | "user";
    /** The server-side session (lib/auth/sessions.ts) this cookie belongs to. */
    sid?: string;
    revoked?: boolean;
  }
}
