import "server-only";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { z } from "zod";
import { QuireError } from "@/lib/core/errors";
import { parsePages } from "@/lib/engine/pages";
import { optionsFromV2Config } from "@/lib/engine/optimize/from-config";
import { optimizePdf } from "@/lib/engine/optimize/optimize-pdf";
import { describeOptimize, outputName } from "@/lib/engine/optimize/report";
import { openPdf } from "@/lib/engine/pdf/open-pdf";
import type { Runner } from "@/lib/operations/runner-types";
import type { operation } from "./contract";

type Params = z.infer<typeof operation.params>;

/** Compresses the source with the v2 config; answers fileSize and inputFileSize. */
export const run: Runner<Params> = async (ctx) => {
  const source = ctx.sources[0];
  if (!source) throw new QuireError(400, "url: give the URL of a PDF document.");
  const bytes = await readFile(source.path);
  const { params } = ctx;

  const options = optionsFromV2Config(params.config, params.profiles?.JPEGQuality);
  options.password = params.password;
  if (params.pages?.trim()) {
    const doc = openPdf(bytes, params.password);
    try {
      options.pages = parsePages(params.pages, doc.countPages(), 0);
    } finally {
      doc.destroy();
    }
  }

  const { bytes: out, report } = await optimizePdf(bytes, options);
  const file = path.join(ctx.workDir, "result.pdf");
  await writeFile(file, out);
  ctx.log(
    `compress: ${report.inputSize} → ${report.outputSize} bytes, ${report.images.rewritten} image(s) rewritten`,
  );
  return {
    outputs: [{ path: file, name: outputName(params.name), contentType: "application/pdf" }],
    pageCount: report.pageCount,
    // Credits: the pages whose images were processed (all, unless `pages` selects some).
    pagesProcessed: options.pages?.length ?? report.pageCount,
    fields: {
      fileSize: report.outputSize,
      inputFileSize: report.inputSize,
      compressionRatio: Number((report.outputSize / report.inputSize).toFixed(4)),
    },
    message: describeOptimize(report),
  };
};
