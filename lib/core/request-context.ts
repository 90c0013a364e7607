import "server-only";
import { AsyncLocalStorage } from "node:async_hooks";
import { getConfig } from "./config";

/**
 * What follows one request (and the job it makes, on whichever node runs it): its request id
 * for the logs, and the public base URL its links are built from.
 */
export interface RequestContext {
  requestId: string;
  /** Origin the caller reached Quire at (scheme and host; PUBLIC_URL's path kept). */
  publicUrl?: string;
  jobId?: string;
}

const storage = new AsyncLocalStorage<RequestContext>();

export function runWithContext<T>(ctx: RequestContext, fn: () => T): T {
  return storage.run(ctx, fn);
}

export function getRequestContext(): RequestContext | undefined {
  return storage.getStore();
}

/** The base URL for links handed to the caller: the request's, else PUBLIC_URL (or its default). */
export function publicBaseUrl(): string {
  return storage.getStore()?.publicUrl ?? getConfig().publicUrl;
}
