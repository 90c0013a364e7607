import { z } from "zod";
import { jsonError, withSession } from "@/lib/dashboard/server/route";
import { createRuleSet, isDuplicateName, listRuleSets } from "@/lib/dashboard/server/rule-sets";

const ruleSetBodySchema = z.object({
  name: z.string().trim().min(1, "name: give the rule set a name").max(100, "name: at most 100 characters"),
  rules: z.string().max(200_000, "rules: at most 200 000 characters"),
});

export const GET = withSession(async (_req, user) => Response.json({ ruleSets: await listRuleSets(user.accountId) }));

export const POST = withSession(async (req, user) => {
  const parsed = ruleSetBodySchema.safeParse(await req.json().catch(() => null));
  if (!parsed.success) return jsonError(400, parsed.error.issues[0]?.message ?? "Invalid body");
  try {
    return Response.json({ ruleSet: await createRuleSet(user.accountId, parsed.data.name, parsed.data.rules) }, { status: 201 });
  } catch (e) {
    if (isDuplicateName(e)) return jsonError(409, `name: a rule set called "${parsed.data.name}" already exists`);
    throw e;
  }
});

export const dynamic = "force-dynamic";
