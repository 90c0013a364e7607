import type { z } from "zod";
import type * as s from "@/lib/api/schemas";

/**
 * Shapes of the API answers the dashboard reads, inferred from the route table's schemas
 * (lib/api/schemas.ts), so the dashboard cannot drift from what the engine sends.
 */

export type JobSummary = z.infer<typeof s.jobSummarySchema>;
export type JobDetail = z.infer<typeof s.jobDetailSchema>;
export type JobCheck = z.infer<typeof s.jobCheckResponse>;
export type Ledger = z.infer<typeof s.ledgerResponse>;
export type ApiKey = z.infer<typeof s.apiKeySchema>;
export type Balance = z.infer<typeof s.balanceResponse>;
export type JobsAnswer = z.infer<typeof s.jobsResponse>;
export type JobAnswer = z.infer<typeof s.jobDetailResponse>;
export type KeysAnswer = z.infer<typeof s.keysResponse>;
export type WebhookSecret = z.infer<typeof s.webhookSecretResponse>;
export type FilesAnswer = z.infer<typeof s.fileAllResponse>;
export type StoredFile = z.infer<typeof s.storedFileSchema>;

/** Answers of the dashboard's own route handlers (app/api), not of the API. */
export interface RuleSet {
  id: string;
  name: string;
  rules: string;
  createdAt: string;
  updatedAt: string;
}

export interface UpstreamSettings {
  mode: "engine" | "remote";
  baseUrl: string | null;
  keyHint: string | null;
}
