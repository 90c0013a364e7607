/**
 * npm run accuracy:sheets — spreadsheet → CSV accuracy against the SheetJS test-file corpus
 * (../shared/corpus/spreadsheets, or SHEETS_CORPUS_DIR). For every sheet with an Excel-exported
 * CSV it compares Quire's CSV (lib/engine/sheets, the code behind /v1/xls/convert/to/csv) and
 * plain SheetJS's (XLSX.read + sheet_to_csv with default options) with the expected text, both
 * normalised the way SheetJS's own test suite does (`fixcsv`, see the corpus SOURCE.md).
 * Fails (exit 1) when Quire misses a sheet that plain SheetJS matches.
 *
 * Run: npx tsx --import ./scripts/node-hooks.mjs bench/accuracy/sheets.ts [--verbose]
 */
import fs from "node:fs";
import path from "node:path";
import * as XLSX from "@e965/xlsx";
import * as cptable from "@e965/xlsx/dist/cpexcel.full.mjs";
import { sheetToCsv } from "@/lib/engine/sheets/sheet-to-csv";

XLSX.set_cptable(cptable);

interface ManifestCsv {
  file: string;
  sheet_index: number;
  encoding: string;
}
interface ManifestWorkbook {
  workbook: string;
  sheet_names: string[];
  csv: ManifestCsv[];
}

const verbose = process.argv.includes("--verbose");
const corpus = path.resolve(
  process.env.SHEETS_CORPUS_DIR ?? path.join(process.cwd(), "../shared/corpus/spreadsheets"),
);
const manifestPath = path.join(corpus, "manifest.json");

if (!fs.existsSync(manifestPath)) {
  console.log(
    `accuracy:sheets: no corpus at ${corpus} (manifest.json missing); skipping. Set SHEETS_CORPUS_DIR to run it.`,
  );
  process.exit(0);
}

/** SheetJS test.js `fixcsv`: BOM, tabs → commas, 255-# fills, quotes, CR/LF runs, trailing newlines. */
export function fixcsv(text: string): string {
  return text
    .replace(/^\uFEFF/, "")
    .replace(/\t/g, ",")
    .replace(/#{255}/g, "")
    .replace(/"/g, "")
    .replace(/[\r\n]+/g, "\n")
    .replace(/\n*$/, "");
}

function decode(bytes: Buffer, encoding: string): string {
  const label = encoding === "windows-1252" ? "windows-1252" : "utf-8";
  return new TextDecoder(label).decode(bytes);
}

function firstDifference(a: string, b: string): string {
  const la = a.split("\n");
  const lb = b.split("\n");
  for (let i = 0; i < Math.max(la.length, lb.length); i++) {
    if (la[i] !== lb[i])
      return `line ${i + 1}: got ${JSON.stringify(la[i] ?? null)} want ${JSON.stringify(lb[i] ?? null)}`;
  }
  return "";
}

const manifest = JSON.parse(fs.readFileSync(manifestPath, "utf8")) as { workbooks: ManifestWorkbook[] };
let total = 0;
let ours = 0;
let theirs = 0;
const regressions: string[] = [];
const rows: string[] = [];

for (const wb of manifest.workbooks) {
  const bytes = fs.readFileSync(path.join(corpus, wb.workbook));
  let baseline: XLSX.WorkBook | undefined;
  try {
    baseline = XLSX.read(bytes, { type: "buffer" });
  } catch {
    baseline = undefined;
  }
  for (const c of wb.csv) {
    total++;
    const expected = fixcsv(decode(fs.readFileSync(path.join(corpus, c.file)), c.encoding));
    let mine = "";
    let mineError = "";
    try {
      mine = fixcsv(sheetToCsv(bytes, { worksheetIndex: c.sheet_index + 1 }).csv);
    } catch (e) {
      mineError = String((e as Error).message ?? e);
    }
    const name = baseline?.SheetNames[c.sheet_index];
    const sheet = name ? baseline?.Sheets[name] : undefined;
    const reference = sheet ? fixcsv(XLSX.utils.sheet_to_csv(sheet)) : "\u0000";
    const okMine = !mineError && mine === expected;
    const okRef = reference === expected;
    if (okMine) ours++;
    if (okRef) theirs++;
    if (okRef && !okMine) regressions.push(`${wb.workbook} sheet ${c.sheet_index + 1}`);
    const label = `${wb.workbook} #${c.sheet_index + 1} (${wb.sheet_names[c.sheet_index] ?? "?"})`;
    let line = `${okMine ? "match" : "DIFF "}  sheetjs:${okRef ? "match" : "diff "}  ${label}`;
    if (!okMine && (verbose || okRef)) line += `\n        ${mineError || firstDifference(mine, expected)}`;
    rows.push(line);
  }
}

console.log(rows.join("\n"));
console.log(
  `\naccuracy:sheets: Quire matches ${ours}/${total} sheets; plain SheetJS matches ${theirs}/${total}.`,
);
if (regressions.length) {
  console.log(`Sheets SheetJS matches but Quire does not (${regressions.length}): ${regressions.join(", ")}`);
  process.exit(1);
}
console.log("Every sheet that SheetJS matches, Quire matches too.");
