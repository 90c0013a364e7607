import "server-only";
import type * as s from "../schemas";
import type { RouteHandler } from "../define-route";
import { buildOpenApi } from "../openapi";

export const health: RouteHandler<"none", undefined, typeof s.healthResponse> = async () => ({ ok: true });

let cached: ReturnType<typeof buildOpenApi> | undefined;
/** Built once per process: the contracts and the route table do not change while it runs. */
export const openApi: RouteHandler<"none", undefined, typeof s.openApiResponse> = async () => (cached ??= buildOpenApi());
