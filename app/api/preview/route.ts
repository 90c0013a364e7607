import { isQuireError } from "@/lib/core/errors";
import { jsonError, withSession } from "@/lib/dashboard/server/route";
import { fetchOutputCached } from "@/lib/dashboard/server/outputs";
import { UpstreamError } from "@/lib/dashboard/server/upstream";
import { renderPreview } from "@/lib/dashboard/server/preview";

/**
 * Page previews of a PDF output, rendered in the sandbox (lib/dashboard/server/preview.ts):
 *   GET /api/preview?url=…&info=1        → {pageCount, pages:[{width, height}]} (points)
 *   GET /api/preview?url=…&page=0&dpi=96 → image/png
 */
export const GET = withSession(async (req, user) => {
  const sp = new URL(req.url).searchParams;
  const url = sp.get("url");
  if (!url) return jsonError(400, "url: give the URL of the PDF to preview");
  let out;
  try {
    out = await fetchOutputCached(user, url);
  } catch (e) {
    if (e instanceof UpstreamError) return jsonError(e.status, e.message);
    const err = e as { status?: number; message?: string };
    return jsonError(err.status ?? 502, err.message ?? "The file could not be read.");
  }
  if (out.status === 404 || out.status === 410 || out.status === 403) return jsonError(410, "This link has expired or no longer exists.");
  if (out.status !== 200) return jsonError(502, `The file could not be read (${out.status}).`);
  const password = sp.get("password") ?? undefined;
  const params = sp.get("info")
    ? { mode: "info" as const, password }
    : { mode: "page" as const, page: Number(sp.get("page") ?? 0), dpi: Math.min(200, Math.max(24, Number(sp.get("dpi") ?? 96))), password };
  try {
    const r = await renderPreview(out.bytes, params, req.signal);
    const cache = { "cache-control": "private, max-age=300" };
    if (r.kind === "info") return Response.json({ pageCount: r.pageCount, pages: r.pages }, { headers: cache });
    return new Response(new Uint8Array(r.png), { headers: { "content-type": "image/png", ...cache } });
  } catch (e) {
    if (isQuireError(e)) return jsonError(e.status, e.message);
    if (req.signal.aborted) return new Response(null, { status: 499 });
    console.error("preview failed", e);
    return jsonError(500, "Render failed.");
  }
});

export const dynamic = "force-dynamic";
