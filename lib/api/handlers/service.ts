import "server-only";
import type * as s from "../schemas";
import { JsonReply, type RouteHandler } from "../define-route";
import { readiness } from "../health";
import { serveMetrics } from "../metrics";
import { buildOpenApi } from "../openapi";

export const health: RouteHandler<"none", undefined, typeof s.healthResponse> = async () => ({ ok: true });

let cached: ReturnType<typeof buildOpenApi> | undefined;
/** Built once per process: the contracts and the route table do not change while it runs. */
export const openApi: RouteHandler<"none", undefined, typeof s.openApiResponse> = async () =>
  (cached ??= buildOpenApi());

/** Readiness: 200 when the database, the queue and the object store answer, else 503. */
export const ready: RouteHandler<"none", undefined, typeof s.readyResponse> = async () => {
  const r = await readiness();
  const body = { ok: r.ready, checks: r.checks as { database: string; queue: string; storage: string } };
  return r.ready ? body : new JsonReply(503, body);
};

/** Prometheus metrics of this process (METRICS_TOKEN, else clients on this machine only). */
export const metricsText: RouteHandler<"none", undefined, "binary"> = async ({ req, res }) => {
  await serveMetrics(req, res);
};
