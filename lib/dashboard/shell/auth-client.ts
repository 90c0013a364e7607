/**
 * The two next-auth calls the browser makes, without shipping next-auth/react:
 * credentials sign-in and sign-out, both with next-auth's CSRF token.
 */
async function csrfToken(): Promise<string> {
  const res = await fetch("/api/auth/csrf", { credentials: "same-origin" });
  const body = (await res.json()) as { csrfToken: string };
  return body.csrfToken;
}

function form(data: Record<string, string>): URLSearchParams {
  return new URLSearchParams(data);
}

/** Signs in with email + password; resolves to an error message, or null on success. */
export async function signInWithPassword(email: string, password: string): Promise<string | null> {
  const res = await fetch("/api/auth/callback/credentials", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", "x-auth-return-redirect": "1" },
    body: form({ csrfToken: await csrfToken(), email, password, callbackUrl: "/", json: "true" }),
    credentials: "same-origin",
  });
  const body = (await res.json().catch(() => ({}))) as { url?: string };
  const url = new URL(body.url ?? "/", window.location.href);
  const error = url.searchParams.get("error");
  if (!error) return null;
  if (error === "CredentialsSignin") return "Email or password is wrong.";
  return decodeURIComponent(error);
}

/** Signs out and goes to the sign-in page. */
export async function signOut(): Promise<void> {
  await fetch("/api/auth/signout", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", "x-auth-return-redirect": "1" },
    body: form({ csrfToken: await csrfToken(), callbackUrl: "/sign-in", json: "true" }),
    credentials: "same-origin",
  });
  window.location.href = "/sign-in";
}
