import { readFileSync } from "node:fs";
import { operation } from "@/lib/operations/pdf-convert-to-html/contract";
import { run } from "@/lib/operations/pdf-convert-to-html/runner";
import { contextFor } from "@/tests/helpers/extract-fixtures";
const file = process.argv[2];
const params = JSON.parse(process.argv[3] ?? "{}");
try {
  const ctx = await contextFor(operation.params, readFileSync(file), { inline: true, ...params }, "x.pdf");
  const r = await run(ctx);
  console.log("ok", r.pageCount, (r.inlineText ?? "").length);
} catch (e) {
  console.log("ERR", (e as Error).stack, (e as { cause?: Error }).cause?.stack);
}
process.exit(0);
