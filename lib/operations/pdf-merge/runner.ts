import "server-only";
import { readFile } from "node:fs/promises";
import type { z } from "zod";
import type { Runner } from "@/lib/operations/runner-types";
import type { operation } from "./contract";
import { mergeSources } from "./merge-sources";

/** Merges the downloaded PDFs in the order of `url`. */
export const run: Runner<z.infer<typeof operation.params>> = (ctx) =>
  mergeSources(ctx, async (source) => readFile(source.path));
