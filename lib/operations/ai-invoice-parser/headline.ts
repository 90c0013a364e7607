/**
 * What names a parsed invoice in a list (the dashboard's invoice list, the job list's `invoice`
 * field): vendor, number, date, total and currency, read from a finished job's stored result.
 * Pure; a value the parser did not find is left out.
 */
export interface InvoiceHeadline {
  vendor?: string;
  invoiceNo?: string;
  invoiceDate?: string;
  total?: string;
  currency?: string;
}

const text = (v: unknown): string | undefined => (typeof v === "string" && v.trim() ? v.trim() : undefined);
const obj = (v: unknown): Record<string, unknown> => (v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

/** The headline of a stored ai-invoice-parser result (`{ body: { vendor, invoice, paymentDetails } }`), or undefined when it names nothing. */
export function invoiceHeadline(result: unknown): InvoiceHeadline | undefined {
  const body = obj(obj(result).body);
  const invoice = obj(body.invoice);
  const pay = obj(body.paymentDetails);
  const h: InvoiceHeadline = {
    vendor: text(obj(body.vendor).name),
    invoiceNo: text(invoice.invoiceNo),
    invoiceDate: text(invoice.invoiceDate),
    total: text(pay.total),
    currency: text(pay.currency),
  };
  for (const k of Object.keys(h) as (keyof InvoiceHeadline)[]) if (h[k] === undefined) delete h[k];
  return Object.keys(h).length ? h : undefined;
}
