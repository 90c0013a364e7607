import "server-only";
import type { Runner } from "./runner-types";

type RunnerLoader = () => Promise<Runner<never>>;

/**
 * Every operation's runner, by operation id: what the sandbox child (lib/jobs/sandbox/child.ts)
 * runs for a job. Each entry is a static `import()`, so "find references" on a runner leads here
 * and a child loads only the runners it is asked for (its start-up stays fast).
 * The registry test keeps this list equal to the operations in lib/operations/registry.ts.
 */
export const operationRunners: Record<string, RunnerLoader> = {
  "pdf-info": () => import("./pdf-info/runner").then((m) => m.run),
  "pdf-info-fields": () => import("./pdf-info-fields/runner").then((m) => m.run),
  "pdf-split": () => import("./pdf-split/runner").then((m) => m.run),
  "pdf-attachments-extract": () => import("./pdf-attachments-extract/runner").then((m) => m.run),
  "pdf-convert-to-csv": () => import("./pdf-convert-to-csv/runner").then((m) => m.run),
  "pdf-convert-from-url": () => import("./pdf-convert-from-url/runner").then((m) => m.run),
  "pdf-convert-from-image": () => import("./pdf-convert-from-image/runner").then((m) => m.run),
  "xls-convert-to-csv": () => import("./xls-convert-to-csv/runner").then((m) => m.run),
  "pdf-compress": () => import("./pdf-compress/runner").then((m) => m.run),
  "pdf-optimize": () => import("./pdf-optimize/runner").then((m) => m.run),
  "pdf-convert-to-html": () => import("./pdf-convert-to-html/runner").then((m) => m.run),
  "ai-invoice-parser": () => import("./ai-invoice-parser/runner").then((m) => m.run),
  "pdf-classifier": () => import("./pdf-classifier/runner").then((m) => m.run),
  "pdf-edit-add": () => import("./pdf-edit-add/runner").then((m) => m.run),
  "pdf-merge": () => import("./pdf-merge/runner").then((m) => m.run),
  "pdf-edit-delete-pages": () => import("./pdf-edit-delete-pages/runner").then((m) => m.run),
  "pdf-edit-rotate": () => import("./pdf-edit-rotate/runner").then((m) => m.run),
  "pdf-security-add": () => import("./pdf-security-add/runner").then((m) => m.run),
  "pdf-security-remove": () => import("./pdf-security-remove/runner").then((m) => m.run),
  "pdf-split2": () => import("./pdf-split2/runner").then((m) => m.run),
  "pdf-edit-rotate-auto": () => import("./pdf-edit-rotate-auto/runner").then((m) => m.run),
  "pdf-merge2": () => import("./pdf-merge2/runner").then((m) => m.run),
  "pdf-documentparser": () => import("./pdf-documentparser/runner").then((m) => m.run),
  "pdf-convert-to-text": () => import("./pdf-convert-to-text/runner").then((m) => m.run),
  "pdf-convert-to-text-simple": () => import("./pdf-convert-to-text-simple/runner").then((m) => m.run),
  "pdf-convert-to-json": () => import("./pdf-convert-to-json/runner").then((m) => m.run),
  "pdf-convert-to-json2": () => import("./pdf-convert-to-json2/runner").then((m) => m.run),
  "pdf-convert-to-json-meta": () => import("./pdf-convert-to-json-meta/runner").then((m) => m.run),
  "pdf-convert-to-xml": () => import("./pdf-convert-to-xml/runner").then((m) => m.run),
  "pdf-convert-to-xlsx": () => import("./pdf-convert-to-xlsx/runner").then((m) => m.run),
  "pdf-convert-to-xls": () => import("./pdf-convert-to-xls/runner").then((m) => m.run),
  "pdf-convert-to-png": () => import("./pdf-convert-to-png/runner").then((m) => m.run),
  "pdf-convert-to-jpg": () => import("./pdf-convert-to-jpg/runner").then((m) => m.run),
  "pdf-convert-to-webp": () => import("./pdf-convert-to-webp/runner").then((m) => m.run),
  "pdf-convert-to-tiff": () => import("./pdf-convert-to-tiff/runner").then((m) => m.run),
  "pdf-find": () => import("./pdf-find/runner").then((m) => m.run),
  "pdf-find-table": () => import("./pdf-find-table/runner").then((m) => m.run),
  "pdf-edit-delete-text": () => import("./pdf-edit-delete-text/runner").then((m) => m.run),
  "pdf-edit-replace-text": () => import("./pdf-edit-replace-text/runner").then((m) => m.run),
  "pdf-edit-replace-text-with-image": () => import("./pdf-edit-replace-text-with-image/runner").then((m) => m.run),
  "pdf-makesearchable": () => import("./pdf-makesearchable/runner").then((m) => m.run),
  "pdf-makeunsearchable": () => import("./pdf-makeunsearchable/runner").then((m) => m.run),
  "barcode-generate": () => import("./barcode-generate/runner").then((m) => m.run),
  "barcode-read-from-url": () => import("./barcode-read-from-url/runner").then((m) => m.run),
  "email-send": () => import("./email-send/runner").then((m) => m.run),
  "email-decode": () => import("./email-decode/runner").then((m) => m.run),
  "email-extract-attachments": () => import("./email-extract-attachments/runner").then((m) => m.run),
  "pdf-convert-from-doc": () => import("./pdf-convert-from-doc/runner").then((m) => m.run),
  "xls-convert-to-pdf": () => import("./xls-convert-to-pdf/runner").then((m) => m.run),
  "pdf-convert-from-html": () => import("./pdf-convert-from-html/runner").then((m) => m.run),
  "xls-convert-to-html": () => import("./xls-convert-to-html/runner").then((m) => m.run),
  "xls-convert-to-json": () => import("./xls-convert-to-json/runner").then((m) => m.run),
  "xls-convert-to-txt": () => import("./xls-convert-to-txt/runner").then((m) => m.run),
  "xls-convert-to-xml": () => import("./xls-convert-to-xml/runner").then((m) => m.run),
  "pdf-convert-from-csv": () => import("./pdf-convert-from-csv/runner").then((m) => m.run),
  "pdf-convert-from-email": () => import("./pdf-convert-from-email/runner").then((m) => m.run),
  "textsense-job-build": () => import("./textsense-job-build/runner").then((m) => m.run),
};

/** Document tasks of Quire itself that run in the sandbox too, but are not public operations. */
const internalRunners: Record<string, RunnerLoader> = {
  "pdf-preview": () => import("./internal/pdf-preview").then((m) => m.run),
  "work-budget": () => import("./internal/work-budget").then((m) => m.run),
  "page-chunk": () => import("./internal/page-chunk").then((m) => m.run),
};

/** The runner of an operation or internal task id, or undefined. */
export function findRunner(id: string): RunnerLoader | undefined {
  if (Object.hasOwn(operationRunners, id)) return operationRunners[id];
  return Object.hasOwn(internalRunners, id) ? internalRunners[id] : undefined;
}
