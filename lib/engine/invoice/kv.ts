/**
 * Label/value pairs read from the layout in both directions: "Label: value" inside one
 * segment, the value in the next segment to the right on the same row, or the value under the
 * label (header rows of small tables: "Invoice Date | Due Date" over "03/20/2023 | 04/04/2023").
 */
import type { Word } from "@/lib/engine/text/types";
import type { Box, Layout, Segment } from "@/lib/engine/invoice/layout";
import { boxOf, xOverlap } from "@/lib/engine/invoice/layout";
import { LABELS, matchLabelAt, type CompiledLabel, type LabelHit } from "@/lib/engine/invoice/labels";
import { foldKeepLength } from "@/lib/engine/invoice/text-utils";

/** A label found in a segment, with the raw value text that follows it inside the segment. */
export interface LabelOccurrence {
  seg: Segment;
  hit: LabelHit;
  /** Text after the label up to the next label of the same segment (may be empty). */
  inline: string;
  /** Words of the inline value. */
  inlineWords: Word[];
  /** Box of the label words. */
  labelBox: Box;
  /** True when the label is the whole segment (with its colon): a "label-only" cell. */
  labelOnly: boolean;
}

export type Direction = "inline" | "right" | "below";

/** A raw value candidate for a label: its text and where it sits. */
export interface RawValue {
  occ: LabelOccurrence;
  direction: Direction;
  text: string;
  words: Word[];
  box: Box;
  /** The segment the value came from (for right/below values). */
  seg?: Segment;
}

/** Character offsets of each word inside `seg.text` (joinWords inserts at most one space). */
function wordOffsets(seg: Segment): number[] {
  const offs: number[] = [];
  let pos = 0;
  for (const w of seg.words) {
    const at = seg.text.indexOf(w.text, pos);
    offs.push(at < 0 ? pos : at);
    pos = (at < 0 ? pos : at) + w.text.length;
  }
  return offs;
}

function wordsIn(seg: Segment, offs: number[], from: number, to: number): Word[] {
  return seg.words.filter((w, i) => offs[i] >= from && offs[i] < to);
}

/**
 * Finds label occurrences in every segment: a label at the start of the segment (colon
 * optional), and further labels inside it when they end with a colon ("Date: 1/2/23 Terms: Net 30").
 */
export function findLabels(layout: Layout, labels: CompiledLabel[] = LABELS): LabelOccurrence[] {
  const out: LabelOccurrence[] = [];
  for (const seg of layout.segments) out.push(...labelsInSegment(seg, labels));
  return out;
}

export function labelsInSegment(seg: Segment, labels: CompiledLabel[] = LABELS): LabelOccurrence[] {
  const folded = foldKeepLength(seg.text);
  const offs = wordOffsets(seg);
  const hits: LabelHit[] = [];
  for (let i = 0; i < offs.length; i++) {
    const pos = offs[i];
    if (hits.length > 0 && pos < hits[hits.length - 1].valueStart) continue;
    let p = pos;
    // Skip leading bullets or symbols ("• Tel.", "* Invoice No").
    while (p < folded.length && /[•*·\-–>|]/.test(folded[p])) p++;
    while (p < folded.length && folded[p] === " ") p++;
    const hit = matchLabelAt(folded, p, labels);
    if (!hit) continue;
    if (i === 0 || hit.hasColon) hits.push(hit);
  }
  return hits.map((hit, k) => {
    const valueEnd = k + 1 < hits.length ? hits[k + 1].start : seg.text.length;
    const inline = seg.text.slice(hit.valueStart, valueEnd).trim();
    const labelWords = wordsIn(seg, offs, hit.start, Math.max(hit.start + 1, hit.end));
    const inlineWords = wordsIn(seg, offs, hit.valueStart, valueEnd);
    return {
      seg,
      hit,
      inline,
      inlineWords,
      labelBox: boxOf(labelWords.length > 0 ? labelWords : seg.words, seg.page),
      labelOnly: hits.length === 1 && inline === "",
    };
  });
}

/** Whether a segment starts with a label (so it is not a value of another label). */
export function startsWithLabel(seg: Segment, labels: CompiledLabel[] = LABELS, minWeight = 2): boolean {
  const folded = foldKeepLength(seg.text);
  const hit = matchLabelAt(folded, 0, labels);
  if (!hit) return false;
  // "Total 12.00" starts with a label; so does a bare "Date". A name like "Bill Smith" does not
  // ("bill" needs a value with digits to count), hence the weight floor for word-like labels.
  return hit.label.weight >= minWeight || hit.hasColon || hit.end === folded.trimEnd().length;
}

/**
 * The raw values a label may have, best first: inline text; else the nearest segment right
 * of it on the same row; else the nearest segment below it that overlaps it horizontally.
 */
export function valuesFor(occ: LabelOccurrence, layout: Layout, labelSegs: Set<number>): RawValue[] {
  const out: RawValue[] = [];
  const { seg } = occ;
  if (occ.inline !== "" && occ.inlineWords.length > 0) {
    out.push({
      occ,
      direction: "inline",
      text: occ.inline,
      words: occ.inlineWords,
      box: boxOf(occ.inlineWords, seg.page),
    });
  }
  const page = layout.pages.find((p) => p.index === seg.page);
  if (!page) return out;
  // Only the last label of a segment may take the value to the right of the segment; only a
  // label without inline text takes the value under it.
  const isLast = occ.hit.valueStart + occ.inline.length >= occ.seg.text.trimEnd().length - 1;
  if (isLast) {
    const row = page.rows[seg.row];
    // The segments to the right up to the next label: the first is the value of most labels;
    // amount rows ("Total | 24.99 | 5.00 | 29.99") print the amount that counts last.
    const rights = row.segments.filter((s) => s.x0 >= seg.x1 - 1).sort((a, b) => a.x0 - b.x0);
    for (const right of rights) {
      if (labelSegs.has(right.id) || right.x0 - seg.x1 > page.width * 0.8) break;
      out.push({ occ, direction: "right", text: right.text, words: right.words, box: right, seg: right });
    }
  }
  // A date has digits: a date label whose inline text has none ("Data e hora da emissão da
  // NFS-e", "Date of issue (dd/mm/yyyy)") is qualified, not answered; its value may stand under it.
  const qualified = occ.hit.label.kind === "date" && !/\d/.test(occ.inline) && occ.inline.length <= 40;
  if (isLast && (occ.inline === "" || qualified)) {
    const lh = layout.lineHeight;
    // A form grid (a row of captions over a row of values, each in its box): the label's cell
    // runs from its left edge to the next caption of its row, and a value anywhere inside it
    // belongs to it (values set flush right in wide boxes do not line up with their caption).
    const labelRow = page.rows[seg.row];
    const captionLike = (s: Segment) => labelSegs.has(s.id) || (!/\d/.test(s.text) && s.text.split(/\s+/).length <= 6);
    const grid =
      occ.labelOnly &&
      labelRow.segments.length >= 3 &&
      labelRow.segments.filter(captionLike).length * 3 >= labelRow.segments.length * 2;
    const cellRight = Math.min(
      page.width,
      ...labelRow.segments.filter((s) => s.x0 > seg.x1).map((s) => s.x0),
    );
    // A caption over a column kept clear of other text (a paragraph set beside a totals grid,
    // "TOTAL HT | TOTAL TVA | TOTAL TTC" over amounts three lines down): its number still is its value.
    let clear = true;
    for (let r = seg.row + 1; r < page.rows.length && r <= seg.row + 5; r++) {
      const row2 = page.rows[r];
      const far = row2.y0 - seg.y1 > lh * 2.6;
      if (far && (!clear || row2.y0 - seg.y1 > lh * 5.5)) break;
      // Rows are in reading order; one set above the label (a rotated watermark) is not under it.
      if (row2.y0 < seg.y0) continue;
      let under = row2.segments.filter(
        (s) =>
          xOverlap(s, seg) > 0.3 || Math.abs(s.x0 - seg.x0) < lh * 1.2 || Math.abs(s.x1 - seg.x1) < lh * 1.2,
      );
      // (tight grids: the value row may touch the caption's box, but starts below its middle)
      if (under.length === 0 && grid && row2.y0 > (seg.y0 + seg.y1) / 2)
        under = row2.segments.filter((s) => s.x0 >= seg.x0 - 2 && s.x1 <= cellRight + 2);
      // The value under a label cell lines up with it more than with its neighbours.
      const best = under.sort((a, b) => Math.abs(a.x0 - seg.x0) - Math.abs(b.x0 - seg.x0))[0];
      if (best && far && !/\d/.test(best.text)) break;
      if (best) {
        if (labelSegs.has(best.id)) break;
        out.push({ occ, direction: "below", text: best.text, words: best.words, box: best, seg: best });
        break;
      }
      if (row2.segments.some((s) => xOverlap(s, seg) > 0)) clear = false;
    }
  }
  return out;
}
