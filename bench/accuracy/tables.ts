/**
 * Table-extraction accuracy against tabula-java's test cases (../shared/corpus/tables, see
 * CASES.md there): cell-level precision and recall, and exact-table matches, per file and in
 * total. Run: npx tsx --import ./scripts/node-hooks.mjs bench/accuracy/tables.ts [--mode=hinted|default] [--verbose]
 *
 * Scoring: both CSVs are parsed into rows of cells; each cell is compared after collapsing
 * whitespace (a line break inside a cell counts as a space, as CASES.md suggests). Rows are
 * aligned by dynamic programming (most equal cells in the same column), then a non-empty cell
 * is right when the aligned row holds the same text in the same column. Precision = right /
 * our non-empty cells; recall = right / expected non-empty cells. An exact match is every row
 * equal (trailing empty cells ignored).
 *
 * Mode: tabula is told lattice or stream for each case; "hinted" passes the analogous
 * ColumnDetectionMode (lattice → Borders, stream → ContentGroups, auto → the default);
 * "default" runs ContentGroupsAndBorders everywhere. Both are printed unless --mode is given.
 */
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import * as mupdf from "mupdf";
import { extractPageTexts } from "@/lib/engine/text/words";
import { analysePages, segmentRows } from "@/lib/engine/tables/extract-tables";
import type { ColumnDetectionMode } from "@/lib/engine/tables/types";

const dir = resolve(process.cwd(), "../shared/corpus/tables");
const verbose = process.argv.includes("--verbose");
const modeArg = process.argv.find((a) => a.startsWith("--mode="))?.slice(7);

interface Case {
  csv: string;
  pdf: string;
  page: number;
  /** top,left,bottom,right (pt) or percent. */
  areas: { values: number[]; percent: boolean }[];
  method: "lattice" | "stream" | "auto";
}

function parseCases(md: string): Case[] {
  const cases: Case[] = [];
  for (const line of md.split("\n")) {
    if (!line.startsWith("| `")) continue;
    const cols = line.split("|").map((c) => c.trim());
    if (cols.length < 8) continue; // the "left out on purpose" table
    const csv = /`([^`]+\.csv)`/.exec(cols[1])?.[1];
    if (!csv) continue;
    const pdfCol = cols[2];
    const pdf = /`([^`]+\.pdf)`/.exec(pdfCol)?.[1] ?? csv.replace(/\.csv$/, ".pdf");
    const page = Number.parseInt(cols[3], 10);
    const areaCol = cols[4];
    const areas: Case["areas"] = [];
    if (!/^whole page/.test(areaCol)) {
      // The first absolute-or-percent areas named, e.g. `56.925,24.255,549.945,786.555` or two `%...` areas.
      const found = [...areaCol.matchAll(/`(%?)([\d.]+),([\d.]+),([\d.]+),([\d.]+)`/g)];
      const first = found.filter((m) => m[1] === (found[0]?.[1] ?? ""));
      const twoAreas = /two areas/.test(areaCol);
      for (const m of twoAreas ? first.slice(0, 2) : first.slice(0, 1)) {
        areas.push({ values: [m[2], m[3], m[4], m[5]].map(Number), percent: m[1] === "%" });
      }
    }
    const methodCol = cols[5];
    const method = /^lattice/.test(methodCol) ? "lattice" : /^stream/.test(methodCol) ? "stream" : "auto";
    cases.push({ csv, pdf, page, areas, method });
  }
  return cases;
}

/** Minimal RFC 4180 parser (quoted cells, "" escapes, CR/LF/CRLF record ends). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  let i = 0;
  const t = text.replace(/^\uFEFF/, "");
  while (i < t.length) {
    const c = t[i];
    if (quoted) {
      if (c === '"' && t[i + 1] === '"') {
        cell += '"';
        i += 2;
      } else if (c === '"') {
        quoted = false;
        i++;
      } else {
        cell += c;
        i++;
      }
    } else if (c === '"') {
      quoted = true;
      i++;
    } else if (c === ",") {
      row.push(cell);
      cell = "";
      i++;
    } else if (c === "\r" || c === "\n") {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
      i += c === "\r" && t[i + 1] === "\n" ? 2 : 1;
    } else {
      cell += c;
      i++;
    }
  }
  if (cell !== "" || row.length) {
    row.push(cell);
    rows.push(row);
  }
  return rows;
}

const norm = (s: string) => s.replace(/\s+/g, " ").trim();

function trimRow(r: string[]): string[] {
  const out = r.map(norm);
  while (out.length && out[out.length - 1] === "") out.pop();
  return out;
}

interface Score {
  right: number;
  ours: number;
  expected: number;
  exact: boolean;
}

/**
 * A constant column offset (an extra or missing empty first column, e.g. from where an area
 * starts) is forgiven: the best of shifting our rows by -2..2 columns counts.
 */
function score(ours: string[][], expected: string[][]): Score {
  let best: Score | null = null;
  for (const shift of [0, 1, -1, 2, -2]) {
    const shifted = ours.map((r) => (shift >= 0 ? [...new Array<string>(shift).fill(""), ...r] : r.slice(-shift)));
    if (shift < 0 && ours.some((r) => r.slice(0, -shift).some((t) => norm(t) !== ""))) continue;
    const s = scoreAligned(shifted, expected);
    if (!best || s.right > best.right) best = s;
  }
  return best!;
}

function scoreAligned(ours: string[][], expected: string[][]): Score {
  const a = ours.map(trimRow).filter((r) => r.length);
  const b = expected.map(trimRow).filter((r) => r.length);
  const same = (x: string[], y: string[]) => x.reduce((n, t, j) => n + (t !== "" && t === y[j] ? 1 : 0), 0);
  // DP alignment maximising equal cells.
  const dp = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      dp[i][j] = Math.max(dp[i - 1][j], dp[i][j - 1], dp[i - 1][j - 1] + same(a[i - 1], b[j - 1]));
    }
  }
  const nonEmpty = (rows: string[][]) => rows.reduce((n, r) => n + r.filter((t) => t !== "").length, 0);
  const lead = (r: string[]) => r.findIndex((t) => t !== "");
  const exact = a.length === b.length && a.every((r, i) => lead(r) === lead(b[i]) && r.length === b[i].length && r.every((t, j) => t === b[i][j]));
  return { right: dp[a.length][b.length], ours: nonEmpty(a), expected: nonEmpty(b), exact };
}

function runCase(c: Case, mode: ColumnDetectionMode): string[][] {
  const bytes = readFileSync(join(dir, c.pdf));
  const doc = mupdf.Document.openDocument(bytes, "application/pdf");
  try {
    const [page] = extractPageTexts(doc, [c.page - 1], { withRules: true });
    if (c.areas.length === 0) {
      const segs = analysePages([page], { mode });
      // Tabula's whole-page lattice output holds the tables only; stream holds everything.
      return c.method === "lattice" ? segmentRows(segs.filter((s) => s.kind === "table")) : segmentRows(segs);
    }
    const rows: string[][] = [];
    for (const a of c.areas) {
      let [top, left, bottom, right] = a.values;
      if (a.percent) {
        top = (top / 100) * page.height;
        bottom = (bottom / 100) * page.height;
        left = (left / 100) * page.width;
        right = (right / 100) * page.width;
      }
      const area = { x: left, y: top, width: right - left, height: bottom - top };
      const segs = analysePages([page], { mode, wholeAreaIsTable: true }, area);
      rows.push(...segmentRows(segs));
    }
    return rows;
  } finally {
    doc.destroy();
  }
}

function main() {
  if (!existsSync(join(dir, "CASES.md"))) {
    console.log(`accuracy:tables skipped: no corpus at ${dir} (expected CASES.md with PDFs and CSVs).`);
    return;
  }
  mupdf.setLog?.({ warning: () => {}, error: () => {} });
  const cases = parseCases(readFileSync(join(dir, "CASES.md"), "utf8"));
  const runs: ("hinted" | "default")[] = modeArg === "hinted" || modeArg === "default" ? [modeArg] : ["hinted", "default"];
  for (const run of runs) {
    console.log(`\n== mode: ${run === "hinted" ? "hinted (lattice → Borders, stream → ContentGroups, auto → default)" : "default (ContentGroupsAndBorders)"}`);
    const total = { right: 0, ours: 0, expected: 0, exact: 0 };
    const pct = (n: number, d: number) => (d === 0 ? "—" : `${((100 * n) / d).toFixed(1)}%`);
    for (const c of cases) {
      const mode: ColumnDetectionMode =
        run === "default" ? "ContentGroupsAndBorders" : c.method === "lattice" ? "Borders" : c.method === "stream" ? "ContentGroups" : "ContentGroupsAndBorders";
      const t0 = performance.now();
      let ours: string[][];
      try {
        ours = runCase(c, mode);
      } catch (e) {
        console.log(`${c.csv.padEnd(70)} ERROR ${(e as Error).message}`);
        continue;
      }
      const expected = parseCsv(readFileSync(join(dir, c.csv), "utf8"));
      const s = score(ours, expected);
      total.right += s.right;
      total.ours += s.ours;
      total.expected += s.expected;
      total.exact += s.exact ? 1 : 0;
      console.log(
        `${c.csv.padEnd(70)} precision ${pct(s.right, s.ours).padStart(6)}  recall ${pct(s.right, s.expected).padStart(6)}  exact ${s.exact ? "yes" : "no "}  (${mode}, ${(performance.now() - t0).toFixed(0)} ms)`,
      );
      if (verbose && !s.exact) {
        console.log("  ours:");
        for (const r of ours.slice(0, 40)) console.log("    " + JSON.stringify(r.map(norm)));
        console.log("  expected:");
        for (const r of expected.slice(0, 40)) console.log("    " + JSON.stringify(r.map(norm)));
      }
    }
    const f1 = (2 * total.right) / (total.ours + total.expected || 1);
    console.log(
      `TOTAL cells: precision ${pct(total.right, total.ours)}, recall ${pct(total.right, total.expected)}, F1 ${(100 * f1).toFixed(1)}%; exact tables ${total.exact}/${cases.length}`,
    );
  }
}

main();
