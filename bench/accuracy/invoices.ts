/**
 * npm run accuracy:invoices — runs the invoice parser over ../shared/corpus/invoices (PDFs with
 * invoice2data's expected fields as JSON) and prints, per invoice and in total, the header
 * fields found right, wrong and missed, the line items (count and amounts) and seconds per page.
 *
 * invoice2data's keys are its own template vocabulary; the common fields are mapped to the
 * public API's invoice object below (README of the corpus: invoice_number, date, amount, currency,
 * issuer, and where present amount_untaxed, amount_tax, date_due, iban, vat). Skips quietly
 * when the corpus is absent. Usage: tsx --import ./scripts/node-hooks.mjs bench/accuracy/invoices.ts [dir]
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { readInvoice } from "@/lib/engine/invoice/read-invoice";
import { shutdownOcr } from "@/lib/engine/ocr/pool";

type Json = Record<string, unknown>;

const dir = path.resolve(
  process.argv[2] ??
    process.env.INVOICE_CORPUS ??
    path.join(process.cwd(), "..", "shared", "corpus", "invoices"),
);

const get = (o: unknown, p: string): unknown =>
  p.split(".").reduce<unknown>((c, k) => (c && typeof c === "object" ? (c as Json)[k] : undefined), o);

const norm = (s: string) =>
  s
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, " ")
    .trim();
const compact = (s: string) => norm(s).replace(/ /g, "");
const num = (v: unknown) => (typeof v === "number" ? v : Number(String(v ?? "").replace(/[^\d.-]/g, "")));

/** How a truth field compares with ours. */
type Compare = "text" | "name" | "date" | "amount" | "id";

const FIELDS: { key: string; ours: string; compare: Compare }[] = [
  { key: "issuer", ours: "vendor.name", compare: "name" },
  { key: "invoice_number", ours: "invoice.invoiceNo", compare: "id" },
  { key: "date", ours: "invoice.invoiceDate", compare: "date" },
  { key: "amount", ours: "paymentDetails.total", compare: "amount" },
  { key: "currency", ours: "currency", compare: "text" },
  { key: "amount_untaxed", ours: "paymentDetails.subtotal", compare: "amount" },
  { key: "amount_tax", ours: "paymentDetails.tax", compare: "amount" },
  { key: "date_due", ours: "paymentDetails.dueDate", compare: "date" },
  { key: "iban", ours: "paymentDetails.bankingInformation.iban", compare: "id" },
  { key: "vat", ours: "vendor.entityId", compare: "id" },
];

function same(compare: Compare, truth: unknown, ours: string): boolean {
  switch (compare) {
    case "amount":
      return Math.abs(num(truth) - num(ours)) < 0.005;
    case "date":
      return String(truth) === ours;
    case "id":
      return compact(String(truth)).replace(/^0+/, "") === compact(ours).replace(/^0+/, "");
    case "name": {
      // A vendor name is right when one contains the other ("Amazon Web Services" / "... Inc.").
      const a = norm(String(truth));
      const b = norm(ours);
      return a.length > 0 && b.length > 0 && (a.includes(b) || b.includes(a));
    }
    default:
      return norm(String(truth)) === norm(ours);
  }
}

interface Tally {
  right: number;
  wrong: number;
  missed: number;
}

const itemAmount = (line: Json): number | undefined => {
  for (const k of ["price_subtotal", "price", "amount", "price_unit"])
    if (line[k] !== undefined && line[k] !== "") return num(line[k]);
  return undefined;
};

async function main() {
  if (!existsSync(dir)) {
    console.log(`accuracy:invoices: no corpus at ${dir}; skipped.`);
    return;
  }
  const files = readdirSync(dir).filter(
    (f) => f.endsWith(".pdf") && existsSync(path.join(dir, f.replace(/\.pdf$/, ".json"))),
  );
  const total: Tally = { right: 0, wrong: 0, missed: 0 };
  const perField = new Map<string, Tally>();
  const items = { invoices: 0, countRight: 0, amountsExpected: 0, amountsFound: 0 };
  let pages = 0;
  let seconds = 0;
  for (const f of files.sort()) {
    const truth = (
      JSON.parse(readFileSync(path.join(dir, f.replace(/\.pdf$/, ".json")), "utf8")) as Json[]
    )[0];
    const t0 = performance.now();
    const res = await readInvoice(readFileSync(path.join(dir, f)), {
      customFields: ["currency"],
      noLlm: true,
    });
    const secs = (performance.now() - t0) / 1000;
    pages += res.pageCount;
    seconds += secs;
    const tally: Tally = { right: 0, wrong: 0, missed: 0 };
    const notes: string[] = [];
    for (const field of FIELDS) {
      if (truth[field.key] === undefined || truth[field.key] === null || truth[field.key] === "") continue;
      const ours = get(res.body, field.ours);
      const pf = perField.get(field.key) ?? { right: 0, wrong: 0, missed: 0 };
      if (typeof ours !== "string") {
        tally.missed++;
        pf.missed++;
        notes.push(`missed ${field.key}=${JSON.stringify(truth[field.key])}`);
      } else if (same(field.compare, truth[field.key], ours)) {
        tally.right++;
        pf.right++;
      } else {
        tally.wrong++;
        pf.wrong++;
        notes.push(`wrong ${field.key}: ${JSON.stringify(ours)} ≠ ${JSON.stringify(truth[field.key])}`);
      }
      perField.set(field.key, pf);
    }
    total.right += tally.right;
    total.wrong += tally.wrong;
    total.missed += tally.missed;
    // Line items: entries with an amount.
    const lines = ((truth.lines ?? truth.line_items) as Json[] | undefined)?.filter(
      (l) => itemAmount(l) !== undefined,
    );
    let itemNote = "";
    if (lines && lines.length > 0) {
      items.invoices++;
      const ourItems = ((res.body.lineItems as Record<string, string>[][] | undefined) ?? []).flat();
      const ourAmounts = ourItems.map((i) =>
        [i.total, i.amount, i.unitPrice].filter((x) => x !== undefined).map(num),
      );
      const countOk = ourItems.length === lines.length;
      if (countOk) items.countRight++;
      let found = 0;
      const used = new Set<number>();
      for (const l of lines) {
        const a = itemAmount(l)!;
        const k = ourAmounts.findIndex((xs, i) => !used.has(i) && xs.some((x) => Math.abs(x - a) < 0.005));
        if (k >= 0) {
          used.add(k);
          found++;
        }
      }
      items.amountsExpected += lines.length;
      items.amountsFound += found;
      itemNote = ` | items ${ourItems.length}/${lines.length}${countOk ? " ✓" : " ✗"}, amounts ${found}/${lines.length}`;
    }
    console.log(
      `${f.padEnd(30)} right ${tally.right}  wrong ${tally.wrong}  missed ${tally.missed}${itemNote} | ${res.pageCount} p, ${secs.toFixed(2)} s${res.source === "einvoice" ? " (e-invoice)" : ""}`,
    );
    for (const n of notes) console.log(`    ${n}`);
  }
  const n = total.right + total.wrong + total.missed;
  console.log("");
  for (const [k, t] of perField)
    console.log(`  ${k.padEnd(16)} right ${t.right}  wrong ${t.wrong}  missed ${t.missed}`);
  console.log("");
  console.log(
    `header fields: ${total.right}/${n} right (${((100 * total.right) / Math.max(1, n)).toFixed(1)}%), ${total.wrong} wrong, ${total.missed} missed`,
  );
  console.log(
    `line items: count right on ${items.countRight}/${items.invoices} invoices; amounts ${items.amountsFound}/${items.amountsExpected} (${((100 * items.amountsFound) / Math.max(1, items.amountsExpected)).toFixed(1)}%)`,
  );
  console.log(
    `speed: ${(seconds / Math.max(1, pages)).toFixed(2)} s per page (${pages} pages, ${seconds.toFixed(1)} s)`,
  );
}

main()
  .catch((e) => {
    console.error(e);
    process.exitCode = 1;
  })
  .finally(() => shutdownOcr().catch(() => {}));
