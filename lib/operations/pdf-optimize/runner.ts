import "server-only";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { z } from "zod";
import { QuireError } from "@/lib/core/errors";
import { optionsFromV1 } from "@/lib/engine/optimize/from-config";
import { optimizePdf } from "@/lib/engine/optimize/optimize-pdf";
import { describeOptimize, outputName } from "@/lib/engine/optimize/report";
import type { Runner } from "@/lib/operations/runner-types";
import { DEFAULT_OPTIMIZE_SETTINGS, type operation } from "./contract";

type Params = z.infer<typeof operation.params>;

/** v1 optimize: the profile keys → the shared optimizer; answers `url` (and `urls`) and `fileSize`. */
export const run: Runner<Params> = async (ctx) => {
  const source = ctx.sources[0];
  if (!source) throw new QuireError(400, "url: give the URL of a PDF document.");
  const p = ctx.params.profiles ?? {};
  const options = optionsFromV1({
    ImageOptimizationFormat: p.ImageOptimizationFormat ?? DEFAULT_OPTIMIZE_SETTINGS.ImageOptimizationFormat,
    JPEGQuality: p.JPEGQuality ?? DEFAULT_OPTIMIZE_SETTINGS.JPEGQuality,
    ResampleImages: p.ResampleImages ?? DEFAULT_OPTIMIZE_SETTINGS.ResampleImages,
    ResamplingResolution: p.ResamplingResolution ?? DEFAULT_OPTIMIZE_SETTINGS.ResamplingResolution,
    GrayscaleImages: p.GrayscaleImages ?? DEFAULT_OPTIMIZE_SETTINGS.GrayscaleImages,
  });
  options.password = ctx.params.password;

  const { bytes: out, report } = await optimizePdf(await readFile(source.path), options);
  const file = path.join(ctx.workDir, "result.pdf");
  await writeFile(file, out);
  ctx.log(`optimize: ${report.inputSize} → ${report.outputSize} bytes`);
  return {
    outputs: [{ path: file, name: outputName(ctx.params.name), contentType: "application/pdf" }],
    pageCount: report.pageCount,
    fields: { fileSize: report.outputSize, inputFileSize: report.inputSize },
    message: describeOptimize(report),
  };
};
