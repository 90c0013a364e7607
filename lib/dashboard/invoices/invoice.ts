/** The invoice object of the parser, laid out for review (pure: tested in tests/unit/dashboard). */
import type { FieldSource, FieldSources } from "@/lib/engine/invoice/types";

export interface InvoiceField {
  path: string;
  label: string;
  value: string | null;
}

export interface InvoiceSection {
  id: string;
  title: string;
  groups: { title?: string; fields: InvoiceField[] }[];
}

const address = (p: string): [string, string][] => [
  [`${p}.streetAddress`, "Street"],
  [`${p}.city`, "City"],
  [`${p}.state`, "State"],
  [`${p}.postalCode`, "Postal code"],
  [`${p}.country`, "Country"],
];
const contact = (p: string): [string, string][] => [
  [`${p}.phone`, "Phone"],
  [`${p}.fax`, "Fax"],
  [`${p}.email`, "Email"],
];

/** Every field the public API defines, by section; what the parser did not find shows as missing. */
const layout: { id: string; title: string; groups: { title?: string; fields: [string, string][] }[] }[] = [
  {
    id: "vendor",
    title: "Vendor",
    groups: [
      { fields: [["vendor.name", "Name"], ["vendor.entityId", "Tax / entity ID"]] },
      { title: "Address", fields: address("vendor.address") },
      { title: "Contact", fields: contact("vendor.contactInformation") },
    ],
  },
  {
    id: "customer",
    title: "Customer",
    groups: [
      { title: "Bill to", fields: [["customer.billTo.name", "Name"], ["customer.billTo.entityId", "Tax / entity ID"], ...address("customer.billTo.address"), ...contact("customer.billTo.contactInformation")] },
      { title: "Ship to", fields: [["customer.shipTo.name", "Name"], ...address("customer.shipTo.address")] },
    ],
  },
  {
    id: "invoice",
    title: "Invoice",
    groups: [{ fields: [["invoice.invoiceNo", "Invoice number"], ["invoice.invoiceDate", "Invoice date"], ["invoice.poNo", "PO number"], ["invoice.orderNo", "Order number"]] }],
  },
  {
    id: "payment",
    title: "Payment details",
    groups: [
      {
        fields: [
          ["paymentDetails.total", "Total"],
          ["paymentDetails.subtotal", "Subtotal"],
          ["paymentDetails.tax", "Tax"],
          ["paymentDetails.discount", "Discount"],
          ["paymentDetails.shipping", "Shipping"],
          ["paymentDetails.paymentTerms", "Payment terms"],
          ["paymentDetails.dueDate", "Due date"],
          ["paymentDetails.currency", "Currency"],
        ],
      },
      {
        title: "Banking",
        fields: [
          ["paymentDetails.bankingInformation.bankName", "Bank name"],
          ["paymentDetails.bankingInformation.accountHolderName", "Account holder"],
          ["paymentDetails.bankingInformation.accountNumber", "Account number"],
          ["paymentDetails.bankingInformation.iban", "IBAN"],
          ["paymentDetails.bankingInformation.swiftBicCode", "SWIFT / BIC"],
          ["paymentDetails.bankingInformation.bankRoutingCode", "Routing code"],
          ["paymentDetails.bankingInformation.bankCode", "Bank code"],
          ["paymentDetails.bankingInformation.branchNumber", "Branch number"],
          ["paymentDetails.bankingInformation.purposeCode", "Purpose code"],
          ...address("paymentDetails.bankingInformation.bankAddress").map(([p, l]) => [p, `Bank ${l.toLowerCase()}`] as [string, string]),
          ["paymentDetails.bankingInformation.additionalNotes", "Notes"],
        ],
      },
    ],
  },
  { id: "others", title: "Others", groups: [{ fields: [["others.notes", "Notes"]] }] },
];

export function getPath(obj: unknown, path: string): unknown {
  let cur: unknown = obj;
  for (const part of path.split(".")) {
    if (cur === null || typeof cur !== "object") return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

function asText(v: unknown): string | null {
  if (v === undefined || v === null || v === "") return null;
  return typeof v === "object" ? JSON.stringify(v) : String(v);
}

/** The invoice's sections with every known field (value null = missing). */
export function buildInvoiceSections(invoice: unknown): InvoiceSection[] {
  return layout.map((s) => ({
    id: s.id,
    title: s.title,
    groups: s.groups.map((g) => ({ title: g.title, fields: g.fields.map(([path, label]) => ({ path, label, value: asText(getPath(invoice, path)) })) })),
  }));
}

export interface LineItemTable {
  columns: string[];
  rows: Record<string, string>[];
}

/** Line items (array of arrays of objects, keys vary by invoice) as tables with the invoice's own columns. */
export function buildLineItemTables(invoice: unknown): LineItemTable[] {
  const raw = getPath(invoice, "lineItems");
  if (!Array.isArray(raw)) return [];
  const groups: unknown[][] = raw.every((x) => Array.isArray(x)) ? (raw as unknown[][]) : [raw];
  return groups
    .map((g) => {
      const columns: string[] = [];
      const rows = g
        .filter((r) => r && typeof r === "object")
        .map((r) => {
          const row: Record<string, string> = {};
          for (const [k, v] of Object.entries(r as Record<string, unknown>)) {
            if (!columns.includes(k)) columns.push(k);
            row[k] = asText(v) ?? "";
          }
          return row;
        });
      return { columns, rows };
    })
    .filter((t) => t.rows.length);
}

/** A column key as a header ("unitPrice" → "Unit price"). */
export function humanize(key: string): string {
  const s = key.replace(/[_-]+/g, " ").replace(/([a-z])([A-Z])/g, "$1 $2").trim();
  return s.charAt(0).toUpperCase() + s.slice(1).toLowerCase();
}

export type { FieldSource };

/**
 * The parser's `fieldSources` (profile IncludeFieldSources: true; top level of the result):
 * dotted body path ("vendor.name", "lineItems.0.2.amount") → 0-based page and box in PDF
 * points, top-left origin (lib/engine/invoice/types.ts). Malformed entries are skipped.
 */
export function readFieldSources(result: Record<string, unknown>): FieldSources {
  const raw = result.fieldSources;
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) return {};
  const out: FieldSources = {};
  for (const [k, v] of Object.entries(raw as Record<string, Partial<FieldSource>>)) {
    if (v && [v.page, v.x, v.y, v.width, v.height].every((n) => typeof n === "number" && Number.isFinite(n))) out[k] = v as FieldSource;
  }
  return out;
}

/** The parser's `confidence` (profile IncludeConfidence: true): dotted body path → 0–1. */
export function readConfidence(result: Record<string, unknown>): Record<string, number> {
  const raw = result.confidence;
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) return {};
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(raw as Record<string, unknown>))
    if (typeof v === "number" && Number.isFinite(v) && v >= 0 && v <= 1) out[k] = v;
  return out;
}

/** The invoice as CSV: section, field, value rows, then each line-item table. */
export function invoiceToCsvRows(invoice: unknown): string[][] {
  const rows: string[][] = [["section", "field", "value"]];
  for (const s of buildInvoiceSections(invoice)) for (const g of s.groups) for (const f of g.fields) rows.push([s.title + (g.title ? ` / ${g.title}` : ""), f.path, f.value ?? ""]);
  for (const [i, t] of buildLineItemTables(invoice).entries()) {
    rows.push([]);
    rows.push([`line items ${i + 1}`, ...t.columns]);
    for (const r of t.rows) rows.push(["", ...t.columns.map((c) => r[c] ?? "")]);
  }
  return rows;
}
