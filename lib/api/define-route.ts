import type { IncomingMessage, ServerResponse } from "node:http";
import type { z } from "zod";
import type { Caller } from "./auth";

/**
 * The shape of one entry of the route table (lib/api/routes.ts). Universal: the table holds only
 * schemas and a lazy reference to the handler, so the OpenAPI builder, the dashboard's types and
 * the tests read it without loading server code.
 */

export type HttpMethod = "GET" | "HEAD" | "POST" | "PUT" | "DELETE";

/**
 * `api-key`: x-api-key required (the caller is resolved before the handler runs).
 * `signed-link`: no key; the handler checks the signature carried in the link itself.
 * `none`: public.
 */
export type RouteAuth = "api-key" | "signed-link" | "none";

/** The response body is raw bytes the handler writes itself (storage links). */
export const binaryResponse = "binary" as const;
export type ResponseSpec = z.ZodType | typeof binaryResponse;

export interface RouteContext<A extends RouteAuth, I extends z.ZodObject | undefined> {
  req: IncomingMessage;
  res: ServerResponse;
  /** The request URL (path not normalised; the query string as sent). */
  url: URL;
  /** Values of the `{name}` segments of the route's path, URL-decoded. */
  pathParams: Record<string, string>;
  /** When the request arrived (ms), for `duration`. */
  started: number;
  caller: A extends "api-key" ? Caller : undefined;
  /**
   * The query string and body read (up to the route's `maxBodyBytes`) and parsed leniently through
   * the route's `input` schema: any letter case, string booleans and numbers. Missing required → 400,
   * invalid → 454.
   */
  input(): Promise<I extends z.ZodObject ? z.infer<I> : Record<string, unknown>>;
}

/** An answer with another status than 200 (e.g. a re-run that failed synchronously). */
export class JsonReply {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {}
}

/** A handler answers its response body (sent as JSON, status 200), a JsonReply, or nothing when it wrote the response itself. */
export type RouteHandler<A extends RouteAuth, I extends z.ZodObject | undefined, R extends ResponseSpec> = (
  ctx: RouteContext<A, I>,
) => Promise<R extends z.ZodType ? z.input<R> | JsonReply : void>;

export interface RouteDefinition<
  A extends RouteAuth = RouteAuth,
  I extends z.ZodObject | undefined = z.ZodObject | undefined,
  R extends ResponseSpec = ResponseSpec,
> {
  /** Unique, kebab-case; the OpenAPI operationId. */
  id: string;
  /** Every method the path accepts (the public API takes GET with query parameters and POST for most paths). */
  methods: readonly HttpMethod[];
  /** The path, with `{name}` for a path parameter: "/v1/jobs/{jobId}/rerun". Matched case-insensitively. */
  path: string;
  auth: A;
  summary: string;
  description?: string;
  tag: "account" | "jobs" | "files" | "service" | "templates";
  /** A Quire extension (not part of the public API this service is compatible with). */
  extension?: boolean;
  /** Query and body fields (documented in OpenAPI, parsed by ctx.input()). */
  input?: I;
  /** The body is multipart/form-data with a binary `file` part (so documented). */
  multipart?: boolean;
  /** Largest body ctx.input() reads (default 64 KiB). */
  maxBodyBytes?: number;
  /** The 200 answer's schema; the API tests check every real answer against it. */
  response: R;
  /** The handler, loaded on first use (static `import()` so "find references" finds this entry). */
  handler: () => Promise<RouteHandler<A, I, R>>;
}

/** Keeps the entry's types so the handler is checked against its input and response schemas. */
export function defineRoute<A extends RouteAuth, I extends z.ZodObject | undefined, R extends ResponseSpec>(
  def: RouteDefinition<A, I, R>,
): RouteDefinition<A, I, R> {
  return def;
}

export interface PathPattern {
  regex: RegExp;
  names: string[];
}

/** "/v1/jobs/{jobId}" → a case-insensitive regex with one group per parameter. */
export function compilePath(path: string): PathPattern {
  const names: string[] = [];
  const source = path
    .split("/")
    .map((segment) => {
      const m = /^\{(\w+)\}$/.exec(segment);
      if (!m) return segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      names.push(m[1]);
      return "([^/]+)";
    })
    .join("/");
  return { regex: new RegExp(`^${source}$`, "i"), names };
}

/** The parameters of `pathname` when it matches the pattern, else null. Undecodable segments do not match. */
export function matchPath(pattern: PathPattern, pathname: string): Record<string, string> | null {
  const m = pattern.regex.exec(pathname);
  if (!m) return null;
  const params: Record<string, string> = {};
  try {
    pattern.names.forEach((name, i) => (params[name] = decodeURIComponent(m[i + 1])));
  } catch {
    return null;
  }
  return params;
}
