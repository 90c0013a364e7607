/**
 * The document-type vocabulary of every supported language: the names a document gives
 * itself in its title (per type, with the sub-classes an invoice can have), and the field
 * vocabulary ("evidence") each type implies: an invoice has a number, a date, totals and a
 * tax line; a bank statement has balances; a purchase order has an order number and delivery
 * terms. Entries are written as they are printed and compared after normalize.ts; German and
 * Dutch single words also match as compound heads (compounds.ts). Pure data plus its compiler.
 *
 * Entry syntax: "phrase" is a name the document type is known by (strength 3); "~phrase" is a
 * weaker or more general name (strength 2); "~~phrase" a name that is usually something else
 * (strength 1); a leading "!" makes the entry count only on a page of its own language
 * (French "avoir" is a credit note on a French page and a verb elsewhere).
 */
import type { Lang } from "@/lib/engine/lexicon/languages";

export const DOCUMENT_TYPES = [
  "invoice",
  "receipt",
  "purchase order",
  "quote",
  "delivery note",
  "bank statement",
  "payslip",
  "contract",
  "tax form",
  "resume",
  "letter",
  "report",
  "form",
  "other",
] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

/** Classes added after the type: an invoice that is a credit note, a pro forma or a utility bill. */
export const SUBCLASSES = ["credit note", "pro forma", "utility bill"] as const;
export type Subclass = (typeof SUBCLASSES)[number];

type Names = Partial<Record<Lang, string[]>>;

/**
 * Title names per type (and sub-class). `null` lists words that contain a type's head noun but
 * mean something else (German Abrechnung/Berechnung end in "rechnung"); they win as the
 * longer head and name no type.
 */
const TITLES: { type: DocumentType | null; sub?: Subclass; names: Names }[] = [
  {
    type: "invoice",
    names: {
      en: ["invoice", "tax invoice", "commercial invoice", "sales invoice", "vat invoice", "~~bill", "~vendor bill", "~bill of supply", "~debit note", "~e-invoice"],
      de: ["rechnung", "faktura", "~honorarnote", "~liquidation"],
      fr: ["facture", "facture acompte", "~note honoraires", "~note de debit", "~facturation"],
      es: ["factura", "factura simplificada", "~minuta", "~nota de debito"],
      it: ["fattura", "fattura elettronica", "~parcella", "~nota di debito"],
      nl: ["factuur", "facturen", "!~nota", "!~~rekening"],
      pt: ["fatura", "factura", "nota fiscal", "fatura recibo", "danfe", "danfse", "nfs e", "nf e", "~nota de debito"],
    },
  },
  {
    type: "invoice",
    sub: "credit note",
    names: {
      en: ["credit note", "credit memo", "credit invoice", "~refund note"],
      de: ["gutschrift", "stornorechnung", "rechnungskorrektur", "~storno"],
      fr: ["note de credit", "facture avoir", "!avoir", "~facture rectificative"],
      es: ["nota de credito", "factura de abono", "factura rectificativa", "!~abono"],
      it: ["nota di credito", "nota credito"],
      nl: ["creditnota", "creditfactuur", "creditnote"],
      pt: ["nota de credito", "fatura de credito"],
    },
  },
  {
    type: "invoice",
    sub: "pro forma",
    names: {
      en: ["pro forma invoice", "proforma invoice", "~pro forma", "~proforma"],
      de: ["proformarechnung", "proforma rechnung", "pro forma rechnung"],
      fr: ["facture pro forma", "facture proforma"],
      es: ["factura proforma", "factura pro forma"],
      it: ["fattura proforma", "fattura pro forma"],
      nl: ["proformafactuur", "pro forma factuur"],
      pt: ["fatura proforma", "fatura pro forma", "factura proforma"],
    },
  },
  {
    type: "invoice",
    sub: "utility bill",
    names: {
      en: ["electricity bill", "gas bill", "water bill", "energy bill", "utility bill", "phone bill", "mobile bill", "internet bill", "~energy statement"],
      de: ["stromrechnung", "gasrechnung", "wasserrechnung", "energierechnung", "telefonrechnung", "mobilfunkrechnung", "nebenkostenabrechnung", "betriebskostenabrechnung", "heizkostenabrechnung", "stromabrechnung", "gasabrechnung", "wasserabrechnung", "energieabrechnung", "jahresverbrauchsabrechnung"],
      fr: ["facture electricite", "facture de gaz", "facture eau", "facture energie", "facture de telephone", "facture internet"],
      es: ["factura de luz", "factura de electricidad", "factura del gas", "factura de gas", "factura de agua", "factura de telefono"],
      it: ["bolletta", "bolletta luce", "bolletta gas", "bolletta della luce", "bolletta del gas"],
      nl: ["energierekening", "energiefactuur", "jaarafrekening", "stroomrekening", "waterrekening", "telefoonrekening"],
      pt: ["conta de luz", "conta de energia", "conta de agua", "conta de gas", "fatura de energia"],
    },
  },
  {
    type: "receipt",
    names: {
      en: ["receipt", "sales receipt", "payment receipt", "cash receipt", "till receipt"],
      de: ["quittung", "kassenbon", "kassenbeleg", "kassenzettel", "zahlungsbeleg", "~zahlungsbestatigung", "!~bon"],
      fr: ["recu", "ticket de caisse", "quittance", "recu de paiement", "~ticket"],
      es: ["recibo", "ticket de compra", "comprobante de pago", "recibo de pago", "!~ticket", "!~tique"],
      it: ["ricevuta", "scontrino", "ricevuta fiscale", "scontrino fiscale", "quietanza"],
      nl: ["kassabon", "kwitantie", "ontvangstbewijs", "betalingsbewijs", "!~bon"],
      pt: ["recibo", "talao", "cupom fiscal", "comprovante de pagamento", "~comprovante"],
    },
  },
  {
    type: "purchase order",
    names: {
      en: ["purchase order", "order confirmation", "sales order", "purchase requisition", "~~order"],
      de: ["bestellung", "auftragsbestatigung", "bestellschein", "bestellbestatigung", "~auftrag", "~~bestellungen"],
      fr: ["bon de commande", "confirmation de commande", "ordre achat", "accuse de reception de commande", "~commande"],
      es: ["orden de compra", "hoja de pedido", "nota de pedido", "confirmacion de pedido", "~pedido"],
      it: ["ordine acquisto", "ordine di acquisto", "buono ordine", "conferma ordine", "~ordine"],
      nl: ["inkooporder", "bestelbon", "orderbevestiging", "opdrachtbevestiging", "~bestelling", "!~order"],
      pt: ["pedido de compra", "ordem de compra", "nota de encomenda", "~encomenda", "~pedido"],
    },
  },
  {
    type: "quote",
    names: {
      en: ["quotation", "quote", "estimate", "price quote", "~proposal", "~~offer"],
      de: ["angebot", "kostenvoranschlag", "preisangebot", "kostenangebot", "!~offerte"],
      fr: ["devis", "offre de prix", "proposition commerciale", "~offre"],
      es: ["presupuesto", "cotizacion", "~oferta"],
      it: ["preventivo", "offerta", "quotazione"],
      nl: ["offerte", "prijsopgave", "~begroting"],
      pt: ["orcamento", "cotacao", "proposta comercial", "~proposta"],
    },
  },
  {
    type: "delivery note",
    names: {
      en: ["delivery note", "packing slip", "packing list", "dispatch note", "delivery receipt", "goods received note", "bill of lading", "consignment note", "shipping note"],
      de: ["lieferschein", "packliste", "frachtbrief", "warenbegleitschein", "versandschein"],
      fr: ["bon de livraison", "bordereau de livraison", "bon expedition", "lettre de voiture", "bordereau expedition"],
      es: ["albaran", "nota de entrega", "guia de remision", "albaran de entrega"],
      it: ["documento di trasporto", "bolla di consegna", "bolla di accompagnamento", "!~ddt"],
      nl: ["pakbon", "leveringsbon", "afleverbon", "vrachtbrief", "paklijst"],
      pt: ["guia de remessa", "nota de entrega", "guia de transporte", "romaneio"],
    },
  },
  {
    type: "bank statement",
    names: {
      en: ["bank statement", "account statement", "statement of account", "~~statement"],
      de: ["kontoauszug", "depotauszug", "~umsatzubersicht", "~kontoubersicht"],
      fr: ["releve de compte", "releve bancaire", "extrait de compte", "releve de compte courant", "~releve"],
      es: ["extracto bancario", "extracto de cuenta", "estado de cuenta", "~extracto"],
      it: ["estratto conto", "estratto conto bancario"],
      nl: ["rekeningafschrift", "bankafschrift", "~afschrift", "~rekeningoverzicht"],
      pt: ["extrato bancario", "extrato de conta", "~extrato"],
    },
  },
  {
    type: "payslip",
    names: {
      en: ["payslip", "pay slip", "pay stub", "paystub", "salary slip", "earnings statement", "pay statement", "wage slip", "payroll statement", "salary statement"],
      de: ["lohnabrechnung", "gehaltsabrechnung", "entgeltabrechnung", "verdienstabrechnung", "bezugemitteilung", "lohnzettel", "lohnschein"],
      fr: ["bulletin de paie", "bulletin de salaire", "fiche de paie", "fiche de salaire"],
      es: ["nomina", "recibo de nomina", "recibo de salario", "recibo de salarios", "hoja de salario"],
      it: ["busta paga", "cedolino", "cedolino paga", "prospetto paga"],
      nl: ["loonstrook", "salarisstrook", "loonbrief", "salarisspecificatie"],
      pt: ["recibo de vencimento", "holerite", "contracheque", "recibo de salario", "~folha de pagamento"],
    },
  },
  {
    type: "contract",
    names: {
      en: ["contract", "agreement", "lease", "memorandum of understanding", "terms of service", "~terms and conditions"],
      de: ["vertrag", "vereinbarung", "~allgemeine geschaftsbedingungen"],
      fr: ["contrat", "convention", "bail", "~accord", "~conditions generales"],
      es: ["contrato", "convenio", "~acuerdo"],
      it: ["contratto", "convenzione", "~accordo"],
      nl: ["overeenkomst", "contract", "~algemene voorwaarden"],
      pt: ["contrato", "~acordo", "~convenio"],
    },
  },
  {
    type: "tax form",
    names: {
      en: ["tax return", "form 1040", "form w 2", "form w2", "form w 9", "form w9", "form 1099", "form 941", "self assessment"],
      de: ["steuererklarung", "einkommensteuererklarung", "umsatzsteuervoranmeldung", "steuerbescheid", "umsatzsteuererklarung"],
      fr: ["declaration de revenus", "declaration des revenus", "avis imposition", "declaration fiscale"],
      es: ["declaracion de la renta", "declaracion tributaria", "declaracion de impuestos"],
      it: ["dichiarazione dei redditi", "modello 730", "modello unico", "dichiarazione iva"],
      nl: ["belastingaangifte", "aangifte inkomstenbelasting", "aanslag inkomstenbelasting", "aangifte omzetbelasting"],
      pt: ["declaracao de imposto de renda", "declaracao de irs", "declaracao de rendimentos"],
    },
  },
  {
    type: "resume",
    names: {
      en: ["resume", "curriculum vitae", "!cv"],
      de: ["lebenslauf", "curriculum vitae"],
      fr: ["curriculum vitae", "!cv"],
      es: ["curriculum vitae", "curriculum", "hoja de vida"],
      it: ["curriculum vitae", "curriculum"],
      nl: ["curriculum vitae", "levensloop", "!cv"],
      pt: ["curriculo", "curriculum vitae"],
    },
  },
  {
    type: "report",
    names: {
      en: ["report", "annual report", "quarterly report", "executive summary", "white paper", "~study"],
      de: ["bericht", "gutachten", "~studie", "~protokoll"],
      fr: ["rapport", "rapport annuel", "compte rendu", "~etude"],
      es: ["informe", "memoria anual", "~estudio"],
      it: ["relazione", "rapporto", "~studio"],
      nl: ["rapport", "verslag", "rapportage", "~studie"],
      pt: ["relatorio", "~estudo"],
    },
  },
  {
    type: "form",
    names: {
      en: ["application form", "registration form", "request form", "claim form", "enrollment form", "~form"],
      de: ["formular", "antrag", "anmeldung", "~fragebogen"],
      fr: ["formulaire", "bulletin inscription", "~demande"],
      es: ["formulario", "solicitud", "impreso"],
      it: ["modulo", "modulo di domanda", "~richiesta"],
      nl: ["formulier", "aanvraagformulier", "~aanvraag"],
      pt: ["formulario", "requerimento", "ficha de inscricao"],
    },
  },
  {
    // Words that end in a type's noun but name accounts, calculations or laws.
    type: null,
    names: {
      en: ["finance bill", "appropriation bill", "appropriations bill", "bill of rights", "bill of materials", "bill of quantities"],
      de: [
        "abrechnung", "berechnung", "verrechnung", "hochrechnung", "umrechnung", "kostenrechnung", "rechnungswesen",
        "jahresrechnung", "staatsrechnung", "gemeinderechnung", "gesamtrechnung", "finanzrechnung", "erfolgsrechnung",
        "betriebsrechnung", "investitionsrechnung", "verwaltungsrechnung", "wahrscheinlichkeitsrechnung",
        "differentialrechnung", "integralrechnung", "vektorrechnung", "bruchrechnung", "prozentrechnung", "zinsrechnung",
      ],
      nl: ["afrekening", "jaarrekening", "verliesrekening", "resultatenrekening", "rekeningcourant"],
    },
  },
];

/**
 * German and Dutch modifiers that give a compound invoice name its sub-class
 * (Storno|rechnung, credit|factuur, Strom|rechnung).
 */
export const SUBCLASS_MODIFIERS: Record<string, Subclass> = {
  storno: "credit note",
  gutschrift: "credit note",
  credit: "credit note",
  korrektur: "credit note",
  proforma: "pro forma",
  strom: "utility bill",
  gas: "utility bill",
  wasser: "utility bill",
  energie: "utility bill",
  telefon: "utility bill",
  mobilfunk: "utility bill",
  handy: "utility bill",
  internet: "utility bill",
  heizkosten: "utility bill",
  nebenkosten: "utility bill",
  betriebskosten: "utility bill",
  fernwarme: "utility bill",
  stroom: "utility bill",
  elektriciteit: "utility bill",
  telefoon: "utility bill",
  water: "utility bill",
};

/** Field vocabulary: what a document of some type prints besides its title. */
export const EVIDENCE_KINDS = [
  "invoiceRef",
  "dueDate",
  "total",
  "subtotal",
  "tax",
  "billTo",
  "payment",
  "orderRef",
  "delivery",
  "validity",
  "balance",
  "bankTx",
  "payroll",
  "paid",
  "contractTerms",
  "salutation",
  "closing",
  "reportParts",
  "resumeParts",
  "formParts",
  "taxFormParts",
  "utility",
  "quantityShipped",
] as const;
export type EvidenceKind = (typeof EVIDENCE_KINDS)[number];

const EVIDENCE: Record<EvidenceKind, Names> = {
  invoiceRef: {
    en: ["invoice no", "invoice number", "invoice date", "inv no", "invoice ref", "bill no", "bill date", "credit note no", "credit note number", "invoice period"],
    de: ["rechnungsnummer", "rechnungsnr", "rechnungsdatum", "rechnung nr", "rechnung no", "rechnungs nr", "belegnummer", "leistungsdatum", "leistungszeitraum", "gutschriftsnummer", "rechnungsbetrag"],
    fr: ["numero de facture", "no de facture", "no facture", "facture no", "date de facture", "date facture", "date de facturation", "montant de la facture", "avoir no", "periode de facturation"],
    es: ["numero de factura", "no de factura", "factura no", "fecha de factura", "fecha factura", "fecha de emision", "fecha de expedicion", "factura n"],
    it: ["numero fattura", "fattura n", "fattura no", "data fattura", "data documento", "n documento", "numero documento"],
    nl: ["factuurnummer", "factuurnr", "factuurdatum", "factuur nr", "creditnotanummer"],
    pt: ["numero da fatura", "fatura no", "fatura n", "data da fatura", "data de emissao", "numero da nota", "chave de acesso", "nota fiscal no", "serie"],
  },
  dueDate: {
    en: ["due date", "payment due", "payment terms", "terms net", "net 30", "net 14", "amount due", "balance due", "total due", "please pay", "pay by", "remit to", "due upon receipt"],
    de: ["zahlbar bis", "zahlungsziel", "falligkeit", "falligkeitsdatum", "zahlungsbedingungen", "zahlbar innerhalb", "netto ohne abzug", "zu zahlen", "zahlungsfrist", "skonto"],
    fr: ["date echeance", "echeance", "conditions de paiement", "conditions de reglement", "net a payer", "a payer avant", "date limite de paiement", "reste a payer", "escompte", "penalites de retard"],
    es: ["fecha de vencimiento", "vencimiento", "condiciones de pago", "forma de pago", "a pagar", "plazo de pago", "terminos de pago"],
    it: ["data scadenza", "scadenza", "condizioni di pagamento", "modalita di pagamento", "termini di pagamento", "da pagare", "netto a pagare"],
    nl: ["vervaldatum", "betalingstermijn", "betalingsvoorwaarden", "te betalen", "uiterste betaaldatum", "binnen 30 dagen"],
    pt: ["data de vencimento", "vencimento", "condicoes de pagamento", "forma de pagamento", "a pagar", "prazo de pagamento", "fatura duplicata"],
  },
  total: {
    en: ["total", "grand total", "total amount", "amount due", "invoice total", "total due", "balance due", "total payable"],
    de: ["gesamtbetrag", "summe", "gesamtsumme", "endbetrag", "rechnungsbetrag", "bruttobetrag", "gesamt", "zahlbetrag", "betrag"],
    fr: ["total", "total ttc", "montant ttc", "net a payer", "montant total", "total a payer", "montant du"],
    es: ["total", "importe total", "total factura", "total a pagar", "importe"],
    it: ["totale", "totale documento", "totale fattura", "importo totale", "totale da pagare", "importo"],
    nl: ["totaal", "totaalbedrag", "te betalen", "bedrag", "totaal incl"],
    pt: ["total", "valor total", "total a pagar", "valor total da nota", "valor a pagar", "valor liquido"],
  },
  subtotal: {
    en: ["subtotal", "sub total", "net amount", "net total", "total excl", "amount excl", "taxable amount", "total before tax"],
    de: ["zwischensumme", "nettobetrag", "netto", "summe netto", "gesamt netto", "nettosumme", "warenwert"],
    fr: ["total ht", "montant ht", "sous total", "total hors taxes", "base ht", "net ht"],
    es: ["subtotal", "base imponible", "importe neto", "total sin iva"],
    it: ["imponibile", "totale imponibile", "subtotale", "netto"],
    nl: ["subtotaal", "totaal excl", "netto bedrag", "excl btw", "bedrag excl"],
    pt: ["subtotal", "valor dos produtos", "base de calculo", "valor liquido"],
  },
  tax: {
    en: ["vat", "tax", "sales tax", "gst", "hst", "pst", "vat rate", "tax rate", "vat amount", "tax amount", "vat reg", "tax id"],
    de: ["mwst", "ust", "umsatzsteuer", "mehrwertsteuer", "steuer", "steuernummer", "ust idnr", "ust id", "steuersatz", "zzgl", "inkl"],
    fr: ["tva", "taux tva", "montant tva", "ttc", "ht", "tva intracommunautaire", "no tva", "taxes"],
    es: ["iva", "impuesto", "igic", "cif", "nif", "irpf", "impuestos"],
    it: ["iva", "partita iva", "aliquota", "imposta", "p iva", "codice fiscale"],
    nl: ["btw", "btw nummer", "btw nr", "omzetbelasting", "incl btw"],
    pt: ["iva", "icms", "ipi", "iss", "pis", "cofins", "cnpj", "nif", "impostos", "tributos"],
  },
  billTo: {
    en: ["bill to", "billed to", "invoice to", "sold to", "customer", "client", "billing address", "customer no", "customer id", "account no"],
    de: ["rechnungsempfanger", "rechnungsadresse", "kunde", "kundennummer", "kunden nr", "debitorennummer", "auftraggeber"],
    fr: ["facture a", "facturer a", "adresse de facturation", "client", "numero client", "code client", "destinataire"],
    es: ["facturar a", "cliente", "datos del cliente", "direccion de facturacion", "cobrar a"],
    it: ["intestatario", "cliente", "spett le", "destinatario", "indirizzo di fatturazione", "codice cliente"],
    nl: ["factuuradres", "klant", "klantnummer", "debiteur", "debiteurnummer", "t a v"],
    pt: ["faturar a", "cliente", "destinatario", "tomador", "dados do cliente"],
  },
  payment: {
    en: ["iban", "bic", "swift", "bank details", "account number", "sort code", "routing number", "payment method", "bank transfer", "wire transfer"],
    de: ["iban", "bic", "bankverbindung", "kontonummer", "blz", "uberweisung", "zahlungsart", "verwendungszweck"],
    fr: ["iban", "bic", "coordonnees bancaires", "rib", "virement", "mode de paiement", "mode de reglement"],
    es: ["iban", "bic", "datos bancarios", "cuenta bancaria", "transferencia", "forma de pago"],
    it: ["iban", "bic", "coordinate bancarie", "bonifico", "banca", "modalita di pagamento"],
    nl: ["iban", "bic", "rekeningnummer", "overschrijving", "betaalwijze", "betalingskenmerk"],
    pt: ["iban", "bic", "dados bancarios", "transferencia", "boleto", "pix", "forma de pagamento"],
  },
  orderRef: {
    en: ["po number", "po no", "p o number", "purchase order no", "purchase order number", "order no", "order number", "order date", "requisitioner", "buyer", "ordered by", "requested by", "approved by", "please supply"],
    de: ["bestellnummer", "bestellnr", "bestelldatum", "auftragsnummer", "auftragsnr", "auftragsdatum", "besteller", "bestellt von", "ihre bestellung"],
    fr: ["numero de commande", "no de commande", "no commande", "date de commande", "commande no", "acheteur", "demandeur", "reference commande"],
    es: ["numero de pedido", "no de pedido", "pedido no", "fecha de pedido", "comprador", "solicitante", "orden no"],
    it: ["numero ordine", "n ordine", "ordine n", "data ordine", "acquirente", "richiedente", "rif ordine"],
    nl: ["ordernummer", "bestelnummer", "orderdatum", "besteldatum", "inkoper", "besteller", "uw bestelling"],
    pt: ["numero do pedido", "pedido no", "data do pedido", "comprador", "solicitante", "numero da encomenda"],
  },
  delivery: {
    en: ["delivery date", "ship to", "deliver to", "delivery address", "shipping address", "ship via", "shipping method", "delivery terms", "incoterms", "incoterm", "required by", "ship date", "requested delivery"],
    de: ["lieferdatum", "liefertermin", "lieferadresse", "lieferanschrift", "lieferbedingungen", "versandart", "lieferung an", "lieferzeit", "versandadresse", "wunschtermin"],
    fr: ["date de livraison", "adresse de livraison", "livrer a", "conditions de livraison", "delai de livraison", "mode de livraison", "mode expedition", "lieu de livraison"],
    es: ["fecha de entrega", "direccion de entrega", "entregar en", "condiciones de entrega", "plazo de entrega", "envie a", "lugar de entrega", "forma de envio"],
    it: ["data di consegna", "data consegna", "indirizzo di consegna", "luogo di consegna", "termini di consegna", "resa", "porto", "spedizione", "vettore"],
    nl: ["leverdatum", "afleveradres", "leveringsadres", "leveringsvoorwaarden", "levertijd", "verzendwijze", "leveren aan"],
    pt: ["data de entrega", "endereco de entrega", "local de entrega", "prazo de entrega", "condicoes de entrega", "transportador", "frete"],
  },
  validity: {
    en: ["valid until", "valid for", "valid through", "validity", "expiry date", "expires", "quote date", "quotation no", "quote no", "estimate no", "estimate date", "this quote", "this quotation", "this estimate", "accepted by", "acceptance"],
    de: ["gultig bis", "gultigkeit", "angebotsnummer", "angebotsdatum", "angebot nr", "bindefrist", "freibleibend", "angebot gilt", "annahme"],
    fr: ["valable jusqu", "validite", "duree de validite", "numero de devis", "devis no", "date du devis", "bon pour accord", "offre valable"],
    es: ["valido hasta", "validez", "presupuesto no", "numero de presupuesto", "fecha de presupuesto", "validez de la oferta", "aceptacion"],
    it: ["valido fino", "validita", "validita offerta", "numero preventivo", "preventivo n", "data preventivo", "per accettazione"],
    nl: ["geldig tot", "geldigheid", "offertenummer", "offertedatum", "offerte nr", "voor akkoord"],
    pt: ["valido ate", "validade", "validade da proposta", "numero do orcamento", "orcamento no", "data do orcamento", "aceite"],
  },
  balance: {
    en: ["opening balance", "closing balance", "previous balance", "new balance", "balance brought forward", "balance carried forward", "balance forward", "available balance", "ending balance", "beginning balance", "running balance"],
    de: ["anfangssaldo", "endsaldo", "alter kontostand", "neuer kontostand", "alter saldo", "neuer saldo", "kontostand", "saldo vortrag", "saldovortrag"],
    fr: ["solde initial", "solde final", "solde precedent", "nouveau solde", "ancien solde", "solde crediteur", "solde debiteur", "solde au"],
    es: ["saldo inicial", "saldo final", "saldo anterior", "saldo actual", "nuevo saldo", "saldo disponible"],
    it: ["saldo iniziale", "saldo finale", "saldo precedente", "saldo contabile", "saldo disponibile"],
    nl: ["beginsaldo", "eindsaldo", "vorig saldo", "nieuw saldo", "saldo"],
    pt: ["saldo inicial", "saldo final", "saldo anterior", "saldo atual", "saldo disponivel"],
  },
  bankTx: {
    en: ["statement period", "statement date", "deposits", "withdrawals", "debits", "credits", "transaction date", "value date", "account summary", "sort code", "checking account", "savings account", "account holder"],
    de: ["buchungstag", "buchungsdatum", "wertstellung", "valuta", "umsatze", "kontoinhaber", "auszug nr", "gutschriften", "lastschriften", "soll", "haben"],
    fr: ["date operation", "date de valeur", "operations", "debit", "credit", "titulaire du compte", "periode du"],
    es: ["fecha operacion", "fecha valor", "movimientos", "cargos", "abonos", "titular de la cuenta", "periodo"],
    it: ["data operazione", "data valuta", "movimenti", "addebiti", "accrediti", "intestatario del conto", "dare", "avere"],
    nl: ["boekdatum", "valutadatum", "rentedatum", "af", "bij", "rekeninghouder", "mutaties", "omschrijving"],
    pt: ["data movimento", "data valor", "movimentos", "debitos", "creditos", "lancamentos", "titular da conta"],
  },
  payroll: {
    en: ["gross pay", "net pay", "gross salary", "net salary", "pay period", "pay date", "employee", "employee id", "employer", "deductions", "earnings", "year to date", "ytd", "national insurance", "income tax", "social security", "hourly rate", "overtime"],
    de: ["bruttolohn", "bruttogehalt", "brutto", "nettolohn", "nettogehalt", "netto", "auszahlungsbetrag", "lohnsteuer", "sozialversicherung", "krankenversicherung", "rentenversicherung", "arbeitslosenversicherung", "pflegeversicherung", "abrechnungszeitraum", "personalnummer", "arbeitnehmer", "arbeitgeber", "steuerklasse", "solidaritatszuschlag", "kirchensteuer"],
    fr: ["salaire brut", "salaire net", "net a payer", "cotisations", "securite sociale", "periode de paie", "salarie", "employeur", "matricule", "heures", "conges payes", "net imposable", "urssaf", "csg"],
    es: ["salario bruto", "salario neto", "liquido a percibir", "total devengado", "total a deducir", "seguridad social", "periodo de liquidacion", "trabajador", "empresa", "irpf", "devengos", "deducciones"],
    it: ["retribuzione lorda", "netto in busta", "netto del mese", "trattenute", "contributi", "inps", "irpef", "dipendente", "datore di lavoro", "periodo di paga", "competenze", "matricola"],
    nl: ["brutoloon", "nettoloon", "bruto", "netto", "loonheffing", "werknemer", "werkgever", "periode", "vakantiegeld", "pensioenpremie", "uitbetaling", "sv loon"],
    pt: ["salario bruto", "salario liquido", "vencimentos", "descontos", "inss", "irrf", "fgts", "funcionario", "empregador", "periodo", "liquido a receber", "seguranca social", "irs"],
  },
  paid: {
    en: ["amount paid", "payment received", "paid", "change due", "cashier", "cash tendered", "card no", "auth code", "authorization code", "terminal id", "transaction id", "thank you for your purchase", "thank you for shopping", "store no", "~merchant", "~visa", "~mastercard", "~~change", "~~cash", "~~approved", "~~tip"],
    de: ["bezahlt", "betrag erhalten", "ruckgeld", "kassierer", "ec karte", "kartenzahlung", "vielen dank fur ihren einkauf", "beleg nr", "bon nr", "~terminal", "~~bar", "~~gegeben", "~~erhalten", "~~kasse"],
    fr: ["paye", "payee", "montant regle", "especes", "rendu", "caissier", "carte bancaire", "merci de votre visite", "merci pour votre achat", "~~regle", "~~caisse", "~~cb"],
    es: ["pagado", "importe pagado", "efectivo", "cajero", "gracias por su compra", "gracias por su visita", "~~cambio", "~~caja", "~~tarjeta", "~~entregado"],
    it: ["pagato", "importo pagato", "contanti", "cassiere", "grazie per l acquisto", "grazie e arrivederci", "bancomat", "~~resto", "~~cassa", "~~carta"],
    nl: ["betaald", "contant", "wisselgeld", "pinbetaling", "bedankt voor uw aankoop", "~~kassa", "~~pin", "~~ontvangen"],
    pt: ["pago", "valor pago", "troco", "obrigado pela preferencia", "recebemos de", "recebi de", "~~dinheiro", "~~caixa", "~~operador", "~~cartao"],
  },
  contractTerms: {
    en: ["hereinafter", "whereas", "in witness whereof", "the parties", "governing law", "termination", "this agreement", "effective date", "hereby", "confidentiality", "force majeure", "jurisdiction", "shall", "party", "parties", "clause", "obligations", "signature", "signed"],
    de: ["zwischen", "im folgenden", "nachfolgend", "vertragsparteien", "vertragsbeginn", "kundigung", "kundigungsfrist", "laufzeit", "gerichtsstand", "vertragsgegenstand", "unterschrift", "vermieter", "mieter", "arbeitgeber", "arbeitnehmer", "ort datum", "salvatorische klausel"],
    fr: ["entre les soussignes", "ci apres", "les parties", "il a ete convenu", "resiliation", "duree du contrat", "objet du contrat", "signature", "fait a", "en deux exemplaires", "bailleur", "preneur", "lu et approuve"],
    es: ["entre las partes", "en adelante", "reunidos", "exponen", "clausulas", "rescision", "duracion", "objeto del contrato", "firma", "arrendador", "arrendatario", "en prueba de conformidad"],
    it: ["tra le parti", "di seguito", "premesso che", "si conviene", "recesso", "durata", "oggetto del contratto", "firma", "locatore", "conduttore", "letto confermato e sottoscritto"],
    nl: ["tussen partijen", "hierna te noemen", "partijen", "komen overeen", "opzegging", "looptijd", "onderwerp", "handtekening", "verhuurder", "huurder", "aldus overeengekomen"],
    pt: ["entre as partes", "doravante", "clausula", "rescisao", "vigencia", "objeto do contrato", "assinatura", "locador", "locatario", "contratante", "contratada"],
  },
  salutation: {
    en: ["dear sir", "dear madam", "dear mr", "dear mrs", "dear ms", "dear dr", "dear customer", "to whom it may concern", "dear"],
    de: ["sehr geehrte", "sehr geehrter", "liebe", "lieber", "hallo"],
    fr: ["madame monsieur", "monsieur", "madame", "cher client", "chere cliente", "bonjour"],
    es: ["estimado", "estimada", "estimados", "muy senor mio", "apreciado"],
    it: ["gentile", "egregio", "spettabile", "caro", "cara"],
    nl: ["geachte", "beste", "waarde"],
    pt: ["prezado", "prezada", "prezados", "caro", "cara", "exmo", "exma"],
  },
  closing: {
    en: ["yours sincerely", "yours faithfully", "sincerely", "kind regards", "best regards", "regards", "yours truly"],
    de: ["mit freundlichen grussen", "freundliche grusse", "beste grusse", "viele grusse", "hochachtungsvoll"],
    fr: ["cordialement", "veuillez agreer", "sentiments distingues", "salutations distinguees", "bien a vous"],
    es: ["atentamente", "saludos cordiales", "un cordial saludo", "reciba un saludo"],
    it: ["distinti saluti", "cordiali saluti", "in attesa di", "porgiamo"],
    nl: ["met vriendelijke groet", "met vriendelijke groeten", "hoogachtend", "vriendelijke groet"],
    pt: ["atenciosamente", "com os melhores cumprimentos", "cordialmente", "melhores cumprimentos"],
  },
  reportParts: {
    en: ["table of contents", "contents", "introduction", "conclusion", "conclusions", "findings", "methodology", "recommendations", "abstract", "appendix", "results", "analysis", "overview", "background", "discussion", "references", "executive summary", "chapter", "figure", "source"],
    de: ["inhaltsverzeichnis", "inhalt", "einleitung", "zusammenfassung", "fazit", "ergebnisse", "methodik", "anhang", "quellen", "literatur", "kapitel", "abbildung", "tabelle", "hintergrund"],
    fr: ["sommaire", "table des matieres", "introduction", "conclusion", "resultats", "methodologie", "annexe", "synthese", "chapitre", "tableau", "source", "recommandations"],
    es: ["indice", "introduccion", "conclusiones", "resultados", "metodologia", "anexo", "resumen", "capitulo", "tabla", "fuente", "recomendaciones"],
    it: ["indice", "introduzione", "conclusioni", "risultati", "metodologia", "allegato", "sintesi", "capitolo", "tabella", "fonte", "raccomandazioni"],
    nl: ["inhoudsopgave", "inleiding", "samenvatting", "conclusie", "conclusies", "resultaten", "methode", "bijlage", "hoofdstuk", "tabel", "bron", "aanbevelingen"],
    pt: ["sumario", "indice", "introducao", "conclusao", "resultados", "metodologia", "anexo", "resumo", "capitulo", "tabela", "fonte", "recomendacoes"],
  },
  resumeParts: {
    en: ["work experience", "professional experience", "employment history", "education", "skills", "qualifications", "certifications", "languages", "references", "career objective", "professional summary", "linkedin", "date of birth", "nationality", "hobbies"],
    de: ["berufserfahrung", "beruflicher werdegang", "ausbildung", "schulbildung", "studium", "kenntnisse", "fahigkeiten", "sprachkenntnisse", "edv kenntnisse", "geburtsdatum", "staatsangehorigkeit", "hobbys", "personliche daten"],
    fr: ["experience professionnelle", "experiences professionnelles", "formation", "competences", "langues", "centres interet", "date de naissance", "nationalite", "diplomes", "loisirs"],
    es: ["experiencia laboral", "experiencia profesional", "formacion academica", "formacion", "habilidades", "idiomas", "fecha de nacimiento", "nacionalidad", "aptitudes"],
    it: ["esperienza lavorativa", "esperienze professionali", "istruzione", "formazione", "competenze", "lingue", "data di nascita", "nazionalita", "capacita"],
    nl: ["werkervaring", "opleiding", "opleidingen", "vaardigheden", "talen", "geboortedatum", "nationaliteit", "competenties", "hobby s"],
    pt: ["experiencia profissional", "formacao academica", "formacao", "competencias", "habilidades", "idiomas", "data de nascimento", "nacionalidade"],
  },
  formParts: {
    en: ["please print", "please complete", "please fill", "fill in", "for office use only", "date of birth", "first name", "last name", "surname", "signature of applicant", "applicant", "check one", "check all that apply", "tick", "mark with", "yes no", "signature", "date"],
    de: ["bitte ausfullen", "bitte in druckbuchstaben", "vorname", "nachname", "name", "geburtsdatum", "unterschrift", "antragsteller", "zutreffendes ankreuzen", "nur fur den dienstgebrauch", "ja nein", "ort datum"],
    fr: ["a remplir", "en majuscules", "prenom", "nom", "date de naissance", "signature", "demandeur", "cocher la case", "reserve a administration", "oui non", "fait le"],
    es: ["rellenar", "cumplimentar", "en mayusculas", "nombre", "apellidos", "fecha de nacimiento", "firma", "solicitante", "marque con una x", "a rellenar por", "si no"],
    it: ["compilare", "in stampatello", "nome", "cognome", "data di nascita", "firma", "richiedente", "barrare la casella", "riservato all ufficio", "si no"],
    nl: ["in te vullen", "in blokletters", "voornaam", "achternaam", "naam", "geboortedatum", "handtekening", "aanvrager", "aankruisen", "ja nee"],
    pt: ["preencher", "em letra de forma", "nome", "apelido", "sobrenome", "data de nascimento", "assinatura", "requerente", "assinale", "sim nao"],
  },
  taxFormParts: {
    en: ["hm revenue customs", "tax return", "unique taxpayer reference", "internal revenue service", "department of the treasury", "irs", "hmrc", "taxpayer", "social security number", "employer identification number", "filing status", "adjusted gross income", "taxable income", "omb no", "tax year", "withholding", "federal income tax", "ssn"],
    de: ["finanzamt", "steuerpflichtige", "steuer id", "steueridentifikationsnummer", "veranlagungszeitraum", "einkunfte", "werbungskosten", "sonderausgaben", "steuerjahr"],
    fr: ["direction generale des finances publiques", "impots", "numero fiscal", "revenu imposable", "foyer fiscal", "avis d impot", "revenus"],
    es: ["agencia tributaria", "hacienda", "contribuyente", "base liquidable", "ejercicio", "rendimientos", "deducciones"],
    it: ["agenzia delle entrate", "contribuente", "reddito imponibile", "periodo d imposta", "detrazioni", "sostituto d imposta"],
    nl: ["belastingdienst", "belastingplichtige", "bsn", "belastbaar inkomen", "aftrekposten", "belastingjaar"],
    pt: ["receita federal", "autoridade tributaria", "contribuinte", "rendimentos tributaveis", "ano calendario", "ano fiscal", "deducoes"],
  },
  utility: {
    en: ["kwh", "meter reading", "meter number", "meter no", "previous reading", "current reading", "therms", "standing charge", "supply point", "~~consumption", "~~usage", "~~service address", "~~supply address", "~~tariff", "~~billing period", "~~unit rate", "~~data usage", "~~energy charge"],
    de: ["kwh", "zahlerstand", "zahlernummer", "ablesung", "grundpreis", "arbeitspreis", "lieferstelle", "verbrauchsstelle", "zahlpunkt", "~~verbrauch", "~~tarif", "~~abschlag", "~~abrechnungszeitraum"],
    fr: ["kwh", "releve compteur", "index compteur", "compteur", "point de livraison", "pdl", "~~consommation", "~~abonnement", "~~tarif", "~~index", "~~periode de consommation"],
    es: ["kwh", "lectura del contador", "contador", "potencia contratada", "cups", "termino de energia", "~~consumo", "~~lectura", "~~tarifa", "~~periodo de facturacion"],
    it: ["kwh", "lettura contatore", "contatore", "pod", "pdr", "quota fissa", "~~consumo", "~~consumi", "~~lettura", "~~tariffa", "~~periodo di fatturazione"],
    nl: ["kwh", "meterstand", "meternummer", "vastrecht", "ean code", "~~verbruik", "~~leveringsadres", "~~tarief", "~~termijnbedrag"],
    pt: ["kwh", "leitura do contador", "contador", "medidor", "cpe", "~~consumo", "~~leitura", "~~tarifa", "~~periodo de faturacao", "~~instalacao"],
  },
  quantityShipped: {
    en: ["qty shipped", "quantity shipped", "qty delivered", "quantity delivered", "shipped via", "carrier", "tracking no", "tracking number", "consignee", "received by", "received in good condition", "packages", "gross weight", "net weight", "backorder", "qty ordered"],
    de: ["gelieferte menge", "liefermenge", "versandt", "spediteur", "sendungsnummer", "empfanger", "ware erhalten", "ware erhalten", "packstucke", "gewicht", "bruttogewicht", "nettogewicht", "anzahl pakete", "empfangen"],
    fr: ["quantite livree", "qte livree", "transporteur", "numero de suivi", "destinataire", "recu en bon etat", "colis", "poids brut", "poids net", "reliquat"],
    es: ["cantidad entregada", "cantidad servida", "transportista", "numero de seguimiento", "consignatario", "recibi conforme", "bultos", "peso bruto", "peso neto"],
    it: ["quantita consegnata", "qta consegnata", "vettore", "causale del trasporto", "aspetto dei beni", "numero colli", "colli", "peso lordo", "peso netto", "firma del destinatario"],
    nl: ["geleverd aantal", "aantal geleverd", "vervoerder", "track trace", "ontvanger", "in goede staat ontvangen", "colli", "brutogewicht", "nettogewicht", "voor ontvangst"],
    pt: ["quantidade entregue", "transportadora", "numero de rastreio", "destinatario", "recebido em boas condicoes", "volumes", "peso bruto", "peso liquido"],
  },
};

export interface TitleTerm {
  kind: "title";
  type: DocumentType | null;
  sub?: Subclass;
  lang: Lang;
  /** The entry as written, without its markers. */
  text: string;
  strength: 1 | 2 | 3;
  strict: boolean;
}

export interface EvidenceTerm {
  kind: "evidence";
  evidence: EvidenceKind;
  lang: Lang;
  text: string;
  strength: 1 | 2 | 3;
  strict: boolean;
}

export type Term = TitleTerm | EvidenceTerm;

function parseEntry(entry: string): { text: string; strength: 1 | 2 | 3; strict: boolean } {
  let e = entry;
  const strict = e.startsWith("!");
  if (strict) e = e.slice(1);
  const tildes = /^~*/.exec(e)![0].length;
  return { text: e.slice(tildes), strength: tildes >= 2 ? 1 : tildes === 1 ? 2 : 3, strict };
}

/** Every title and evidence term of every language, as written (normalise before matching). */
export function documentTerms(): Term[] {
  const out: Term[] = [];
  for (const { type, sub, names } of TITLES)
    for (const [lang, list] of Object.entries(names) as [Lang, string[]][])
      for (const entry of list) out.push({ kind: "title", type, sub, lang, ...parseEntry(entry) });
  for (const [evidence, names] of Object.entries(EVIDENCE) as [EvidenceKind, Names][])
    for (const [lang, list] of Object.entries(names) as [Lang, string[]][])
      for (const entry of list) out.push({ kind: "evidence", evidence, lang, ...parseEntry(entry) });
  return out;
}

/**
 * What each type implies, with the weight one piece of evidence adds to the type's score. The
 * classifier adds the layout-level evidence (amounts, dates, running balances, blanks).
 */
export const TYPE_EVIDENCE: Record<Exclude<DocumentType, "other">, Partial<Record<EvidenceKind, number>>> = {
  invoice: { invoiceRef: 3, dueDate: 2, billTo: 1, payment: 1.5 },
  receipt: { paid: 2.5 },
  "purchase order": { orderRef: 2.5, delivery: 2 },
  quote: { validity: 3 },
  "delivery note": { quantityShipped: 2.5, delivery: 1.5, orderRef: 0.5 },
  "bank statement": { balance: 3, bankTx: 1.5, payment: 0.5 },
  payslip: { payroll: 3.5 },
  contract: { contractTerms: 1.5 },
  "tax form": { taxFormParts: 3.5 },
  resume: { resumeParts: 2.5 },
  letter: { salutation: 3, closing: 3 },
  report: { reportParts: 2 },
  form: { formParts: 1 },
};

/**
 * The commercial fields every priced document shares (totals, tax): they make a document an
 * invoice, a quote, an order or a receipt, not which of them. Each type takes this share.
 */
export const COMMERCIAL_SHARE: Partial<Record<DocumentType, number>> = {
  invoice: 1,
  quote: 0.9,
  "purchase order": 0.7,
  receipt: 0.6,
};

export const COMMERCIAL_EVIDENCE: Partial<Record<EvidenceKind, number>> = { total: 1.2, subtotal: 1, tax: 1 };
