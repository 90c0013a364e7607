import { z } from "zod";
import type { OperationDefinition } from "./types";

/**
 * The answers of an operation, as schemas: the success envelope every operation shares plus the
 * operation's own `response` fields, and the acceptance of a background job. Universal: the
 * OpenAPI document and the API tests read them.
 */

/** Fields every successful operation answer carries, or may carry. */
const successEnvelope = z.strictObject({
  error: z.literal(false),
  status: z.literal(200),
  credits: z.number().int().describe("Credits charged: perCall + perPage × pageCount."),
  remainingCredits: z.number().int(),
  duration: z.number().int().describe("Milliseconds from the request to the answer."),
  pageCount: z.number().int().optional().describe("Pages processed (or in the document)."),
  message: z.string().optional(),
  name: z.string().optional().describe("Name of the output file (file outputs)."),
  outputLinkValidTill: z.string().optional().describe("When the output links expire (ISO 8601)."),
  fileSize: z.number().int().optional().describe("Size of the output file in bytes (one file output)."),
});

/** The first answer of `async: true` (and of the invoice parser, which always runs in the background). */
export const acceptedResponse = z.strictObject({
  jobId: z.string().describe("Poll /v1/job/check with it, or wait for the callback."),
  url: z.string().optional().describe("Where the result will be once the job succeeds."),
  name: z.string().optional(),
  error: z.literal(false),
  status: z.union([z.literal(200), z.literal("created")]),
  message: z.string().optional(),
  credits: z.number().int().describe("Credits reserved (the final charge is in the job's result)."),
  remainingCredits: z.number().int(),
  duration: z.number().int(),
});

/** The whole success answer of one operation: the envelope plus its own fields. */
export function operationResponse(op: OperationDefinition): z.ZodObject {
  return successEnvelope.extend(op.response.shape);
}
