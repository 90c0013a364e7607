import { jsonError, withSession } from "@/lib/dashboard/server/route";
import { fetchOutput } from "@/lib/dashboard/server/outputs";
import { UpstreamError } from "@/lib/dashboard/server/upstream";
import { sheetPreviewCsv } from "@/lib/dashboard/server/sheet-preview";
import { isQuireError } from "@/lib/core/errors";

/**
 * An output file for the viewers (CSV table, HTML frame, JSON), same-origin so the browser can
 * read it. HTML is served with a sandbox CSP: it renders, but cannot run script or reach the
 * dashboard's origin. `as=csv` reads a spreadsheet output (xlsx, xls, ods) as CSV for the table preview.
 */
export const GET = withSession(async (req, user) => {
  const sp = new URL(req.url).searchParams;
  const url = sp.get("url");
  if (!url) return jsonError(400, "url: give the URL of the output");
  let out;
  try {
    out = await fetchOutput(user, url);
  } catch (e) {
    if (e instanceof UpstreamError) return jsonError(e.status, e.message);
    const err = e as { status?: number; message?: string };
    return jsonError(err.status ?? 502, err.message ?? "The file could not be read.");
  }
  if (out.status === 404 || out.status === 410 || out.status === 403) return jsonError(410, "This link has expired or no longer exists.");
  if (sp.get("as") === "csv" && out.status === 200) {
    try {
      return new Response(sheetPreviewCsv(out.bytes), { headers: { "content-type": "text/csv; charset=utf-8", "cache-control": "private, no-store" } });
    } catch (e) {
      if (isQuireError(e)) return jsonError(e.status, e.message);
      throw e;
    }
  }
  return new Response(out.bytes as unknown as BodyInit, {
    status: out.status,
    headers: {
      "content-type": out.contentType,
      "content-security-policy": "sandbox; default-src 'none'; img-src data: blob: *; style-src 'unsafe-inline' *; font-src data: *",
      "x-content-type-options": "nosniff",
      "cache-control": "private, no-store",
    },
  });
});

export const dynamic = "force-dynamic";
