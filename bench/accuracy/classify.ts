/**
 * npm run accuracy:classify — the built-in classifier (POST /v1/pdf/classifier without rules)
 * measured per language and per type on
 *   1. the development corpus (../shared/corpus): the invoices of invoices/ and invoices-intl/,
 *      and the non-invoices of pdf-info/, tables/ and ocr/ (spreadsheets are not documents the
 *      classifier reads and are skipped). The corpus is split by a hash of the file name into
 *      a tuning part and a held-out part, reported apart;
 *   2. generated documents of every type in every supported language (tests/helpers/
 *      classify-fixtures.ts): the "tune" set, and the "eval" set of held-out title words,
 *      compounds, layouts and towns.
 * It prints invoices recognised as invoices per language, non-invoices not called invoices,
 * the type accuracy per type, the sub-classes, the countries (right, none, wrong, and answers
 * that contradict a VAT id, IBAN or phone prefix on the page), and the engine time per page
 * beside pdftotext's on the same files.
 *
 * Usage: npm run accuracy:classify [-- corpusDir] [--per N] [--no-corpus] [--no-generated]
 * Skips the corpus cleanly when it is absent.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import * as mupdf from "mupdf";
import { checkVAT, countries as vatCountries } from "jsvat";
import { isValidIBAN } from "ibantools";
import { classifyBuiltin } from "@/lib/engine/classify/builtin";
import { readClassifierText } from "@/lib/engine/classify/document-text";
import { COUNTRY_NAMES } from "@/lib/engine/invoice/countries";
import { shutdownOcr } from "@/lib/engine/ocr/pool";
import { extractPageTexts } from "@/lib/engine/text/words";
import { generateDocuments, GEN_LANGS, GEN_TYPES, type GeneratedDocument } from "@/tests/helpers/classify-fixtures";
import { makeTextPdf } from "@/tests/helpers/invoice-fixtures";

const args = process.argv.slice(2);
const flag = (name: string) => args.includes(name);
const option = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const positional = args.find((a, i) => !a.startsWith("--") && !args[i - 1]?.startsWith("--per"));
const repoRoot = process.cwd();
const corpusRoot = [positional, process.env.CLASSIFY_CORPUS, path.resolve(repoRoot, "../shared/corpus"), "/work/shared/corpus"]
  .filter((p): p is string => !!p)
  .map((p) => path.resolve(p))
  .find((p) => existsSync(p));

const CODE_OF = new Map(Object.entries(COUNTRY_NAMES).map(([code, name]) => [name, code]));

// ---------------------------------------------------------------------------------------
// Labels of the corpus (ours: the corpus carries no classes). Invoices: every file of
// invoices/ and invoices-intl/, with the page language and the issuer's country.

interface Expected {
  types: string[];
  lang?: string;
  subclass?: string;
  /** The issuer's country (ISO), our reading of the page; undefined when the page does not say. */
  country?: string;
}

const INVOICE_LANG: Record<string, string> = {
  AmazonWebServices: "en", AzureInterior: "en", FlipkartInvoice: "en", NetpresseInvoice: "fr", QualityHosting: "de",
  SammyMaystoneLinesTest: "en", coolblue1: "nl", coolblue2: "nl", free_fiber: "fr", oyo: "en", saeco: "nl",
};

const NON_INVOICES: Record<string, string[]> = {
  "tables/AnimalSounds.pdf": ["other"],
  "tables/MultiColumn.pdf": ["other"],
  "tables/Publication_of_award_of_Bids_for_Transport_Sector__August_2016.pdf": ["report"],
  "tables/argentina_diputados_voting_record.pdf": ["report", "other"],
  "tables/frx_2012_disclosure.pdf": ["report"],
  "tables/indictb1h_14.pdf": ["report", "other"],
  "tables/schools.pdf": ["report"],
  "tables/spanning_cells.pdf": ["report"],
  "tables/spreadsheet_no_bounding_frame.pdf": ["report"],
  "tables/twotables.pdf": ["report", "other"],
  "pdf-info/001-trivial/minimal-document.pdf": ["other"],
  "pdf-info/002-trivial-libre-office-writer/002-trivial-libre-office-writer.pdf": ["other"],
  "pdf-info/003-pdflatex-image/pdflatex-image.pdf": ["other", "report"],
  "pdf-info/004-pdflatex-4-pages/pdflatex-4-pages.pdf": ["other"],
  "pdf-info/006-pdflatex-outline/pdflatex-outline.pdf": ["other", "report"],
  "pdf-info/008-reportlab-inline-image/inline-image.pdf": ["other"],
  "pdf-info/009-pdflatex-geotopo/GeoTopo-komprimiert.pdf": ["report", "other"],
  "pdf-info/010-pdflatex-forms/pdflatex-forms.pdf": ["form"],
  "pdf-info/011-google-doc-document/google-doc-document.pdf": ["other"],
  "pdf-info/012-libreoffice-form/libreoffice-form.pdf": ["form"],
  "pdf-info/013-reportlab-overlay/reportlab-overlay.pdf": ["other", "form"],
  "pdf-info/014-outlines/mistitled_outlines_example.pdf": ["other", "report"],
  "pdf-info/015-arabic/habibi.pdf": ["other"],
  "pdf-info/015-arabic/habibi-oneline-cmap.pdf": ["other"],
  "pdf-info/015-arabic/habibi-rotated.pdf": ["other"],
  "pdf-info/016-libre-office-link/libre-office-link.pdf": ["other"],
  "pdf-info/018-base64-image/base64image.pdf": ["other"],
  "pdf-info/020-xmp/output_with_metadata_pymupdf.pdf": ["other"],
  "pdf-info/021-pdfa/crazyones-pdfa.pdf": ["other"],
  "pdf-info/022-pdfkit/pdfkit.pdf": ["other"],
  "pdf-info/024-annotations/annotated_pdf.pdf": ["other"],
  "pdf-info/025-attachment/with-attachment.pdf": ["other"],
  "pdf-info/026-latex-multicolumn/multicolumn.pdf": ["report", "other"],
  "pdf-info/007-imagemagick-images/imagemagick-images.pdf": ["other"],
  "pdf-info/007-imagemagick-images/imagemagick-lzw.pdf": ["other"],
  "pdf-info/007-imagemagick-images/imagemagick-ASCII85Decode.pdf": ["other"],
  "pdf-info/007-imagemagick-images/imagemagick-CCITTFaxDecode.pdf": ["other"],
  "pdf-info/019-grayscale-image/grayscale-image.pdf": ["other"],
  "pdf-info/023-cmyk-image/cmyk-image.pdf": ["other"],
  "ocr/bill.png": ["bank statement"],
  "ocr/testocr.png": ["other"],
  "ocr/testocr.jpg": ["other"],
  "ocr/simple.png": ["other"],
  "ocr/simple.jpg": ["other"],
  "ocr/simple-90.jpg": ["other"],
  "ocr/simple-180.jpg": ["other"],
  "ocr/simple-270.jpg": ["other"],
  "ocr/cosmic.png": ["other"],
  "ocr/escape_chars.png": ["other"],
  "ocr/chinese.png": ["other"],
};

/** The issuer's country as the page shows it (our reading); absent where the page leaves it open. */
const INVOICE_COUNTRY: Record<string, string> = {
  AmazonWebServices: "US", AzureInterior: "US", FlipkartInvoice: "IN", NetpresseInvoice: "FR", QualityHosting: "DE",
  coolblue1: "NL", coolblue2: "NL", free_fiber: "FR", oyo: "IN", saeco: "NL",
  de_alphabet_leasing_2015738820: "DE", "de_kraxi_2014-03": "DE", "de_kraxi_2019-03": "DE",
  "de_kosit_01.01a_placeholders": "DE", "de_kosit_04.01a": "DE", "es_tecnativa_INV-2024-00005": "US",
  en_cronus_bc_103767: "DE", en_einvoiceeu_default_invoice: "DE", en_einvoiceeu_default_credit_note: "DE",
  "en_akretion_france_VT-2022-0001": "FR", "en_odoo_vendor_bill_BILL-2022-0002": "US", fr_bouygues_telecom_11608848301659: "FR", fr_gandi_2022030201155: "FR",
  fr_fnfe_F20180027: "FR", fr_fnfe_F20260023: "FR", fr_fnfe_F20220029_avoir: "FR", fr_fnfe_UC1_2023020_AFF: "FR",
  fr_fnfe_F20220031_extended: "FR", fr_fnfe_F20220024: "FR", fr_fnfe_F20220025: "FR", nl_exact_online_16117778: "BE",
  pt_danfe_default: "BR", pt_danfe_simples_nacional: "BR", pt_danfe_overload: "BR", pt_danfe_mei: "BR",
  pt_danfe_landscape_multipage: "BR", pt_danfe_reforma_tributaria: "BR", pt_danfse_nfse_999: "BR",
};

function expectedFor(rel: string): Expected | undefined {
  const base = path.basename(rel).replace(/\.pdf$/i, "");
  if (rel.startsWith("invoices/") && rel.endsWith(".pdf"))
    return { types: base === "oyo" ? ["receipt", "invoice"] : ["invoice"], lang: INVOICE_LANG[base], country: INVOICE_COUNTRY[base] };
  if (rel.startsWith("invoices-intl/") && rel.endsWith(".pdf"))
    return {
      types: ["invoice"],
      lang: base.slice(0, 2),
      subclass: /credit_note|_avoir/.test(base) ? "credit note" : undefined,
      country: INVOICE_COUNTRY[base],
    };
  const types = NON_INVOICES[rel];
  return types ? { types } : undefined;
}

/** Held out when the first hex digit of the file name's SHA-256 is odd (fixed before any tuning). */
export function isHeldOut(rel: string): boolean {
  return parseInt(createHash("sha256").update(path.basename(rel)).digest("hex")[0], 16) % 2 === 1;
}

/** Countries of the VAT ids, IBANs and +CC phone numbers printed: an answer must be one of them. */
function strongCountriesOf(text: string): string[] {
  const out = new Set<string>();
  for (const m of text.matchAll(/(?<![A-Za-z0-9])(ATU|BE|DE|DK|ES|FI|FR|GB|IE|IT|LU|NL|PL|PT|SE|CHE|EL)[ .-]?(\d[\d .]{7,13}\d|[0-9A-Z]{2}\d{9}|\d{9}B\d{2})/g)) {
    const v = checkVAT((m[1] + m[2]).replace(/[ .-]/g, ""), vatCountries);
    if (v.isValidFormat && v.country) out.add(v.country.isoCode.short === "EL" ? "GR" : v.country.isoCode.short);
  }
  for (const m of text.matchAll(/(?<![A-Za-z0-9])([A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,4})?)/g))
    if (isValidIBAN(m[1].replace(/ /g, ""))) out.add(m[1].slice(0, 2));
  const DIAL: Record<string, string[]> = { "1": ["US", "CA"], "31": ["NL"], "32": ["BE"], "33": ["FR"], "34": ["ES"], "39": ["IT"], "41": ["CH"], "43": ["AT"], "44": ["GB"], "49": ["DE"], "351": ["PT"], "352": ["LU"], "353": ["IE"], "55": ["BR"], "91": ["IN"] };
  for (const m of text.matchAll(/(?<![\w+])\+\s?(\d{1,3})[\s(]/g)) for (const c of DIAL[m[1]] ?? []) out.add(c);
  return [...out];
}

// ---------------------------------------------------------------------------------------
// Tallies.

class Tally {
  right = 0;
  total = 0;
  add(ok: boolean) {
    this.total++;
    if (ok) this.right++;
  }
  toString() {
    if (this.total === 0) return "-";
    return `${this.right}/${this.total} (${((100 * this.right) / this.total).toFixed(1)}%)`;
  }
}

class Group {
  private readonly map = new Map<string, Tally>();
  get(key: string): Tally {
    let t = this.map.get(key);
    if (!t) this.map.set(key, (t = new Tally()));
    return t;
  }
  keys(): string[] {
    return [...this.map.keys()];
  }
}

interface CountryTally {
  answered: number;
  right: number;
  wrong: number;
  contradictions: number;
  withTruth: number;
  total: number;
}
const newCountry = (): CountryTally => ({ answered: 0, right: 0, wrong: 0, contradictions: 0, withTruth: 0, total: 0 });

interface Part {
  name: string;
  invoiceByLang: Group;
  nonInvoiceByLang: Group;
  typeByKind: Group;
  typeByLang: Group;
  subclass: Tally;
  country: CountryTally;
  misses: string[];
  ms: number[];
}
const newPart = (name: string): Part => ({
  name,
  invoiceByLang: new Group(),
  nonInvoiceByLang: new Group(),
  typeByKind: new Group(),
  typeByLang: new Group(),
  subclass: new Tally(),
  country: newCountry(),
  misses: [],
  ms: [],
});

interface Outcome {
  type: string;
  subclasses: string[];
  country?: string;
}

function outcomeOf(r: ReturnType<typeof classifyBuiltin>): Outcome {
  const subs = (r as { subclasses?: string[] }).subclasses ?? [];
  const code = (r as { countryCode?: string }).countryCode ?? (r.country ? CODE_OF.get(r.country) : undefined);
  return { type: r.type, subclasses: subs, country: code };
}

function record(
  part: Part,
  name: string,
  lang: string,
  kind: string,
  want: { types: string[]; subclass?: string; country?: string; issuerCountry?: string },
  got: Outcome,
  strong: string[],
) {
  const isInvoice = want.types.includes("invoice");
  if (isInvoice) part.invoiceByLang.get(lang).add(got.type === "invoice" || want.types.includes(got.type));
  else part.nonInvoiceByLang.get(lang).add(got.type !== "invoice");
  const ok = want.types.includes(got.type);
  part.typeByKind.get(kind).add(ok);
  part.typeByLang.get(lang).add(ok);
  if (want.subclass) part.subclass.add(got.subclasses.includes(want.subclass));
  const c = part.country;
  c.total++;
  if (want.country) c.withTruth++;
  if (got.country) {
    c.answered++;
    const truth = want.country ?? want.issuerCountry;
    if (truth && got.country === truth) c.right++;
    else c.wrong++;
    if (strong.length > 0 && !strong.includes(got.country)) c.contradictions++;
  }
  const badCountry = got.country && got.country !== (want.country ?? want.issuerCountry);
  if (!ok || badCountry || (want.subclass && !got.subclasses.includes(want.subclass)))
    part.misses.push(
      `${name}: ${got.type}${got.subclasses.length ? "+" + got.subclasses.join("+") : ""} (want ${want.types.join("|")}${want.subclass ? "+" + want.subclass : ""})` +
        (badCountry ? ` country ${got.country} (want ${want.country ?? want.issuerCountry ?? "none"}; page: ${strong.join(",") || "-"})` : ""),
    );
}

function printPart(p: Part) {
  console.log(`\n== ${p.name}`);
  const langs = [...new Set([...p.invoiceByLang.keys(), ...p.nonInvoiceByLang.keys()])].sort();
  console.log("  language   invoices → invoice        non-invoices → not invoice   type right");
  for (const l of langs)
    console.log(`  ${l.padEnd(10)} ${p.invoiceByLang.get(l).toString().padEnd(25)} ${p.nonInvoiceByLang.get(l).toString().padEnd(28)} ${p.typeByLang.get(l)}`);
  const inv = new Tally();
  const non = new Tally();
  for (const l of langs) {
    inv.right += p.invoiceByLang.get(l).right;
    inv.total += p.invoiceByLang.get(l).total;
    non.right += p.nonInvoiceByLang.get(l).right;
    non.total += p.nonInvoiceByLang.get(l).total;
  }
  console.log(`  ${"all".padEnd(10)} ${inv.toString().padEnd(25)} ${non.toString()}`);
  console.log("  per type:");
  for (const k of p.typeByKind.keys().sort()) console.log(`    ${k.padEnd(16)} ${p.typeByKind.get(k)}`);
  if (p.subclass.total) console.log(`  sub-class (credit note, pro forma, utility bill): ${p.subclass}`);
  const c = p.country;
  console.log(
    `  country: answered ${c.answered}/${c.total} (page names the issuer's country: ${c.withTruth}), right ${c.right}, wrong ${c.wrong}, contradicting a VAT id/IBAN/phone on the page: ${c.contradictions}`,
  );
  if (p.ms.length) {
    const s = [...p.ms].sort((a, b) => a - b);
    console.log(`  engine time per document: median ${s[Math.floor(s.length / 2)].toFixed(1)} ms, p90 ${s[Math.floor(s.length * 0.9)].toFixed(1)} ms`);
  }
  if (p.misses.length) {
    console.log(`  misses (${p.misses.length}):`);
    for (const m of p.misses.slice(0, 60)) console.log(`    ${m}`);
    if (p.misses.length > 60) console.log(`    ... ${p.misses.length - 60} more`);
  }
}

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = path.join(dir, n);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}

async function runCorpus(root: string): Promise<void> {
  const tuning = newPart("corpus: tuning part");
  const held = newPart("corpus: held-out part");
  const files = walk(root)
    .map((p) => path.relative(root, p).split(path.sep).join("/"))
    .filter((rel) => /\.(pdf|png|jpe?g|tiff?)$/i.test(rel) && expectedFor(rel))
    .sort();
  for (const rel of files) {
    const want = expectedFor(rel)!;
    const part = isHeldOut(rel) ? held : tuning;
    let got: Outcome;
    let strong: string[] = [];
    const t0 = performance.now();
    try {
      const text = await readClassifierText(readFileSync(path.join(root, rel)));
      const r = classifyBuiltin(text.pages, { formFields: text.formFields });
      got = outcomeOf(r);
      strong = strongCountriesOf(text.pages.map((p) => p.words.map((w) => w.text).join(" ")).join("\n"));
    } catch (e) {
      console.log(`  skipped ${rel}: ${(e as Error).message.slice(0, 80)}`);
      continue;
    }
    if (/\.pdf$/i.test(rel)) part.ms.push(performance.now() - t0);
    const lang = want.lang ?? "-";
    record(part, rel, lang, want.types.includes("invoice") ? "invoice" : want.types[0], want, got, strong);
  }
  printPart(tuning);
  printPart(held);
}

async function pagesOf(pdf: Uint8Array) {
  const d = mupdf.Document.openDocument(pdf, "application/pdf");
  try {
    return extractPageTexts(d, [...Array(d.countPages()).keys()]);
  } finally {
    d.destroy();
  }
}

async function runGenerated(set: "tune" | "eval", per: number): Promise<GeneratedDocument[]> {
  const part = newPart(`generated: ${set === "tune" ? "tuning set" : "held-out set (title words, compounds, layouts, towns not written against)"}`);
  const docs = generateDocuments({ set, perKind: per, seed: 7 });
  for (const doc of docs) {
    const pdf = await makeTextPdf(doc.pages);
    const t0 = performance.now();
    const pages = await pagesOf(pdf);
    const r = classifyBuiltin(pages);
    part.ms.push(performance.now() - t0);
    record(
      part,
      `${doc.name} [${doc.layout}]`,
      doc.lang,
      doc.kind,
      { types: [doc.type], subclass: doc.subclass, country: doc.country, issuerCountry: doc.issuerCountry },
      outcomeOf(r),
      doc.strongCountries,
    );
  }
  printPart(part);
  return docs;
}

/** Engine time for one-page documents beside pdftotext's on the same files (same run). */
async function speed(docs: GeneratedDocument[]) {
  const dir = mkdtempSync(path.join(tmpdir(), "quire-classify-"));
  try {
    const sample = docs.filter((d) => d.pages.length === 1).slice(0, 40);
    let quire = 0;
    let cli = 0;
    for (const [i, doc] of sample.entries()) {
      const pdf = await makeTextPdf(doc.pages);
      const file = path.join(dir, `${i}.pdf`);
      writeFileSync(file, pdf);
      const t0 = performance.now();
      const text = await readClassifierText(readFileSync(file));
      classifyBuiltin(text.pages, { formFields: text.formFields });
      quire += performance.now() - t0;
      const t1 = performance.now();
      execFileSync("pdftotext", ["-layout", file, "-"], { stdio: ["ignore", "ignore", "ignore"] });
      cli += performance.now() - t1;
    }
    console.log(
      `\n== speed (1-page text PDFs, ${sample.length} files): Quire read + classify ${(quire / sample.length).toFixed(1)} ms per file; pdftotext -layout ${(cli / sample.length).toFixed(1)} ms per file (process start included); ratio ${(quire / cli).toFixed(2)}`,
    );
  } catch (e) {
    console.log(`\n== speed: skipped (${(e as Error).message.slice(0, 80)})`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main() {
  const per = Number(option("--per") ?? 3);
  if (!flag("--no-corpus")) {
    if (corpusRoot) await runCorpus(corpusRoot);
    else console.log("accuracy:classify: no corpus found (../shared/corpus); corpus part skipped.");
  }
  if (!flag("--no-generated")) {
    const tune = await runGenerated("tune", per);
    await runGenerated("eval", per);
    await speed(tune);
  }
  console.log(`\nlanguages: ${GEN_LANGS.join(", ")}; generated kinds: ${GEN_TYPES.join(", ")}`);
}

main()
  .catch((e) => {
    console.error(e);
    process.exitCode = 1;
  })
  .finally(() => shutdownOcr().catch(() => {}));
