/**
 * npm run accuracy:invoices — scores the invoice parser on the development corpus and on generated
 * invoices, and prints per set, per half, per language and per field: right / wrong / missed.
 *
 * Sets:
 *  - ../shared/corpus/invoices (invoice2data's truth, a JSON array with one object) and
 *    ../shared/corpus/invoices-intl (one object with invoiceNo, invoiceDate, vendor, customer, …).
 *    Both are split by producer into a **tuning** half and a **held-out** half (a stable hash of the
 *    producer, so that one layout never sits in both halves). The held-out half is the figure that
 *    says how the parser does on layouts it was not tuned on; only the tuning half may be looked at
 *    while developing (run with `--show tuning` to print the per-file misses of that half only).
 *    The visual path is scored with any embedded e-invoice ignored (as if the XML were removed);
 *    the XML path is scored separately on the files whose truth came from their embedded XML.
 *  - generated: invoices from tests/helpers/invoice-gen (several layouts, de/fr/en, label and
 *    number/date variants), whose truth is what the generator put in.
 *
 * Fields: the 7 header fields (invoice number, invoice date, vendor name, bill-to name, total,
 * subtotal, tax) plus due date and currency; line-item count (invoices with a table) and amount
 * recall; seconds per page. Skips a corpus folder quietly when it is absent.
 * Usage: bash scripts/quire.sh run bench/accuracy/invoices.ts [--show tuning|held-out|generated] [--no-generated]
 *        [--scan DEGREES [--scan-dpi DPI]]
 *
 * `--scan 1.5` scores the same files as scans: every page rendered to a greyscale image (200 dpi
 * unless `--scan-dpi`) turned by that many degrees (0 for a straight scan) and read through OCR,
 * the text layer gone.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import * as mupdf from "mupdf";
import { readInvoice } from "@/lib/engine/invoice/read-invoice";
import { shutdownOcr } from "@/lib/engine/ocr/pool";

type Json = Record<string, unknown>;

const args = process.argv.slice(2);
const show = args.includes("--show") ? args[args.indexOf("--show") + 1] : undefined;
const withGenerated = !args.includes("--no-generated");
const scanDegrees = args.includes("--scan") ? Number(args[args.indexOf("--scan") + 1] ?? 0) : undefined;
const scanDpi = args.includes("--scan-dpi") ? Number(args[args.indexOf("--scan-dpi") + 1]) : 200;

/** The file as a scan: each page a greyscale image (`--scan-dpi`, 200), turned by `degrees`, no text layer. */
function asScan(pdf: Uint8Array, degrees: number, dpi = scanDpi): Uint8Array {
  const src = mupdf.Document.openDocument(pdf, "application/pdf");
  const out = new mupdf.PDFDocument();
  try {
    for (let i = 0; i < src.countPages(); i++) {
      const page = src.loadPage(i);
      const m = mupdf.Matrix.concat(mupdf.Matrix.scale(dpi / 72, dpi / 72), mupdf.Matrix.rotate(degrees));
      const pix = page.toPixmap(m, mupdf.ColorSpace.DeviceGray, false, true);
      const w = (pix.getWidth() * 72) / dpi;
      const h = (pix.getHeight() * 72) / dpi;
      const res = out.addObject(out.newDictionary());
      const xobj = out.newDictionary();
      xobj.put("Im0", out.addImage(new mupdf.Image(pix)));
      res.put("XObject", xobj);
      out.insertPage(-1, out.addPage([0, 0, w, h], 0, res, `q ${w} 0 0 ${h} 0 0 cm /Im0 Do Q`));
      pix.destroy();
      page.destroy();
    }
    return out.saveToBuffer("compress").asUint8Array().slice();
  } finally {
    src.destroy();
    out.destroy();
  }
}

function corpusRoot(): string | undefined {
  const candidates = [
    process.env.QUIRE_CORPUS,
    path.join(process.cwd(), "..", "shared", "corpus"),
    path.join(process.cwd(), "..", "..", "shared", "corpus"),
  ].filter((x): x is string => !!x);
  return candidates.map((c) => path.resolve(c)).find((c) => existsSync(c));
}

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

type Compare = "text" | "name" | "date" | "amount" | "id";

/** The fields scored, in the normalised truth vocabulary, with where ours is and how to compare. */
const FIELDS: { key: string; ours: string[]; compare: Compare; header: boolean }[] = [
  { key: "invoiceNo", ours: ["invoice.invoiceNo"], compare: "id", header: true },
  { key: "invoiceDate", ours: ["invoice.invoiceDate"], compare: "date", header: true },
  { key: "vendor", ours: ["vendor.name"], compare: "name", header: true },
  { key: "customer", ours: ["customer.billTo.name"], compare: "name", header: true },
  { key: "total", ours: ["paymentDetails.total"], compare: "amount", header: true },
  { key: "subtotal", ours: ["paymentDetails.subtotal"], compare: "amount", header: true },
  { key: "tax", ours: ["paymentDetails.tax"], compare: "amount", header: true },
  { key: "dueDate", ours: ["paymentDetails.dueDate"], compare: "date", header: false },
  { key: "currency", ours: ["paymentDetails.currency", "currency"], compare: "text", header: false },
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
      // Right when one contains the other and the shorter is most of the longer
      // ("Amazon Web Services" / "Amazon Web Services, Inc."), never a lone legal form.
      const a = norm(String(truth));
      const b = norm(ours);
      if (a.length === 0 || b.length === 0) return false;
      const [s, l] = a.length <= b.length ? [a, b] : [b, a];
      return l.includes(s) && s.length >= Math.min(8, l.length * 0.5);
    }
    default:
      return norm(String(truth)) === norm(ours);
  }
}

interface Case {
  set: string;
  name: string;
  half: "tuning" | "held-out" | "generated";
  language: string;
  bytes: Uint8Array;
  truth: Json;
  /** Truth items' amounts (line totals), when the truth lists a table. */
  items?: number[];
  embedded: boolean;
}

/** FNV-1a: a stable hash, so the split never changes between runs. */
function fnv(s: string): number {
  let h = 0x811c9dc5;
  for (const ch of s) {
    h ^= ch.charCodeAt(0);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** The producer a file belongs to: files of one producer/layout share a half. */
function producer(set: string, name: string): string {
  if (set === "invoices") return name;
  const parts = name.split("_");
  return `${parts[0]}_${parts[1]}`;
}

/**
 * The split: within each set and language, the producers sorted by a stable hash alternate
 * between the halves (so both halves hold every language where it has two producers, and one
 * producer's layout never sits in both halves).
 */
function splitHalves(entries: { set: string; name: string; language: string }[]): Map<string, "tuning" | "held-out"> {
  const groups = new Map<string, Set<string>>();
  for (const e of entries) {
    const g = `${e.set}:${e.language}`;
    if (!groups.has(g)) groups.set(g, new Set());
    groups.get(g)!.add(producer(e.set, e.name));
  }
  const half = new Map<string, "tuning" | "held-out">();
  let flip = 0;
  for (const [g, producers] of [...groups].sort(([a], [b]) => a.localeCompare(b))) {
    const sorted = [...producers].sort((a, b) => fnv(a) - fnv(b) || a.localeCompare(b));
    sorted.forEach((p, i) => half.set(`${g.split(":")[0]}:${p}`, (i + flip) % 2 === 0 ? "tuning" : "held-out"));
    flip += sorted.length;
  }
  return half;
}

function loadCorpus(root: string): Case[] {
  const out: Case[] = [];
  const i2d = path.join(root, "invoices");
  if (existsSync(i2d)) {
    for (const f of readdirSync(i2d).filter((f) => f.endsWith(".pdf")).sort()) {
      const jf = path.join(i2d, f.replace(/\.pdf$/, ".json"));
      if (!existsSync(jf)) continue;
      const t = (JSON.parse(readFileSync(jf, "utf8")) as Json[])[0];
      const lines = ((t.lines ?? t.line_items) as Json[] | undefined) ?? [];
      const amounts = lines
        .map((l) => {
          for (const k of ["price_subtotal", "price", "amount", "price_unit"])
            if (l[k] !== undefined && l[k] !== "") return num(l[k]);
          return undefined;
        })
        .filter((x): x is number => x !== undefined);
      const name = f.replace(/\.pdf$/, "");
      out.push({
        set: "invoices",
        name,
        half: "tuning",
        language: "en/nl/fr/de",
        bytes: readFileSync(path.join(i2d, f)),
        truth: {
          invoiceNo: t.invoice_number,
          invoiceDate: t.date,
          vendor: t.issuer,
          total: t.amount,
          subtotal: t.amount_untaxed,
          tax: t.amount_tax,
          dueDate: t.date_due,
          currency: t.currency,
        },
        items: amounts.length > 0 ? amounts : undefined,
        embedded: false,
      });
    }
  }
  const intl = path.join(root, "invoices-intl");
  if (existsSync(intl)) {
    for (const f of readdirSync(intl).filter((f) => f.endsWith(".pdf")).sort()) {
      const jf = path.join(intl, f.replace(/\.pdf$/, ".json"));
      if (!existsSync(jf)) continue;
      const t = JSON.parse(readFileSync(jf, "utf8")) as Json;
      const name = f.replace(/\.pdf$/, "");
      const items = (t.lineItems as Json[] | undefined)?.map((l) => num(l.total));
      out.push({
        set: "invoices-intl",
        name,
        half: "tuning",
        language: String(t.language ?? name.slice(0, 2)),
        bytes: readFileSync(path.join(intl, f)),
        truth: t,
        items: items && items.length > 0 ? items : undefined,
        embedded: /embedded/i.test(String(t.truthFrom ?? "")),
      });
    }
  }
  const halves = splitHalves(out);
  for (const c of out) c.half = halves.get(`${c.set}:${producer(c.set, c.name)}`) ?? "tuning";
  return out;
}

async function loadGenerated(): Promise<Case[]> {
  const gen = await import("../../tests/helpers/invoice-gen").catch(() => undefined);
  if (!gen) return [];
  const out: Case[] = [];
  for (const g of gen.benchmarkInvoices()) {
    const pdf = await gen.renderInvoice(g);
    out.push({
      set: "generated",
      name: g.id,
      half: "generated",
      language: g.language,
      bytes: pdf,
      truth: gen.truthOf(g) as unknown as Json,
      items: g.items.map((i) => i.total),
      embedded: false,
    });
  }
  return out;
}

interface Tally {
  right: number;
  wrong: number;
  missed: number;
}
const tally = (): Tally => ({ right: 0, wrong: 0, missed: 0 });

class Score {
  fields = new Map<string, Tally>();
  header = tally();
  items = { invoices: 0, countRight: 0, expected: 0, found: 0 };
  pages = 0;
  seconds = 0;
  files = 0;
  add(field: string, header: boolean, outcome: keyof Tally) {
    const t = this.fields.get(field) ?? tally();
    t[outcome]++;
    this.fields.set(field, t);
    if (header) this.header[outcome]++;
  }
}

const pct = (a: number, n: number) => (n === 0 ? "  -  " : `${((100 * a) / n).toFixed(1)}%`);

function printScore(title: string, s: Score) {
  const n = s.header.right + s.header.wrong + s.header.missed;
  console.log(
    `\n== ${title}: ${s.files} invoices — header fields ${s.header.right}/${n} right (${pct(s.header.right, n)}), ${s.header.wrong} wrong, ${s.header.missed} missed`,
  );
  for (const f of FIELDS) {
    const t = s.fields.get(f.key);
    if (!t) continue;
    const m = t.right + t.wrong + t.missed;
    console.log(
      `   ${f.key.padEnd(12)} ${pct(t.right, m).padStart(6)}  right ${t.right}  wrong ${t.wrong}  missed ${t.missed}`,
    );
  }
  console.log(
    `   line items   count right on ${s.items.countRight}/${s.items.invoices} invoices with a table (${pct(s.items.countRight, s.items.invoices)}); amounts found ${s.items.found}/${s.items.expected} (${pct(s.items.found, s.items.expected)})`,
  );
  console.log(`   speed        ${(s.seconds / Math.max(1, s.pages)).toFixed(2)} s per page (${s.pages} pages)`);
}

async function main() {
  const root = corpusRoot();
  const cases = root ? loadCorpus(root) : [];
  if (!root) console.log("accuracy:invoices: no corpus (../shared/corpus); scoring generated invoices only.");
  if (withGenerated) cases.push(...(await loadGenerated()));
  if (scanDegrees !== undefined) {
    console.log(`accuracy:invoices: every file read as a ${scanDpi} dpi scan turned by ${scanDegrees}° (OCR)`);
    for (const c of cases) {
      c.bytes = asScan(c.bytes, scanDegrees);
      c.embedded = false;
    }
  }
  const scores = new Map<string, Score>();
  const scoreFor = (k: string) => {
    let s = scores.get(k);
    if (!s) scores.set(k, (s = new Score()));
    return s;
  };
  const xml = { files: 0, right: 0, fields: 0 };
  for (const c of cases) {
    const t0 = performance.now();
    const res = await readInvoice(c.bytes, { noLlm: true, ignoreEmbedded: true, customFields: [] });
    const secs = (performance.now() - t0) / 1000;
    const keys = [`${c.half}`, `${c.half} · ${c.language}`, "all corpus"];
    if (c.half === "generated") keys.pop();
    const targets = keys.map(scoreFor);
    const notes: string[] = [];
    for (const s of targets) {
      s.files++;
      s.pages += res.pageCount;
      s.seconds += secs;
    }
    for (const f of FIELDS) {
      const truth = c.truth[f.key];
      if (truth === undefined || truth === null || truth === "") continue;
      const ours = f.ours.map((p) => get(res.body, p)).find((v) => typeof v === "string") as string | undefined;
      const outcome: keyof Tally = ours === undefined ? "missed" : same(f.compare, truth, ours) ? "right" : "wrong";
      for (const s of targets) s.add(f.key, f.header, outcome);
      if (outcome !== "right") notes.push(`${outcome} ${f.key}: ${JSON.stringify(ours ?? null)} ≠ ${JSON.stringify(truth)}`);
    }
    if (c.items) {
      const ourItems = ((res.body.lineItems as Record<string, string>[][] | undefined) ?? []).flat();
      const ourAmounts = ourItems.map((i) =>
        [i.total, i.amount, i.unitPrice].filter((x) => x !== undefined).map(num),
      );
      const countOk = ourItems.length === c.items.length;
      let found = 0;
      const used = new Set<number>();
      for (const a of c.items) {
        const k = ourAmounts.findIndex((xs, i) => !used.has(i) && xs.some((x) => Math.abs(Math.abs(x) - Math.abs(a)) < 0.005));
        if (k >= 0) {
          used.add(k);
          found++;
        }
      }
      for (const s of targets) {
        s.items.invoices++;
        if (countOk) s.items.countRight++;
        s.items.expected += c.items.length;
        s.items.found += found;
      }
      if (!countOk) notes.push(`items ${ourItems.length} ≠ ${c.items.length}`);
    }
    if (show && show === c.half) {
      console.log(`${c.set}/${c.name} (${res.pageCount} p, ${secs.toFixed(2)} s)`);
      for (const n of notes) console.log(`    ${n}`);
    }
    // The XML path, on the files whose truth is their own embedded XML: must stay exact.
    if (c.embedded) {
      const x = await readInvoice(c.bytes, { noLlm: true });
      xml.files++;
      for (const f of FIELDS) {
        const truth = c.truth[f.key];
        if (truth === undefined || truth === null || truth === "") continue;
        const ours = f.ours.map((p) => get(x.body, p)).find((v) => typeof v === "string") as string | undefined;
        xml.fields++;
        if (ours !== undefined && same(f.compare, truth, ours)) xml.right++;
        else if (show) console.log(`    XML ${c.name} ${f.key}: ${JSON.stringify(ours ?? null)} ≠ ${JSON.stringify(truth)}`);
      }
    }
  }
  const order = [...scores.keys()].sort((a, b) => {
    const rank = (k: string) => (k.startsWith("tuning") ? 0 : k.startsWith("held-out") ? 1 : k.startsWith("generated") ? 2 : 3);
    return rank(a) - rank(b) || a.localeCompare(b);
  });
  for (const k of order) printScore(k, scores.get(k)!);
  console.log(
    `\n== e-invoice XML path: ${xml.files} files, ${xml.right}/${xml.fields} fields right (${pct(xml.right, xml.fields)})`,
  );
}

main()
  .catch((e) => {
    console.error(e);
    process.exitCode = 1;
  })
  .finally(() => shutdownOcr().catch(() => {}));
