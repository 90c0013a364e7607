/**
 * Structured e-invoices → the seed's invoice object, exactly (no layout analysis):
 * - UN/CEFACT Cross Industry Invoice (CII), the XML of Factur-X, ZUGFeRD 2.x and XRechnung-CII;
 * - OASIS UBL 2.x Invoice / CreditNote, the XML of XRechnung-UBL and Peppol BIS.
 * Element paths follow EN 16931 (the semantic model both syntaxes implement).
 */
import { find, findAll, parseXml, textAt, type XmlElement } from "@/lib/engine/invoice/einvoice/xml";
import {
  pruneEmpty,
  type InvoiceAddress,
  type InvoiceBody,
  type InvoiceParty,
} from "@/lib/engine/invoice/types";

export type EInvoiceSyntax = "CII" | "UBL";

export interface EInvoiceResult {
  syntax: EInvoiceSyntax;
  /** Profile / customization id (e.g. "urn:factur-x.eu:1p0:en16931", XRechnung's CIUS), when given. */
  profile?: string;
  body: InvoiceBody;
}

/** Which syntax a document root is, or undefined for other XML. */
export function einvoiceSyntax(root: XmlElement): EInvoiceSyntax | undefined {
  if (root.local === "CrossIndustryInvoice" || root.local === "CrossIndustryDocument") return "CII";
  if (root.local === "Invoice" || root.local === "CreditNote") {
    if (Object.values(root.attrs).some((v) => v.includes("oasis:names:specification:ubl"))) return "UBL";
    if (root.children.some((c) => c.local === "AccountingSupplierParty")) return "UBL";
  }
  return undefined;
}

/** Reads an e-invoice XML text; undefined when it is XML of another kind. Throws on malformed XML. */
export function readEInvoice(xml: string, customFields: string[] = []): EInvoiceResult | undefined {
  const root = parseXml(xml);
  const syntax = einvoiceSyntax(root);
  if (!syntax) return undefined;
  const out = syntax === "CII" ? readCii(root) : readUbl(root);
  for (const name of customFields) {
    const v = customFieldFrom(root, name);
    if (v !== undefined && !(name in out.body)) out.body[name] = v;
  }
  return { ...out, body: pruneEmpty(out.body) ?? {} };
}

/** "20230320" (format 102) or "2023-03-20" → ISO. */
function isoDate(s: string | undefined): string | undefined {
  if (!s) return undefined;
  const t = s.trim();
  let m = /^(\d{4})(\d{2})(\d{2})$/.exec(t);
  if (m) return `${m[1]}-${m[2]}-${m[3]}`;
  m = /^(\d{4})-(\d{2})-(\d{2})/.exec(t);
  if (m) return `${m[1]}-${m[2]}-${m[3]}`;
  return t;
}

const joinNonEmpty = (parts: (string | undefined)[], sep = ", ") =>
  parts.filter((p) => p && p.trim()).join(sep) || undefined;

// ------------------------------------------------------------------ CII

function ciiAddress(el: XmlElement | undefined): InvoiceAddress | undefined {
  if (!el) return undefined;
  return {
    streetAddress: joinNonEmpty([textAt(el, "LineOne"), textAt(el, "LineTwo"), textAt(el, "LineThree")]),
    city: textAt(el, "CityName"),
    state: textAt(el, "CountrySubDivisionName"),
    postalCode: textAt(el, "PostcodeCode"),
    country: textAt(el, "CountryID"),
  };
}

function ciiParty(p: XmlElement | undefined): InvoiceParty | undefined {
  if (!p) return undefined;
  const taxIds = findAll(p, "SpecifiedTaxRegistration/ID");
  const vat = taxIds.find((t) => t.attrs.schemeID === "VA") ?? taxIds[0];
  const contact = find(p, "DefinedTradeContact");
  return {
    name: textAt(p, "Name"),
    address: ciiAddress(find(p, "PostalTradeAddress")),
    contactInformation: {
      phone: textAt(contact, "TelephoneUniversalCommunication/CompleteNumber"),
      fax: textAt(contact, "FaxUniversalCommunication/CompleteNumber"),
      email:
        textAt(contact, "EmailURIUniversalCommunication/URIID") ??
        textAt(p, "URIUniversalCommunication/URIID"),
    },
    entityId:
      vat?.text.trim() ||
      textAt(p, "SpecifiedLegalOrganization/ID") ||
      textAt(p, "GlobalID") ||
      textAt(p, "ID"),
  };
}

function readCii(root: XmlElement): { syntax: EInvoiceSyntax; profile?: string; body: InvoiceBody } {
  const doc = find(root, "ExchangedDocument") ?? find(root, "HeaderExchangedDocument");
  // ZUGFeRD 1.0 (CrossIndustryDocument) names the transaction SpecifiedSupplyChainTradeTransaction.
  const tx = find(root, "SupplyChainTradeTransaction") ?? find(root, "SpecifiedSupplyChainTradeTransaction");
  const agreement =
    find(tx, "ApplicableHeaderTradeAgreement") ?? find(tx, "ApplicableSupplyChainTradeAgreement");
  const delivery =
    find(tx, "ApplicableHeaderTradeDelivery") ?? find(tx, "ApplicableSupplyChainTradeDelivery");
  const settlement =
    find(tx, "ApplicableHeaderTradeSettlement") ?? find(tx, "ApplicableSupplyChainTradeSettlement");
  const sum =
    find(settlement, "SpecifiedTradeSettlementHeaderMonetarySummation") ??
    find(settlement, "SpecifiedTradeSettlementMonetarySummation");
  const means = find(settlement, "SpecifiedTradeSettlementPaymentMeans");
  const terms = find(settlement, "SpecifiedTradePaymentTerms");
  const account = find(means, "PayeePartyCreditorFinancialAccount");
  const institution = find(means, "PayeeSpecifiedCreditorFinancialInstitution");
  const taxTotal =
    findAll(sum, "TaxTotalAmount").find(
      (t) => !t.attrs.currencyID || t.attrs.currencyID === textAt(settlement, "InvoiceCurrencyCode"),
    ) ?? find(sum, "TaxTotalAmount");
  const allowances = findAll(settlement, "SpecifiedTradeAllowanceCharge");
  const shipping = allowances.find(
    (a) =>
      textAt(a, "ChargeIndicator/Indicator") === "true" &&
      /ship|freight|deliver|transport|versand|port|fracht/i.test(textAt(a, "Reason") ?? ""),
  );
  const shipTo = find(delivery, "ShipToTradeParty");
  const lines = findAll(tx, "IncludedSupplyChainTradeLineItem").map((li) => {
    const prod = find(li, "SpecifiedTradeProduct");
    const agr = find(li, "SpecifiedLineTradeAgreement") ?? find(li, "SpecifiedSupplyChainTradeAgreement");
    const del = find(li, "SpecifiedLineTradeDelivery") ?? find(li, "SpecifiedSupplyChainTradeDelivery");
    const set = find(li, "SpecifiedLineTradeSettlement") ?? find(li, "SpecifiedSupplyChainTradeSettlement");
    const qty = find(del, "BilledQuantity");
    const item: Record<string, string | undefined> = {
      position: textAt(li, "AssociatedDocumentLineDocument/LineID"),
      itemCode: textAt(prod, "SellerAssignedID") ?? textAt(prod, "GlobalID"),
      description: joinNonEmpty([textAt(prod, "Name"), textAt(prod, "Description")], "\n"),
      quantity: qty?.text.trim(),
      unit: qty?.attrs.unitCode,
      unitPrice: textAt(agr, "NetPriceProductTradePrice/ChargeAmount"),
      taxRate:
        textAt(set, "ApplicableTradeTax/RateApplicablePercent") ??
        textAt(set, "ApplicableTradeTax/ApplicablePercent"),
      total: textAt(set, "SpecifiedTradeSettlementLineMonetarySummation/LineTotalAmount"),
    };
    return Object.fromEntries(Object.entries(item).filter(([, v]) => v !== undefined)) as Record<
      string,
      string
    >;
  });
  const notes = findAll(doc, "IncludedNote")
    .map((n) => textAt(n, "Content"))
    .filter(Boolean);
  const body: InvoiceBody = {
    vendor: ciiParty(find(agreement, "SellerTradeParty")),
    customer: {
      billTo: ciiParty(find(agreement, "BuyerTradeParty")),
      shipTo: shipTo
        ? { name: textAt(shipTo, "Name"), address: ciiAddress(find(shipTo, "PostalTradeAddress")) }
        : undefined,
    },
    invoice: {
      invoiceNo: textAt(doc, "ID"),
      invoiceDate: isoDate(textAt(doc, "IssueDateTime/DateTimeString")),
      poNo:
        textAt(agreement, "BuyerOrderReferencedDocument/IssuerAssignedID") ??
        textAt(agreement, "BuyerReference"),
      orderNo: textAt(agreement, "SellerOrderReferencedDocument/IssuerAssignedID"),
    },
    paymentDetails: {
      paymentTerms: textAt(terms, "Description"),
      dueDate: isoDate(textAt(terms, "DueDateDateTime/DateTimeString")),
      currency: textAt(settlement, "InvoiceCurrencyCode"),
      total: textAt(sum, "GrandTotalAmount") ?? textAt(sum, "DuePayableAmount"),
      subtotal: textAt(sum, "TaxBasisTotalAmount") ?? textAt(sum, "LineTotalAmount"),
      tax: taxTotal?.text.trim(),
      discount: nonZero(textAt(sum, "AllowanceTotalAmount")),
      shipping: shipping ? textAt(shipping, "ActualAmount") : undefined,
      bankingInformation: {
        iban: textAt(account, "IBANID"),
        accountNumber: textAt(account, "ProprietaryID"),
        accountHolderName: textAt(account, "AccountName"),
        swiftBicCode: textAt(institution, "BICID"),
        bankName: textAt(institution, "Name"),
        additionalNotes: textAt(settlement, "PaymentReference")
          ? `Payment reference: ${textAt(settlement, "PaymentReference")}`
          : undefined,
      },
    },
    others: { notes: notes.length > 0 ? notes.join("\n") : undefined },
    lineItems: lines.length > 0 ? [lines] : undefined,
  };
  const profile = textAt(root, "ExchangedDocumentContext/GuidelineSpecifiedDocumentContextParameter/ID");
  return { syntax: "CII", profile, body };
}

function nonZero(v: string | undefined): string | undefined {
  return v !== undefined && Number(v) !== 0 ? v : undefined;
}

// ------------------------------------------------------------------ UBL

function ublAddress(el: XmlElement | undefined): InvoiceAddress | undefined {
  if (!el) return undefined;
  return {
    streetAddress: joinNonEmpty([
      joinNonEmpty([textAt(el, "StreetName"), textAt(el, "BuildingNumber")], " "),
      textAt(el, "AdditionalStreetName"),
      ...findAll(el, "AddressLine/Line").map((l) => l.text.trim()),
    ]),
    city: textAt(el, "CityName"),
    state: textAt(el, "CountrySubentity"),
    postalCode: textAt(el, "PostalZone"),
    country: textAt(el, "Country/IdentificationCode"),
  };
}

function ublParty(p: XmlElement | undefined): InvoiceParty | undefined {
  if (!p) return undefined;
  const contact = find(p, "Contact");
  return {
    name: textAt(p, "PartyName/Name") ?? textAt(p, "PartyLegalEntity/RegistrationName"),
    address: ublAddress(find(p, "PostalAddress")),
    contactInformation: {
      phone: textAt(contact, "Telephone"),
      fax: textAt(contact, "Telefax"),
      email: textAt(contact, "ElectronicMail"),
    },
    entityId:
      textAt(p, "PartyTaxScheme/CompanyID") ??
      textAt(p, "PartyLegalEntity/CompanyID") ??
      textAt(p, "PartyIdentification/ID"),
  };
}

function readUbl(root: XmlElement): { syntax: EInvoiceSyntax; profile?: string; body: InvoiceBody } {
  const supplier = find(root, "AccountingSupplierParty/Party");
  const customer = find(root, "AccountingCustomerParty/Party");
  const delivery = find(root, "Delivery");
  const totals = find(root, "LegalMonetaryTotal");
  const means = find(root, "PaymentMeans");
  const account = find(means, "PayeeFinancialAccount");
  const taxTotal = findAll(root, "TaxTotal").find((t) => find(t, "TaxSubtotal")) ?? find(root, "TaxTotal");
  const charges = findAll(root, "AllowanceCharge");
  const shipping = charges.find(
    (c) =>
      textAt(c, "ChargeIndicator") === "true" &&
      /ship|freight|deliver|transport|versand|port|fracht/i.test(textAt(c, "AllowanceChargeReason") ?? ""),
  );
  const isCredit = root.local === "CreditNote";
  const lines = findAll(root, isCredit ? "CreditNoteLine" : "InvoiceLine").map((li) => {
    const qty = find(li, isCredit ? "CreditedQuantity" : "InvoicedQuantity");
    const item: Record<string, string | undefined> = {
      position: textAt(li, "ID"),
      itemCode:
        textAt(li, "Item/SellersItemIdentification/ID") ?? textAt(li, "Item/StandardItemIdentification/ID"),
      description: joinNonEmpty([textAt(li, "Item/Name"), textAt(li, "Item/Description")], "\n"),
      quantity: qty?.text.trim(),
      unit: qty?.attrs.unitCode,
      unitPrice: textAt(li, "Price/PriceAmount"),
      taxRate: textAt(li, "Item/ClassifiedTaxCategory/Percent"),
      total: textAt(li, "LineExtensionAmount"),
    };
    return Object.fromEntries(Object.entries(item).filter(([, v]) => v !== undefined)) as Record<
      string,
      string
    >;
  });
  const shipParty = find(delivery, "DeliveryParty");
  const shipAddr = find(delivery, "DeliveryLocation/Address");
  const notes = findAll(root, "Note")
    .map((n) => n.text.trim())
    .filter(Boolean);
  const body: InvoiceBody = {
    vendor: ublParty(supplier),
    customer: {
      billTo: ublParty(customer),
      shipTo:
        shipParty || shipAddr
          ? { name: textAt(shipParty, "PartyName/Name"), address: ublAddress(shipAddr) }
          : undefined,
    },
    invoice: {
      invoiceNo: textAt(root, "ID"),
      invoiceDate: isoDate(textAt(root, "IssueDate")),
      poNo: textAt(root, "OrderReference/ID") ?? textAt(root, "BuyerReference"),
      orderNo: textAt(root, "OrderReference/SalesOrderID"),
    },
    paymentDetails: {
      paymentTerms: textAt(root, "PaymentTerms/Note"),
      dueDate: isoDate(textAt(root, "DueDate") ?? textAt(means, "PaymentDueDate")),
      currency: textAt(root, "DocumentCurrencyCode"),
      total: textAt(totals, "TaxInclusiveAmount") ?? textAt(totals, "PayableAmount"),
      subtotal: textAt(totals, "TaxExclusiveAmount") ?? textAt(totals, "LineExtensionAmount"),
      tax: textAt(taxTotal, "TaxAmount"),
      discount: nonZero(textAt(totals, "AllowanceTotalAmount")),
      shipping: shipping ? textAt(shipping, "Amount") : undefined,
      bankingInformation: {
        iban:
          account && /^[A-Z]{2}\d{2}/.test(textAt(account, "ID") ?? "") ? textAt(account, "ID") : undefined,
        accountNumber:
          account && !/^[A-Z]{2}\d{2}/.test(textAt(account, "ID") ?? "") ? textAt(account, "ID") : undefined,
        accountHolderName: textAt(account, "Name"),
        swiftBicCode:
          textAt(account, "FinancialInstitutionBranch/ID") ??
          textAt(account, "FinancialInstitutionBranch/FinancialInstitution/ID"),
        bankName:
          textAt(account, "FinancialInstitutionBranch/Name") ??
          textAt(account, "FinancialInstitutionBranch/FinancialInstitution/Name"),
        additionalNotes: textAt(means, "PaymentID")
          ? `Payment reference: ${textAt(means, "PaymentID")}`
          : undefined,
      },
    },
    others: { notes: notes.length > 0 ? notes.join("\n") : undefined },
    lineItems: lines.length > 0 ? [lines] : undefined,
  };
  return { syntax: "UBL", profile: textAt(root, "CustomizationID"), body };
}

/** A customField looked up by element name anywhere in the XML ("deliveryDate" → ActualDeliverySupplyChainEvent...). */
function customFieldFrom(root: XmlElement, name: string): string | undefined {
  const key = name.toLowerCase();
  const known: Record<string, string[]> = {
    deliverydate: [
      "ActualDeliverySupplyChainEvent/OccurrenceDateTime/DateTimeString",
      "Delivery/ActualDeliveryDate",
    ],
    customerreference: ["BuyerReference"],
    purchaseorderref: ["BuyerOrderReferencedDocument/IssuerAssignedID", "OrderReference/ID"],
    currency: ["InvoiceCurrencyCode", "DocumentCurrencyCode"],
  };
  const paths = known[key];
  const all: XmlElement[] = [];
  const walk = (e: XmlElement) => {
    all.push(e);
    e.children.forEach(walk);
  };
  walk(root);
  if (paths) {
    for (const p of paths) {
      const [first, ...rest] = p.split("/");
      for (const e of all.filter((x) => x.local === first)) {
        const v = rest.length > 0 ? textAt(e, rest.join("/")) : e.text.trim() || undefined;
        if (v) return key.endsWith("date") ? isoDate(v) : v;
      }
    }
  }
  const direct = all.find((e) => e.local.toLowerCase() === key && e.text.trim());
  return direct?.text.trim();
}
