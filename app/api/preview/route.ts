import { jsonError, withSession } from "@/lib/dashboard/server/route";
import { fetchOutputCached } from "@/lib/dashboard/server/outputs";
import { UpstreamError } from "@/lib/dashboard/server/upstream";

/**
 * Page previews of a PDF output, rendered on the server with MuPDF:
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
  const { openPdf } = await import("@/lib/engine/pdf/open-pdf");
  let doc;
  try {
    doc = openPdf(out.bytes, sp.get("password") ?? undefined);
  } catch (e) {
    return jsonError(442, (e as Error).message || "Not a readable PDF.");
  }
  try {
    if (sp.get("info")) {
      const pages = [];
      const count = doc.countPages();
      for (let i = 0; i < Math.min(count, 500); i++) {
        const p = doc.loadPage(i);
        const [x0, y0, x1, y1] = p.getBounds();
        pages.push({ width: x1 - x0, height: y1 - y0 });
        p.destroy();
      }
      return Response.json({ pageCount: count, pages }, { headers: { "cache-control": "private, max-age=300" } });
    }
    const page = Number(sp.get("page") ?? 0);
    const dpi = Math.min(200, Math.max(24, Number(sp.get("dpi") ?? 96)));
    const { renderPage } = await import("@/lib/engine/pdf/render-page");
    const r = renderPage(doc, page, { dpi });
    return new Response(r.png as unknown as BodyInit, {
      headers: { "content-type": "image/png", "cache-control": "private, max-age=300" },
    });
  } catch (e) {
    const err = e as { status?: number; message?: string };
    return jsonError(err.status ?? 500, err.message ?? "Render failed.");
  } finally {
    doc.destroy();
  }
});

export const dynamic = "force-dynamic";
