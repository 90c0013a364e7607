/**
 * Optional LLM backend: an OpenAI-compatible chat endpoint (INVOICE_LLM_URL, INVOICE_LLM_KEY,
 * INVOICE_LLM_MODEL; off unless INVOICE_LLM_URL is set) asked only for the fields the layout
 * analysis missed. Its answers are merged only where a field is missing and only when the value
 * is printed in the document (dates and amounts compared by value): the model can find, never
 * invent. Quire works fully without it.
 */
import { findAmounts, detectDecimalMark } from "@/lib/engine/invoice/amounts";
import { findDates } from "@/lib/engine/invoice/dates";
import { fold } from "@/lib/engine/invoice/text-utils";
import type { InvoiceBody } from "@/lib/engine/invoice/types";

export interface LlmConfig {
  /** Base URL ("https://host/v1") or the full chat-completions URL. */
  url: string;
  key?: string;
  model: string;
  timeoutMs: number;
}

/** The backend configuration from the environment, or undefined when it is off. */
export function llmConfigFromEnv(
  env: Record<string, string | undefined> = process.env,
): LlmConfig | undefined {
  const url = env.INVOICE_LLM_URL?.trim();
  if (!url) return undefined;
  return {
    url,
    key: env.INVOICE_LLM_KEY?.trim() || undefined,
    model: env.INVOICE_LLM_MODEL?.trim() || "gpt-4o-mini",
    timeoutMs: Number(env.INVOICE_LLM_TIMEOUT_MS) > 0 ? Number(env.INVOICE_LLM_TIMEOUT_MS) : 60_000,
  };
}

/** The fields the backend may fill, as dotted paths of the invoice object. */
export const LLM_FIELDS = [
  "vendor.name",
  "vendor.entityId",
  "vendor.address.streetAddress",
  "vendor.address.city",
  "vendor.address.postalCode",
  "vendor.address.country",
  "vendor.contactInformation.email",
  "vendor.contactInformation.phone",
  "customer.billTo.name",
  "customer.billTo.address.streetAddress",
  "customer.billTo.address.city",
  "customer.billTo.address.postalCode",
  "customer.billTo.address.country",
  "customer.shipTo.name",
  "invoice.invoiceNo",
  "invoice.invoiceDate",
  "invoice.poNo",
  "invoice.orderNo",
  "paymentDetails.paymentTerms",
  "paymentDetails.dueDate",
  "paymentDetails.total",
  "paymentDetails.subtotal",
  "paymentDetails.tax",
  "paymentDetails.bankingInformation.iban",
  "paymentDetails.bankingInformation.swiftBicCode",
  "paymentDetails.bankingInformation.bankName",
  "paymentDetails.bankingInformation.accountNumber",
] as const;

function get(obj: unknown, path: string): unknown {
  let cur = obj;
  for (const p of path.split(".")) {
    if (cur === null || typeof cur !== "object") return undefined;
    cur = (cur as Record<string, unknown>)[p];
  }
  return cur;
}

function set(obj: Record<string, unknown>, path: string, value: string): void {
  const parts = path.split(".");
  let cur = obj;
  for (const p of parts.slice(0, -1)) {
    if (typeof cur[p] !== "object" || cur[p] === null) cur[p] = {};
    cur = cur[p] as Record<string, unknown>;
  }
  cur[parts[parts.length - 1]] = value;
}

/** Paths of LLM_FIELDS (and customFields) missing from the body. */
export function missingFields(body: InvoiceBody, customFields: string[] = []): string[] {
  return [...LLM_FIELDS, ...customFields].filter((p) => get(body, p) === undefined);
}

export interface ChatMessage {
  role: "system" | "user";
  content: string;
}

const MAX_TEXT = 24_000;

/** The chat messages: the document text (layout kept) and the list of missing fields. */
export function buildPrompt(documentText: string, body: InvoiceBody, missing: string[]): ChatMessage[] {
  const text = documentText.length > MAX_TEXT ? `${documentText.slice(0, MAX_TEXT)}\n[...]` : documentText;
  return [
    {
      role: "system",
      content:
        "You read invoices. Answer with one JSON object whose keys are the requested dotted field paths and whose values are strings copied from the document. " +
        "Dates as YYYY-MM-DD, amounts as plain decimals with a dot. Omit a field that is not printed in the document; never guess.",
    },
    {
      role: "user",
      content:
        `Fields already read (do not repeat them):\n${JSON.stringify(body)}\n\n` +
        `Requested fields:\n${missing.map((m) => `- ${m}`).join("\n")}\n\n` +
        `Document text (rows of the page, cells separated by two spaces):\n"""\n${text}\n"""`,
    },
  ];
}

/** Parses the model's answer (JSON, possibly in a ``` fence) into path → string. */
export function parseAnswer(content: string): Record<string, string> {
  const m = /```(?:json)?\s*([\s\S]*?)```/.exec(content);
  const raw = (m ? m[1] : content).trim();
  const start = raw.indexOf("{");
  const end = raw.lastIndexOf("}");
  if (start < 0 || end < start) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.slice(start, end + 1));
  } catch {
    return {};
  }
  const out: Record<string, string> = {};
  const walk = (v: unknown, prefix: string) => {
    if (v === null || v === undefined) return;
    if (typeof v === "string" || typeof v === "number") {
      const s = String(v).trim();
      if (s) out[prefix] = s;
    } else if (typeof v === "object" && !Array.isArray(v)) {
      for (const [k, x] of Object.entries(v as Record<string, unknown>))
        walk(x, prefix ? `${prefix}.${k}` : k);
    }
  };
  walk(parsed, "");
  return out;
}

const squashFold = (s: string) =>
  fold(s)
    .replace(/[\s,.;:]+/g, " ")
    .trim();

/** True when the value is printed in the document (dates and amounts by value). */
export function isInDocument(path: string, value: string, documentText: string): boolean {
  const leaf = path.split(".").pop() ?? "";
  if (/date$/i.test(leaf)) {
    return (
      findDates(documentText, "DMY").some((d) => d.iso === value) ||
      findDates(documentText, "MDY").some((d) => d.iso === value)
    );
  }
  if (/^(total|subtotal|tax|discount|shipping)$/.test(leaf) || /amount|charges?|fee/i.test(leaf)) {
    const n = Number(value.replace(/[^\d.-]/g, ""));
    if (!Number.isFinite(n)) return false;
    return findAmounts(documentText, detectDecimalMark(documentText)).some(
      (a) => Math.abs(Math.abs(a.value) - Math.abs(n)) < 0.005,
    );
  }
  const v = squashFold(value);
  if (v.length < 2) return false;
  const doc = squashFold(documentText);
  return doc.includes(v) || doc.replace(/ /g, "").includes(v.replace(/ /g, ""));
}

/** Fills the missing fields of `body` from the answer; returns the paths filled. */
export function mergeAnswer(
  body: InvoiceBody,
  answer: Record<string, string>,
  missing: string[],
  documentText: string,
): string[] {
  const filled: string[] = [];
  for (const path of missing) {
    const value = answer[path];
    if (value === undefined) continue;
    if (get(body, path) !== undefined) continue;
    if (!isInDocument(path, value, documentText)) continue;
    set(body as Record<string, unknown>, path, value);
    filled.push(path);
  }
  return filled;
}

/** Asks the backend for the missing fields and merges what checks out. */
export async function fillWithLlm(
  body: InvoiceBody,
  documentText: string,
  cfg: LlmConfig,
  customFields: string[] = [],
  fetchImpl: typeof fetch = fetch,
): Promise<{ filled: string[]; error?: string }> {
  const missing = missingFields(body, customFields);
  if (missing.length === 0) return { filled: [] };
  const endpoint = /\/chat\/completions\/?$/.test(cfg.url)
    ? cfg.url
    : `${cfg.url.replace(/\/+$/, "")}/chat/completions`;
  const ctrl = new AbortController();
  const timer = setTimeout(() => ctrl.abort(), cfg.timeoutMs);
  try {
    const res = await fetchImpl(endpoint, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...(cfg.key ? { authorization: `Bearer ${cfg.key}` } : {}),
      },
      body: JSON.stringify({
        model: cfg.model,
        temperature: 0,
        response_format: { type: "json_object" },
        messages: buildPrompt(documentText, body, missing),
      }),
      signal: ctrl.signal,
    });
    if (!res.ok) return { filled: [], error: `LLM backend answered HTTP ${res.status}` };
    const json = (await res.json()) as { choices?: { message?: { content?: string } }[] };
    const content = json.choices?.[0]?.message?.content ?? "";
    return { filled: mergeAnswer(body, parseAnswer(content), missing, documentText) };
  } catch (e) {
    return { filled: [], error: `LLM backend failed: ${(e as Error).message}` };
  } finally {
    clearTimeout(timer);
  }
}
