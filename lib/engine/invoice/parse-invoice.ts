/**
 * Reads an invoice it has never seen (no templates) from positioned words: layout rows and
 * segments → labels with their values (right of or under the label) → parties from address
 * blocks → the line-item table → totals reconciled → banking details → custom fields.
 * Pure: takes PageText[] (text layer or OCR), returns the seed's invoice object plus the
 * boxes the values came from. Values are normalised in form only (ISO dates, plain decimals).
 */
import { pageBox } from "@/lib/engine/text/page-frame";
import type { PageText } from "@/lib/engine/text/types";
import {
  buildLayout,
  layoutText,
  boxOf,
  type Box,
  type Layout,
  type Segment,
} from "@/lib/engine/invoice/layout";
import {
  findLabels,
  valuesFor,
  labelsInSegment,
  type LabelOccurrence,
  type RawValue,
} from "@/lib/engine/invoice/kv";
import { compileLabel, LABELS, type CompiledLabel, type LabelKind } from "@/lib/engine/invoice/labels";
import { detectDecimalMark, findAmounts, findCurrency, pickAmount, type DecimalMark } from "@/lib/engine/invoice/amounts";
import { detectDateOrder, findDates, parseDate, type DateOrder } from "@/lib/engine/invoice/dates";
import {
  readBic,
  readEmail,
  readIban,
  readId,
  readPhone,
  readTaxId,
  readText,
  readWebsite,
  isAmountLike,
  EMAIL_RE,
} from "@/lib/engine/invoice/values";
import { validAbaRouting, checkTaxId, TAX_ID_PATTERN } from "@/lib/engine/invoice/validate";
import {
  blockAt,
  partyHeading,
  COMPANY_SUFFIX,
  captionedName,
  documentDomains,
  footerAddressLines,
  looksLikeAddressBlock,
  nameTokens,
  pageBlocks,
  parseParty,
  vendorCandidates,
  unionBoxes,
  TITLE_RE,
  type BlockLine,
  type PartyResult,
} from "@/lib/engine/invoice/parties";
import {
  findLineItems,
  isTaxRateText,
  lineItemsBody,
  taxRowOf,
  type TaxRow,
  type Column,
  type LineItemTable,
} from "@/lib/engine/invoice/line-items";
import { findHeaderlessItems, findItemRecords } from "@/lib/engine/invoice/item-records";
import { reconcileTotals, type AmountCandidate } from "@/lib/engine/invoice/totals";
import { parseAddress } from "@/lib/engine/invoice/address";
import { US_STATES, countryOf } from "@/lib/engine/invoice/countries";
import {
  currencyOfCountry,
  isIdentifierToken,
  notAPartyName,
  withoutCourtesyTitle,
  withoutDepartment,
} from "@/lib/engine/lexicon/invoice-fields";
import { camelCase, escapeRegExp, fold, splitCamel } from "@/lib/engine/invoice/text-utils";
import {
  pruneEmpty,
  type BankingInformation,
  type FieldSources,
  type InvoiceBody,
  type InvoiceParty,
  type ParseInvoiceResult,
} from "@/lib/engine/invoice/types";

export interface ParseInvoiceOptions {
  /** customField names (camelCase) to look for; found values go to the body under those names. */
  customFields?: string[];
  /**
   * Column edges from the extraction engine's table analysis for a header at `headerY` on
   * `page` (length columns + 1), used to place line-item columns; optional.
   */
  tableEdges?: (page: number, cols: Column[], headerY: number) => number[] | undefined;
}

interface Candidate {
  field: string;
  value: string;
  box: Box;
  score: number;
  occ: LabelOccurrence;
  raw: RawValue;
}

/** Words and then a colon: the rest of a caption that a shorter label matched the start of. */
const CAPTION_TAIL = /^[\p{L}'’.\-]+(?:\s+[\p{L}'’.\-]+){0,6}\s*:/u;

const DIRECTION_BONUS = { inline: 0.6, right: 0.4, below: 0.25 } as const;

interface Ctx {
  layout: Layout;
  decimal: DecimalMark;
  order: DateOrder;
  text: string;
}

/** Reads the typed value of a label's raw value, or undefined when it does not fit the field. */
function typed(
  field: string,
  kind: LabelKind,
  raw: RawValue,
  ctx: Ctx,
): { value: string; box: Box } | undefined {
  const t = raw.text;
  const sub = (start: number, end: number): Box => {
    // Box of the words covering [start, end) of the raw text.
    let pos = 0;
    const ws = raw.words.filter((w) => {
      const at = t.indexOf(w.text, pos);
      if (at < 0) return false;
      pos = at + w.text.length;
      return at < end && at + w.text.length > start;
    });
    return ws.length > 0 ? boxOf(ws, raw.box.page) : raw.box;
  };
  switch (kind) {
    case "date": {
      const d = parseDate(t, ctx.order);
      return d ? { value: d.iso, box: sub(d.start, d.end) } : undefined;
    }
    case "amount": {
      const a = pickAmount(t, ctx.decimal);
      return a ? { value: a.text, box: sub(a.start, a.end) } : undefined;
    }
    case "id": {
      const strict = ["invoiceNo", "poNo", "orderNo"].includes(field) && raw.occ.hit.label.weight < 2;
      if (field === "routing") {
        const digits = t.replace(/[^\dA-Z]/gi, "");
        const aba = validAbaRouting(t);
        if (aba) return { value: aba, box: raw.box };
        const ifsc = /\b[A-Z]{4}0[A-Z0-9]{6}\b/.exec(t);
        if (ifsc) return { value: ifsc[0], box: raw.box };
        if (/^\d{5,12}$/.test(digits)) return { value: digits, box: raw.box };
        return undefined;
      }
      if (["accountNumber", "bankCode", "branchNumber"].includes(field)) {
        // Bank numbers are printed in groups: "Blz: 507 500 94", "Sort code 12-34-56".
        const m = /[A-Z0-9]*\d[A-Z0-9]*(?:[ -][A-Z0-9]*\d[A-Z0-9]*)*/i.exec(
          t.replace(/^[\s:#.]*(?:no|nr|number)?[\s:#.]*/i, (x) => " ".repeat(x.length)),
        );
        if (!m || m[0].replace(/\D/g, "").length < (field === "accountNumber" ? 4 : 2)) return undefined;
        return { value: m[0], box: sub(m.index, m.index + m[0].length) };
      }
      const id = readId(t, !strict);
      if (!id) return undefined;
      if (field === "accountNumber" && id.value.replace(/\D/g, "").length < 4) return undefined;
      return { value: id.value, box: sub(id.start, id.end) };
    }
    case "text": {
      const max = field === "notes" ? 400 : field === "paymentTerms" ? 80 : 100;
      const v = readText(t, max);
      if (!v) return undefined;
      if (field === "paymentTerms" && /^\d+([.,]\d+)?$/.test(v.value)) return undefined;
      if (
        (field === "bankName" || field === "accountHolder") &&
        (/\d{4,}/.test(v.value) || EMAIL_RE.test(v.value))
      )
        return undefined;
      return { value: v.value, box: sub(v.start, v.end) };
    }
    case "taxId": {
      const v = readTaxId(t);
      return v ? { value: v.value, box: sub(v.start, v.end) } : undefined;
    }
    case "iban": {
      const v = readIban(t);
      return v ? { value: v.value, box: sub(v.start, v.end) } : undefined;
    }
    case "bic": {
      const v = readBic(t);
      return v ? { value: v.value, box: sub(v.start, v.end) } : undefined;
    }
    case "contact": {
      const v = field === "email" ? readEmail(t) : field === "website" ? readWebsite(t) : readPhone(t);
      return v ? { value: v.value, box: sub(v.start, v.end) } : undefined;
    }
    default:
      return undefined;
  }
}

function scoreOf(occ: LabelOccurrence, raw: RawValue, layout: Layout): number {
  let s = occ.hit.label.weight * 2 + DIRECTION_BONUS[raw.direction];
  if (occ.hit.hasColon) s += 0.3;
  s -= occ.seg.page * 0.05;
  const page = layout.pages.find((p) => p.index === occ.seg.page);
  if (page) s -= (occ.seg.y0 / page.height) * 0.1;
  return s;
}

function box2src(b: Box) {
  return {
    page: b.page,
    x: round(b.x0),
    y: round(b.y0),
    width: round(b.x1 - b.x0),
    height: round(b.y1 - b.y0),
  };
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}

/** Names of customFields that map onto fields Quire already reads. */
const CUSTOM_ALIASES: Record<string, string> = {
  purchaseorder: "poNo",
  purchaseorderref: "poNo",
  purchaseorderreference: "poNo",
  purchaseordernumber: "poNo",
  ponumber: "poNo",
  poref: "poNo",
  ordernumber: "orderNo",
  orderid: "orderNo",
  orderref: "orderNo",
  customerreference: "customerReference",
  customerref: "customerReference",
  yourreference: "customerReference",
  reference: "reference",
  customernumber: "customerNo",
  customerno: "customerNo",
  customerid: "customerNo",
  clientnumber: "customerNo",
  clientid: "customerNo",
  accountnumber: "customerNo",
  deliverydate: "deliveryDate",
  shipdate: "deliveryDate",
  shippingdate: "deliveryDate",
  servicedate: "deliveryDate",
  orderdate: "orderDate",
  paymentmethod: "paymentMethod",
  billingperiod: "period",
  period: "period",
  contactperson: "contact",
  salesperson: "contact",
  amountpaid: "amountPaid",
  balancedue: "balanceDue",
  amountdue: "balanceDue",
};

/** Label regex and kind for a customField name that is not one of the known fields. */
function customLabel(name: string): { re: string; kind: LabelKind } {
  const words = splitCamel(name);
  const last = words[words.length - 1] ?? "";
  const NO = "(?:#|no\\.?|nr\\.?|n\\.?o\\.?|num\\.?|number|nummer|numero|id)";
  const parts = words.map((w, i) => {
    if (i === words.length - 1 && ["number", "no", "num", "nr", "id"].includes(w)) return NO;
    if (w === "ref" || w === "reference") return "ref(?:erence)?\\.?";
    if (w === "dept" || w === "department") return "(?:dept\\.?|department)";
    if (w === "qty" || w === "quantity") return "(?:qty|quantity)";
    if (w === "amt" || w === "amount") return "(?:amt|amount)";
    return escapeRegExp(w) + "s?";
  });
  const re = parts.join("[\\s.\\-_/]*");
  let kind: LabelKind = "text";
  if (last === "date" || last === "day") kind = "date";
  else if (
    /^(?:amount|total|charges?|fees?|price|cost|tax|balance|subtotal|deposit|discount)$/.test(last) ||
    /charges?|fees?/.test(name.toLowerCase())
  )
    kind = "amount";
  else if (["number", "no", "num", "nr", "id", "ref", "reference", "code"].includes(last)) kind = "id";
  return { re, kind };
}

/** Parses the invoice on the given pages. */
export function parseInvoice(pages: PageText[], opts: ParseInvoiceOptions = {}): ParseInvoiceResult {
  const layout = buildLayout(pages);
  const text = layoutText(layout);
  const decimal = detectDecimalMark(text);
  const currency = findCurrency(text);
  const usLocale =
    currency === "USD" ||
    [...text.matchAll(/\b([A-Z]{2})\s+\d{5}(?:-\d{4})?\b/g)].some((m) => US_STATES.has(m[1])) ||
    // A North American phone number (+1 country code, or "(555) 123-4567"): the issuer's locale.
    /(?:^|[\s:(])\+1[\s.-]?\(?\d{3}\)?[\s.-]?\d{3}[\s.-]?\d{4}\b|\(\d{3}\)\s?\d{3}-\d{4}\b/m.test(text);
  const order = detectDateOrder(text, usLocale);
  const ctx: Ctx = { layout, decimal, order, text };
  const notes: string[] = [];
  const sources: FieldSources = {};
  // Boxes on the page as rendered: a deskewed or turned scan is read level, its boxes placed back.
  const byIndex = new Map(pages.map((p) => [p.index, p]));
  const src = (path: string, b: Box | undefined) => {
    if (b) sources[path] = box2src(pageBox(byIndex.get(b.page) ?? {}, b));
  };

  // 1. The line-item table first: its rows are not read as labels.
  const tables: LineItemTable[] = findLineItems(layout, decimal, opts.tableEdges);
  // No item table: items printed as captioned records (e-invoice viewers' "details" pages).
  if (tables.length === 0) {
    const records = findItemRecords(layout, decimal);
    if (records) tables.push(records);
  }
  const tableSegs = new Set<number>();
  for (const t of tables) for (const r of t.rows) for (const s of r.segments) tableSegs.add(s.id);

  // 2. Labels and their values.
  const occs = findLabels(layout).filter((o) => !tableSegs.has(o.seg.id));
  const labelSegs = new Set<number>();
  for (const o of occs)
    if (o.hit.start <= 1 && (o.hit.label.weight >= 2 || o.hit.hasColon || o.labelOnly))
      labelSegs.add(o.seg.id);
  for (const id of tableSegs) labelSegs.add(id);
  const cands = new Map<string, Candidate[]>();
  const add = (c: Candidate) => {
    const list = cands.get(c.field) ?? [];
    list.push(c);
    cands.set(c.field, list);
  };
  for (const occ of occs) {
    const { field, kind } = occ.hit.label;
    if (kind === "block") continue;
    // The label is only the start of a longer caption ("Date de début de prestation : …",
    // "Date de facture associée : …", "Invoice date of the original: …"): that caption names
    // another value, not this field.
    if (CAPTION_TAIL.test(occ.inline) && !occ.hit.hasColon) continue;
    const raws = valuesFor(occ, layout, labelSegs);
    if (kind === "amount") {
      // Inline amount, unless it is a rate's base ("Tax 15% on $ 112.90 | $ 16.94"); else the
      // last amount right of the label; else the amount under it.
      const typedOf = (r: RawValue | undefined) => (r ? typed(field, kind, r, ctx) : undefined);
      const inline = raws.find((r) => r.direction === "inline");
      const rights = raws.filter((r) => r.direction === "right" && typedOf(r));
      const lastRight = rights[rights.length - 1];
      const below = raws.find((r) => r.direction === "below");
      const inlineV = typedOf(inline);
      let pick: RawValue | undefined;
      if (inline && inlineV && !(/%/.test(inline.text) && lastRight)) pick = inline;
      else if (lastRight) pick = lastRight;
      else if (inline && inlineV) pick = inline;
      else if (below && typedOf(below)) pick = below;
      if (pick) {
        const v = typedOf(pick)!;
        add({ field, value: v.value, box: v.box, score: scoreOf(occ, pick, layout), occ, raw: pick });
      }
      continue;
    }
    for (const raw of raws) {
      const v = typed(field, kind, raw, ctx);
      if (!v) continue;
      add({ field, value: v.value, box: v.box, score: scoreOf(occ, raw, layout), occ, raw });
      break;
    }
  }
  const best = (field: string, filter?: (c: Candidate) => boolean) =>
    [...(cands.get(field) ?? [])].filter((c) => !filter || filter(c)).sort((a, b) => b.score - a.score)[0];

  const body: InvoiceBody = {};

  // 3. Invoice header fields.
  const invoice: NonNullable<InvoiceBody["invoice"]> = {};
  const invNo = best("invoiceNo");
  if (invNo) {
    invoice.invoiceNo = invNo.value;
    src("invoice.invoiceNo", invNo.box);
  } else {
    // A title that carries the number ("Vendor Bill BILL/2022/0002", "Facture F-2024-17").
    const t = titleNumber(layout);
    if (t) {
      invoice.invoiceNo = t.value;
      src("invoice.invoiceNo", t.box);
    }
  }
  const invDate = best("invoiceDate");
  if (!invDate && !invNo && invoice.invoiceNo) {
    // "Credit note 2024-17 of 3 May 2024": the date printed after the title's number.
    const seg = layout.segments.find((s) => s.text.includes(invoice.invoiceNo!));
    const after = seg ? seg.text.slice(seg.text.indexOf(invoice.invoiceNo) + invoice.invoiceNo.length) : "";
    const d = after ? parseDate(after, order) : undefined;
    if (d && seg) {
      invoice.invoiceDate = d.iso;
      src("invoice.invoiceDate", seg);
    }
  }
  if (!invDate && invNo) {
    // "Facture n°562044387 du 02 Juillet 2015": the date printed with the number.
    const d = parseDate(invNo.occ.seg.text, order);
    if (d) invoice.invoiceDate = d.iso;
    if (d) src("invoice.invoiceDate", invNo.occ.seg);
  }
  if (invDate) {
    invoice.invoiceDate = invDate.value;
    src("invoice.invoiceDate", invDate.box);
  }
  if (!invoice.invoiceDate && invoice.invoiceNo) {
    // "Invoice 103767" / "February 17, 2026": a date alone on the line right under the number.
    const d = dateUnderNumber(layout, invoice.invoiceNo, order);
    if (d) {
      invoice.invoiceDate = d.value;
      src("invoice.invoiceDate", d.box);
    }
  }
  const po = best("poNo", (c) => c.value !== invoice.invoiceNo);
  if (po) {
    invoice.poNo = po.value;
    src("invoice.poNo", po.box);
  }
  const ord = best("orderNo", (c) => c.value !== invoice.invoiceNo);
  if (ord) {
    invoice.orderNo = ord.value;
    src("invoice.orderNo", ord.box);
  }

  // 4. Parties.
  const taken = new Set<number>([...tableSegs]);
  const partyBlock = (field: "billTo" | "shipTo" | "vendor" | "bankAddress") => {
    const list = occs
      .filter((o) => o.hit.label.field === field && o.hit.start <= 1)
      .filter(partyHeading)
      // "Vendor Bill 2025-17" is a document title, not the vendor's section.
      .filter((o) => !PURCHASE_TITLE_RE.test(fold(o.seg.text.trim())))
      .sort(
        (a, b) => b.hit.label.weight - a.hit.label.weight || a.seg.page - b.seg.page || a.seg.y0 - b.seg.y0,
      );
    for (const o of list) {
      const block = blockAt(o, layout, taken);
      if (block.lines.length === 0) continue;
      const parsed = parseParty(block.lines, field !== "bankAddress");
      // "Attn: Dr. Collins" under the addressee's company: the company on the line above is the party.
      if (field === "billTo" || field === "shipTo") {
        const above = attentionCompany(o, layout);
        if (above) {
          parsed.party.name = above.text;
          parsed.sources.name = above;
          block.segIds.add(above.id);
        }
      }
      if (!parsed.party.name && !parsed.party.address) continue;
      for (const id of block.segIds) taken.add(id);
      return { parsed, block, occ: o };
    }
    return undefined;
  };
  const billTo = partyBlock("billTo");
  const shipTo = partyBlock("shipTo");
  const vendorLabelled = partyBlock("vendor");
  // A section whose heading names the role, with the name captioned in it ("Name: …"): it wins.
  const roleName = (field: "billTo" | "vendor") => {
    for (const o of occs) {
      if (o.hit.label.field !== field || o.hit.start > 1) continue;
      if (!partyHeading(o)) continue;
      const n = captionedName(o, layout);
      if (n) return n;
    }
    return undefined;
  };
  const buyerCaption = roleName("billTo");
  const sellerCaption = roleName("vendor");
  const customerSegs = new Set<number>([...(billTo?.block.segIds ?? []), ...(shipTo?.block.segIds ?? [])]);

  const allTexts = layout.segments.map((s) => s.text);
  const domains = documentDomains(allTexts);
  const holder = best("accountHolder");
  const medianFont = median(layout.segments.map((s) => s.fontSize));
  let vendor: PartyResult | undefined = vendorLabelled?.parsed;
  let vendorBlockSegs = new Set<number>(vendorLabelled?.block.segIds ?? []);
  let billToResult: PartyResult | undefined = billTo?.parsed;
  if (buyerCaption) {
    billToResult = billToResult ?? { party: {}, sources: {} };
    billToResult.party.name = buyerCaption.name;
    billToResult.sources.name = buyerCaption.box;
  }
  if (sellerCaption) {
    vendor = vendor ?? { party: {}, sources: {} };
    vendor.party.name = sellerCaption.name;
    vendor.sources.name = sellerCaption.box;
  }
  const skip = new Set<number>([...taken, ...labelSegs]);
  // Keep label segments that are plain names out of "skip" only when they carry no label value.
  const vcands = vendorCandidates(layout, skip, {
    domains,
    accountHolder: holder?.value,
    allTexts,
    medianFont,
    buyerLabelled: !!(billTo?.parsed.party.name || buyerCaption),
  });
  const billName = billToResult?.party.name ? nameTokens(billToResult.party.name).join(" ") : "";
  const vc = vcands.find((c) => nameTokens(c.name).join(" ") !== billName && c.score >= 1.5);
  if (vc && (!vendor || !vendor.party.name)) {
    const fromBlock = vendorFromCandidate(vc, layout, skip);
    // A brand in the letterhead ("NORTHWIND") whose legal name ("Northwind Analytics Ltd") the
    // return-address line or the footer prints: the legal name is the vendor's name.
    const legal = legalNameOf(vc, vcands, billName);
    if (legal) {
      fromBlock.party.name = legal.name;
      fromBlock.sources.name = legal.box;
      notes.push(`vendor: legal name of the brand "${vc.name}"`);
    }
    vendor = vendor ? mergeParty(vendor, fromBlock) : fromBlock;
    vendorBlockSegs = fromBlock.segs;
    notes.push(`vendor: ${vc.why.join(", ")}`);
  }
  // The same company often prints its details again in the footer: fill what the head lacks.
  if (vendor?.party.name) {
    const footer = footerDetails(layout, vendor.party.name, skip);
    if (footer) vendor = mergeParty(vendor, footer);
  }
  if (!billToResult) {
    const head = unlabelledCustomer(
      layout,
      skip,
      vendorBlockSegs,
      vendor?.party.name,
      vendor?.party.address?.streetAddress,
    );
    if (head) billToResult = head;
  }
  // A bill the buyer printed from its own system ("Vendor Bill", "Lieferantenrechnung", "Facture
  // fournisseur"): its letterhead is the buyer's and the address block names the vendor. Only
  // roles read by position are swapped; a section heading that names the role still wins.
  const buyerPrinted =
    !vendorLabelled && !sellerCaption && !billTo && !buyerCaption && !!vendor && !!billToResult && purchaseTitle(layout);
  if (buyerPrinted && vendor && billToResult) {
    [vendor, billToResult] = [billToResult, vendor];
    notes.push("buyer-printed vendor bill: roles swapped");
  }

  // Vendor contacts and identifiers found elsewhere in the document (not on a buyer-printed bill,
  // whose footer is the buyer's).
  if (vendor && !buyerPrinted) {
    const vp = vendor.party;
    const contact = { ...(vp.contactInformation ?? {}) };
    const outside = (c: Candidate) =>
      !customerSegs.has(c.occ.seg.id) && !(c.raw.seg && customerSegs.has(c.raw.seg.id));
    if (!contact.email) {
      const emails = [...(cands.get("email") ?? [])].filter(outside).map((c) => ({ v: c.value, box: c.box }));
      for (const s of layout.segments) {
        if (customerSegs.has(s.id)) continue;
        const e = readEmail(s.text);
        if (e) emails.push({ v: e.value, box: s });
      }
      const toks = nameTokens(vp.name ?? "");
      const match = emails.find((e) =>
        toks.some((t) => t.length >= 3 && fold(e.v.split("@")[1] ?? "").includes(t)),
      );
      const e = match;
      if (e) {
        contact.email = e.v;
        vendor.sources["contactInformation.email"] = e.box;
      }
    }
    if (!contact.phone) {
      const p = best("phone", outside);
      if (p) {
        contact.phone = p.value;
        vendor.sources["contactInformation.phone"] = p.box;
      } else if (contact.email) {
        const seg = layout.segments.find((s) => s.text.includes(contact.email!) && !customerSegs.has(s.id));
        const ph = seg ? readPhone(seg.text.replace(contact.email, " ")) : undefined;
        if (ph && seg) {
          contact.phone = ph.value;
          vendor.sources["contactInformation.phone"] = seg;
        }
      }
    }
    if (!contact.fax) {
      const f = best("fax", outside);
      if (f) {
        contact.fax = f.value;
        vendor.sources["contactInformation.fax"] = f.box;
      }
    }
    if (Object.keys(contact).length > 0) vp.contactInformation = contact;
    // The vendor's identifier: a valid VAT-style number beats a registration number.
    const rank = (v: string, labelled: number) => (checkTaxId(v)?.valid ? 5 : checkTaxId(v) ? 0 : labelled);
    const options: { value: string; box: Box; rank: number }[] = [];
    if (vp.entityId)
      options.push({
        value: vp.entityId,
        box: vendor.sources.entityId ?? { page: 0, x0: 0, y0: 0, x1: 0, y1: 0 },
        rank: rank(vp.entityId, 3) + 0.5,
      });
    for (const c of cands.get("taxId") ?? [])
      if (outside(c))
        options.push({
          value: c.value,
          box: c.box,
          rank: rank(c.value, c.occ.hit.label.weight) + c.score / 100,
        });
    for (const seg of layout.segments) {
      if (customerSegs.has(seg.id)) continue;
      const m = seg.text.match(new RegExp(TAX_ID_PATTERN.source));
      if (m && checkTaxId(m[0])?.valid) options.push({ value: m[0], box: seg, rank: 4.5 });
    }
    const bestId = options.sort((a, b) => b.rank - a.rank)[0];
    if (bestId && bestId.rank > 0) {
      vp.entityId = bestId.value;
      vendor.sources.entityId = bestId.box;
    }
  }
  if (billToResult && !billToResult.party.entityId) {
    const cid = best("customerTaxId");
    if (cid) {
      billToResult.party.entityId = cid.value;
      billToResult.sources.entityId = cid.box;
    } else {
      const inside = [...(cands.get("taxId") ?? [])].find((c) => customerSegs.has(c.occ.seg.id));
      if (inside) {
        billToResult.party.entityId = inside.value;
        billToResult.sources.entityId = inside.box;
      }
    }
  }
  if (vendor) {
    // "Free Service Abonnés", "Acme GmbH Kundenservice": the organisation, not its department.
    if (vendor.party.name) vendor.party.name = withoutDepartment(vendor.party.name);
    body.vendor = vendor.party;
    for (const [k, b] of Object.entries(vendor.sources)) src(`vendor.${k}`, b);
  }
  const customer: NonNullable<InvoiceBody["customer"]> = {};
  if (billToResult) {
    // "Monsieur Julien Martin": the person, without the courtesy title of the address window.
    if (billToResult.party.name) billToResult.party.name = withoutCourtesyTitle(billToResult.party.name);
    customer.billTo = billToResult.party;
    for (const [k, b] of Object.entries(billToResult.sources)) src(`customer.billTo.${k}`, b);
  }
  if (shipTo) {
    customer.shipTo = { name: shipTo.parsed.party.name, address: shipTo.parsed.party.address };
    for (const [k, b] of Object.entries(shipTo.parsed.sources)) {
      if (k === "name" || k.startsWith("address")) src(`customer.shipTo.${k}`, b);
    }
  }
  body.customer = customer;
  body.invoice = invoice;

  // 5. Totals.
  const payment: NonNullable<InvoiceBody["paymentDetails"]> = {};
  const amountFields = [
    "total",
    "subtotal",
    "tax",
    "discount",
    "shipping",
    "balanceDue",
    "amountPaid",
  ] as const;
  const amountCands: AmountCandidate[] = [];
  for (const f0 of amountFields) {
    for (const c of cands.get(f0) ?? []) {
      const a = pickAmount(c.raw.text, decimal);
      if (!a) continue;
      const page = layout.pages.find((p) => p.index === c.occ.seg.page);
      // A total label qualified on its row: "Gesamtsumme | netto" is the net, "Summe Umsatzsteuer"
      // / "Total TVA" the tax ("brutto", "TTC", "incl." keep it the gross).
      let f: (typeof amountFields)[number] = f0;
      if (f0 === "total") {
        // (a caption over its value is qualified by its own words only: "Summe netto | Summe
        // MwSt. | Gesamtbetrag" is a row of three captions)
        const rowText = fold(
          c.raw.direction === "right" ? (page?.rows[c.occ.seg.row]?.text ?? c.occ.seg.text) : c.occ.seg.text,
        );
        const gross = /\b(?:brutto|gross|ttc|incl\.?|inkl\.?|including|inclusive|inclusief|toutes\s+taxes|con\s+iva|ivato|a\s+payer|payable|to\s+pay|due|zu\s+zahlen|zahlbar|te\s+betalen|a\s+pagar|da\s+pagare)\b/.test(
          rowText,
        );
        if (!gross && NET_QUALIFIER.test(rowText)) f = "subtotal";
        else if (!gross && TAX_QUALIFIER.test(fold(c.occ.seg.text))) f = "tax";
      }
      let score = c.score + (c.occ.seg.bold ? 0.3 : 0);
      // A "Tax 15%" label whose value is the rate alone is not a tax amount.
      if (f === "tax" && /%/.test(c.raw.text) && !a.hasDecimals && !a.currency) continue;
      // "VAT: GB123456789" is the VAT id's label, not a tax amount; nor is a bare 5-digit postcode.
      if (f === "tax" && (/\b[A-Z]{2}\s?[0-9A-Z]{2}\s?\d{6,}/.test(c.raw.text) || c.raw.text.split(/\s+/).some(isIdentifierToken)))
        continue;
      if (f === "tax" && !a.hasDecimals && !a.currency && Math.abs(a.value) >= 1000) continue;
      if (f === "total" && /\b(?:items?|qty|quantity|pieces|hours)\b/i.test(c.occ.seg.text)) score -= 3;
      amountCands.push({
        field: f,
        text: a.text,
        value: a.value,
        box: c.box,
        score,
        order: c.occ.seg.page * 10000 + (page ? c.occ.seg.y0 : 0),
        rowKey: `${c.occ.seg.page}:${c.occ.seg.id}`,
      });
    }
  }
  // Totals rows of the item table split by column: "Total | HT 24.99 | TVA 5.00 | TTC 29.99".
  for (const t of tables) {
    for (const f of t.footers) {
      if (f.field !== "total" && f.field !== "subtotal") continue;
      for (const c of f.cells) {
        const h = fold(c.column.header);
        const field: AmountCandidate["field"] | undefined =
          c.column.role === "taxAmount" || /\b(?:tva|vat|tax|mwst|btw|iva)\b/.test(h)
            ? "tax"
            : /\b(?:ht|net|netto|excl|hors|before|ohne|exclusief)\b/.test(h)
              ? "subtotal"
              : c.column.role === "total" && f.field === "total"
                ? "total"
                : undefined;
        if (!field) continue;
        const v = Number(c.text);
        amountCands.push({
          field,
          text: c.text,
          value: v,
          box: c.box,
          score: 3.5,
          order: c.box.page * 10000 + c.box.y0,
          rowKey: `foot:${c.box.page}:${c.box.y0}:${field}`,
        });
      }
    }
  }
  // Tax per rate printed in the table's columns ("zzgl. 19 % MwSt. auf 1.234,56 | 234,56"), or as
  // rows of their own outside any table (the rate's text first, its tax amount last on the row).
  const tableTaxRows = tables.flatMap((t) => t.taxRows ?? []);
  const freeTaxRows: TaxRow[] = [];
  for (const page of layout.pages)
    for (const row of page.rows) {
      const segs = [...row.segments].sort((a, b) => a.x0 - b.x0);
      if (segs.length < 2 || segs.some((sg) => tableSegs.has(sg.id))) continue;
      if (!isTaxRateText(segs[0].text) || !/^\S/.test(segs[0].text)) continue;
      const last = segs[segs.length - 1];
      if (!pickAmount(last.text, decimal)) continue;
      // Already read by the item table (a row its columns let through).
      if (tableTaxRows.some((r) => r.box.page === page.index && Math.abs(r.box.y0 - last.y0) < 3)) continue;
      const r = taxRowOf(`${segs.slice(0, -1).map((sg) => sg.text).join(" ")} ${last.text}`, last, decimal);
      if (r) freeTaxRows.push(r);
    }
  const taxRowsAll = [...tableTaxRows, ...freeTaxRows];
  // The net printed only as each rate's base ("plus 20 % VAT on 1,234.56"): their sum is a
  // subtotal candidate, kept only if the reconciliation (net + Σ tax = gross) confirms it.
  if (taxRowsAll.length > 0 && taxRowsAll.every((r) => r.base)) {
    const dec = Math.max(...taxRowsAll.map((r) => (r.base!.text.split(".")[1] ?? "").length));
    const v = taxRowsAll.reduce((sum, r) => sum + r.base!.value, 0);
    amountCands.push({
      field: "subtotal",
      text: v.toFixed(dec),
      value: Number(v.toFixed(dec)),
      box: taxRowsAll[0].box,
      score: 2.5,
      order: taxRowsAll[0].box.page * 10000 + taxRowsAll[0].box.y0,
      rowKey: "taxbases",
    });
  }
  for (const r of taxRowsAll)
      // The same row read by its label already ("VAT 20 % | 24.00") is not a second candidate.
      if (!amountCands.some((c) => c.field === "tax" && c.box.page === r.box.page && Math.abs(c.box.y0 - r.box.y0) < 3 && Math.abs(c.value - r.value) < 0.005))
      amountCands.push({
        field: "tax",
        text: r.text,
        value: r.value,
        box: r.box,
        score: 3,
        order: r.box.page * 10000 + r.box.y0,
        rowKey: `taxrow:${r.box.page}:${r.box.y0}`,
      });
  const totalKey = tables.flatMap((t) => t.columns).find((c) => c.role === "total")?.key;
  const lineSum = totalKey
    ? tables
        .flatMap((t) => t.items)
        .reduce((s, i) => s + (i.values[totalKey] ? Number(i.values[totalKey]) || 0 : 0), 0)
    : undefined;
  const chosen = reconcileTotals(amountCands, tables.length > 0 ? lineSum : undefined);
  /** Confidence of the totals by how they were chosen (reconciled, a summary row, arithmetic). */
  const totalsConf: Record<string, number> = {};
  for (const k of ["total", "subtotal", "tax"] as const)
    if (chosen[k]) totalsConf[k] = chosen.reconciled ? 0.95 : k === "total" ? 0.75 : 0.7;
  if (chosen.total) {
    payment.total = chosen.total.text;
    src("paymentDetails.total", chosen.total.box);
  }
  if (chosen.subtotal) {
    payment.subtotal = chosen.subtotal.text;
    src("paymentDetails.subtotal", chosen.subtotal.box);
  }
  if (chosen.tax && chosen.tax.length > 0) {
    if (chosen.tax.length === 1) payment.tax = chosen.tax[0].text;
    else {
      // Tax printed per rate: the tax of the invoice is their sum (reconciled against the total).
      const dec = Math.max(...chosen.tax.map((t) => (t.text.split(".")[1] ?? "").length));
      payment.tax = chosen.tax.reduce((s, t) => s + t.value, 0).toFixed(dec);
    }
    src("paymentDetails.tax", unionBoxes(chosen.tax.map((t) => t.box)));
  }
  if (chosen.discount) {
    payment.discount = chosen.discount.text;
    src("paymentDetails.discount", chosen.discount.box);
  }
  if (chosen.shipping) {
    payment.shipping = chosen.shipping.text;
    src("paymentDetails.shipping", chosen.shipping.box);
  }
  if (chosen.reconciled) notes.push("totals reconciled");
  // A "net | tax | gross" row (a VAT summary): three printed amounts that add up at a usual rate.
  const triple = totalsTriple(layout, decimal, tableSegs);
  if (triple) {
    const T = payment.total !== undefined ? Number(payment.total) : undefined;
    const S = payment.subtotal !== undefined ? Number(payment.subtotal) : undefined;
    const X = payment.tax !== undefined ? Number(payment.tax) : undefined;
    const consistent = T !== undefined && S !== undefined && X !== undefined && Math.abs(S + X - T) <= 0.02;
    if (!consistent && (T === undefined || Math.abs(T - triple.gross.value) <= 0.011)) {
      payment.total = triple.gross.text;
      payment.subtotal = triple.net.text;
      payment.tax = triple.tax.text;
      src("paymentDetails.total", triple.gross.box);
      src("paymentDetails.subtotal", triple.net.box);
      src("paymentDetails.tax", triple.tax.box);
      totalsConf.total = totalsConf.subtotal = totalsConf.tax = 0.9;
      notes.push("totals from a net/tax/gross row");
    }
  }
  // Totals by arithmetic: a part the labels did not give is the printed amount that completes
  // net + tax = gross (chosen among the amounts printed on the page, never computed).
  if (payment.total && (!payment.subtotal || !payment.tax)) {
    const filled = completeTotals(layout, decimal, tableSegs, {
      total: Number(payment.total),
      subtotal: payment.subtotal !== undefined ? Number(payment.subtotal) : undefined,
      tax: payment.tax !== undefined ? Number(payment.tax) : undefined,
    });
    if (filled.subtotal) totalsConf.subtotal = 0.85;
    if (filled.tax) totalsConf.tax = 0.85;
    if (filled.subtotal) {
      payment.subtotal = filled.subtotal.text;
      src("paymentDetails.subtotal", filled.subtotal.box);
    }
    if (filled.tax) {
      payment.tax = filled.tax.text;
      src("paymentDetails.tax", filled.tax.box);
    }
    if (filled.subtotal || filled.tax) notes.push("totals completed by arithmetic");
  }

  const due = best("dueDate");
  if (due) {
    payment.dueDate = due.value;
    src("paymentDetails.dueDate", due.box);
  }
  const terms = best("paymentTerms", (c) => c.occ.hit.label.weight >= 2 || c.occ.hit.hasColon);
  if (terms) {
    payment.paymentTerms = terms.value;
    src("paymentDetails.paymentTerms", terms.box);
  } else {
    const m =
      /\b(net\s*\d{1,3}(?:\s*days)?|due\s+(?:on|upon)\s+receipt|payable\s+(?:with)?in\s+\d{1,3}\s+days|\d{1,3}\s+(?:days\s+net|tage\s+netto|jours\s+net|dagen\s+netto))\b/i.exec(
        text,
      );
    if (m) payment.paymentTerms = m[1];
  }

  // 6. Banking.
  const bank: BankingInformation = {};
  const bankSrc: Record<string, Box> = {};
  const iban = best("iban") ?? unlabelledIban(layout);
  if (iban) {
    bank.iban = iban.value;
    bankSrc.iban = iban.box;
  }
  const bic = best("bic") ?? (iban ? bicNear(layout, iban.box) : undefined);
  if (bic) {
    bank.swiftBicCode = bic.value;
    bankSrc.swiftBicCode = bic.box;
  }
  const bankAnchors = [
    iban?.box,
    bic?.box,
    best("bankName")?.box,
    best("routing")?.box,
    best("bankCode")?.box,
  ].filter(Boolean) as Box[];
  const nearBank = (c: Candidate) =>
    /bank|kto|konto|rekening|compte|cuenta|conto|a\/c|acct/i.test(
      fold(c.occ.seg.text.slice(0, c.occ.hit.end + 4)),
    ) || bankAnchors.some((b) => b.page === c.box.page && Math.abs(b.y0 - c.box.y0) < layout.lineHeight * 10);
  const acct = best("accountNumber", nearBank);
  if (acct && !(bank.iban && bank.iban.replace(/\s/g, "") === acct.value)) {
    bank.accountNumber = acct.value;
    bankSrc.accountNumber = acct.box;
  }
  const bankName = best(
    "bankName",
    (c) => !/^(?:account|transfer|details|information|iban|swift|bic)\b/i.test(c.value),
  );
  if (bankName && !readIban(bankName.value) && !readBic(bankName.value)) {
    // "BRED BANQUE POPULAIRE – Titulaire du compte : NETPRESSE": cut at the next label.
    bank.bankName = bankName.value.split(/\s+[-–]\s+|\s{2,}/)[0];
    bankSrc.bankName = bankName.box;
  } else {
    const line = layout.segments.find(
      (s) =>
        /\b(?:bank|banque|banco|sparkasse|bancaire|volksbank|raiffeisen)\b/i.test(s.text) &&
        !/[:]/.test(s.text) &&
        s.text.length < 50 &&
        !/\d{3,}/.test(s.text) &&
        bankAnchors.some((b) => b.page === s.page && Math.abs(b.y0 - s.y0) < layout.lineHeight * 6),
    );
    if (line) {
      bank.bankName = line.text.split(/\s+[-–]\s+/)[0];
      bankSrc.bankName = line;
    }
  }
  const holderVal = holder && !/^(?:account|bank)/i.test(holder.value) ? holder : undefined;
  if (holderVal) {
    bank.accountHolderName = holderVal.value;
    bankSrc.accountHolderName = holderVal.box;
  }
  const routing = best("routing");
  if (routing) {
    bank.bankRoutingCode = routing.value;
    bankSrc.bankRoutingCode = routing.box;
  }
  const bankCode = best("bankCode");
  if (bankCode) {
    bank.bankCode = bankCode.value;
    bankSrc.bankCode = bankCode.box;
  }
  const branch = best("branchNumber", (c) => /\d/.test(c.value));
  if (branch) {
    bank.branchNumber = branch.value;
    bankSrc.branchNumber = branch.box;
  }
  const purpose = best("purposeCode");
  if (purpose) {
    bank.purposeCode = purpose.value;
    bankSrc.purposeCode = purpose.box;
  }
  const payRef = best("paymentReference");
  if (payRef) {
    bank.additionalNotes = `${payRef.occ.seg.text
      .slice(0, payRef.occ.hit.end)
      .trim()
      .replace(/[:\s]+$/, "")}: ${payRef.value}`;
    bankSrc.additionalNotes = payRef.box;
  }
  const bankAddr = partyBlock("bankAddress");
  if (bankAddr?.parsed.party.address) {
    bank.bankAddress = bankAddr.parsed.party.address;
    bankSrc.bankAddress = bankAddr.block.lines[0].box;
  }
  if (Object.keys(bank).length > 0) {
    payment.bankingInformation = bank;
    for (const [k, b] of Object.entries(bankSrc)) src(`paymentDetails.bankingInformation.${k}`, b);
  }
  // The currency (extension): printed symbols/codes, else the country of the vendor (address,
  // IBAN, VAT id prefix), else of the customer.
  const partyCountry = (p: InvoiceParty | undefined): string | undefined => {
    const c = p?.address?.country;
    const code = c ? (/^[A-Z]{2}$/.test(c.trim()) ? c.trim() : countryOf(c)) : undefined;
    if (code) return code;
    const id = p?.entityId?.replace(/\s/g, "");
    // A Brazilian CNPJ ("12.345.678/0001-90") names its country by its form.
    if (id && /^\d{2}\.\d{3}\.\d{3}\/\d{4}-\d{2}$/.test(id)) return "BR";
    return id && /^[A-Z]{2}[0-9A-Z]{8,}$/.test(id) && /\d/.test(id) ? id.slice(0, 2) : undefined;
  };
  const docCurrency =
    currency ??
    currencyOfCountry(partyCountry(body.vendor)) ??
    currencyOfCountry(bank.iban?.replace(/\s/g, "").slice(0, 2)) ??
    currencyOfCountry(partyCountry(customer.billTo)) ??
    currencyOfCountry(countryOfTaxIdNames(text));
  if (docCurrency) payment.currency = docCurrency;
  body.paymentDetails = payment;

  // 7. Notes.
  const note = notesText(occs, layout, taken);
  if (note) {
    body.others = { notes: note.text };
    src("others.notes", note.box);
  }

  // 8. Line items.
  if (tables.length === 0) {
    // A table without a header row, recognised by arithmetic: its amounts add up to the net or gross.
    const targets = [payment.subtotal, payment.total].filter((v): v is string => !!v).map(Number);
    const headerless =
      targets.length > 0
        ? findHeaderlessItems(layout, decimal, targets, (seg) => {
            const o = labelsInSegment(seg).find((x) => x.hit.start <= 1);
            return o ? { field: o.hit.label.field, weight: o.hit.label.weight } : undefined;
          })
        : undefined;
    if (headerless) tables.push(headerless);
  }
  if (tables.length > 0) {
    body.lineItems = lineItemsBody(tables);
    tables.forEach((t, ti) => {
      t.items.forEach((item, ii) => {
        for (const [k, b] of Object.entries(item.boxes)) src(`lineItems.${ti}.${ii}.${k}`, b);
      });
    });
  }

  // 9. Custom fields.
  for (const name of opts.customFields ?? []) {
    const key = name.trim();
    if (!key || key in body) continue;
    const alias = CUSTOM_ALIASES[key.toLowerCase().replace(/[^a-z0-9]/g, "")];
    if (key.toLowerCase() === "currency") {
      if (currency) body[key] = currency;
      continue;
    }
    let c: Candidate | undefined;
    if (alias) c = best(alias);
    if (!c) c = customCandidate(key, layout, labelSegs, tableSegs, ctx);
    if (c) {
      body[key] = c.value;
      src(key, c.box);
    } else if (alias === "poNo" && invoice.poNo) body[key] = invoice.poNo;
    else if (alias === "orderNo" && invoice.orderNo) body[key] = invoice.orderNo;
  }

  const pruned = pruneEmpty(body) ?? {};
  // Sources only for values that are still there.
  for (const path of Object.keys(sources)) if (getPath(pruned, path) === undefined) delete sources[path];
  if (decimal === ",") notes.push("decimal comma");
  notes.push(`dates ${order === "DMY" ? "day-first" : "month-first"}`);
  // Confidence per field (extension): how each value was found, 0–1.
  const confidence: Record<string, number> = {};
  const labelConf = (c: Candidate | undefined) =>
    c ? (c.occ.hit.label.weight >= 3 ? 0.9 : c.occ.hit.label.weight === 2 ? 0.8 : 0.65) : undefined;
  const setConf = (path: string, v: number | undefined) => {
    if (v !== undefined && get(pruned, path) !== undefined) confidence[path] = v;
  };
  setConf("invoice.invoiceNo", labelConf(invNo) ?? 0.6);
  setConf("invoice.invoiceDate", labelConf(invDate) ?? 0.75);
  setConf("paymentDetails.dueDate", labelConf(due));
  setConf(
    "vendor.name",
    sellerCaption || vendorLabelled?.parsed.party.name ? 0.9 : vc ? (vc.score >= 6 ? 0.85 : vc.score >= 3.5 ? 0.7 : 0.55) : 0.5,
  );
  setConf("customer.billTo.name", buyerCaption ? 0.9 : billTo?.parsed.party.name ? 0.85 : 0.65);
  for (const [k, v] of Object.entries(totalsConf)) setConf(`paymentDetails.${k}`, v);
  setConf("paymentDetails.currency", currency ? 0.95 : 0.7);
  return { body: pruned, fieldSources: sources, notes, confidence };
}

function getPath(obj: unknown, path: string): unknown {
  let cur: unknown = obj;
  for (const part of path.split(".")) {
    if (cur === null || typeof cur !== "object") return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

function median(values: number[]): number {
  if (values.length === 0) return 10;
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function mergeParty(a: PartyResult, b: PartyResult): PartyResult {
  const party: InvoiceParty = { ...a.party };
  const sources = { ...a.sources };
  if (!party.name && b.party.name) {
    party.name = b.party.name;
    if (b.sources.name) sources.name = b.sources.name;
  }
  if (!party.address && b.party.address) {
    party.address = b.party.address;
    if (b.sources.address) sources.address = b.sources.address;
  }
  if (!party.entityId && b.party.entityId) {
    party.entityId = b.party.entityId;
    if (b.sources.entityId) sources.entityId = b.sources.entityId;
  }
  if (b.party.contactInformation) {
    const c = { ...(party.contactInformation ?? {}) };
    for (const k of ["phone", "fax", "email"] as const) {
      if (!c[k] && b.party.contactInformation[k]) {
        c[k] = b.party.contactInformation[k];
        const s = b.sources[`contactInformation.${k}`];
        if (s) sources[`contactInformation.${k}`] = s;
      }
    }
    if (Object.keys(c).length > 0) party.contactInformation = c;
  }
  return { party, sources };
}

/**
 * The legal name of a brand candidate: another candidate (return address, footer, a block) that
 * starts with the brand's words, adds words and carries a legal form, and is not the buyer.
 */
function legalNameOf(
  vc: ReturnType<typeof vendorCandidates>[number],
  all: ReturnType<typeof vendorCandidates>,
  billName: string,
): { name: string; box: Box } | undefined {
  if (COMPANY_SUFFIX.test(vc.name)) return undefined;
  const brand = nameTokens(vc.name);
  if (brand.length === 0) return undefined;
  return all.find((c) => {
    if (c === vc || !COMPANY_SUFFIX.test(c.name)) return false;
    const toks = nameTokens(c.name);
    if (toks.join(" ") === billName || toks.length <= brand.length) return false;
    return brand.every((t, i) => toks[i] === t);
  });
}

/** Vendor details from the block (or return-address line) a candidate name came from. */
function vendorFromCandidate(
  vc: ReturnType<typeof vendorCandidates>[number],
  layout: Layout,
  skip: Set<number>,
): PartyResult & { segs: Set<number> } {
  const segs = new Set<number>();
  if (vc.why.includes("return address")) {
    const line = layout.segments.find((s) => s.page === vc.box.page && s.y0 === vc.box.y0 && s.x0 === vc.box.x0);
    // The line is the vendor's: the addressee's block under it does not start with it.
    if (line) segs.add(line.id);
    const text = line?.text ?? "";
    let parts = text
      .split(/\s+[-–•·|]\s+|\s*[•·|]\s*/)
      .map((p) => p.trim())
      .filter(Boolean);
    if (parts.length < 3)
      parts = text
        .split(/,\s+/)
        .map((p) => p.trim())
        .filter(Boolean);
    const lines: BlockLine[] = parts.map((p) => ({ text: p, words: [], box: vc.box }));
    const r = parseParty(lines, true);
    r.party.name = vc.name;
    r.sources.name = vc.box;
    return { ...r, segs };
  }
  const blocks = pageBlocks(
    layout,
    vc.box.page,
    new Set([...skip].filter((id) => !isInBox(layout, id, vc.box))),
  );
  const block =
    vc.block ?? blocks.find((b) => b.lines.some((l) => l.box.y0 === vc.box.y0 && l.box.x0 === vc.box.x0));
  if (!block) return { party: { name: vc.name }, sources: { name: vc.box }, segs };
  for (const id of block.segIds) segs.add(id);
  const idx = block.lines.findIndex((l) => l.box.y0 === vc.box.y0 && l.box.x0 === vc.box.x0);
  const lines = block.lines.slice(Math.max(0, idx));
  if (vc.why.includes("title") || vc.why.includes("footer")) {
    // Name from the title or a footer line: the rest of that line is not the name.
    const r = parseParty(lines.slice(1), false);
    r.party = { name: vc.name, ...r.party };
    r.sources.name = vc.box;
    if (vc.why.includes("footer")) {
      const rest = lines[0]?.text.slice(lines[0].text.indexOf(vc.name) + vc.name.length) ?? "";
      const parts = footerAddressLines(rest);
      if (!r.party.address && parts.length > 0) {
        const addr = parseAddress(parts);
        if (addr?.address.city) r.party.address = addr.address;
      }
    }
    return { ...r, segs };
  }
  const r = parseParty(lines, true);
  r.party.name = vc.name;
  r.sources.name = vc.box;
  return { ...r, segs };
}

function isInBox(layout: Layout, segId: number, b: Box): boolean {
  const s = layout.segments[segId];
  return s !== undefined && s.page === b.page && s.y0 === b.y0 && s.x0 === b.x0;
}

/** The vendor's details printed again in a footer block that starts with its name. */
function footerDetails(layout: Layout, name: string, skip: Set<number>): PartyResult | undefined {
  const toks = nameTokens(name).join(" ");
  if (!toks) return undefined;
  for (const page of [layout.pages[0], layout.pages[layout.pages.length - 1]]) {
    if (!page) continue;
    const blocks = pageBlocks(layout, page.index, new Set()).filter((b) => b.y0 > page.height * 0.6);
    for (const b of blocks) {
      if ([...b.segIds].some((id) => skip.has(id) && !labelsInSegment(layout.segments[id]).length)) continue;
      if (nameTokens(b.lines[0].text).join(" ") !== toks) continue;
      if (b.lines.length < 2) continue;
      return parseParty(b.lines, true);
    }
  }
  return undefined;
}

/** Without a "Bill to" label: the address block of the page head that is not the vendor's. */
function unlabelledCustomer(
  layout: Layout,
  skip: Set<number>,
  vendorSegs: Set<number>,
  vendorName?: string,
  vendorStreet?: string,
): PartyResult | undefined {
  const first = layout.pages[0];
  if (!first) return undefined;
  const vendorToks = vendorName ? nameTokens(vendorName).join(" ") : "";
  const all = pageBlocks(layout, first.index, skip);
  // A block that holds vendor lines (the return-address line over the window) keeps its other lines.
  const blocks = all
    .map((b) => {
      const lines = b.lines.filter((l) => !l.seg || !vendorSegs.has(l.seg.id));
      return lines.length === b.lines.length
        ? b
        : { ...b, lines, y0: lines[0]?.box.y0 ?? b.y0, segIds: new Set([...b.segIds].filter((id) => !vendorSegs.has(id))) };
    })
    .filter((b) => b.y0 < first.height * 0.5 && b.lines.length >= 2 && b.lines.length <= 8);
  // The address window (left, 11–40 % down the page) first, then from the top.
  const inWindow = (b: (typeof blocks)[number]) =>
    b.x0 < first.width * 0.45 && b.y0 > first.height * 0.11 && b.y0 < first.height * 0.4 ? 0 : 1;
  const sameStreet = (a?: string) => !!a && !!vendorStreet && fold(a) === fold(vendorStreet);
  for (const b of blocks.sort((a, c) => inWindow(a) - inWindow(c) || a.y0 - c.y0)) {
    let lines = b.lines.filter((l) => !TITLE_RE.test(l.text.trim()));
    if (!looksLikeAddressBlock(lines.map((l) => l.text))) continue;
    let r = parseParty(lines, true);
    if (!r.party.name && r.party.address) {
      // The name set apart above the street ("AttOra / T.a.v. … " then a gap, then the street).
      const above = all
        .filter(
          (a) =>
            a !== b &&
            Math.abs(a.x0 - b.x0) <= layout.lineHeight &&
            a.y1 <= b.y0 &&
            b.y0 - a.y1 < layout.lineHeight * 3 &&
            a.lines.length <= 3 &&
            ![...a.segIds].some((id) => vendorSegs.has(id)),
        )
        .sort((a, c) => c.y1 - a.y1)[0];
      if (above) {
        lines = [...above.lines.filter((l) => !TITLE_RE.test(l.text.trim())), ...lines];
        r = parseParty(lines, true);
      }
    }
    if (!r.party.name || !r.party.address) continue;
    if (/[:]$|\b(?:details|information|address|summary|description|adresse|anschrift)\b/i.test(r.party.name))
      continue;
    if (vendorToks && nameTokens(r.party.name).join(" ") === vendorToks) continue;
    // The vendor's own office block (its street) is not the customer.
    if (sameStreet(r.party.address.streetAddress)) continue;
    return r;
  }
  return undefined;
}

function unlabelledIban(layout: Layout): { value: string; box: Box } | undefined {
  for (const s of layout.segments) {
    const v = readIban(s.text);
    if (v) return { value: v.value, box: s };
  }
  return undefined;
}

function bicNear(layout: Layout, b: Box): { value: string; box: Box } | undefined {
  const near = layout.segments.filter(
    (s) => s.page === b.page && Math.abs(s.y0 - b.y0) < layout.lineHeight * 3,
  );
  for (const s of near) {
    const v = readBic(s.text.replace(/\bIBAN\b.*?(?=\bBIC\b|$)/i, ""));
    if (v && !/^[A-Z]{2}\d{2}/.test(v.value)) return { value: v.value, box: s };
  }
  return undefined;
}

function notesText(
  occs: LabelOccurrence[],
  layout: Layout,
  taken: Set<number>,
): { text: string; box: Box } | undefined {
  const o = occs
    .filter((x) => x.hit.label.field === "notes" && x.hit.start <= 1 && (x.hit.hasColon || x.labelOnly))
    .sort((a, b) => b.seg.page - a.seg.page || b.seg.y0 - a.seg.y0)[0];
  if (!o) return undefined;
  if (o.inline !== "") return { text: o.inline, box: boxOf(o.inlineWords, o.seg.page) };
  const block = blockAt(o, layout, taken);
  if (block.lines.length === 0) return undefined;
  const lines = block.lines.slice(0, 6);
  return { text: lines.map((l) => l.text).join(" "), box: unionBoxes(lines.map((l) => l.box))! };
}

function customCandidate(
  name: string,
  layout: Layout,
  labelSegs: Set<number>,
  tableSegs: Set<number>,
  ctx: Ctx,
): Candidate | undefined {
  const { re, kind } = customLabel(name);
  const label: CompiledLabel = compileLabel(name, kind, re, 3);
  const all: Candidate[] = [];
  for (const seg of layout.segments) {
    if (tableSegs.has(seg.id)) continue;
    for (const occ of labelsInSegment(seg, [label, ...LABELS])) {
      if (occ.hit.label !== label) continue;
      for (const raw of valuesFor(occ, layout, labelSegs)) {
        const v = typed(name, kind, raw, ctx);
        if (v) {
          all.push({ field: name, value: v.value, box: v.box, score: scoreOf(occ, raw, layout), occ, raw });
          break;
        }
      }
    }
  }
  return all.sort((a, b) => b.score - a.score)[0];
}

/** The camelCase form of a customField name as the caller wrote it (trimmed). */
export function normaliseCustomFieldName(name: string): string {
  const t = name.trim();
  return /^[a-z][A-Za-z0-9]*$/.test(t) ? t : camelCase(t);
}

/** Parses the customField parameter: JSON array/object/string, or names separated by commas. */
export function parseCustomFields(raw: unknown): string[] {
  if (raw === undefined || raw === null || raw === "") return [];
  let v: unknown = raw;
  if (typeof raw === "string") {
    const t = raw.trim();
    if (t.startsWith("[") || t.startsWith("{") || t.startsWith('"')) {
      try {
        v = JSON.parse(t);
      } catch {
        v = t;
      }
    }
  }
  let names: string[] = [];
  if (Array.isArray(v))
    names = v.flatMap((x) =>
      typeof x === "string" ? x.split(",") : typeof x === "object" && x ? Object.values(x).map(String) : [],
    );
  else if (typeof v === "object" && v) {
    const o = v as Record<string, unknown>;
    const list = o.fields ?? o.customField ?? o.names;
    names = Array.isArray(list)
      ? list.map(String)
      : typeof list === "string"
        ? list.split(",")
        : Object.keys(o);
  } else if (typeof v === "string") names = v.split(/[,;\n]/);
  return [...new Set(names.map(normaliseCustomFieldName).filter(Boolean))].slice(0, 50);
}

/**
 * The invoice number printed on each page (explicit "Invoice No" labels only), to tell one
 * multi-page invoice (the same number on every page) from several invoices in one file.
 */
export function invoiceNumbersByPage(pages: PageText[]): Map<number, string> {
  const out = new Map<number, string>();
  for (const page of pages) {
    const layout = buildLayout([page]);
    const ctx: Ctx = { layout, decimal: ".", order: "DMY", text: "" };
    for (const occ of findLabels(layout)) {
      if (occ.hit.label.field !== "invoiceNo" || occ.hit.label.weight < 3) continue;
      const v = valuesFor(occ, layout, new Set())
        .map((raw) => typed("invoiceNo", "id", raw, ctx))
        .find(Boolean);
      if (v) {
        out.set(page.index, v.value);
        break;
      }
    }
  }
  return out;
}

/** Dates of the document, for tests and diagnostics. */
export function documentDates(pages: PageText[]): string[] {
  const layout = buildLayout(pages);
  return findDates(layoutText(layout)).map((d) => d.iso);
}

export type { Segment };

/** Words that make a total the net amount. */
const NET_QUALIFIER =
  /\b(?:netto|net|nett|ht|hors\s+taxes?|excl\.?|exkl\.?|exclusive|excluding|exclusief|ohne\s+(?:mwst|ust)|sans\s+tva|sin\s+iva|senza\s+iva|imponibile|sem\s+impostos|before\s+tax)\b/;
/** Words that make a total label the tax total ("Summe Umsatzsteuer", "Total TVA"). */
const TAX_QUALIFIER = /\b(?:umsatzsteuer|mehrwertsteuer|mwst|ust|vat|tax|taxes|tva|iva|btw|gst|imposto|impostos)\b/;

/** Usual VAT/GST rates in percent (EU standard and reduced rates, UK, CH, IN, AU, CA...). */
const USUAL_RATES = [2.5, 3, 4, 5, 5.5, 6, 7, 7.7, 8, 8.1, 9, 10, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 27];

const usualRate = (net: number, tax: number) =>
  Math.abs(tax) > 0 &&
  USUAL_RATES.some((r) => Math.abs(net * (r / 100) - tax) <= 0.011 + Math.abs(net) * 0.00005);

/**
 * A row printing net, tax and gross side by side (a VAT summary row, "19,00% MwSt.: 376,37
 * 71,51 447,88"): three amounts in reading order with net + tax = gross at a usual rate. The
 * largest gross wins (the sum row of a summary with several rates).
 */
export function totalsTriple(
  layout: Layout,
  decimal: DecimalMark,
  tableSegs: Set<number>,
): { net: PrintedAmount; tax: PrintedAmount; gross: PrintedAmount } | undefined {
  let best: { net: PrintedAmount; tax: PrintedAmount; gross: PrintedAmount } | undefined;
  for (const page of layout.pages) {
    for (const row of page.rows) {
      const amounts: PrintedAmount[] = [];
      for (const seg of [...row.segments].sort((a, b) => a.x0 - b.x0)) {
        if (tableSegs.has(seg.id)) continue;
        for (const a of findAmounts(seg.text, decimal))
          if (!a.isPercent && a.hasDecimals)
            amounts.push({ text: a.text, value: a.value, box: seg, order: page.index * 10000 + seg.y0, inTable: false });
      }
      if (amounts.length < 3 || amounts.length > 8) continue;
      for (let i = 0; i < amounts.length; i++)
        for (let j = i + 1; j < amounts.length; j++)
          for (let k = j + 1; k < amounts.length; k++) {
            const [n, x, g] = [amounts[i], amounts[j], amounts[k]];
            if (Math.abs(n.value + x.value - g.value) > 0.011 || !usualRate(n.value, x.value)) continue;
            if (!best || Math.abs(g.value) > Math.abs(best.gross.value)) best = { net: n, tax: x, gross: g };
          }
    }
  }
  return best;
}

interface PrintedAmount {
  text: string;
  value: number;
  box: Box;
  order: number;
  inTable: boolean;
}

/**
 * The missing subtotal and/or tax among the amounts printed on the page: with the total and one
 * part known, the other is the printed amount equal to their difference; with the total alone, a
 * printed pair (net, tax) whose sum is the total and whose ratio is a usual tax rate. Later
 * amounts (the totals block) and amounts outside the item table are preferred.
 */
export function completeTotals(
  layout: Layout,
  decimal: DecimalMark,
  tableSegs: Set<number>,
  known: { total: number; subtotal?: number; tax?: number },
): { subtotal?: PrintedAmount; tax?: PrintedAmount } {
  const printed: PrintedAmount[] = [];
  for (const seg of layout.segments) {
    for (const a of findAmounts(seg.text, decimal)) {
      if (a.isPercent || !a.hasDecimals) continue;
      printed.push({
        text: a.text,
        value: a.value,
        box: seg,
        order: seg.page * 10000 + seg.y0,
        inTable: tableSegs.has(seg.id),
      });
    }
  }
  const T = known.total;
  const near = (a: number, b: number) => Math.abs(a - b) <= 0.011;
  const pick = (value: number, notValue?: number) =>
    printed
      .filter((p) => near(p.value, value) && (notValue === undefined || !near(p.value, notValue)))
      .sort((a, b) => Number(a.inTable) - Number(b.inTable) || b.order - a.order)[0];
  if (Math.abs(T) < 0.01) return {};
  const usual = (net: number, tax: number) =>
    USUAL_RATES.some((r) => Math.abs(net * (r / 100) - tax) <= 0.011 + Math.abs(net) * 0.00005);
  if (known.tax !== undefined && known.subtotal === undefined) {
    if (Math.abs(known.tax) < 0.005) return {};
    const rest = T - known.tax;
    if (Math.abs(rest) > Math.abs(known.tax)) {
      const s = pick(rest, T);
      return s ? { subtotal: s } : {};
    }
    // The "tax" read is larger than what remains: it was the net (a rate's base); swap them.
    if (usual(known.tax, rest)) {
      const s = pick(known.tax, T);
      const x = pick(rest, T);
      return s && x ? { subtotal: s, tax: x } : {};
    }
    return {};
  }
  if (known.subtotal !== undefined && known.tax === undefined) {
    if (near(known.subtotal, T)) return {};
    const x = pick(T - known.subtotal, T);
    return x ? { tax: x } : {};
  }
  if (known.subtotal === undefined && known.tax === undefined) {
    let best: { subtotal: PrintedAmount; tax: PrintedAmount; score: number } | undefined;
    for (const net of printed) {
      if (near(net.value, T) || Math.abs(net.value) >= Math.abs(T) || Math.sign(net.value) !== Math.sign(T)) continue;
      const taxValue = T - net.value;
      const rate = (100 * taxValue) / net.value;
      if (!usual(net.value, taxValue)) continue;
      const tax = pick(taxValue, T);
      if (!tax || !Number.isFinite(rate)) continue;
      const score = (net.inTable ? 0 : 2) + (tax.inTable ? 0 : 2) + (net.order + tax.order) * 1e-6;
      if (!best || score > best.score) best = { subtotal: net, tax, score };
    }
    return best ? { subtotal: best.subtotal, tax: best.tax } : {};
  }
  return {};
}

/** For an attention label ("Attn:", "z. Hd.", "T.a.v.", "À l'attention de"), the company line right above it. */
function attentionCompany(occ: LabelOccurrence, layout: Layout): Segment | undefined {
  if (!/^(?:attn|attention|z\.?\s?hd|t\.?a\.?v|a\.?\s?l'attention|c\/o)\b/i.test(fold(occ.seg.text.trim()))) return undefined;
  const page = layout.pages.find((p) => p.index === occ.seg.page);
  const prev = page?.rows[occ.seg.row - 1];
  if (!prev) return undefined;
  const seg = prev.segments.find((s) => Math.abs(s.x0 - occ.seg.x0) <= layout.lineHeight * 0.8);
  if (!seg || occ.seg.y0 - seg.y1 > layout.lineHeight * 1.2) return undefined;
  const t = seg.text.trim();
  if (notAPartyName(t) || TITLE_RE.test(t) || /[·|•]/.test(t) || labelsInSegment(seg).length > 0) return undefined;
  return seg;
}

/**
 * The country whose national tax identifiers the page names (the captions are national):
 * CNPJ/CPF → BR, SIRET/SIREN → FR, USt-IdNr./Steuernummer → DE, Partita IVA → IT, CIF/NIF → ES,
 * KvK → NL, GSTIN/PAN → IN, ABN → AU, EIN → US. Only when exactly one country is named.
 */
export function countryOfTaxIdNames(text: string): string | undefined {
  const f = fold(text);
  const named = new Set<string>();
  const signs: [string, RegExp][] = [
    ["BR", /\b(?:cnpj|cpf)\b/],
    ["FR", /\b(?:siret|siren)\b/],
    ["DE", /\b(?:ust-?id(?:nr)?|ust-?idnr|steuernummer|st\.?-?nr)\b/],
    ["IT", /\b(?:partita\s+iva|p\.?\s?iva|codice\s+fiscale)\b/],
    ["ES", /\b(?:cif|nif)\b/],
    ["NL", /\b(?:kvk|kamer\s+van\s+koophandel)\b/],
    ["IN", /\bgstin\b/],
    ["AU", /\babn\b/],
  ];
  for (const [country, re] of signs) if (re.test(f)) named.add(country);
  return named.size === 1 ? [...named][0] : undefined;
}

/**
 * Titles of a purchase document recorded by the buyer (a vendor bill printed from the buyer's
 * accounting system), in the seven languages.
 */
const PURCHASE_TITLE_RE =
  /^(?:vendor\s+bill|supplier\s+(?:invoice|bill)|purchase\s+(?:invoice|bill)|bill\s+from\s+vendor|eingangsrechnung|lieferantenrechnung|kreditorenrechnung|facture\s+(?:fournisseur|d'achat)|factura\s+(?:de\s+)?(?:proveedor|compra)|fattura\s+(?:fornitore|(?:di\s+)?acquisto|passiva)|inkoopfactuur|leveranciersfactuur|fatura\s+(?:de\s+)?(?:fornecedor|compra))\b/;

/** True when a title row in the upper half of the first page names a buyer-recorded purchase bill. */
export function purchaseTitle(layout: Layout): boolean {
  const first = layout.pages[0];
  if (!first) return false;
  for (const row of first.rows) {
    if (row.y0 > first.height * 0.5) break;
    for (const seg of row.segments) if (PURCHASE_TITLE_RE.test(fold(seg.text.trim()))) return true;
  }
  return false;
}

const TITLE_NUMBER_RE =
  /(?:^|\s)(?:invoice|bill|\p{L}*rechnung|gutschrift|facture|avoir|factura|fattura|\p{L}*factuur|fatura|credit\s+note)(?:\s+(?:fournisseur|d'achat|de\s+proveedor|de\s+compra|fornitore|di\s+acquisto|de\s+fornecedor))?\s*(?:n[o°º]\.?|nr\.?|#|number|nummer|numero)?\s*[:.]?\s*([A-Z0-9][A-Z0-9_\-/.]*\d[A-Z0-9_\-/.]*)(?=\s|$)/iu;

/**
 * The date printed alone on the next line under the invoice number's segment, starting at the
 * same left edge (a letter's heading: "Invoice 103767" over "February 17, 2026").
 */
function dateUnderNumber(layout: Layout, invoiceNo: string, order: DateOrder): { value: string; box: Box } | undefined {
  const lh = layout.lineHeight;
  const rows = layout.pages[0]?.rows ?? [];
  const ri = rows.findIndex((row) => row.segments.some((s) => s.text.includes(invoiceNo)));
  if (ri < 0) return undefined;
  const seg = rows[ri].segments.find((s) => s.text.includes(invoiceNo))!;
  const next = rows[ri + 1];
  if (!next || next.y0 - rows[ri].y1 > lh * 1.2) return undefined;
  const under = next.segments.find((s) => Math.abs(s.x0 - seg.x0) < lh);
  if (!under) return undefined;
  const t = under.text.trim();
  const found = findDates(t, order);
  if (found.length !== 1 || found[0].start > 0 || found[0].end < t.replace(/[.,]$/, "").length) return undefined;
  return { value: found[0].iso, box: under };
}

/** The invoice number printed in a title row of the first page's upper part, without a label of its own. */
function titleNumber(layout: Layout): { value: string; box: Box } | undefined {
  const first = layout.pages[0];
  if (!first) return undefined;
  for (const row of first.rows) {
    if (row.y0 > first.height * 0.4) break;
    for (const seg of row.segments) {
      const m = TITLE_NUMBER_RE.exec(seg.text);
      if (!m) continue;
      const id = m[1].replace(/[.]+$/, "");
      if (findDates(id).length > 0 || isAmountLike(id)) continue;
      return { value: id, box: seg };
    }
  }
  // A bare number sign ("Nº 000.000.046", "No. 4711") under or beside the document's title.
  const rows = first.rows.filter((r) => r.y0 <= first.height * 0.4);
  for (const [ri, row] of rows.entries()) {
    for (const seg of row.segments) {
      const m = NUMBER_SIGN_RE.exec(fold(seg.text.trim()));
      if (!m) continue;
      const id = seg.text.trim().slice(seg.text.trim().length - m[1].length).replace(/[.]+$/, "");
      // Zero-padded groups ("000.000.046") are a number, not an amount.
      if (findDates(id).length > 0 || (isAmountLike(id) && !/^0\d/.test(id)) || !/\d/.test(id)) continue;
      const titled = rows.slice(Math.max(0, ri - 6), ri + 1).some((r) =>
        r.segments.some(
          (t) =>
            t !== seg &&
            DOC_TITLE_RE.test(fold(t.text.trim())) &&
            Math.abs((t.x0 + t.x1) / 2 - (seg.x0 + seg.x1) / 2) < first.width * 0.2,
        ),
      );
      if (titled) return { value: id, box: seg };
    }
  }
  // The title wrapped onto a number caption ("FACTURE" / "AFFACTURÉE N°  UC1_2023020_AFF",
  // "INVOICE" / "NUMBER  4711"): the value is the next segment on the caption's row.
  for (const [ri, row] of rows.entries()) {
    const above = rows[ri - 1];
    if (!above || row.y0 - above.y1 > layout.lineHeight) continue;
    for (const [si, seg] of row.segments.entries()) {
      if (!WRAPPED_NUMBER_CAPTION_RE.test(fold(seg.text.trim()))) continue;
      const titled = above.segments.some(
        (t) => DOC_TITLE_RE.test(fold(t.text.trim())) && Math.abs(t.x0 - seg.x0) < layout.lineHeight * 2,
      );
      const value = row.segments[si + 1];
      const id = value?.text.trim() ?? "";
      if (!titled || !value || !/^[A-Z0-9][A-Z0-9_\-/.#]*\d[A-Z0-9_\-/.]*$/i.test(id)) continue;
      if (findDates(id).length > 0 || (isAmountLike(id) && !/^0\d/.test(id))) continue;
      return { value: id, box: value };
    }
  }
  // An identifier alone on the row right under the title ("INVOICE" / "INV/2024/00005").
  for (const [ri, row] of rows.entries()) {
    if (!row.segments.some((t) => DOC_TITLE_RE.test(fold(t.text.trim()).replace(/[\s:]+$/, "")))) continue;
    const title = row.segments.find((t) => DOC_TITLE_RE.test(fold(t.text.trim()).replace(/[\s:]+$/, "")))!;
    const next = rows[ri + 1];
    if (!next || next.y0 - row.y1 > layout.lineHeight * 2.5) continue;
    const seg = next.segments.find((t) => Math.abs(t.x0 - title.x0) < layout.lineHeight * 2);
    const id = seg?.text.trim() ?? "";
    if (!seg || !/^[A-Z0-9][A-Z0-9_\-/.#]*\d[A-Z0-9_\-/.]*$/i.test(id)) continue;
    if (findDates(id).length > 0 || (isAmountLike(id) && !/^0\d/.test(id))) continue;
    return { value: id, box: seg };
  }
  return undefined;
}

/** "Nº 000.000.046", "No. 4711", "Nr. 17" (folded): a number sign and an identifier, alone in a segment. */
const NUMBER_SIGN_RE = /^(?:n\s*o|nr|num|numero|#)\.?\s*[:.]?\s*([a-z0-9][a-z0-9_\-/.]*)$/;

/** The second line of a title wrapped onto its number caption (folded): "affacturee n°", "number:". */
const WRAPPED_NUMBER_CAPTION_RE = /^(?:[a-z]+\s+){0,2}(?:n\s*[o°º]|nr|num|numero|number|nummer|#)\.?\s*:?$/;

/** A document title of its own (folded): invoice, credit note, the Brazilian NF-e/DANFE. */
const DOC_TITLE_RE =
  /^(?:(?:tax\s+|vat\s+|commercial\s+)?invoice|rechnung|gutschrift|facture|avoir|factura|fattura|factuur|fatura|credit\s+note|nota\s+de\s+credito|creditnota|nota\s+fiscal(?:\s+eletronica)?|nf-?e|nfs-?e|danfe|danfse|documento\s+auxiliar(?:\s+da\s+nota\s+fiscal)?(?:\s+eletronica)?|da\s+nota\s+fiscal|eletronica)$/;

function get(obj: unknown, path: string): unknown {
  return path
    .split(".")
    .reduce<unknown>((c, k) => (c && typeof c === "object" ? (c as Record<string, unknown>)[k] : undefined), obj);
}
