import { jsonError, withSession } from "@/lib/dashboard/server/route";
import { exportCsv, type ExportKind } from "@/lib/dashboard/server/export";

const KINDS: ExportKind[] = ["jobs", "ledger", "ledger-jobs"];

/** CSV export of the jobs list or the ledger (entries or per job), with the page's filters. */
export const GET = withSession(async (req, user, ctx: { params: Promise<{ kind: string }> }) => {
  const { kind } = await ctx.params;
  const k = kind.replace(/\.csv$/, "") as ExportKind;
  if (!KINDS.includes(k)) return jsonError(404, `no export named ${kind}; use jobs, ledger or ledger-jobs`);
  const day = new Date().toISOString().slice(0, 10);
  return new Response(exportCsv(user, k, new URL(req.url).searchParams), {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="quire-${k}-${day}.csv"`,
      "cache-control": "private, no-store",
    },
  });
});

export const dynamic = "force-dynamic";
