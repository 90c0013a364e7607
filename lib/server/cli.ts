import { openWebhookSecret } from "@/lib/auth/webhook-secret";
import crypto from "node:crypto";
import { eq } from "drizzle-orm";
import { getDb, closeDb } from "@/lib/db/client";
import { accounts, apiKeys, users } from "@/lib/db/schema";
import { createUser, findUserByEmail, setUserPassword } from "@/lib/auth/users";
import { createApiKey, listApiKeys, revokeApiKey } from "@/lib/auth/api-keys";
import { getJob } from "@/lib/jobs/job-store";
import { getBalance, grantCredits } from "@/lib/credits/ledger";
import { getConfig } from "@/lib/core/config";
import { callAdminSocket } from "./admin-socket";

const usage = `Usage: npm run quire -- <command> [options]

  create-user <email> [--password P] [--name N] [--admin] [--credits N]
  set-password <email> <password>
  create-key <email> [--name N]         prints the key once
  revoke-key <key-id>
  grant-credits <email> <amount> [--note T]   (negative amounts take credits away, never below 0)
  list                                  users, balances and keys
  job <job-id>                          a job's status, operation, owner and message ("no such job" if none)
  webhook-secret <email>                the callback signing secret of the account
`;

function opt(args: string[], name: string): string | undefined {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
}

async function accountOf(email: string) {
  const u = await findUserByEmail(email);
  if (!u) throw new Error(`no user ${email}`);
  return u;
}

/**
 * Runs one admin command against the database and returns what it prints. The CLI calls it
 * directly, or (while Quire runs on embedded PGlite, which one process owns) through the
 * server's admin socket.
 */
export async function runAdminCommand(argv: string[]): Promise<{ code: number; out: string }> {
  const lines: string[] = [];
  const console = { log: (...a: unknown[]) => lines.push(a.map(String).join(" ")) };
  try {
    const code = await adminCommand(argv, console);
    return { code, out: lines.join("\n") };
  } catch (e) {
    lines.push(e instanceof Error ? e.message : String(e));
    return { code: 1, out: lines.join("\n") };
  }
}

async function adminCommand(argv: string[], console: { log: (...a: unknown[]) => void }): Promise<number> {
  const [cmd, ...args] = argv;
  getConfig();
  switch (cmd) {
    case "create-user": {
      const email = args[0];
      if (!email) throw new Error(usage);
      // A made-up password comes from the system's CSPRNG (128 bits), never Math.random.
      const password = opt(args, "password") ?? crypto.randomBytes(16).toString("base64url");
      const u = await createUser({
        email,
        password,
        name: opt(args, "name"),
        role: args.includes("--admin") ? "admin" : "user",
        credits: Number(opt(args, "credits") ?? getConfig().newAccountCredits),
      });
      const key = await createApiKey(u.accountId, "First key");
      console.log(`created ${u.email} (account ${u.accountId})\npassword: ${opt(args, "password") ? "(as given)" : password}\napi key:  ${key.secret}`);
      break;
    }
    case "set-password":
      if (!(await setUserPassword(args[0], args[1] ?? ""))) throw new Error(`no user ${args[0]}`);
      console.log("password changed");
      break;
    case "create-key": {
      const u = await accountOf(args[0]);
      const k = await createApiKey(u.accountId, opt(args, "name") ?? "CLI key");
      console.log(`key ${k.key.id}: ${k.secret}\n(shown once; only its hash is stored)`);
      break;
    }
    case "revoke-key": {
      const db = await getDb();
      const [k] = await db.select().from(apiKeys).where(eq(apiKeys.id, args[0] ?? "")).limit(1);
      if (!k || !(await revokeApiKey(k.accountId, k.id))) throw new Error(`no live key ${args[0]}`);
      console.log(`revoked ${args[0]}`);
      break;
    }
    case "grant-credits": {
      const u = await accountOf(args[0]);
      const amount = Number(args[1]);
      if (!Number.isInteger(amount)) throw new Error("amount must be a whole number");
      const b = await grantCredits(u.accountId, amount, opt(args, "note") ?? "cli grant");
      console.log(`balance of ${u.email}: ${b}`);
      break;
    }
    case "webhook-secret": {
      const u = await accountOf(args[0]);
      const db = await getDb();
      const [a] = await db.select().from(accounts).where(eq(accounts.id, u.accountId));
      console.log(openWebhookSecret(a.webhookSecret));
      break;
    }
    case "list": {
      const db = await getDb();
      for (const u of await db.select().from(users)) {
        console.log(`${u.email}  role=${u.role}  balance=${await getBalance(u.accountId)}  account=${u.accountId}`);
        const keys = (await listApiKeys(u.accountId)).filter((k) => !k.revokedAt);
        for (const k of keys) console.log(`    key ${k.id}  ${k.prefix}…  ${k.name}  last used ${k.lastUsedAt?.toISOString() ?? "never"}`);
      }
      break;
    }
    case "job": {
      const id = args[0];
      if (!id) throw new Error("usage: job <job-id>");
      const job = await getJob(id);
      if (!job) {
        // The public API answers `working` for an unknown id (its contract); people deserve the truth.
        console.log(`no such job: ${id}`);
        return 1;
      }
      console.log(`${job.id}  ${job.operation}  ${job.status}  account=${job.accountId}  created=${job.createdAt.toISOString()}`);
      if (job.message) console.log(`  ${job.message}`);
      break;
    }
    default:
      console.log(usage);
      return cmd && cmd !== "help" ? 2 : 0;
  }
  return 0;
}

async function main(argv: string[]) {
  const viaServer = await callAdminSocket(argv);
  const r = viaServer ?? (await runAdminCommand(argv));
  if (!viaServer) await closeDb();
  process.stdout.write(r.out + (r.out.endsWith("\n") ? "" : "\n"));
  process.exitCode = r.code;
}

if (process.argv[1]?.endsWith("cli.ts")) void main(process.argv.slice(2));
