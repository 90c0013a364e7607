/** Shapes of the API answers the dashboard reads (Quire's extensions included). */

export type JobStatus = "working" | "success" | "failed" | "aborted" | "created" | "unknown";

export interface JobSummary {
  jobId: string;
  operation: string;
  path: string;
  status: JobStatus;
  source: string | null;
  createdAt: string;
  durationMs: number | null;
  credits: number;
  pageCount: number | null;
  url: string | null;
  urls?: string[] | null;
  message: string | null;
  via: string;
}

export interface CallbackDelivery {
  attempt: number;
  at: string;
  ok: boolean;
  httpStatus: number | null;
  error: string | null;
}

export interface JobDetail extends JobSummary {
  request: Record<string, unknown>;
  result: Record<string, unknown> | null;
  callbacks: CallbackDelivery[];
}

export interface AccountInfo {
  email: string;
  name: string;
  accountName: string;
  remainingCredits: number;
}

export interface LedgerEntry {
  at: string;
  kind: "grant" | "reserve" | "capture" | "release";
  amount: number;
  jobId: string | null;
  operation: string | null;
}

export interface Ledger {
  entries: LedgerEntry[];
  daily: { day: string; operation: string; credits: number }[];
}

export interface ApiKey {
  id: string;
  name: string;
  prefix: string;
  kind: "user" | "dashboard";
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

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

/** The error body of the API. */
export interface ApiErrorBody {
  error: true;
  status: number;
  message: string;
}
