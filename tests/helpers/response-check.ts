import type { z } from "zod";
import { routes } from "@/lib/api/routes";
import { binaryResponse, compilePath, matchPath } from "@/lib/api/define-route";
import { errorResponse } from "@/lib/api/schemas";
import { getOperationByPath } from "@/lib/operations/registry";
import { acceptedResponse, operationResponse } from "@/lib/operations/response";

const compiled = routes.map((route) => ({ route, pattern: compilePath(route.path) }));

/** Which declared schema an answer must match: the route's or operation's 200 answer, or the error envelope. */
export function schemaFor(method: string, path: string, status: number, body: unknown): { name: string; schema: z.ZodType } | null {
  const p = path.split("?")[0].replace(/\/+$/, "") || "/";
  if (status !== 200) return { name: "error envelope", schema: errorResponse };
  for (const { route, pattern } of compiled) {
    if (!matchPath(pattern, p) || !(route.methods as readonly string[]).includes(method)) continue;
    if (route.response === binaryResponse) return null;
    return { name: `route ${route.id}`, schema: route.response };
  }
  const op = getOperationByPath(p);
  if (op) {
    const accepted = body !== null && typeof body === "object" && "jobId" in body;
    return accepted ? { name: `${op.id} (accepted)`, schema: acceptedResponse } : { name: op.id, schema: operationResponse(op) };
  }
  return null;
}

/**
 * Checks a real answer against the schema the route table or the operation's contract declares;
 * throws with the differences, so an answer that drifts from its schema fails the test that got it.
 */
export function checkAnswer(method: string, path: string, status: number, body: unknown): void {
  if (typeof body !== "object" || body === null) return; // not JSON (a file): nothing declared to check
  const target = schemaFor(method, path, status, body);
  if (!target) return;
  const r = target.schema.safeParse(body);
  const problems = r.success ? [] : r.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`);
  if (status !== 200 && (body as { status?: unknown }).status !== status) {
    problems.push(`status: the body says ${JSON.stringify((body as { status?: unknown }).status)}, the HTTP status is ${status}`);
  }
  if (problems.length) {
    throw new Error(
      `${method} ${path} answered ${status} with a body that does not match ${target.name}:\n  ${problems.join("\n  ")}\n${JSON.stringify(body).slice(0, 2000)}`,
    );
  }
}
