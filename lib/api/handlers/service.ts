import "server-only";
import type * as s from "../schemas";
import type { RouteHandler } from "../define-route";
import { QuireError } from "@/lib/core/errors";
import { readiness } from "../health";
import { serveMetrics } from "../metrics";
import { buildOpenApi } from "../openapi";

export const health: RouteHandler<"none", undefined, typeof s.healthResponse> = async () => ({ ok: true });

let cached: ReturnType<typeof buildOpenApi> | undefined;
/** Built once per process: the contracts and the route table do not change while it runs. */
export const openApi: RouteHandler<"none", undefined, typeof s.openApiResponse> = async () =>
  (cached ??= buildOpenApi());

/** Readiness: 200 when the database, the queue and the object store answer, else 503 naming what failed. */
export const ready: RouteHandler<"none", undefined, typeof s.readyResponse> = async () => {
  const r = await readiness();
  if (!r.ready) {
    const failed = Object.entries(r.checks).filter(([, v]) => v !== "ok");
    throw new QuireError(503, `Not ready: ${failed.map(([k, v]) => `${k}: ${v}`).join("; ")}`, {
      retryAfterSeconds: 5,
    });
  }
  return { ok: true, checks: r.checks as { database: string; queue: string; storage: string } };
};

/** Prometheus metrics of this process (METRICS_TOKEN, else clients on this machine only). */
export const metricsText: RouteHandler<"none", undefined, "binary"> = async ({ req, res }) => {
  await serveMetrics(req, res);
};
