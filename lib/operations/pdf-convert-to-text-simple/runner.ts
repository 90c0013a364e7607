import "server-only";
import { writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { z } from "zod";
import { QuireError } from "@/lib/core/errors";
import { plainTextPages } from "@/lib/engine/text/quick-lines";
import { readingOrderText } from "@/lib/engine/text/plain-text";
import { convertedName } from "@/lib/operations/output-name";
import type { Runner } from "@/lib/operations/runner-types";
import type { operation } from "./contract";

const EOL = { CRLF: "\r\n", LF: "\n", CR: "\r" } as const;

/** Text layer (never OCR) → reading-order text (lib/engine/text/plain-text.ts). */
export const run: Runner<z.infer<typeof operation.params>> = async (ctx) => {
  const source = ctx.sources[0];
  if (!source) throw new QuireError(400, "url: give the URL of a PDF.");
  const bytes = await readFile(source.path);
  const texts = await plainTextPages(bytes, { password: ctx.params.password, pages: ctx.params.pages, ocrMode: "Never" });
  const text = readingOrderText(texts.pages, { lineEnding: EOL[ctx.params.lineEnding ?? "CRLF"] });
  const file = path.join(ctx.workDir, "result.txt");
  writeFileSync(file, text, "utf8");
  return {
    outputs: [{ path: file, name: convertedName(ctx.params.name, source.name, "txt"), contentType: "text/plain" }],
    inlineText: text,
    pageCount: texts.pages.length,
  };
};
