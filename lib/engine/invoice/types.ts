/**
 * The seed's invoice object (`body` of POST /v1/ai-invoice-parser). All leaf values are
 * strings; absent values are omitted. customField names appear at the top level of the body.
 */
export interface InvoiceAddress {
  streetAddress?: string;
  city?: string;
  state?: string;
  postalCode?: string;
  country?: string;
}

export interface InvoiceContact {
  phone?: string;
  fax?: string;
  email?: string;
}

export interface InvoiceParty {
  name?: string;
  address?: InvoiceAddress;
  contactInformation?: InvoiceContact;
  entityId?: string;
}

export interface BankingInformation {
  bankName?: string;
  accountHolderName?: string;
  accountNumber?: string;
  iban?: string;
  swiftBicCode?: string;
  bankAddress?: InvoiceAddress;
  bankRoutingCode?: string;
  bankCode?: string;
  branchNumber?: string;
  purposeCode?: string;
  additionalNotes?: string;
}

export interface InvoiceBody {
  vendor?: InvoiceParty;
  customer?: {
    billTo?: InvoiceParty;
    shipTo?: { name?: string; address?: InvoiceAddress };
  };
  invoice?: { invoiceNo?: string; invoiceDate?: string; poNo?: string; orderNo?: string };
  paymentDetails?: {
    paymentTerms?: string;
    dueDate?: string;
    /** Quire extension: ISO 4217 code of the invoice's currency (from the XML, or symbols/codes/country on the page). */
    currency?: string;
    total?: string;
    subtotal?: string;
    tax?: string;
    discount?: string;
    shipping?: string;
    bankingInformation?: BankingInformation;
  };
  others?: { notes?: string };
  lineItems?: Record<string, string>[][];
  /** customField values, by the caller's names. */
  [custom: string]: unknown;
}

/** Where a field came from: 0-based page and box in PDF points, top-left origin. */
export interface FieldSource {
  page: number;
  x: number;
  y: number;
  width: number;
  height: number;
}

/** `fieldSources` of the IncludeFieldSources extension: dotted body path → box. */
export type FieldSources = Record<string, FieldSource>;

export interface ParseInvoiceResult {
  body: InvoiceBody;
  fieldSources: FieldSources;
  /** Notes for the job message (what was read how, what was skipped). */
  notes: string[];
  /** Confidence extension: dotted body path → 0–1, for the main header fields. */
  confidence?: Record<string, number>;
}

/** Removes empty strings, empty objects and empty arrays, recursively (absent = omitted). */
export function pruneEmpty<T>(value: T): T | undefined {
  if (typeof value === "string") return (value.trim() === "" ? undefined : value.trim()) as T | undefined;
  if (Array.isArray(value)) {
    const arr = value.map((v) => pruneEmpty(v)).filter((v) => v !== undefined);
    return (arr.length === 0 ? undefined : arr) as T | undefined;
  }
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      const p = pruneEmpty(v);
      if (p !== undefined) out[k] = p;
    }
    return (Object.keys(out).length === 0 ? undefined : out) as T | undefined;
  }
  return value === null ? undefined : value;
}
