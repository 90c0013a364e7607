import "server-only";
import client from "prom-client";

/**
 * Prometheus metrics of this process (prom-client), served at /metrics by the web and worker
 * entry points. Each process reports its own; Prometheus sums over the nodes.
 */
const g = globalThis as unknown as { __quireMetrics?: ReturnType<typeof create> };

function create() {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry, prefix: "quire_" });
  return {
    registry,
    requests: new client.Counter({
      name: "quire_http_requests_total",
      help: "HTTP requests answered, by route and status.",
      labelNames: ["method", "route", "status"] as const,
      registers: [registry],
    }),
    requestSeconds: new client.Histogram({
      name: "quire_http_request_duration_seconds",
      help: "Time to answer an HTTP request, by route.",
      labelNames: ["route"] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 120],
      registers: [registry],
    }),
    jobSeconds: new client.Histogram({
      name: "quire_job_duration_seconds",
      help: "Wall time of a job from start to its stored result, by operation and outcome.",
      labelNames: ["operation", "status"] as const,
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 180, 600],
      registers: [registry],
    }),
    creditsCharged: new client.Counter({
      name: "quire_credits_charged_total",
      help: "Credits captured for successful jobs, by operation.",
      labelNames: ["operation"] as const,
      registers: [registry],
    }),
    rateLimited: new client.Counter({
      name: "quire_rate_limited_total",
      help: "Requests refused with 429, by reason (rate or concurrent jobs).",
      labelNames: ["reason"] as const,
      registers: [registry],
    }),
  };
}

export function metrics() {
  g.__quireMetrics ??= create();
  return g.__quireMetrics;
}

/** A gauge whose value is read when Prometheus scrapes (queue depth, sandbox restarts). */
export function gaugeFrom(
  name: string,
  help: string,
  read: () => Promise<number | undefined> | number | undefined,
) {
  const m = metrics();
  if (m.registry.getSingleMetric(name)) return;
  new client.Gauge({
    name,
    help,
    registers: [m.registry],
    async collect() {
      const v = await read();
      if (v !== undefined) this.set(v);
    },
  });
}
