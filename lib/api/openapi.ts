import { z } from "zod";
import { operations, operationMethods } from "@/lib/operations/registry";
import { acceptedResponse, operationResponse } from "@/lib/operations/response";
import { errorCodes } from "@/lib/core/errors";
import { routes } from "./routes";
import { binaryResponse, type HttpMethod } from "./define-route";
import { errorResponse } from "./schemas";

type Json = Record<string, unknown>;

const toSchema = (s: z.ZodType, io: "input" | "output") => {
  const { $schema: _drop, ...rest } = z.toJSONSchema(s, { io, unrepresentable: "any" }) as Json;
  return rest;
};

const errorRef = { $ref: "#/components/responses/Error" };

const json = (schema: Json) => ({ "application/json": { schema } });

/** Query parameters of a GET, one per field of an object schema (complex values as JSON text). */
function queryParameters(schema: Json): Json[] {
  const props = (schema.properties ?? {}) as Record<string, Json>;
  const required = new Set((schema.required as string[] | undefined) ?? []);
  return Object.entries(props).map(([name, p]) => ({
    name,
    in: "query",
    required: required.has(name),
    description: typeof p.description === "string" ? p.description : undefined,
    schema: p,
  }));
}

function pathParameters(path: string): Json[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map((m) => ({ name: m[1], in: "path", required: true, schema: { type: "string" } }));
}

function requestContent(input: Json, multipart?: boolean) {
  if (!multipart) return { "application/json": { schema: input }, "application/x-www-form-urlencoded": { schema: input } };
  const props = { ...(input.properties as object), file: { type: "string", format: "binary" } };
  return { "multipart/form-data": { schema: { ...input, properties: props } } };
}

/** OpenAPI 3.1 document generated from the operation contracts and the route table (served at /v1/openapi.json). */
export function buildOpenApi() {
  const paths: Record<string, Record<string, Json>> = {};
  const add = (path: string, method: HttpMethod | "GET" | "POST", entry: Json) => {
    (paths[path] ??= {})[method.toLowerCase()] = entry;
  };

  for (const op of operations) {
    const params = toSchema(op.params, "input");
    const success = toSchema(operationResponse(op), "output");
    const accepted = toSchema(acceptedResponse, "output");
    const answer = op.alwaysAsync ? accepted : { anyOf: [success, accepted] };
    const common = {
      summary: op.title,
      description: op.summary + (op.deprecated ? "\n\nDeprecated." : ""),
      deprecated: op.deprecated || undefined,
      tags: [op.category],
      "x-cost": op.cost,
      responses: { "200": { description: "Success", content: json(answer) }, default: errorRef },
    };
    for (const method of operationMethods(op)) {
      if (method === "POST") {
        add(op.path, method, {
          operationId: op.id,
          ...common,
          requestBody: {
            required: true,
            content: {
              "application/json": { schema: params },
              "application/x-www-form-urlencoded": { schema: params },
              "multipart/form-data": {
                schema: { ...params, properties: { ...(params.properties as object), file: { type: "string", format: "binary" } } },
              },
            },
          },
        });
      } else {
        add(op.path, method, { operationId: `${op.id}-get`, ...common, parameters: queryParameters(params) });
      }
    }
  }

  for (const route of routes) {
    const response =
      route.response === binaryResponse
        ? { description: "The file", content: { "application/octet-stream": { schema: { type: "string", format: "binary" } } } }
        : { description: "OK", content: json(toSchema(route.response, "output")) };
    const input = route.input ? toSchema(route.input, "input") : undefined;
    for (const method of route.methods) {
      if (method === "HEAD") continue;
      const withBody = method === "POST" || method === "PUT";
      add(route.path, method, {
        operationId: route.methods.filter((m) => m !== "HEAD").length > 1 ? `${route.id}-${method.toLowerCase()}` : route.id,
        summary: (route.extension ? "Quire extension: " : "") + route.summary,
        description: route.description,
        tags: [route.tag],
        ...(route.auth === "api-key" ? {} : { security: [] }),
        parameters: [...pathParameters(route.path), ...(input && !withBody ? queryParameters(input) : [])],
        ...(input && withBody ? { requestBody: { content: requestContent(input, route.multipart) } } : {}),
        responses: { "200": response, default: errorRef },
      });
    }
  }

  return {
    openapi: "3.1.0" as const,
    info: {
      title: "Quire Document Processing API",
      version: "1.0.0",
      description: "PDF.co-compatible document processing API. Authenticate with the x-api-key header.",
      license: { name: "AGPL-3.0-or-later", identifier: "AGPL-3.0-or-later" },
    },
    components: {
      securitySchemes: { apiKey: { type: "apiKey", in: "header", name: "x-api-key" } },
      responses: {
        Error: {
          description: Object.entries(errorCodes).map(([c, t]) => `${c}: ${t}`).join("; "),
          content: json(toSchema(errorResponse, "output")),
        },
      },
    },
    security: [{ apiKey: [] }],
    paths,
  };
}
