import { z } from "zod";
import { jsonError, withSession } from "@/lib/dashboard/server/route";
import { deleteRuleSet, isDuplicateName, updateRuleSet } from "@/lib/dashboard/server/rule-sets";

type Ctx = { params: Promise<{ id: string }> };
const patchSchema = z.object({
  name: z.string().trim().min(1, "name: give the rule set a name").max(100).optional(),
  rules: z.string().max(200_000).optional(),
});
const idSchema = z.string().uuid();

export const PUT = withSession<Ctx>(async (req, user, ctx) => {
  const { id } = await ctx.params;
  if (!idSchema.safeParse(id).success) return jsonError(404, "Rule set not found.");
  const parsed = patchSchema.safeParse(await req.json().catch(() => null));
  if (!parsed.success) return jsonError(400, parsed.error.issues[0]?.message ?? "Invalid body");
  try {
    const ruleSet = await updateRuleSet(user.accountId, id, parsed.data);
    return ruleSet ? Response.json({ ruleSet }) : jsonError(404, "Rule set not found.");
  } catch (e) {
    if (isDuplicateName(e)) return jsonError(409, `name: a rule set called "${parsed.data.name}" already exists`);
    throw e;
  }
});

export const DELETE = withSession<Ctx>(async (_req, user, ctx) => {
  const { id } = await ctx.params;
  if (!idSchema.safeParse(id).success) return jsonError(404, "Rule set not found.");
  return (await deleteRuleSet(user.accountId, id)) ? Response.json({ ok: true }) : jsonError(404, "Rule set not found.");
});

export const dynamic = "force-dynamic";
