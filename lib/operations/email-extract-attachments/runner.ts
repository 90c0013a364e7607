import "server-only";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { z } from "zod";
import { QuireError } from "@/lib/core/errors";
import { parseEmail } from "@/lib/engine/email/parse-email";
import type { OutputFile, Runner } from "@/lib/operations/runner-types";
import type { operation } from "./contract";

type Params = z.infer<typeof operation.params>;

export const run: Runner<Params> = async (ctx) => {
  const source = ctx.sources[0];
  if (!source) throw new QuireError(400, "url: give the URL of an .eml or .msg file.");
  const m = await parseEmail(await readFile(source.path));
  const outputs: OutputFile[] = [];
  const used = new Set<string>();
  for (const [i, a] of m.attachments.entries()) {
    // Each attachment in its own folder: two attachments may share a name.
    const dir = path.join(ctx.workDir, `att-${i}`);
    await mkdir(dir);
    const file = path.join(dir, "data");
    await writeFile(file, a.content);
    let name = a.name.replace(/[/\\]/g, "_");
    if (used.has(name.toLowerCase())) name = name.replace(/(\.[^.]*)?$/, `-${i + 1}$1`);
    used.add(name.toLowerCase());
    outputs.push({ path: file, name, contentType: a.contentType });
  }
  return { outputs, multiple: true, pageCount: 1, message: `${outputs.length} attachment(s)` };
};
