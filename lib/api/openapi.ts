import { z } from "zod";
import { operations } from "@/lib/operations/registry";
import { errorCodes } from "@/lib/core/errors";

/** OpenAPI 3.1 document generated from the operation contracts (served at /v1/openapi.json). */
export function buildOpenApi() {
  const paths: Record<string, unknown> = {};
  const errorResponse = { $ref: "#/components/responses/Error" };
  for (const op of operations) {
    const schema = z.toJSONSchema(op.params, { io: "input", unrepresentable: "any" }) as Record<string, unknown>;
    const successProps: Record<string, unknown> = {
      error: { type: "boolean", const: false },
      status: op.alwaysAsync ? { type: "string", const: "created" } : { type: "integer", const: 200 },
      credits: { type: "integer" },
      remainingCredits: { type: "integer" },
      duration: { type: "integer", description: "milliseconds" },
      jobId: { type: "string", description: "with async: true" },
      pageCount: { type: "integer" },
      name: { type: "string" },
      outputLinkValidTill: { type: "string", format: "date-time" },
    };
    for (const [k, v] of Object.entries(op.responseFields)) successProps[k] = { type: v.type, description: v.description };
    paths[op.path] = {
      post: {
        operationId: op.id,
        summary: op.title,
        description: op.summary + (op.deprecated ? "\n\nDeprecated." : ""),
        deprecated: op.deprecated || undefined,
        tags: [op.category],
        "x-cost": op.cost,
        requestBody: {
          required: true,
          content: {
            "application/json": { schema },
            "application/x-www-form-urlencoded": { schema },
            "multipart/form-data": { schema: { ...schema, properties: { ...(schema.properties as object), file: { type: "string", format: "binary" } } } },
          },
        },
        responses: {
          "200": { description: "Success", content: { "application/json": { schema: { type: "object", properties: successProps } } } },
          default: errorResponse,
        },
      },
    };
  }
  const simple = (summary: string, props: Record<string, unknown>, method = "get") => ({
    [method]: { summary, responses: { "200": { description: "OK", content: { "application/json": { schema: { type: "object", properties: props } } } }, default: errorResponse } },
  });
  paths["/v1/account/credit/balance"] = simple("Credit balance", { remainingCredits: { type: "integer" } });
  paths["/v1/job/check"] = {
    ...simple("Check a background job (GET with ?jobid=)", { status: { type: "string", enum: ["working", "success", "failed", "aborted", "unknown"] } }),
    ...simple("Check a background job ({jobid, force})", { status: { type: "string" } }, "post"),
  };
  paths["/v1/file/upload/get-presigned-url"] = simple("Presigned upload URL (?name=&contenttype=); PUT the raw bytes to presignedUrl", {
    presignedUrl: { type: "string" },
    url: { type: "string" },
    name: { type: "string" },
  });
  paths["/v1/file/upload"] = simple("Upload a file (multipart `file`)", { url: { type: "string" } }, "post");
  paths["/v1/file/upload/base64"] = simple("Upload a file as base64 or a data URI (`file`, `name`)", { url: { type: "string" } }, "post");
  paths["/v1/jobs"] = simple("Quire extension: the account's jobs (?limit=&status=&q=)", { jobs: { type: "array" } });
  paths["/v1/jobs/{jobId}"] = simple("Quire extension: one job with request, result and callback deliveries", { job: { type: "object" } });
  paths["/v1/jobs/{jobId}/rerun"] = simple("Quire extension: run a job's request again", {}, "post");
  paths["/v1/account"] = simple("Quire extension: account and balance", { email: { type: "string" }, remainingCredits: { type: "integer" } });
  paths["/v1/account/credit/ledger"] = simple("Quire extension: credit ledger and use per day (?days=)", { entries: { type: "array" }, daily: { type: "array" } });
  paths["/v1/account/keys"] = {
    ...simple("Quire extension: API keys", { keys: { type: "array" } }),
    ...simple("Quire extension: create an API key ({name}); the secret is shown once", { secret: { type: "string" } }, "post"),
  };
  paths["/v1/account/keys/{id}"] = simple("Quire extension: revoke an API key", {}, "delete");
  paths["/v1/account/webhook-secret"] = simple("Quire extension: the callback signing secret", { secret: { type: "string" } });
  paths["/v1/account/webhook-secret/rotate"] = simple("Quire extension: rotate the callback signing secret", { secret: { type: "string" } }, "post");
  return {
    openapi: "3.1.0",
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
          content: {
            "application/json": {
              schema: {
                type: "object",
                required: ["error", "status", "message"],
                properties: { error: { type: "boolean", const: true }, status: { type: "integer" }, message: { type: "string" } },
              },
            },
          },
        },
      },
    },
    security: [{ apiKey: [] }],
    paths,
  };
}
