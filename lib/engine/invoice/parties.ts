/**
 * Parties of an invoice (vendor, bill-to, ship-to): address blocks under or beside their
 * labels, and, where the invoice has no labels, the blocks of the page head and foot judged
 * by what they hold (company suffix, size, address, contacts, tax ids, repetition, the
 * return-address line above an envelope window, the legal footer).
 */
import { isHeadingOnly, notAPartyName } from "@/lib/engine/lexicon/invoice-fields";
import type { Word } from "@/lib/engine/text/types";
import type { Box, Layout, Segment } from "@/lib/engine/invoice/layout";
import { boxOf } from "@/lib/engine/invoice/layout";
import type { LabelOccurrence } from "@/lib/engine/invoice/kv";
import { labelsInSegment } from "@/lib/engine/invoice/kv";
import { LABELS, matchLabelAt } from "@/lib/engine/invoice/labels";
import type { InvoiceContact, InvoiceParty } from "@/lib/engine/invoice/types";
import { isAddressLine, isStreetLike, parseAddress, parseCityLine } from "@/lib/engine/invoice/address";
import {
  readEmail,
  readPhone,
  readTaxId,
  readWebsite,
  isAmountLike,
  EMAIL_RE,
} from "@/lib/engine/invoice/values";
import { TAX_ID_PATTERN, checkTaxId, validIban } from "@/lib/engine/invoice/validate";

const TAX_ID_ONE = new RegExp(TAX_ID_PATTERN.source);
import { findDates } from "@/lib/engine/invoice/dates";
import { fold, hasLetter, squash } from "@/lib/engine/invoice/text-utils";

export interface BlockLine {
  text: string;
  words: Word[];
  box: Box;
  seg?: Segment;
}

export interface Block {
  page: number;
  lines: BlockLine[];
  /** Segments the block used (so they are not read again as other values). */
  segIds: Set<number>;
}

/** Labels that end a block: another party, an invoice field, a table header. */
const BLOCK_STOP = new Set([
  "billTo",
  "shipTo",
  "vendor",
  "invoiceNo",
  "invoiceDate",
  "dueDate",
  "poNo",
  "orderNo",
  "paymentTerms",
  "total",
  "subtotal",
  "tax",
  "notes",
  "quantityHeader",
  "bankName",
  "iban",
  "bic",
  "orderDate",
  "deliveryDate",
  "period",
  "paymentMethod",
  "page",
  "amountPaid",
  "balanceDue",
]);

/**
 * A role word heads a party's section when it stands alone ("Seller", "Bill to:", "Käufer /
 * Buyer") or is set off from the text after it ("Seller: ACME"): at the start of "Seller trade
 * name" or "Buyer contact name" it is part of a value, not a label.
 */
export function partyHeading(o: LabelOccurrence): boolean {
  return (
    (o.hit.label.weight >= 2 || o.hit.hasColon || o.labelOnly) &&
    (o.inline === "" || o.inline.startsWith("/") || /[:\-–]/.test(o.seg.text.slice(o.hit.end, o.hit.valueStart)))
  );
}

const PARTY_FIELDS = new Set(["billTo", "shipTo", "vendor"]);

function stopsBlock(seg: Segment): boolean {
  const occs = labelsInSegment(seg);
  if (occs.length === 0) return false;
  const o = occs[0];
  if (!BLOCK_STOP.has(o.hit.label.field)) return false;
  if (PARTY_FIELDS.has(o.hit.label.field)) return partyHeading(o);
  // A weak word label ("to", "total", "date") only stops the block when it looks like a label.
  return o.hit.label.weight >= 2 || o.hit.hasColon || o.labelOnly;
}

export const TITLE_RE =
  /^(?:(?:tax|vat|gst|commercial|pro[- ]?forma|proforma|final|copy of|kopie|copie|your|our|sales|payment|cash|official|electricity|water|gas|energy|phone|bank|account|monthly)\s+)*(?:invoices?|facture|rechnung|factuur|factura|fattura|fatura|receipt|bill|statement|credit note|quote|quotation|estimate|devis|avoir|gutschrift|nota|original|duplicate|copy|purchase order|order|bon de commande|bestellung|delivery note|packing slip|packing list|lieferschein|bon de livraison|pakbon|angebot|offerte|presupuesto|agreement|contract|vertrag|contrat|curriculum vitae|resume|lebenslauf|report|form|formular|formulaire|application form|rekeningafschrift|kontoauszug|releve de compte|water bill|electricity bill)(?:\s*\/\s*\w+)?[\s.:#]*$/i;

/** Collects the block under (or beside) a party label. */
export function blockAt(occ: LabelOccurrence, layout: Layout, taken: Set<number>): Block {
  const lines: BlockLine[] = [];
  const segIds = new Set<number>([occ.seg.id]);
  const page = layout.pages.find((p) => p.index === occ.seg.page)!;
  const lh = layout.lineHeight;
  const lefts = [occ.labelBox.x0];
  if (occ.inline !== "" && occ.inlineWords.length > 0) {
    lines.push({ text: occ.inline, words: occ.inlineWords, box: boxOf(occ.inlineWords, occ.seg.page) });
    lefts.push(occ.inlineWords[0].x0);
  } else {
    const row = page.rows[occ.seg.row];
    const right = row.segments.filter((s) => s.x0 > occ.seg.x1).sort((a, b) => a.x0 - b.x0)[0];
    if (
      right &&
      right.x0 - occ.seg.x1 < page.width * 0.12 &&
      !taken.has(right.id) &&
      !stopsBlock(right) &&
      labelsInSegment(right).length === 0
    ) {
      lines.push({ text: right.text, words: right.words, box: right, seg: right });
      segIds.add(right.id);
      lefts.push(right.x0);
    }
  }
  // The right edge: the next segment right of the label on its row (a neighbouring block).
  const labelRow = page.rows[occ.seg.row];
  const neighbour = labelRow.segments
    .filter((s) => s.x0 > occ.seg.x1 && !segIds.has(s.id))
    .sort((a, b) => a.x0 - b.x0)[0];
  const rightEdge = neighbour ? neighbour.x0 - 2 : page.width;
  let lastBottom = lines.length > 0 ? lines[0].box.y1 : occ.seg.y1;
  for (let r = occ.seg.row + 1; r < page.rows.length && lines.length < 9; r++) {
    const row = page.rows[r];
    const gap = row.y0 - lastBottom;
    if (gap > Math.max(lh, row.y1 - row.y0) * 1.9) break;
    const tol = lh * 1.6;
    const cands = row.segments.filter(
      (s) => s.x0 < rightEdge && lefts.some((x) => Math.abs(s.x0 - x) <= tol),
    );
    if (cands.length === 0) {
      if (gap > lh * 0.9) break;
      continue;
    }
    const seg = cands.sort(
      (a, b) =>
        Math.min(...lefts.map((x) => Math.abs(a.x0 - x))) - Math.min(...lefts.map((x) => Math.abs(b.x0 - x))),
    )[0];
    if (taken.has(seg.id) || stopsBlock(seg)) break;
    // Keep only the words left of the neighbour block's edge.
    const words = seg.words.filter((w) => w.x0 < rightEdge);
    if (words.length === 0) break;
    lines.push({ text: words.map((w) => w.text).join(" "), words, box: boxOf(words, seg.page), seg });
    segIds.add(seg.id);
    lastBottom = seg.y1;
  }
  return { page: occ.seg.page, lines, segIds };
}

export interface PartyResult {
  party: InvoiceParty;
  /** Boxes of the values, by path inside the party ("name", "address.city", ...). */
  sources: Record<string, Box>;
}

/** "Registered office:", "Siège social :", "Address:" before an address. */
const OFFICE_RE =
  /^(?:registered\s+office|head\s+office|corporate\s+office|office|address|adresse|si(?:e|è)ge(?:\s+social)?|sitz|anschrift|adres|direcci(?:o|ó)n|indirizzo|warehouse\s+address)\s*[:.-]\s*/i;

/** Long lines with " - ", " • ", " | " separators hold several fields ("Street 1 - 12345 City - Tel"). */
function splitLines(lines: BlockLine[]): BlockLine[] {
  const out: BlockLine[] = [];
  for (const l of lines) {
    const parts = l.text
      .split(/\s+[–•·|]\s+|\s+-\s+(?=\D|\d{4,5}\s+\p{L})|\s*[•·|]\s*/u)
      .map((p) => p.trim())
      .filter(Boolean);
    const fieldy = (p: string) => /\d/.test(p) || /@|\b(?:tel|phone|fax|www)\b/i.test(p) || isAddressLine(p);
    if (parts.length >= 2 && l.text.length > 25 && parts.slice(1).some(fieldy))
      for (const p of parts) out.push({ ...l, text: p });
    else out.push(l);
  }
  return out;
}

const ATTN_RE = /^(?:attn|attention|c\/o|z\.?\s?hd\.?|t\.?a\.?v\.?|[aà]\.?\s?l['’]attention\s+de)[.:]?\s+/i;

/** Reads name, address, contacts and tax id from the lines of a block. */
export function parseParty(rawLines: BlockLine[], withName = true): PartyResult {
  const party: InvoiceParty = {};
  const sources: Record<string, Box> = {};
  const contact: InvoiceContact = {};
  const addrLines: BlockLine[] = [];
  const taxIds: { value: string; box: Box; rank: number }[] = [];
  let nameDone = !withName;
  let skippedForName = 0;
  const lines = splitLines(rawLines);
  let skipLine = -1;
  for (const [li, line] of lines.entries()) {
    if (li === skipLine) continue;
    const text = squash(line.text.replace(OFFICE_RE, ""));
    if (text === "") continue;
    const f = fold(text);
    // Contacts and identifiers, labelled or recognisable.
    const email = readEmail(text);
    const labelled = /^(?:e-?mail|email|courriel|mail)\b/.test(f);
    if (email && (labelled || email.value.length > text.length * 0.5 || !nameDone)) {
      if (!contact.email) {
        contact.email = email.value;
        sources["contactInformation.email"] = line.box;
      }
      const rest = text
        .replace(email.value, "")
        .replace(/^(?:e-?mail|email|courriel|mail)\s*[:.]?/i, "")
        .trim();
      const phone = rest.length > 6 ? readPhone(rest) : undefined;
      if (phone && !contact.phone) {
        contact.phone = phone.value;
        sources["contactInformation.phone"] = line.box;
      }
      if (!nameDone && !labelled && email.value.length > text.length * 0.5) continue;
      continue;
    }
    if (/^(?:fax|telefax|f)\s*[.:]/.test(f) || /^fax\b/.test(f)) {
      const p = readPhone(text);
      if (p && !contact.fax) {
        contact.fax = p.value;
        sources["contactInformation.fax"] = line.box;
      }
      continue;
    }
    if (
      /^(?:tel(?:ephone|efon|efoon)?|phone|ph|mobile|mob|cell|gsm|t|fon)\s*[.:]|^(?:phone|tel|telephone|mobile)\b/.test(
        f,
      )
    ) {
      const p = readPhone(text);
      if (p && !contact.phone) {
        contact.phone = p.value;
        sources["contactInformation.phone"] = line.box;
      }
      const fax = /fax\s*[.:]?\s*(.+)$/i.exec(text);
      if (fax) {
        const fp = readPhone(fax[1]);
        if (fp && !contact.fax) {
          contact.fax = fp.value;
          sources["contactInformation.fax"] = line.box;
        }
      }
      continue;
    }
    if (
      /^(?:web(?:site)?\b|www\.|https?:|internet\b|url\b)/.test(f) ||
      (readWebsite(text)?.value.length ?? 0) > text.length * 0.7
    )
      continue;
    const occ = lineLabel(line);
    if (occ && (occ.hit.label.kind === "taxId" || occ.hit.label.field === "customerNo")) {
      if (occ.hit.label.kind === "taxId") {
        const id = readTaxId(occ.inline);
        if (id)
          taxIds.push({
            value: id.value,
            box: line.box,
            rank: (checkTaxId(id.value)?.valid ? 4 : 0) + occ.hit.label.weight,
          });
      }
      continue;
    }
    if (occ && occ.hit.label.kind === "contact" && occ.hit.label.field === "website") continue;
    const taxHit = text.match(TAX_ID_PATTERN);
    if (
      taxHit &&
      taxHit[0].replace(/\s/g, "").length >= text.replace(/\s/g, "").length * 0.7 &&
      checkTaxId(taxHit[0])?.valid
    ) {
      taxIds.push({ value: taxHit[0], box: line.box, rank: 5 });
      continue;
    }
    if (LEGAL_RE.test(f) && /\d/.test(text) && !isAddressLine(text)) continue;
    if (!nameDone) {
      const name = text.replace(ATTN_RE, "").replace(/[,;]$/, "").trim();
      if (/^\(.*\)$/.test(name)) continue;
      // The first half of a caption wrapped over two lines ("Abweichender / Handelsname:",
      // "Register-/ / Registriernummer:") is part of a label, never the name.
      if (wrappedCaptionHead(line, lines[li + 1])) {
        skippedForName++;
        continue;
      }
      // A heading, identifier, street or sentence line before the name: look further (a few lines).
      // A line of role words right above the street is the name all the same (nothing else is).
      const nameByPlace =
        isHeadingOnly(name) &&
        !TITLE_RE.test(name) &&
        !/:\s*$/.test(name) &&
        lines[li + 1] !== undefined &&
        (isStreetLike(lines[li + 1].text) || isAddressLine(lines[li + 1].text));
      // Under its heading, a party may be named by role with an article ("LE CLIENT", "The
      // Buyer", "L'ACHETEUR"): a heading never starts with an article, so that is the name.
      const roleByArticle =
        isHeadingOnly(name) && !/:\s*$/.test(name) && /^(?:(?:le|la|les|the|der|die|das|el|il|lo|het|de)\s|l['’])\p{L}/iu.test(name);
      if (notAPartyName(name) && !isAddressLine(name) && !nameByPlace && !roleByArticle) {
        // A heading, caption, identifier, street or sentence is never the name: look at the next
        // lines (a few), and rather give no name than a wrong one.
        skippedForName++;
        if (isStreetLike(name)) {
          // The block starts with its street: no name printed.
          nameDone = true;
          addrLines.push({ ...line, text });
        } else if (skippedForName > 3) nameDone = true;
        continue;
      }
      if (hasLetter(name) && !isAddressLine(name) && !/^\d/.test(name) && !TITLE_RE.test(name)) {
        // A contact person printed above the company ("Anna Keller / Weber Logistik GmbH"): the
        // company is the party, the person its contact.
        const next = lines[li + 1];
        if (next && personAboveOrganisation(name, squash(next.text))) {
          party.name = squash(next.text);
          sources.name = next.box;
          nameDone = true;
          skipLine = li + 1;
          continue;
        }
        party.name = name;
        sources.name = line.box;
        nameDone = true;
        continue;
      }
      nameDone = true;
    }
    // An attention line after the name names a contact person, not an address line.
    if (nameDone && ATTN_RE.test(text)) continue;
    // A bare phone number line: "(870)-931-0505", "+31 20 123 4567".
    if (/^[+(]?\d[\d\s().\-/]{6,}$/.test(text) && !parseCityLine(text)) {
      const p = readPhone(text);
      if (p && !contact.phone) {
        contact.phone = p.value;
        sources["contactInformation.phone"] = line.box;
      }
      continue;
    }
    if (validIban(text.replace(/^iban[:\s]*/i, ""))) continue;
    addrLines.push({ ...line, text });
  }
  const bestId = taxIds.sort((a, b) => b.rank - a.rank)[0];
  if (bestId) {
    party.entityId = bestId.value;
    sources.entityId = bestId.box;
  }
  const parsed = parseAddress(addrLines.slice(0, 6).map((l) => l.text));
  if (parsed) {
    party.address = parsed.address;
    const box = unionBoxes(parsed.used.map((i) => addrLines[i].box));
    if (box) sources.address = box;
  }
  if (Object.keys(contact).length > 0) party.contactInformation = contact;
  return { party, sources };
}

const COURTESY_START =
  /^(?:herrn?|frau|monsieur|madame|mademoiselle|mme|mlle|m\.|mr\.?|mrs\.?|ms\.?|miss|dr\.?|prof\.?|dhr\.?|mevr\.?|sr\.|sra\.|sig\.(?:ra)?)\s/i;

/**
 * A person's name above an organisation's: the first line is two to four capitalised words
 * without digits, legal form or organisation word (a courtesy title makes it a person for sure);
 * the second carries a legal form (or, after a courtesy title, an organisation word or is any
 * plausible name line that is not an address, identifier or caption).
 */
export function personAboveOrganisation(first: string, second: string): boolean {
  const words = first.split(/\s+/);
  if (words.length < 2 || words.length > 4 || /[\d@:&,]/.test(first)) return false;
  if (!words.every((w) => /^\p{Lu}/u.test(w))) return false;
  if (COMPANY_SUFFIX.test(first) || ORG_WORDS.test(first)) return false;
  if (notAPartyName(second) || isAddressLine(second) || isStreetLike(second) || /:/.test(second)) return false;
  if (COMPANY_SUFFIX.test(second)) return true;
  return COURTESY_START.test(first) && /^\p{Lu}/u.test(second) && !COURTESY_START.test(second) && !/\d/.test(second);
}

/**
 * A line that starts a caption wrapped onto the next line: the next line, in the same column, is a
 * bare caption of one or two words ending in a colon, and this line is one word without digits,
 * colon or legal form (or ends in a hyphen or slash, a word cut by the wrap).
 */
export function wrappedCaptionHead(line: BlockLine, next: BlockLine | undefined): boolean {
  if (!next) return false;
  const t = squash(line.text);
  const n = squash(next.text);
  if (!/^[\p{L}][\p{L}.\-/ ]*:$/u.test(n) || n.split(/\s+/).length > 2) return false;
  if (Math.abs(next.box.x0 - line.box.x0) > Math.max(4, (line.box.y1 - line.box.y0) * 0.8)) return false;
  if (/[\d:@]/.test(t) || COMPANY_SUFFIX.test(t) || ORG_WORDS.test(t)) return false;
  if (/[-/]$/.test(t)) return true;
  return /^\p{L}+$/u.test(t);
}

function lineLabel(line: BlockLine): LabelOccurrence | undefined {
  const seg: Segment = line.seg
    ? { ...line.seg, words: line.words, text: line.text }
    : { id: -1, row: -1, ...line.box, words: line.words, text: line.text, fontSize: 10, bold: false };
  return labelsInSegment(seg, LABELS)[0];
}

export function unionBoxes(boxes: Box[]): Box | undefined {
  if (boxes.length === 0) return undefined;
  return {
    page: boxes[0].page,
    x0: Math.min(...boxes.map((b) => b.x0)),
    y0: Math.min(...boxes.map((b) => b.y0)),
    x1: Math.max(...boxes.map((b) => b.x1)),
    y1: Math.max(...boxes.map((b) => b.y1)),
  };
}

// -------------------------------------------------------------------------------------------
// Unlabelled parties: blocks of the page head and foot.

export const COMPANY_SUFFIX =
  /(?:^|[\s,])(?:inc|incorporated|llc|l\.l\.c|ltd|limited|plc|gmbh|ag|kg|ohg|ug|e\.?\s?k|bv|b\.\s?v|nv|n\.\s?v|sa|s\.a|sas|s\.a\.s|sarl|s\.a\.r\.l|eurl|sasu|srl|s\.r\.l|spa|s\.p\.a|sl|s\.l|oy|oyj|ab|a\/s|aps|pty|pvt|co|corp|corporation|company|llp|lp|kk|k\.k|group|holdings?|gbr|se|bvba|vof|cv|s\.c|sp\.? z o\.?o)\.?,?(?=$|[\s,)])/i;

/** Words that name organisations without a legal suffix ("Greenway Housing Association"). */
export const ORG_WORDS =
  /\b(?:association|authority|council|university|bank|hospital|trust|ministry|department|agency|institute|foundation|society|club|church|school|college|power|energy|water|electric|electricity|telecom|insurance|services|solutions|systems|technologies|consulting|partners|industries|international|clinic|hotel|restaurant|store|shop|market|mairie|stadtwerke|gemeente|ayuntamiento|comune)\b/i;

export interface HeadBlock {
  page: number;
  lines: BlockLine[];
  segIds: Set<number>;
  x0: number;
  y0: number;
  y1: number;
}

/** Groups the segments of a page into left-aligned blocks of closely spaced lines. */
export function pageBlocks(layout: Layout, pageIndex: number, skip: Set<number>): HeadBlock[] {
  const page = layout.pages.find((p) => p.index === pageIndex);
  if (!page) return [];
  const lh = layout.lineHeight;
  const blocks: HeadBlock[] = [];
  for (const row of page.rows) {
    for (const seg of row.segments) {
      if (skip.has(seg.id)) continue;
      const open = blocks.filter((b) => {
        const last = b.lines[b.lines.length - 1];
        const gap = seg.y0 - b.y1;
        const h = Math.max(lh, last.box.y1 - last.box.y0, seg.y1 - seg.y0);
        // Left-aligned, centred or right-aligned (a letterhead set flush right).
        const aligned =
          Math.abs(seg.x0 - b.x0) <= lh * 1.2 ||
          Math.abs((seg.x0 + seg.x1) / 2 - (last.box.x0 + last.box.x1) / 2) <= lh ||
          Math.abs(seg.x1 - last.box.x1) <= lh * 0.8;
        const sizes = [last.seg?.fontSize ?? seg.fontSize, seg.fontSize];
        const sameSize = Math.max(...sizes) / Math.max(1, Math.min(...sizes)) < 1.35;
        return aligned && sameSize && gap > -h * 0.3 && gap < h * 1.1 && last.seg?.row !== seg.row;
      });
      const b = open.sort((a, c) => Math.abs(seg.x0 - a.x0) - Math.abs(seg.x0 - c.x0))[0];
      const line: BlockLine = { text: seg.text, words: seg.words, box: seg, seg };
      if (b) {
        b.lines.push(line);
        b.segIds.add(seg.id);
        b.y1 = Math.max(b.y1, seg.y1);
      } else
        blocks.push({
          page: pageIndex,
          lines: [line],
          segIds: new Set([seg.id]),
          x0: seg.x0,
          y0: seg.y0,
          y1: seg.y1,
        });
    }
  }
  return blocks;
}

/** Words that qualify a document title ("Payment Receipt", "Kopie factuur"), not vendor names. */
const TITLE_WORDS =
  /^(?:(?:your|the|this|our|tax|vat|gst|proforma|pro[- ]forma|final|original|copy|kopie|copie|duplicate|commercial|sales|payment|cash|credit|debit|official|simple|service|customer|retail|interim|summary|monthly|recurring|electronic|e-?)\s*)+$/i;

/**
 * A one-line block in large type (a letterhead name) continues with the block right under it
 * (the address in smaller type). Returns that block, if any.
 */
export function blockBelow(blocks: HeadBlock[], b: HeadBlock, lh: number): HeadBlock | undefined {
  if (b.lines.length !== 1) return undefined;
  const x1 = b.lines[0].box.x1;
  return blocks.find(
    (o) =>
      o !== b &&
      (Math.abs(o.x0 - b.x0) <= lh * 1.5 || Math.abs(o.lines[0].box.x1 - x1) <= lh) &&
      o.y0 >= b.y1 - 1 &&
      o.y0 - b.y1 < lh * 2.2,
  );
}

export interface VendorCandidate {
  name: string;
  box: Box;
  score: number;
  block?: HeadBlock;
  why: string[];
}

/** Words of a name for comparisons: folded, without company suffixes and punctuation. */
export function nameTokens(name: string): string[] {
  return fold(name)
    .replace(COMPANY_SUFFIX, " ")
    .replace(/[^a-z0-9 ]+/g, " ")
    .split(/\s+/)
    .filter((t) => t.length >= 2 && !["the", "and", "of", "de", "la", "le"].includes(t));
}

function domainMatches(name: string, domains: string[]): boolean {
  const toks = nameTokens(name);
  if (toks.length === 0) return false;
  const joined = toks.join("");
  return domains.some((d) => {
    const core = d.replace(/[^a-z0-9]/g, "");
    if (core.length < 3) return false;
    return (
      core === joined ||
      (joined.length >= 4 && core.startsWith(joined)) ||
      (core.length >= 4 && joined.startsWith(core))
    );
  });
}

const LEGAL_RE =
  /\b(?:capital|rcs|siret|siren|registered|registration|reg\.?\s*no|company\s+no|hrb|hra|amtsgericht|registergericht|kvk|handelsregister|vat|tva|btw|ust|gstin|cin|abn|chamber of commerce|geschaftsfuhrer|vorstand|directors?|head office|siege social|registered office|incorporated)\b/;

/** A candidate name from a line: the text before the first separator of a "name - street - city" line. */
function headOfLine(text: string): string {
  return text
    .split(/\s+[-–•·|]\s+|\s{2,}|,\s+(?=\d)/)[0]
    .replace(/[,;:]$/, "")
    .trim();
}

/**
 * The address in the rest of a footer line after the vendor's name ("…, Lindenstraße 12, 20095
 * Hamburg, Sitz der Gesellschaft: Hamburg, Amtsgericht Hamburg HRB 12345"): its fields without the
 * legal ones (register, court, capital, tax ids), captioned ones and contacts; after an office
 * caption ("registered office: 21 Wharf Road, London") only what follows it. Fields next to each
 * other stay one line ("Springfield, IL 62701").
 */
export function footerAddressLines(rest: string): string[] {
  let out: string[] = [];
  for (const part of rest.split(/\s+[-–•·|]\s+|\s*[•·|]\s*/)) {
    let run: string[] = [];
    const flush = () => {
      if (run.length > 0) out.push(run.join(", "));
      run = [];
    };
    for (const raw of part.split(/\s*[,;]\s+/)) {
      let field = raw.replace(/^[,;\s]+|[,;\s]+$/g, "");
      const office = OFFICE_RE.exec(field);
      if (office) {
        out = [];
        run = [];
        field = field.slice(office[0].length).trim();
      }
      const legal = LEGAL_RE.test(fold(field)) || /^\p{L}[\p{L}\s.'’-]*:/u.test(field);
      const contact = /@|\b(?:tel|fax|phone|iban|bic|swift)\b|^www\./i.test(field);
      if (field === "" || legal || contact) flush();
      else run.push(field);
    }
    flush();
  }
  return out;
}

/** A legal-form name's own clause: "… au capital de 10 000 €", "… mit Sitz in Hamburg". */
const CAPITAL_CLAUSE = /\s+(?:au|with|mit|met|con|com)\s+(?:(?:un\s+)?capital|stammkapital|sitz|share\s+capital)\b.*$/i;

/**
 * The name at the head of a footer line: before the first separator, and in a sentence of
 * comma-separated fields ("Hansen GmbH, Hauptstraße 5, 20095 Hamburg, Amtsgericht …") the first
 * field when it carries a legal form; without the capital clause ("Dupont SARL au capital de …").
 */
function footerHead(text: string): string {
  const head = headOfLine(text).replace(CAPITAL_CLAUSE, "").trim();
  const first = head.split(/,\s+/)[0].replace(CAPITAL_CLAUSE, "").trim();
  if (first !== head && COMPANY_SUFFIX.test(first) && first.split(/\s+/).length <= 6) return first;
  return head;
}

function plausibleName(text: string): boolean {
  const t = text.trim();
  if (t.length < 2 || t.length > 70 || !hasLetter(t)) return false;
  if (TITLE_RE.test(t) || notAPartyName(t)) return false;
  if (EMAIL_RE.test(t) || /^(?:www\.|https?:)/i.test(t)) return false;
  if (isAmountLike(t) || findDates(t).length > 0) return false;
  if (isAddressLine(t) || (isStreetLike(t) && /\d/.test(t))) return false;
  if (/^(?:page|seite|pagina)\b/i.test(t)) return false;
  if (/^[\d\s.,:;/#+()-]+$/.test(t)) return false;
  if (/\b(?:details|information|summary|address|terms|conditions|instructions|description)\b/i.test(t))
    return false;
  const words = t.split(/\s+/);
  if (words.length > 6 || /:/.test(t) || /^\(.*\)$/.test(t)) return false;
  // Sentences are mostly lower-case words; names are capitalised.
  const lower = words.filter((w) => /^\p{Ll}/u.test(w) && w.length > 3).length;
  if (lower > 2 || (words.length >= 3 && lower * 2 > words.length)) return false;
  return true;
}

/**
 * Scores the unlabelled candidates for the vendor's name. `context` carries document-wide
 * signals: web domains, the account holder, all segment texts (for repetition).
 */
export function vendorCandidates(
  layout: Layout,
  skip: Set<number>,
  context: {
    domains: string[];
    accountHolder?: string;
    allTexts: string[];
    medianFont: number;
    /** The buyer is already known from a labelled section: an address block elsewhere is not its window. */
    buyerLabelled?: boolean;
  },
): VendorCandidate[] {
  const out: VendorCandidate[] = [];
  const first = layout.pages[0];
  if (!first) return out;
  const H = first.height;
  const repeatCount = (name: string) => {
    const f = fold(name);
    if (f.length < 3) return 0;
    return context.allTexts.filter((t) => fold(t).includes(f)).length;
  };
  const score = (name: string, box: Box, base: number, why: string[], block?: HeadBlock) => {
    if (nameTokens(name).length === 0) return;
    const f = fold(name);
    const label = matchLabelAt(f, 0, LABELS);
    if (label && label.end >= f.replace(/[\s:.]+$/, "").length) return;
    let s = base;
    const w = [...why];
    if (COMPANY_SUFFIX.test(name)) {
      s += 3;
      w.push("suffix");
    } else if (ORG_WORDS.test(name)) {
      s += 2;
      w.push("organisation word");
    }
    if (domainMatches(name, context.domains)) {
      s += 3;
      w.push("domain");
    }
    if (
      context.accountHolder &&
      nameTokens(context.accountHolder).join(" ") === nameTokens(name).join(" ") &&
      nameTokens(name).length > 0
    ) {
      s += 3;
      w.push("account holder");
    }
    const reps = repeatCount(name);
    if (reps >= 2) {
      s += Math.min(2, reps - 1);
      w.push(`repeated ${reps}`);
    }
    out.push({ name, box, score: s, block, why: w });
  };
  // 1. Blocks of the first page's head (top 45%).
  const blocks = pageBlocks(layout, first.index, skip).filter((b) => b.y0 < H * 0.45);
  const topMost = Math.min(...blocks.map((b) => b.y0));
  for (const b of blocks) {
    let idx = 0;
    const byPlace = (i: number) => {
      const t = b.lines[i].text.trim();
      const next = b.lines[i + 1]?.text;
      return (
        isHeadingOnly(t) && !TITLE_RE.test(t) && !/:\s*$/.test(t) && next !== undefined && (isStreetLike(next) || isAddressLine(next))
      );
    };
    while (idx < b.lines.length && !plausibleName(b.lines[idx].text) && !byPlace(idx)) {
      if (idx > 1) break;
      idx++;
    }
    if (idx >= b.lines.length || idx > 1) continue;
    const line = b.lines[idx];
    const name = line.text.replace(ATTN_RE, "").replace(/[,;]$/, "").trim();
    if ((!plausibleName(name) && !byPlace(idx)) || name.length > 60) continue;
    if (b.lines.length === 1 && line.text.length > 50) continue;
    const why: string[] = [];
    let base = 0;
    const size = line.seg?.fontSize ?? context.medianFont;
    const ratio = size / Math.max(1, context.medianFont);
    if (ratio > 1.15) {
      base += ratio > 1.6 ? 3 : 2;
      why.push("large");
    }
    if (line.seg?.bold) {
      base += 0.5;
      why.push("bold");
    }
    const below = blockBelow(blocks, b, layout.lineHeight);
    const rest = [...b.lines.slice(idx + 1), ...(below?.lines ?? [])].map((l) => l.text);
    if (rest.some((t) => isAddressLine(t))) {
      base += 1.5;
      why.push("address");
    }
    if (rest.some((t) => EMAIL_RE.test(t) || /\b(?:tel|phone|fax|www)\b/i.test(t))) {
      base += 1;
      why.push("contact");
    }
    if (rest.some((t) => TAX_ID_ONE.test(t) || LEGAL_RE.test(fold(t)))) {
      base += 1.5;
      why.push("tax id");
    }
    if (rest.some((t) => /\biban\b/i.test(t))) {
      base += 1;
      why.push("bank");
    }
    if (b.y0 <= topMost + 1) {
      base += 1;
      why.push("top");
    }
    if (b.lines.length === 1 && !below && base < 1.5) base -= 1;
    // The addressee of a window envelope (left, 11–32% down the page) is the buyer, not the
    // issuer, unless the block itself carries the issuer's contacts, tax id or bank.
    const inWindow =
      b.x0 < first.width * 0.45 && b.y0 > H * 0.11 && b.y0 < H * 0.32 && rest.some((t) => isAddressLine(t));
    const issuerSigns = why.some((w) => w === "contact" || w === "tax id" || w === "bank");
    if (inWindow && !context.buyerLabelled && !issuerSigns) {
      base -= 3;
      why.push("address window");
    }
    // A block with an attention line ("z. Hd. Frau Weber", "Attn: Accounts Payable", "À
    // l'attention de …") is addressed to someone: it is the addressee wherever it is set
    // (Swiss and French letters put the window on the right, where letterheads also stand).
    const addressed = b.lines.slice(0, idx + 3).some((l) => ATTN_RE.test(fold(l.text.trim())));
    if (addressed && !inWindow && !issuerSigns) {
      base -= 3;
      why.push("attention line");
    }
    const merged: HeadBlock = below
      ? {
          ...b,
          lines: [...b.lines, ...below.lines],
          segIds: new Set([...b.segIds, ...below.segIds]),
          y1: below.y1,
        }
      : b;
    score(name, line.box, base, why, merged);
  }
  // 2. "Vendor Invoice" titles ("Amazon Web Services Invoice").
  for (const row of first.rows.slice(0, 12)) {
    for (const seg of row.segments) {
      const m = /^(.{3,60}?)\s+(?:tax\s+)?(?:invoice|facture|rechnung|factuur|receipt)$/i.exec(
        seg.text.trim(),
      );
      if (m && plausibleName(m[1]) && !TITLE_WORDS.test(m[1].trim())) {
        score(m[1], seg, 2, ["title"]);
      }
    }
  }
  // 3. The return-address line above an envelope window: "Company AG - Street 1 - 12345 City".
  // It stands alone: a line that continues the text right above it is part of a paragraph.
  const lh = layout.lineHeight;
  for (const [ri, row] of first.rows.entries()) {
    if (row.y0 > H * 0.45) break;
    const above = first.rows[ri - 1];
    for (const seg of row.segments) {
      if (
        above &&
        seg.y0 - above.y1 < lh * 0.9 &&
        above.segments.some((a) => Math.min(a.x1, seg.x1) - Math.max(a.x0, seg.x0) > (seg.x1 - seg.x0) * 0.5)
      )
        continue;
      let parts = seg.text
        .split(/\s+[-–•·|]\s+|\s*[•·|]\s*/)
        .map((p) => p.trim())
        .filter(Boolean);
      // "Company AG, Street 1, 12345 City": the fields separated by commas.
      if (parts.length < 3 && (seg.fontSize ?? context.medianFont) <= context.medianFont)
        parts = seg.text
          .split(/,\s+/)
          .map((p) => p.trim())
          .filter(Boolean);
      if (
        parts.length >= 3 &&
        parts.slice(1).some((p) => isAddressLine(p) || parseCityLine(p)) &&
        plausibleName(parts[0])
      ) {
        score(parts[0], seg, 4, ["return address"]);
      }
    }
  }
  // 4. The legal footer (bottom 22% of the first and last pages). A footer whose VAT numbers
  // are none of those printed beside the letterhead block names another company (a template's
  // placeholder, a parent, a billing agent): its name is not the issuer's.
  const letterheadIds = out
    .filter((c) => c.block && c.score >= 1.5 && !c.why.includes("address window"))
    .map((c) => idsBeside(first, c.block!, H));
  const footPages = [...new Set([layout.pages[0], layout.pages[layout.pages.length - 1]])];
  for (const p of footPages) {
    const footRows = p.rows.filter((r) => r.y0 > p.height * 0.72);
    const footText = fold(footRows.map((r) => r.text).join(" "));
    const legal = LEGAL_RE.test(footText);
    const footIds = taxIdsIn(footRows.map((r) => r.text));
    if (letterheadIds.some((ids) => disjoint(footIds, ids))) continue;
    for (const row of footRows) {
      for (const seg of row.segments) {
        const head = footerHead(seg.text);
        const alone = head === seg.text.trim();
        if (!plausibleName(head)) continue;
        if (
          COMPANY_SUFFIX.test(head) ||
          (alone && legal && head.length <= 40 && head === head.toUpperCase())
        ) {
          score(head.replace(/\s+(?:au|with|mit|met)\s+capital.*$/i, ""), seg, legal ? 2.5 : 1, ["footer"]);
        } else if (alone && legal && seg.bold) {
          score(head, seg, 1.5, ["footer"]);
        }
      }
    }
  }
  return out.sort((a, b) => b.score - a.score);
}

/** The VAT numbers in some lines, without spaces and dots ("FR 11 123 456 782" → "FR11123456782"). */
function taxIdsIn(texts: string[]): Set<string> {
  const out = new Set<string>();
  for (const t of texts) for (const m of t.matchAll(TAX_ID_PATTERN)) out.add(m[0].replace(/[\s.-]+/g, "").toUpperCase());
  return out;
}

/** True when two non-empty sets share nothing. */
function disjoint(a: Set<string>, b: Set<string>): boolean {
  return a.size > 0 && b.size > 0 && ![...a].some((x) => b.has(x));
}

/**
 * The VAT numbers printed in a letterhead block's column of the page's head, from its top to 45%
 * down the page: the block's own identifiers, often set apart from its address by a blank line.
 */
function idsBeside(page: Layout["pages"][number], block: HeadBlock, H: number): Set<string> {
  const texts: string[] = [];
  const halfway = page.width / 2;
  const left = block.x0 < halfway;
  for (const row of page.rows) {
    if (row.y0 < block.y0 || row.y0 > H * 0.45) continue;
    for (const seg of row.segments) if (seg.x0 < halfway === left) texts.push(seg.text);
  }
  return taxIdsIn(texts);
}

/** Website and email domains printed in the document (vendor names often match them). */
export function documentDomains(texts: string[]): string[] {
  const out = new Set<string>();
  for (const t of texts) {
    for (const m of t.matchAll(new RegExp(EMAIL_RE, "g")))
      out.add(fold(m[0].split("@")[1].split(".").slice(0, -1).join(".")));
    for (const m of t.matchAll(
      /\b(?:https?:\/\/)?(?:www\.)?([a-z0-9-]+)\.(?:com|net|org|io|co|de|fr|nl|be|uk|eu|es|it|ch|at|in|us|biz|info)\b/gi,
    )) {
      out.add(fold(m[1]));
    }
  }
  return [...out].filter(
    (d) => !/^(?:gmail|yahoo|hotmail|outlook|example|mail|gmx|web|live|icloud|aol|fake)$/.test(d),
  );
}

/** True when the lines read like an address block (a city line or a street plus a country). */
export function looksLikeAddressBlock(lines: string[]): boolean {
  return lines.some(
    (l) => isAddressLine(l) || (l.includes(",") && parseAddress([l])?.address.city !== undefined),
  );
}

const NAME_WORD =
  "(?:name|full\\s+name|company(?:\\s+name)?|firmenname|firma|nom|raison\\s+sociale|d[ée]nomination(?:\\s+sociale)?|raz[oó]n\\s+social|nombre|ragione\\s+sociale|denominazione|naam|bedrijfsnaam|nome(?:\\s+empresarial)?|raz[aã]o\\s+social)";
/** A form caption that introduces a party's name ("Name:", "Firmenname:", "Raison sociale :"). */
const NAME_CAPTION = new RegExp(`^${NAME_WORD}\\s*:\\s*(.*)$`, "iu");
/**
 * A cell caption that is nothing but name captions, its value in the cell under it ("Nome / Nome
 * Empresarial" over the company's name, "Company name" over it): a label, never the name.
 */
const NAME_CAPTION_CELL = new RegExp(`^${NAME_WORD}(?:\\s*[/|]\\s*${NAME_WORD})*\\s*:?$`, "iu");

/**
 * The name captioned inside a role section ("Informationen zum Käufer" → "Name: Beispielkunde"):
 * the first "Name:"-like caption in the rows under the heading, before the next party heading,
 * with its value inline or in the next segment of the row.
 */
export function captionedName(occ: LabelOccurrence, layout: Layout): { name: string; box: Box } | undefined {
  const page = layout.pages.find((p) => p.index === occ.seg.page);
  if (!page) return undefined;
  const lh = layout.lineHeight;
  let last = occ.seg.y1;
  let personal: { name: string; box: Box } | undefined;
  // The section's column: from the heading's left edge to the next heading on its row (sections
  // side by side, "Seller" left and "Buyer" right, caption their lines on the same rows).
  const headRow = page.rows[occ.seg.row];
  const colLeft = occ.seg.x0 - lh * 2;
  const colRight = Math.min(page.width, ...headRow.segments.filter((s) => s.x0 > occ.seg.x1).map((s) => s.x0 - lh));
  for (let r = occ.seg.row + 1; r < page.rows.length && r <= occ.seg.row + 14; r++) {
    const row = page.rows[r];
    if (row.y0 - last > lh * 4) break;
    const segs = [...row.segments].filter((s) => s.x0 >= colLeft && s.x0 < colRight).sort((a, b) => a.x0 - b.x0);
    const head = segs[0];
    if (
      head &&
      labelsInSegment(head).some(
        (o) =>
          o.hit.start <= 1 &&
          o.hit.label.weight >= 3 &&
          (o.hit.label.field === "billTo" || o.hit.label.field === "vendor" || o.hit.label.field === "shipTo"),
      )
    )
      break;
    last = row.y1;
    for (let i = 0; i < segs.length; i++) {
      const caption = segs[i].text.trim();
      const m = NAME_CAPTION.exec(caption);
      let value = m ? m[1].trim() : "";
      let box: Box = segs[i];
      if (m && !value && segs[i + 1]) {
        value = segs[i + 1].text.trim();
        box = segs[i + 1];
      } else if (!m && NAME_CAPTION_CELL.test(caption)) {
        const under = cellUnder(page, r, segs[i], lh);
        if (under) {
          value = under.text.trim();
          box = under;
        }
      }
      if (value && !notAPartyName(value) && !NAME_CAPTION.test(value) && !NAME_CAPTION_CELL.test(value)) {
        // A company caption ("Firmenname", "Raison sociale") names the party; a bare "Name" may
        // be its contact person's: keep looking for a company caption in the section.
        if (COMPANY_CAPTION.test(fold(caption)) || COMPANY_CELL.test(fold(caption))) return { name: value, box };
        personal ??= { name: value, box };
      }
    }
  }
  return personal;
}

const COMPANY_CAPTION =
  /^(?:company(?:\s+name)?|firmenname|firma|unternehmen|raison\s+sociale|denomination(?:\s+sociale)?|razon\s+social|denominacion(?:\s+social)?|ragione\s+sociale|denominazione|bedrijfsnaam|handelsnaam|razao\s+social|empresa)\s*:/;
/** A cell caption naming a company's name among its alternatives ("Nome / Nome Empresarial"). */
const COMPANY_CELL =
  /(?:^|[/|]\s*)(?:company(?:\s+name)?|firmenname|firma|raison\s+sociale|denomination(?:\s+sociale)?|razon\s+social|ragione\s+sociale|bedrijfsnaam|razao\s+social|nome\s+empresarial)\s*:?\s*(?:$|[/|])/;

/** The segment in the row right under a caption cell that starts under it (its value). */
function cellUnder(page: Layout["pages"][number], row: number, caption: Box, lh: number): Segment | undefined {
  const next = page.rows[row + 1];
  if (!next || next.y0 - caption.y1 > lh * 1.5) return undefined;
  return next.segments.find((s) => Math.abs(s.x0 - caption.x0) < lh * 1.2 && s.x0 < caption.x1);
}
