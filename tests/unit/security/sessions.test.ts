import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

// Issue 10 §7, on a real embedded database: sign-out revokes the session server-side, and the
// sign-in limits slow attackers by address without locking the owner out.
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "quire-sessions-"));
process.env.DATA_DIR = dataDir;
process.env.PUBLIC_URL = "http://127.0.0.1:9";
process.env.SESSION_CHECK_CACHE_MS = "0";

const { closeDb } = await import("@/lib/db/client");
const { createUser } = await import("@/lib/auth/users");
const { getAuthOptions } = await import("@/lib/auth/next-auth");
const { resetSignInLimitsForTests } = await import("@/lib/auth/sign-in-limit");

type Jwt = Record<string, unknown>;
let owner: Awaited<ReturnType<typeof createUser>>;

beforeAll(async () => {
  owner = await createUser({ email: "owner@test.local", password: "owner-password-1" });
  for (let i = 0; i < 25; i++)
    await createUser({ email: `other${i}@test.local`, password: "another-password" });
}, 120_000);
afterAll(async () => {
  await closeDb();
  fs.rmSync(dataDir, { recursive: true, force: true });
});
beforeEach(() => resetSignInLimitsForTests());

const callbacks = () => getAuthOptions().callbacks!;

async function signIn(): Promise<Jwt> {
  return (await callbacks().jwt!({
    token: {},
    user: owner as never,
    account: { provider: "credentials", type: "credentials", providerAccountId: owner.id },
  } as never)) as Jwt;
}
async function use(token: Jwt): Promise<Jwt> {
  return (await callbacks().jwt!({ token } as never)) as Jwt;
}
async function sessionUserOf(token: Jwt) {
  const s = (await callbacks().session!({ session: { expires: "" }, token } as never)) as {
    user: { id: string };
  };
  return s.user.id;
}

function authorize() {
  const provider = getAuthOptions().providers[0] as unknown as {
    options: {
      authorize: (c: Record<string, string>, req: { headers: Record<string, string> }) => Promise<unknown>;
    };
  };
  return (email: string, password: string, ip: string, extra: Record<string, string> = {}) =>
    provider.options.authorize({ email, password }, { headers: { "x-forwarded-for": ip, ...extra } }).then(
      (u) => (u ? "ok" : "wrong"),
      (e: Error) => (/Too many attempts/.test(e.message) ? "blocked" : `error: ${e.message}`),
    );
}

describe("server-side sessions", () => {
  it("a session works until sign-out, then the same cookie is refused", async () => {
    const token = await signIn();
    expect(typeof token.sid).toBe("string");
    const again = await use(token);
    expect(again.sid).toBe(token.sid);
    expect(await sessionUserOf(again)).toBe(owner.id);
    await getAuthOptions().events!.signOut!({ token, session: undefined } as never);
    const after = await use(token);
    expect(after.sub).toBeUndefined();
    expect(await sessionUserOf(after)).toBe("");
  });

  it("signing out one session leaves the owner's other sessions working", async () => {
    const a = await signIn();
    const b = await signIn();
    await getAuthOptions().events!.signOut!({ token: a, session: undefined } as never);
    expect(await sessionUserOf(await use(b))).toBe(owner.id);
  });

  it("a cookie without a server-side session (made before, or forged with the secret) is refused", async () => {
    expect(await sessionUserOf(await use({ sub: owner.id, accountId: owner.accountId }))).toBe("");
  });
});

describe("sign-in limits", () => {
  it("20 wrong passwords from one address block that address, not the owner elsewhere", async () => {
    const attempt = authorize();
    const results: string[] = [];
    for (let i = 0; i < 20; i++) results.push(await attempt("owner@test.local", "guess" + i, "203.0.113.7"));
    expect(results.slice(0, 5).every((r) => r === "wrong")).toBe(true);
    expect(results.slice(5).every((r) => r === "blocked")).toBe(true);
    // The owner, from another address, signs in (at most slowed by a short delay).
    const t0 = Date.now();
    expect(await attempt("owner@test.local", "owner-password-1", "198.51.100.20")).toBe("ok");
    expect(Date.now() - t0).toBeLessThan(6_000);
  }, 60_000);

  it("a header the client sends (X-Real-IP) does not change its address", async () => {
    const attempt = authorize();
    for (let i = 0; i < 5; i++)
      await attempt("owner@test.local", "guess" + i, "203.0.113.8", { "x-real-ip": `10.0.0.${i}` });
    expect(await attempt("owner@test.local", "guess", "203.0.113.8", { "x-real-ip": "10.9.9.9" })).toBe(
      "blocked",
    );
  });

  it("many e-mails from one address are limited too", async () => {
    const attempt = authorize();
    const results: string[] = [];
    for (let i = 0; i < 25; i++)
      results.push(await attempt(`other${i}@test.local`, "wrong-password", "203.0.113.9"));
    expect(results.slice(0, 20).every((r) => r === "wrong")).toBe(true);
    expect(results.slice(20).every((r) => r === "blocked")).toBe(true);
    // Another address is not affected.
    expect(await attempt("other0@test.local", "another-password", "198.51.100.21")).toBe("ok");
  }, 60_000);
});

describe("webhook secrets at rest", () => {
  it("are stored encrypted and read back as whsec_…", async () => {
    const { getDb } = await import("@/lib/db/client");
    const { accounts } = await import("@/lib/db/schema");
    const { eq } = await import("drizzle-orm");
    const { openWebhookSecret } = await import("@/lib/auth/webhook-secret");
    const db = await getDb();
    const [row] = await db.select().from(accounts).where(eq(accounts.id, owner.accountId));
    expect(row.webhookSecret.startsWith("sealed:")).toBe(true);
    expect(row.webhookSecret).not.toContain("whsec_");
    expect(openWebhookSecret(row.webhookSecret)).toMatch(/^whsec_[A-Za-z0-9+/=]{32}$/);
    // Rows written before (plain text) are still read.
    expect(openWebhookSecret("whsec_legacy")).toBe("whsec_legacy");
  });
});
