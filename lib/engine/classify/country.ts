/**
 * The country of a laid-out document: every segment becomes an evidence line for the
 * lexicon's country reader, with the label it stands under (the segment to its left on the
 * row, or the block heading above it: "Bill to", "Rechnungsempfänger", "Informationen zum
 * Käufer"), so the customer's VAT id or address is known as the customer's. Lines of the
 * issuer's block count more.
 */
import { xOverlap, type Layout, type Segment } from "@/lib/engine/invoice/layout";
import {
  countryEvidence,
  weighCountry,
  type CountryAnswer,
  type CountryEvidence,
  type EvidenceLine,
} from "@/lib/engine/lexicon/country-evidence";
import { fold } from "@/lib/engine/lexicon/normalize";

/** Block headings that introduce the customer's (not the issuer's) details. */
const BUYER_HEADING =
  /^(?:bill(?:ed)? to|invoice to|sold to|ship to|deliver to|customer|client|buyer|recipient|kunde|rechnungsempf\w*|leistungsempf\w*|empf[aä]nger|lieferanschrift|lieferadresse|rechnungsadresse|informationen zum k[aä]ufer|k[aä]ufer|auftraggeber|factur[ée] [àa]|adresse de facturation|adresse de livraison|adresse du client|destinataire|acheteur|cliente|facturar a|enviar a|cobrar a|comprador|destinatario|spett\.?(?:le)?|intestatario|klant|factuuradres|afleveradres|tomador|destinat[áa]rio|faturar a|para|pour|an|to|a)(?:\s+(?:address|adresse|details|data|dados|datos|daten|info\w*|name))?$/;

function isBuyerHeading(text: string): boolean {
  const f = fold(text).trim().replace(/[:\s]+$/, "");
  return f.length <= 40 && BUYER_HEADING.test(f);
}

/** The segments as evidence lines, each with its row label or block heading. */
export function evidenceLines(layout: Layout, issuerTexts: ReadonlySet<string> = new Set()): {
  lines: EvidenceLine[];
  segments: Segment[];
} {
  const lines: EvidenceLine[] = [];
  const segments: Segment[] = [];
  for (const page of layout.pages) {
    page.rows.forEach((row, r) => {
      row.segments.forEach((seg, k) => {
        const labels: string[] = [];
        // The heading of the block this segment belongs to: up the same column, no wide gap.
        let bottom = seg.y0;
        for (let up = r - 1; up >= 0 && up >= r - 8; up--) {
          const above = page.rows[up];
          const over = above.segments.filter((s) => xOverlap(s, seg) > 0.3 || Math.abs(s.x0 - seg.x0) < 8);
          if (over.length === 0) continue;
          if (bottom - above.y1 > layout.lineHeight * 2.5) break;
          bottom = above.y0;
          const heading = over.find((s) => isBuyerHeading(s.text));
          if (heading) {
            labels.push(heading.text);
            break;
          }
        }
        if (isBuyerHeading(seg.text.split(/\s{2,}|:/)[0] ?? "")) labels.push(seg.text);
        // The row label comes last: readers look at the label's end ("Land:", "Your VAT ID:").
        if (k > 0) labels.push(row.segments[k - 1].text);
        const own = seg.text.trim();
        const issuer = [...issuerTexts].some((t) => own === t || (t.length >= 6 && own.includes(t)));
        lines.push({ text: seg.text, label: labels.join(" ") || undefined, issuer });
        segments.push(seg);
      });
    });
  }
  return { lines, segments };
}

export interface DocumentCountry extends CountryAnswer {
  evidence: CountryEvidence[];
}

/** The document's country from its evidence (no answer when it disagrees or is missing). */
export function documentCountry(layout: Layout, issuerTexts: ReadonlySet<string> = new Set()): DocumentCountry {
  const { lines } = evidenceLines(layout, issuerTexts);
  const evidence = countryEvidence(lines);
  const issuer = new Set<number>();
  lines.forEach((l, i) => {
    if (l.issuer) issuer.add(i);
  });
  return { ...weighCountry(evidence, issuer), evidence };
}
