import "server-only";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import type { z } from "zod";
import { generateBarcode } from "@/lib/engine/barcode/generate-barcode";
import { outputName } from "@/lib/operations/output-name";
import type { Runner } from "@/lib/operations/runner-types";
import type { operation } from "./contract";

type Params = z.infer<typeof operation.params>;

/** One PNG; the logo (decorationImage) is fetched through the egress guard by the parent process. */
export const run: Runner<Params> = async (ctx) => {
  const p = ctx.params;
  const logo = p.decorationImage ? (await ctx.fetchUrl(p.decorationImage)).bytes : undefined;
  const png = await generateBarcode({
    type: p.type || "QRCode",
    value: p.value,
    logo,
    angle: p.profiles?.Angle,
    scale: p.profiles?.NarrowBarWidth,
  });
  const file = path.join(ctx.workDir, "barcode.png");
  await writeFile(file, png);
  return {
    outputs: [{ path: file, name: outputName(p.name, "barcode", ".png"), contentType: "image/png" }],
    inlineText: png.toString("base64"),
    pageCount: 1,
  };
};
