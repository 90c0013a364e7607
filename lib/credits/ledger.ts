import "server-only";
import { sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { QuireError } from "@/lib/core/errors";
import { cachedBalance, rememberBalance } from "@/lib/db/embedded-cache";

/**
 * The credits ledger: append-only rows (grant +, reserve −, extend − once the size is known,
 * capture − extra or + the unused part, release + back),
 * with a cached balance on the account changed in the same transaction. Every job-related row
 * is unique per (job, kind), so retries after a crash never charge twice, and each transaction
 * locks the account row first, so concurrent requests can never take the balance below zero.
 */

export type Tx = Parameters<Parameters<Awaited<ReturnType<typeof getDb>>["transaction"]>[0]>[0];

async function lockBalance(tx: Tx, accountId: string): Promise<number> {
  const r = await tx.execute(sql`select balance from accounts where id = ${accountId} for update`);
  const row = (r as unknown as { rows: Array<{ balance: string | number }> }).rows[0];
  if (!row) throw new QuireError(401, "account not found");
  return Number(row.balance);
}

async function rows<T>(p: Promise<unknown>): Promise<T[]> {
  return ((await p) as { rows: T[] }).rows;
}

export async function grantCredits(accountId: string, amount: number, note = "grant"): Promise<number> {
  const db = await getDb();
  return remember(accountId, db.transaction(async (tx) => {
    const balance = await lockBalance(tx, accountId);
    await tx.execute(
      sql`insert into credit_ledger (account_id, kind, amount, note) values (${accountId}, 'grant', ${amount}, ${note})`,
    );
    if (balance + amount < 0) throw new QuireError(400, `cannot take ${-amount}: the balance is ${balance}`);
    await tx.execute(sql`update accounts set balance = balance + ${amount} where id = ${accountId}`);
    return balance + amount;
  }));
}

/** Keeps the embedded-mode balance cache in step with a committed ledger transaction. */
async function remember<T extends number | { remaining: number }>(accountId: string, p: Promise<T>): Promise<T> {
  const r = await p;
  rememberBalance(accountId, typeof r === "number" ? r : r.remaining);
  return r;
}

export async function getBalance(accountId: string): Promise<number> {
  const hit = cachedBalance(accountId);
  if (hit !== undefined) return hit;
  const db = await getDb();
  const r = await rows<{ balance: string | number }>(
    db.execute(sql`select balance from accounts where id = ${accountId}`),
  );
  return Number(r[0]?.balance ?? 0);
}

/**
 * Reserves `amount` for a new job before any work; 402 when the balance is too low. The balance
 * is taken in one conditional update (its row lock orders concurrent reservations), the ledger
 * row written beside it; `alsoInTx` (the job's row) commits with them or not at all.
 */
export async function reserveCredits(
  accountId: string,
  jobId: string,
  amount: number,
  operation: string,
  alsoInTx?: (tx: Tx) => Promise<void>,
) {
  const db = await getDb();
  return remember(accountId, db.transaction(async (tx) => {
    const taken = await rows<{ balance: string | number }>(
      tx.execute(
        sql`update accounts set balance = balance - ${amount} where id = ${accountId} and balance >= ${amount} returning balance`,
      ),
    );
    if (!taken.length) {
      const balance = await lockBalance(tx, accountId); // 401 when there is no such account
      throw new QuireError(
        402,
        `Not enough credits: this call needs ${amount} and the account has ${balance}. Ask an administrator for more credits.`,
      );
    }
    await tx.execute(
      sql`insert into credit_ledger (account_id, kind, amount, job_id, operation) values (${accountId}, 'reserve', ${-amount}, ${jobId}, ${operation})`,
    );
    if (alsoInTx) await alsoInTx(tx);
    return Number(taken[0].balance);
  }));
}

/** Credits held for a job: its reserve plus its extension (both stored negative). */
function heldFor(done: Array<{ kind: string; amount: number }>): number {
  return -done.filter((d) => d.kind === "reserve" || d.kind === "extend").reduce((sum, d) => sum + Number(d.amount), 0);
}

/**
 * Raises a job's reservation to `total` once its real size is known (the page count read before
 * the work starts), so the work never costs more than was set aside: 402 when the balance cannot
 * cover the rest, and the job then fails uncharged. Idempotent per job (one extension).
 */
export async function extendReservation(accountId: string, jobId: string, total: number, operation: string, what = "") {
  const db = await getDb();
  return remember(accountId, db.transaction(async (tx) => {
    const balance = await lockBalance(tx, accountId);
    const done = await rows<{ kind: string; amount: number }>(
      tx.execute(sql`select kind, amount from credit_ledger where job_id = ${jobId}`),
    );
    if (!done.some((d) => d.kind === "reserve")) return balance;
    if (done.some((d) => d.kind === "extend" || d.kind === "capture" || d.kind === "release")) return balance;
    const need = total - heldFor(done);
    if (need <= 0) return balance;
    if (balance < need) {
      throw new QuireError(
        402,
        `Not enough credits: ${what ? `${what}: ` : ""}this call costs ${total} credits and the account has ${balance + heldFor(done)}. Nothing was charged. Ask an administrator for more credits.`,
      );
    }
    await tx.execute(
      sql`insert into credit_ledger (account_id, kind, amount, job_id, operation) values (${accountId}, 'extend', ${-need}, ${jobId}, ${operation})`,
    );
    await tx.execute(sql`update accounts set balance = balance - ${need} where id = ${accountId}`);
    return balance - need;
  }));
}

/**
 * Captures a job's cost once the work is done and before its output is stored. The reservation
 * (and its extension) already took part of it: less was needed → the rest goes back; more (a
 * size only known after the work, e.g. the pages of a printed web page) → the difference is
 * taken now if the balance covers it, else 402 and the job fails uncharged (its output is not
 * stored). Never more output than was paid for, and the balance never goes negative.
 * Returns the credits charged in total and the remaining balance. Idempotent per job.
 */
export async function captureCredits(accountId: string, jobId: string, cost: number, operation: string, what = "") {
  const db = await getDb();
  return remember(accountId, db.transaction(async (tx) => {
    const balance = await lockBalance(tx, accountId);
    const done = await rows<{ kind: string; amount: number; operation: string | null }>(
      tx.execute(sql`select kind, amount, operation from credit_ledger where job_id = ${jobId}`),
    );
    const reserved = heldFor(done);
    const captured = done.find((d) => d.kind === "capture");
    if (captured) return { charged: reserved - captured.amount, remaining: balance };
    if (done.some((d) => d.kind === "release")) return { charged: 0, remaining: balance };
    const extra = cost - reserved;
    if (extra > balance) {
      throw new QuireError(
        402,
        `Not enough credits: ${what ? `${what}: ` : ""}this call costs ${cost} credits and the account has ${balance + reserved}. Nothing was charged and no output was stored. Ask an administrator for more credits.`,
      );
    }
    await tx.execute(
      sql`insert into credit_ledger (account_id, kind, amount, job_id, operation) values (${accountId}, 'capture', ${-extra}, ${jobId}, ${operation})`,
    );
    if (extra !== 0) await tx.execute(sql`update accounts set balance = balance - ${extra} where id = ${accountId}`);
    return { charged: reserved + extra, remaining: balance - extra };
  }));
}

/**
 * Gives a failed job's credits back: its reservation, or, when it failed after its capture
 * (storing the output failed, the process died before the job was recorded a success), all it
 * was charged. Idempotent (one release per job). Never called for a job that succeeded.
 */
export async function releaseCredits(accountId: string, jobId: string) {
  const db = await getDb();
  return remember(accountId, db.transaction(async (tx) => {
    const balance = await lockBalance(tx, accountId);
    const done = await rows<{ kind: string; amount: number; operation: string | null }>(
      tx.execute(sql`select kind, amount, operation from credit_ledger where job_id = ${jobId}`),
    );
    const reserve = done.find((d) => d.kind === "reserve");
    if (!reserve || done.some((d) => d.kind === "release")) return balance;
    const captured = done.find((d) => d.kind === "capture");
    const held = heldFor(done) - (captured ? Number(captured.amount) : 0);
    await tx.execute(
      sql`insert into credit_ledger (account_id, kind, amount, job_id, operation) values (${accountId}, 'release', ${held}, ${jobId}, ${reserve.operation})`,
    );
    if (held !== 0) await tx.execute(sql`update accounts set balance = balance + ${held} where id = ${accountId}`);
    return balance + held;
  }));
}
