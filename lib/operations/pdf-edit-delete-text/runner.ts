import "server-only";
import type { z } from "zod";
import type { Runner } from "@/lib/operations/runner-types";
import { searchList } from "@/lib/operations/text-edit-fields";
import { runTextEdit } from "@/lib/operations/text-edit-run";
import type { operation } from "./contract";

/** Removes every occurrence of each search string; pageCount is the document's page count. */
export const run: Runner<z.infer<typeof operation.params>> = (ctx) =>
  runTextEdit(ctx, searchList(ctx.params));
