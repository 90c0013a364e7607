import "server-only";
import type { z } from "zod";
import { pdfToWorkbook } from "@/lib/operations/pdf-to-workbook";
import type { Runner } from "@/lib/operations/runner-types";
import type { operation } from "./contract";

/** Table analysis → workbook (lib/operations/pdf-to-workbook.ts). */
export const run: Runner<z.infer<typeof operation.params>> = (ctx) => pdfToWorkbook(ctx, "xls");
