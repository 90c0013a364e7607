/**
 * npm run accuracy:classify — runs the built-in classifier (POST /v1/pdf/classifier without
 * rules) over the documents of ../shared/corpus and prints, per document, the type found and
 * the expected one, then the accuracy. The corpus has no classification labels of its own:
 * the labels below are ours, one judgement per file (some accept two types: a "payment
 * receipt" that invoice2data treats as an invoice, statistics tables that are reports or
 * other). Encrypted and unreadable files are skipped. Skips quietly when the corpus is absent.
 * Usage: tsx --import ./scripts/node-hooks.mjs bench/accuracy/classify.ts [corpusDir]
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { classifyBuiltin } from "@/lib/engine/classify/builtin";
import { readClassifierText } from "@/lib/engine/classify/document-text";
import { shutdownOcr } from "@/lib/engine/ocr/pool";

const root = path.resolve(
  process.argv[2] ?? process.env.CLASSIFY_CORPUS ?? path.join(process.cwd(), "..", "shared", "corpus"),
);

/** Expected type(s) by path inside the corpus; a folder entry ("invoices/") labels every file in it. */
const LABELS: Record<string, string[]> = {
  "invoices/": ["invoice"],
  "invoices/oyo.pdf": ["receipt", "invoice"],
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

function expectedFor(rel: string): string[] | undefined {
  if (LABELS[rel]) return LABELS[rel];
  const folder = Object.keys(LABELS).find((k) => k.endsWith("/") && rel.startsWith(k));
  return folder ? LABELS[folder] : undefined;
}

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = path.join(dir, n);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}

async function main() {
  if (!existsSync(root)) {
    console.log(`accuracy:classify: no corpus at ${root}; skipped.`);
    return;
  }
  const files = walk(root)
    .map((p) => path.relative(root, p).split(path.sep).join("/"))
    .filter((rel) => /\.(pdf|png|jpe?g|tiff?)$/i.test(rel) && expectedFor(rel))
    .sort();
  let right = 0;
  let counted = 0;
  let pages = 0;
  let seconds = 0;
  const confusion = new Map<string, number>();
  for (const rel of files) {
    const want = expectedFor(rel)!;
    const t0 = performance.now();
    let got: string;
    let extra = "";
    try {
      const text = await readClassifierText(readFileSync(path.join(root, rel)));
      const r = classifyBuiltin(text.pages, { formFields: text.formFields });
      got = r.type;
      pages += text.pageCount;
      extra = [r.organisation, r.country].filter(Boolean).join(", ");
    } catch (e) {
      console.log(`${rel.padEnd(70)} skipped: ${(e as Error).message.slice(0, 80)}`);
      continue;
    }
    const secs = (performance.now() - t0) / 1000;
    seconds += secs;
    counted++;
    const ok = want.includes(got);
    if (ok) right++;
    else confusion.set(`${want[0]} → ${got}`, (confusion.get(`${want[0]} → ${got}`) ?? 0) + 1);
    console.log(
      `${ok ? "✓" : "✗"} ${rel.padEnd(70)} ${got.padEnd(15)} ${ok ? "" : `(want ${want.join(" or ")})`}${extra ? ` [${extra}]` : ""} ${secs.toFixed(2)} s`,
    );
  }
  console.log("");
  for (const [k, n] of confusion) console.log(`  confused ${k}: ${n}`);
  console.log(
    `accuracy: ${right}/${counted} (${((100 * right) / Math.max(1, counted)).toFixed(1)}%); ${(seconds / Math.max(1, pages)).toFixed(2)} s per page`,
  );
}

main()
  .catch((e) => {
    console.error(e);
    process.exitCode = 1;
  })
  .finally(() => shutdownOcr().catch(() => {}));
