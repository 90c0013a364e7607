"use client";

import { useState, type FormEvent } from "react";
import { signInWithPassword } from "@/lib/dashboard/shell/auth-client";

/** Email + password form (and the single sign-on button when configured). */
export function SignInForm({ oidc, next = "/" }: { oidc: { id: string; name: string } | null; next?: string }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    setBusy(true);
    setError(null);
    try {
      const err = await signInWithPassword(String(data.get("email")), String(data.get("password")));
      if (err) setError(err);
      else window.location.href = next;
    } catch {
      setError("Could not reach the server.");
    } finally {
      setBusy(false);
    }
  }
  return (
    <div className="space-y-5">
      <form onSubmit={onSubmit} method="post" className="space-y-4">
        <div>
          <label htmlFor="email" className="label">Email</label>
          <input id="email" name="email" type="email" autoComplete="username" required autoFocus className="input mt-1.5" aria-invalid={error ? true : undefined} />
        </div>
        <div>
          <label htmlFor="password" className="label">Password</label>
          <input id="password" name="password" type="password" autoComplete="current-password" required className="input mt-1.5" aria-invalid={error ? true : undefined} aria-describedby={error ? "sign-in-error" : undefined} />
        </div>
        {error ? (
          <p id="sign-in-error" role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-800 dark:bg-red-950 dark:text-red-200">
            {error}
          </p>
        ) : null}
        <button type="submit" className="btn-primary w-full py-2.5" disabled={busy}>
          {busy ? "Signing in…" : "Sign in"}
        </button>
      </form>
      {oidc ? (
        <>
          <div className="flex items-center gap-3 text-xs text-zinc-500 dark:text-zinc-400">
            <span className="h-px flex-1 bg-zinc-200 dark:bg-zinc-800" /> or <span className="h-px flex-1 bg-zinc-200 dark:bg-zinc-800" />
          </div>
          <form action={`/api/auth/signin/${oidc.id}`} method="POST" onSubmit={async (e) => {
            e.preventDefault();
            const form = e.currentTarget;
            const res = await fetch("/api/auth/csrf");
            (form.elements.namedItem("csrfToken") as HTMLInputElement).value = ((await res.json()) as { csrfToken: string }).csrfToken;
            form.submit();
          }}>
            <input type="hidden" name="csrfToken" />
            <input type="hidden" name="callbackUrl" value={next} />
            <button type="submit" className="btn-secondary w-full py-2.5">Continue with {oidc.name}</button>
          </form>
        </>
      ) : null}
    </div>
  );
}
