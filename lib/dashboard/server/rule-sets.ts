import "server-only";
import { and, asc, eq } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { ruleSets } from "@/lib/db/schema";
import type { RuleSet } from "@/lib/dashboard/data/api-types";

/** Named classification rule sets of an account (ruleSets table). */
type Row = typeof ruleSets.$inferSelect;
const toDto = (r: Row): RuleSet => ({ id: r.id, name: r.name, rules: r.rules, createdAt: r.createdAt.toISOString(), updatedAt: r.updatedAt.toISOString() });

export async function listRuleSets(accountId: string): Promise<RuleSet[]> {
  const db = await getDb();
  return (await db.select().from(ruleSets).where(eq(ruleSets.accountId, accountId)).orderBy(asc(ruleSets.name))).map(toDto);
}

export async function createRuleSet(accountId: string, name: string, rules: string): Promise<RuleSet> {
  const db = await getDb();
  const [row] = await db.insert(ruleSets).values({ accountId, name, rules }).returning();
  return toDto(row!);
}

export async function updateRuleSet(accountId: string, id: string, patch: { name?: string; rules?: string }): Promise<RuleSet | null> {
  const db = await getDb();
  const [row] = await db
    .update(ruleSets)
    .set({ ...patch, updatedAt: new Date() })
    .where(and(eq(ruleSets.id, id), eq(ruleSets.accountId, accountId)))
    .returning();
  return row ? toDto(row) : null;
}

export async function deleteRuleSet(accountId: string, id: string): Promise<boolean> {
  const db = await getDb();
  return (await db.delete(ruleSets).where(and(eq(ruleSets.id, id), eq(ruleSets.accountId, accountId))).returning()).length > 0;
}

/** Postgres unique violation (a rule set with that name exists). */
export function isDuplicateName(e: unknown): boolean {
  const err = e as { code?: string; cause?: { code?: string }; message?: string };
  return err?.code === "23505" || err?.cause?.code === "23505" || /rule_sets_account_name_uq|duplicate key/.test(String(err?.message ?? ""));
}
