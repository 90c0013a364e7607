import "server-only";
import crypto from "node:crypto";
import fsp from "node:fs/promises";
import path from "node:path";
import { getConfig } from "@/lib/core/config";
import { QuireError } from "@/lib/core/errors";
import { runInSandbox } from "@/lib/jobs/sandbox/handle";
import type { PdfPreviewParams } from "@/lib/operations/internal/pdf-preview";

export type PreviewAnswer = { kind: "info"; pageCount: number; pages: { width: number; height: number }[] } | { kind: "png"; png: Buffer };

/**
 * Renders the dashboard's PDF preview in the sandbox (the internal "pdf-preview" runner) under
 * PREVIEW_TIMEOUT_MS and the usual memory cap: the web process only moves bytes. Failures are
 * QuireErrors with the usual statuses (408 too slow, 413 too big, 441 password, 442 not a PDF, 449).
 */
export async function renderPreview(pdf: Uint8Array, params: PdfPreviewParams, signal?: AbortSignal): Promise<PreviewAnswer> {
  const cfg = getConfig();
  const workDir = path.join(cfg.dataDir, "tmp", `preview-${crypto.randomBytes(8).toString("hex")}`);
  await fsp.mkdir(workDir, { recursive: true });
  try {
    const source = path.join(workDir, "source.pdf");
    await fsp.writeFile(source, pdf);
    const result = await runInSandbox(
      { opId: "pdf-preview", params, sources: [{ path: source, name: "source.pdf", contentType: "application/pdf", size: pdf.byteLength, url: "" }], workDir },
      {
        timeoutMs: cfg.previewTimeoutMs,
        signal,
        fetchUrl: async () => {
          throw new QuireError(400, "a preview fetches nothing");
        },
      },
    );
    if (params.mode === "info") {
      const f = result.fields as { pageCount: number; pages: { width: number; height: number }[] };
      return { kind: "info", pageCount: f.pageCount, pages: f.pages };
    }
    const out = result.outputs?.[0];
    if (!out) throw new QuireError(500, "Internal error: the preview produced no image.");
    return { kind: "png", png: await fsp.readFile(out.path) };
  } finally {
    await fsp.rm(workDir, { recursive: true, force: true }).catch(() => {});
  }
}
