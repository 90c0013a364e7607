import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { getSessionUser, oidcConfigured, safeReturnPath } from "@/lib/auth/next-auth";
import { SignInForm } from "@/components/auth/sign-in-form";

export const metadata: Metadata = { title: "Sign in" };

/** Sign-in: email + password, and the OIDC provider when one is configured. */
export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | undefined>> }) {
  const sp = await searchParams;
  const next = safeReturnPath(sp.next) ?? "/";
  if (await getSessionUser()) redirect(next);
  const oidc = oidcConfigured();
  const notice = sp.expired ? "Your session has ended. Sign in again." : sp.error && sp.error !== "CredentialsSignin" ? "Sign-in failed. Try again." : null;
  return (
    <main className="grid min-h-dvh place-items-center px-4 py-12">
      <div className="w-full max-w-sm">
        <div className="mb-8 flex flex-col items-center gap-3 text-center">
          <svg viewBox="0 0 32 32" className="size-11" aria-hidden="true">
            <rect width="32" height="32" rx="8" className="fill-brand-600" />
            <path d="M9 8h10l4 4v12H9z" fill="#fff" />
            <path d="M19 8v4h4" fill="#c7d2fe" />
            <path d="M12 16h8M12 19h8M12 22h5" className="stroke-brand-600" strokeWidth="1.5" />
          </svg>
          <div>
            <h1 className="text-2xl font-semibold tracking-tight">Sign in to Quire</h1>
            <p className="muted mt-1 text-sm">Document processing, on your own servers.</p>
          </div>
        </div>
        <div className="card p-6">
          {notice ? (
            <p role="status" className="mb-4 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-200">
              {notice}
            </p>
          ) : null}
          <SignInForm oidc={oidc} next={next} />
        </div>
      </div>
    </main>
  );
}
