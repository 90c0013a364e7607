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
};

/** Document tasks of Quire itself that run in the sandbox too, but are not public operations. */
const internalRunners: Record<string, RunnerLoader> = {
  "pdf-preview": () => import("./internal/pdf-preview").then((m) => m.run),
};

/** The runner of an operation or internal task id, or undefined. */
export function findRunner(id: string): RunnerLoader | undefined {
  if (Object.hasOwn(operationRunners, id)) return operationRunners[id];
  return Object.hasOwn(internalRunners, id) ? internalRunners[id] : undefined;
}
