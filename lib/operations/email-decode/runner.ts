import "server-only";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { z } from "zod";
import { QuireError } from "@/lib/core/errors";
import { parseEmail } from "@/lib/engine/email/parse-email";
import { outputName } from "@/lib/operations/output-name";
import type { Runner } from "@/lib/operations/runner-types";
import type { operation } from "./contract";

type Params = z.infer<typeof operation.params>;

export const run: Runner<Params> = async (ctx) => {
  const source = ctx.sources[0];
  if (!source) throw new QuireError(400, "url: give the URL of an .eml or .msg file.");
  const m = await parseEmail(await readFile(source.path));
  const body = {
    from: m.from,
    to: m.to,
    cc: m.cc,
    bcc: m.bcc,
    replyTo: m.replyTo,
    subject: m.subject,
    date: m.date,
    messageId: m.messageId,
    bodyText: m.bodyText,
    bodyHtml: m.bodyHtml,
    attachments: m.attachments.map((a) => ({ name: a.name, contentType: a.contentType, size: a.content.length, contentId: a.contentId })),
  };
  if (ctx.params.inline) return { fields: { body }, pageCount: 1 };
  const file = path.join(ctx.workDir, "email.json");
  await writeFile(file, JSON.stringify(body, null, 2));
  return {
    fields: { body },
    outputs: [{ path: file, name: outputName(ctx.params.name, source.name.replace(/\.[^.]*$/, "") || "email", ".json"), contentType: "application/json" }],
    pageCount: 1,
  };
};
