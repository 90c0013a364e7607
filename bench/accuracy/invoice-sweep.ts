/**
 * npm run accuracy:invoices:sweep — the invoice parser on random combinations of the generator's
 * variants, a stress test of how its mechanisms combine.
 *
 * `npm run accuracy:invoices` scores the generator's benchmark set: each variant in the layouts
 * and seeds it was written for. Real invoices combine features freely (a logo and no sender line
 * and a window on the right and a table that runs onto a second page above a VAT table), so this
 * script draws, for each seed and language (de, fr, en), one layout and FLAGS variants at random
 * (deterministic for the seed) and scores the 7 header fields (exact, case aside) and the
 * line-item count against the generator's truth. It prints every invoice with a miss, with its
 * options, so a failing combination can be replayed as a test.
 *
 * Left out of the draw: `buyerPrinted` and `agentFooter`, which the generator lays out for the
 * classic layout only (elsewhere the roles contradict the page, or the vendor's name is printed
 * nowhere), and `usDates` (English only); `personFirst` is dropped when `privateCustomer` is
 * drawn (a company's contact person above a private customer).
 *
 * Usage: bash scripts/quire.sh run bench/accuracy/invoice-sweep.ts [--from SEED] [--count N] [--flags K]
 * (defaults: seeds 1000–1199, 5 flags an invoice: 600 invoices, about 30 s).
 */
import { readInvoice } from "@/lib/engine/invoice/read-invoice";
import { shutdownOcr } from "@/lib/engine/ocr/pool";
import { generateInvoice, renderInvoice, truthOf, type GenLayout, type GenOptions } from "@/tests/helpers/invoice-gen";

const args = process.argv.slice(2);
const arg = (name: string, dflt: number) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : dflt);
const from = arg("--from", 1000);
const count = arg("--count", 200);
const flagsPer = arg("--flags", 5);

const LAYOUTS: GenLayout[] = ["classic", "stacked", "sentence", "captioned", "rightHead", "partyTable", "template"];
const FLAGS = [
  "twoRates", "multiLine", "note", "section", "creditNote", "windowRight", "salutation", "logoHead",
  "senderCommas", "footerSentence", "department", "listPrice", "vatTable", "prose", "noSenderLine",
  "brandHead", "contactFirst", "periodCaption", "deliveryBeside", "totalsGrid", "stackedCaptions",
  "wide", "itemRecords", "headerless", "prepaid", "carryForward", "schedule", "footerEveryPage",
  "basesOnly", "privateCustomer", "personFirst", "groupTotal", "totalsInColumns",
] as const;
const HEADER = ["invoiceNo", "invoiceDate", "vendor", "customer", "total", "subtotal", "tax"] as const;

/** Mulberry32: a small deterministic generator per seed, so a run can be replayed. */
function lcg(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function main() {
  let right = 0;
  let fields = 0;
  let withMiss = 0;
  let itemsRight = 0;
  let invoices = 0;
  const t0 = performance.now();
  for (let seed = from; seed < from + count; seed++) {
    const rnd = lcg(seed);
    const layout = LAYOUTS[Math.floor(rnd() * LAYOUTS.length)];
    const picked = new Set<(typeof FLAGS)[number]>();
    for (let k = 0; k < flagsPer; k++) picked.add(FLAGS[Math.floor(rnd() * FLAGS.length)]);
    // A contact person printed above a private customer contradicts itself.
    if (picked.has("privateCustomer")) picked.delete("personFirst");
    for (const language of ["de", "fr", "en"] as const) {
      const o: GenOptions = { language, layout, seed, ...Object.fromEntries([...picked].map((f) => [f, true])) };
      const g = generateInvoice(o);
      const t = truthOf(g) as unknown as Record<string, unknown>;
      const body = (await readInvoice(await renderInvoice(g), { noLlm: true })).body as Record<string, any>;
      const ours: Record<string, unknown> = {
        invoiceNo: body.invoice?.invoiceNo,
        invoiceDate: body.invoice?.invoiceDate,
        vendor: body.vendor?.name,
        customer: body.customer?.billTo?.name,
        total: body.paymentDetails?.total,
        subtotal: body.paymentDetails?.subtotal,
        tax: body.paymentDetails?.tax,
      };
      const misses: string[] = [];
      for (const k of HEADER) {
        if (t[k] === undefined || t[k] === null) continue;
        fields++;
        const ok =
          typeof t[k] === "number"
            ? Math.abs(Number(ours[k]) - (t[k] as number)) < 0.005
            : String(ours[k] ?? "").trim().toLowerCase() === String(t[k]).trim().toLowerCase();
        if (ok) right++;
        else misses.push(`${k}: ${JSON.stringify(ours[k])} ≠ ${JSON.stringify(t[k])}`);
      }
      invoices++;
      const items = ((body.lineItems ?? []) as unknown[][]).flat().length;
      if (items === g.items.length) itemsRight++;
      else misses.push(`items: ${items} ≠ ${g.items.length}`);
      if (misses.length > 0) {
        withMiss++;
        console.log(`${language} ${layout} seed ${seed} {${[...picked].join(", ")}}\n   ${misses.join("\n   ")}`);
      }
    }
  }
  const pct = (a: number, b: number) => `${((100 * a) / Math.max(1, b)).toFixed(1)}%`;
  console.log(
    `\n== sweep: seeds ${from}–${from + count - 1}, ${flagsPer} variants drawn an invoice, ${invoices} invoices (${((performance.now() - t0) / 1000).toFixed(0)} s)` +
      `\n   header fields ${right}/${fields} right (${pct(right, fields)}); invoices with a miss ${withMiss}/${invoices}; line-item count right ${itemsRight}/${invoices} (${pct(itemsRight, invoices)})`,
  );
}

main()
  .catch((e) => {
    console.error(e);
    process.exitCode = 1;
  })
  .finally(() => shutdownOcr().catch(() => {}));
