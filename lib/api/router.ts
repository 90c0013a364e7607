import "server-only";
import type { IncomingMessage, ServerResponse } from "node:http";
import { QuireError, toQuireError } from "@/lib/core/errors";
import { log } from "@/lib/core/log";
import { getOperationByPath, operationMethods } from "@/lib/operations/registry";
import { takesSeveralFiles, type OperationDefinition } from "@/lib/operations/types";
import { corsHeaders, readWireRequest, sendError, sendJson } from "./http";
import { authenticate, type Caller } from "./auth";
import { parseParams } from "@/lib/operations/wire";
import { submitOperation } from "./submit";
import { keepChosenParts, storePart } from "./uploads";
import { enforceRateLimit } from "./rate-limit";
import { hashingPart, requestFingerprint, withIdempotency } from "./idempotency";
import { deleteFileRow } from "@/lib/storage/local-store";
import { routes, type Route } from "./routes";
import { JsonReply, compilePath, matchPath, type RouteContext, type RouteAuth } from "./define-route";

const JSON_MAX = 50 * 1024 * 1024;
const INPUT_MAX = 64 * 1024;

const compiled = routes.map((route) => ({ route: route as Route, pattern: compilePath(route.path) }));

/** True for the paths the engine serves (the rest goes to the dashboard). */
export function isEnginePath(pathname: string) {
  if (pathname.startsWith("/v1/") || pathname.startsWith("/v2/") || pathname.startsWith("/files/"))
    return true;
  const p = normalise(pathname);
  return compiled.some((c) => c.pattern.regex.test(p));
}

function normalise(pathname: string) {
  return pathname.replace(/\/+$/, "") || "/";
}

/** The engine's HTTP entry: one wrapper for CORS, auth, errors and logging around every route. */
export async function handleEngineRequest(req: IncomingMessage, res: ServerResponse) {
  const started = Date.now();
  const url = new URL(req.url ?? "/", "http://internal");
  try {
    if (req.method === "OPTIONS") {
      res.writeHead(204, corsHeaders);
      res.end();
      return;
    }
    await dispatch(req, res, url, started);
  } catch (e) {
    const err = toQuireError(e);
    if (err.status === 500) log.error(`${req.method} ${url.pathname} failed`, e);
    if (res.headersSent) return void res.destroy();
    // The client is still sending: read the rest first (a little of it) so that it gets the answer
    // instead of a reset connection; past that, answer and close.
    if (!req.complete && !(await drained(req))) res.setHeader("connection", "close");
    sendError(res, err);
  }
}

const DRAIN_MAX_BYTES = 64 * 1024 * 1024;
const DRAIN_MAX_MS = 10_000;

/** Reads and drops what is left of a request body; false when there is more than is worth reading. */
async function drained(req: IncomingMessage): Promise<boolean> {
  let size = 0;
  const deadline = Date.now() + DRAIN_MAX_MS;
  try {
    for await (const chunk of req.iterator({ destroyOnReturn: false })) {
      size += (chunk as Buffer).length;
      if (size > DRAIN_MAX_BYTES || Date.now() > deadline) return false;
    }
    return true;
  } catch {
    return false;
  }
}

async function dispatch(req: IncomingMessage, res: ServerResponse, url: URL, started: number) {
  const path = normalise(url.pathname);
  const method = req.method ?? "GET";
  let allowed: string[] = [];
  for (const { route, pattern } of compiled) {
    const pathParams = matchPath(pattern, path);
    if (!pathParams) continue;
    if ((route.methods as readonly string[]).includes(method)) {
      return runRoute(route, { req, res, url, pathParams, started });
    }
    allowed = allowed.concat(route.methods);
  }
  const op = getOperationByPath(path);
  if (op) {
    const caller = await authorize(req, res);
    const methods = operationMethods(op);
    if (!(methods as readonly string[]).includes(method)) {
      throw new QuireError(
        405,
        `${op.path} takes ${methods.join(" or ")}${methods.includes("POST") ? " with a JSON body" : ""}`,
      );
    }
    return runOperation(op, req, res, url, caller, started);
  }
  // Unknown paths and methods still need a key: a caller without one learns nothing about what exists.
  await authorize(req, res);
  if (allowed.length) throw new QuireError(405, `${path} takes ${[...new Set(allowed)].join(" or ")}`);
  throw new QuireError(404, `No such endpoint: ${method} ${path}. See /v1/openapi.json for the list.`);
}

/** Every keyed request: the key checked, then its rate limit taken (429 past it). */
async function authorize(req: IncomingMessage, res: ServerResponse): Promise<Caller> {
  const caller = await authenticate(req);
  await enforceRateLimit(res, caller.keyId);
  return caller;
}

/** A bounded label for metrics: the table's path pattern or the operation's path, else "other". */
export function routeLabel(pathname: string): string {
  const path = normalise(pathname);
  const hit = compiled.find((c) => c.pattern.regex.test(path));
  if (hit) return hit.route.path;
  return getOperationByPath(path)?.path ?? "other";
}

type Base = Omit<RouteContext<RouteAuth, undefined>, "caller" | "input">;

async function runRoute(route: Route, base: Base) {
  const caller = route.auth === "api-key" ? await authorize(base.req, base.res) : undefined;
  const ctx = {
    ...base,
    caller,
    async input() {
      const wire = await readWireRequest(base.req, base.url, route.maxBodyBytes ?? INPUT_MAX);
      return route.input ? parseParams(wire.fields, route.input) : wire.fields;
    },
  };
  const handler = (await route.handler()) as (c: typeof ctx) => Promise<unknown>;
  const out = await handler(ctx);
  if (out === undefined) return; // the handler wrote the response itself
  if (out instanceof JsonReply) return sendJson(base.res, out.status, out.body);
  sendJson(base.res, 200, out);
}

/**
 * Every operation: query string and body (JSON, form or multipart), parsed through its contract.
 * A multipart `file` part stands in for `url`: it streams to storage as an upload and its link
 * becomes the source (every part, for an operation that takes several files).
 */
async function runOperation(
  op: OperationDefinition,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  caller: Caller,
  started: number,
) {
  // With an Idempotency-Key the file parts are hashed while they stream, for the request's fingerprint.
  const idempotent = req.headers["idempotency-key"] !== undefined;
  const wire = await readWireRequest(
    req,
    url,
    JSON_MAX,
    (part) => (idempotent ? hashingPart(part, (p) => storePart(caller, p)) : storePart(caller, part)),
    (p) => deleteFileRow(p.id),
  );
  const rejoined = rejoinCutUrl(url.search);
  if (rejoined !== undefined && wire.fields.url === new URLSearchParams(url.search).get("url")) wire.fields.url = rejoined;
  const r = await withIdempotency(
    req,
    caller.accountId,
    () => requestFingerprint(op.path, wire.fields, wire.files),
    async () => {
      const parts = await keepChosenParts(wire.files, takesSeveralFiles(op.input));
      if (parts.length) wire.fields.url = parts.map((p) => p.url).join(",");
      const params = parseParams(applyWireAliases(wire.fields, op.wireAliases), op.params) as Record<string, unknown>;
      return submitOperation(op, params, caller, started);
    },
    // A replayed answer names the first call's uploads: these copies are not needed.
    async () => {
      for (const p of wire.files) await deleteFileRow(p.id).catch(() => {});
    },
  );
  return sendJson(res, r.status, r.body, r.headers);
}

/** Fields sent under another name of the public API (`inputUri` → `url`), when the canonical one is absent. */
export function applyWireAliases(fields: Record<string, unknown>, aliases: Record<string, string> | undefined): Record<string, unknown> {
  if (!aliases) return fields;
  const out = { ...fields };
  const has = (name: string) => Object.keys(out).some((k) => k.toLowerCase() === name.toLowerCase() && out[k] !== undefined && out[k] !== "");
  for (const [alias, canonical] of Object.entries(aliases)) {
    const key = Object.keys(out).find((k) => k.toLowerCase() === alias.toLowerCase());
    if (key === undefined) continue;
    if (!has(canonical)) out[canonical] = out[key];
    delete out[key];
  }
  return out;
}

/**
 * Query keys of file links: Quire's own (`/files/<id>/<name>?exp=…&sig=…`) and an S3 store's
 * presigned ones (`X-Amz-…`). No operation takes them.
 */
const LINK_KEY = /^(exp|sig|x-amz-[a-z-]+)$/i;

/**
 * The `url` of a query string in which a client pasted file links unencoded (the public API's
 * official samples do: `...&url=<uploaded file url>`). Quire's links carry their own
 * `?exp=…&sig=…`, so each arrives cut at its `&`: `url=…?exp=1` and `sig=…`. The pieces that
 * follow `url` and belong to a link are joined back; undefined when there is nothing to join.
 */
export function rejoinCutUrl(search: string): string | undefined {
  const parts = search.replace(/^\?/, "").split("&");
  const start = parts.findIndex((p) => /^url=/i.test(p));
  if (start < 0) return undefined;
  let value = parts[start].slice(4);
  let joined = false;
  for (let i = start + 1; i < parts.length; i++) {
    const key = decodeQueryPart(parts[i].split("=")[0]);
    if (!LINK_KEY.test(key)) continue;
    value += `&${parts[i]}`;
    joined = true;
  }
  return joined ? decodeQueryPart(value) : undefined;
}

function decodeQueryPart(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, " "));
  } catch {
    return text;
  }
}
