/**
 * Invoice vocabulary that is not a field label: the words of document titles and section
 * headings (which are never a party's name), the heading words that name a party's role, and
 * the currency of a country. Seven languages (en, de, fr, es, it, nl, pt). The field labels
 * themselves (invoice number, total, …) are in lib/engine/invoice/labels.ts.
 *
 * Used by the party reader: a line made only of these words, or one that is an identifier, a
 * street line or a sentence, is never a vendor or bill-to name (see `notAPartyName`).
 */
import { fold, foldKeepLength } from "@/lib/engine/lexicon/normalize";

/** Words of document titles, headings and form captions (folded, lower case). */
const HEADING_WORDS = [
  // document kinds
  "invoice", "invoices", "bill", "receipt", "statement", "credit", "note", "debit", "tax", "vat",
  "rechnung", "rechnungen", "gutschrift", "quittung", "beleg", "abrechnung", "rechnungskorrektur",
  "facture", "factures", "avoir", "recu", "releve", "note",
  "factura", "facturas", "recibo", "abono", "rectificativa",
  "fattura", "fatture", "ricevuta", "nota", "credito",
  "factuur", "facturen", "creditnota", "kwitantie", "rekening",
  "fatura", "nf", "nfe", "nf-e", "nfs-e", "nfse", "danfe", "danfse", "eletronica", "eletronico", "fiscal",
  "documento", "auxiliar", "servico", "servicos",
  // headings and captions
  "overview", "summary", "details", "detail", "page", "copy", "original", "duplicate",
  "ubersicht", "zusammenfassung", "seite", "kopie", "anlage", "positionen", "einzelpositionen",
  "recapitulatif", "resume", "detail", "copie", "annexe",
  "resumen", "pagina", "copia", "riepilogo", "overzicht", "samenvatting", "resumo",
  // qualifiers of captions ("Additional address", "Erweiterte Adresse", "Autres informations")
  "additional", "further", "extended", "other", "weitere", "erweiterte", "zusatzliche", "sonstige",
  "autres", "complementaire", "complementaires", "adicional", "adicionales", "otros", "aggiuntive",
  "aggiuntivo", "altri", "aanvullende", "overige", "adicionais", "outros", "complementar",
  // the carrier's role ("Carrier", "Spediteur", "Transportador"): never the vendor or bill-to
  "carrier", "shipper", "forwarder", "spediteur", "frachtfuhrer", "transporteur", "transportista",
  "vettore", "vervoerder", "transportadora", "transportador",
  // party-role headings
  "seller", "vendor", "supplier", "issuer", "buyer", "customer", "client", "recipient", "consignee",
  "bill", "to", "ship", "sold", "from", "payee", "payer", "billing", "shipping", "delivery", "address",
  "verkaufer", "lieferant", "aussteller", "kaufer", "kunde", "rechnungsempfanger", "empfanger",
  "leistungsempfanger", "rechnungsadresse", "lieferadresse", "lieferanschrift", "rechnungssteller",
  "fournisseur", "vendeur", "emetteur", "acheteur", "destinataire", "adresse", "facturation", "livraison",
  "proveedor", "vendedor", "emisor", "comprador", "destinatario", "direccion", "facturacion", "envio",
  "fornitore", "venditore", "acquirente", "cliente", "committente", "indirizzo", "fatturazione", "spedizione",
  "leverancier", "verkoper", "koper", "klant", "ontvanger", "factuuradres", "afleveradres", "leveradres",
  "fornecedor", "emitente", "comprador", "remetente", "destinatario", "tomador", "prestador", "endereco",
  // caption words of form fields ("Name", "Value", "Information about the seller", "Bill to")
  "name", "names", "nom", "nombre", "nome", "naam", "razao", "social", "sociale", "raison", "razon", "firma",
  "value", "valor", "wert", "valeur", "waarde", "valore", "importe", "montant", "betrag", "amount", "total",
  "information", "informationen", "informations", "informazioni", "informatie", "informacion", "informacao",
  "angaben", "donnees", "datos", "dados", "gegevens", "dati", "contact", "kontakt", "contacto", "contatto",
  "cobrar", "facturar", "bill-to", "ship-to", "remit", "attn", "attention",
  // captions of address form fields ("BAIRRO / DISTRITO", "PLZ / Ort", "Code postal", "City")
  "street", "city", "town", "zip", "postcode", "postal", "code", "state", "country", "district", "region",
  "strasse", "ort", "plz", "land", "bundesland", "ville", "pays", "rue", "calle", "ciudad", "pais", "provincia",
  "citta", "paese", "cap", "straat", "plaats", "bairro", "distrito", "municipio", "cep", "uf", "cidade", "estado",
  // forms of address on a line of their own above the addressee ("Firma", "Messrs", "Société", "Spett.le")
  "messrs", "mr", "mrs", "ms", "herrn", "herr", "frau", "familie", "societe", "ste", "monsieur", "madame",
  "messieurs", "mme", "mlle", "senor", "senora", "senores", "sr", "sra", "sres", "srs", "spett", "spettabile",
  "le", "gentile", "egregio", "sig", "sigg", "dhr", "mevr", "heer", "mevrouw", "exmo", "exma", "exmos", "ilmo",
  "ilma", "dear",
  // connectives that appear in headings
  "de", "du", "des", "la", "le", "der", "die", "das", "of", "the", "for", "per", "a", "an", "und", "et", "e", "y",
  "zum", "zur", "au", "aux", "del", "do", "da", "van", "het", "een", "al", "il", "lo", "el", "ou", "or", "oder",
  "and", "no", "nr", "n", "num", "number", "nummer", "numero",
];
const HEADING_SET = new Set(HEADING_WORDS);

const NEAR_MIN = 8;
/** Every heading word of NEAR_MIN − 1 letters or more with one letter deleted. */
const HEADING_DELETES = new Set(
  HEADING_WORDS.filter((w) => w.length >= NEAR_MIN - 1 && /^\p{L}+$/u.test(w)).flatMap((w) =>
    Array.from({ length: w.length }, (_, i) => w.slice(0, i) + w.slice(i + 1)),
  ),
);

/** Folded heading words that name the seller's role (a section under one of these is the vendor). */
export const SELLER_HEADINGS = [
  "seller", "vendor", "supplier", "issuer", "from", "payee", "sold by", "bill from",
  "verkaufer", "lieferant", "aussteller", "rechnungssteller", "absender", "leistungserbringer",
  "fournisseur", "vendeur", "emetteur", "prestataire",
  "proveedor", "vendedor", "emisor",
  "fornitore", "venditore", "cedente", "prestatore",
  "leverancier", "verkoper", "afzender",
  "fornecedor", "emitente", "prestador",
];

/** Folded heading words that name the buyer's role (a section under one of these is the bill-to). */
export const BUYER_HEADINGS = [
  "buyer", "customer", "client", "bill to", "billed to", "invoice to", "sold to", "recipient", "invoice address",
  "kaufer", "kunde", "rechnungsempfanger", "empfanger", "leistungsempfanger", "rechnungsadresse", "rechnung an",
  "acheteur", "client", "destinataire", "adresse de facturation", "facture a", "facturer a",
  "comprador", "cliente", "destinatario", "facturar a",
  "acquirente", "committente", "cessionario", "intestatario",
  "koper", "klant", "ontvanger", "factuuradres", "factuur aan",
  "comprador", "destinatario", "tomador", "remetente",
];

/** True when every word of the line is a heading/title word (or a number sign): "Rechnung Nr.", "DANFE". */
export function isHeadingOnly(text: string): boolean {
  const words = fold(text)
    .replace(/[^\p{L}\p{N}\- ]+/gu, " ")
    .split(/\s+/)
    .filter(Boolean);
  if (words.length === 0) return true;
  if (words.every(isHeadingWord)) return true;
  // A title set letter by letter ("I N V O I C E", "R E C H N U N G"), or broken up by OCR
  // ("FACTU U R"): its letters joined are one heading word.
  if (words.length >= 2 && words.length <= 16 && words.every((w) => w.length <= 5)) {
    const joined = words.join("").replace(/-/g, "");
    if (joined.length >= 5 && isHeadingWord(joined)) return true;
  }
  return false;
}

function isHeadingWord(w: string): boolean {
  return HEADING_SET.has(w) || HEADING_SET.has(w.replace(/-/g, "")) || nearHeadingWord(w);
}

/**
 * A long heading word misread by one letter, as OCR does with umlauts and accents
 * ("Verkiufer" for "Verkäufer", "Rechnungempfanger" for "Rechnungsempfänger"): one letter
 * dropped, added or replaced, or two neighbours swapped (symmetric deletes: the word or one of
 * its one-letter deletions meets a heading word or one of its one-letter deletions). Only words
 * of NEAR_MIN letters or more, where one letter seldom makes another common word.
 */
function nearHeadingWord(w: string): boolean {
  if (w.length < NEAR_MIN || !/^\p{L}+$/u.test(w)) return false;
  if (HEADING_DELETES.has(w)) return true;
  for (let i = 0; i < w.length; i++) {
    const d = w.slice(0, i) + w.slice(i + 1);
    if (HEADING_SET.has(d) || HEADING_DELETES.has(d)) return true;
  }
  return false;
}

/** A token that is an identifier, not a word of a name: "BILL/2022/0002", "INV-2024-00005", "0102.345". */
export function isIdentifierToken(token: string): boolean {
  const t = token.replace(/[,;:.]+$/, "");
  if (!/\d/.test(t)) return false;
  // Amounts, percentages and dates are values, not identifiers.
  if (/^[-(−]?[$€£¥₹]?[-−]?\d{1,3}(?:[,.'\u00a0]\d{3})*(?:[.,]\d{1,2})?[€$£%)-]?$/.test(t)) return false;
  if (/^\d{1,4}[./-]\d{1,2}[./-]\d{2,4}$/.test(t)) return false;
  if (/[/_]/.test(t)) return true;
  if (/\d[-.]\d|\d{5,}/.test(t)) return true;
  return /^[A-Z]{1,4}-?\d{3,}$/i.test(t);
}

const STREET_SUFFIX =
  /(?:strasse|straße|str\.?|straat|weg|laan|gasse|allee|platz|plein|gracht|kade|ring|damm|steig|pfad|ufer|markt|street|road|avenue|lane|drive)$/i;
const STREET_START = /^(?:rue|avenue|av\.?|boulevard|bd|chemin|allee|impasse|place|quai|route|via|viale|piazza|calle|avenida|rua|travessa|largo|praca)\b/i;

/**
 * True when the line is not a party's name whatever its position: a heading or title, a label,
 * an identifier line (GLN, customer number, VAT id), a street line ("Hutsepotstraat 94",
 * "12 rue de la Paix"), a line starting with punctuation ("/ REMETENTE"), or a sentence.
 */
export function notAPartyName(text: string): boolean {
  const t = text.trim();
  if (t.length < 2) return true;
  if (/^[^\p{L}\p{N}"'(«[]/u.test(t)) return true;
  // A caption waiting for its value ("Leitweg-ID:", "Name :").
  if (/:\s*$/.test(t)) return true;
  if (isHeadingOnly(t)) return true;
  if (PLACEHOLDER.test(fold(t))) return true;
  if (CONTACT_ADDRESS.test(t)) return true;
  // A contact line ("Contact: Jean Dupont", "Buyer contact name, Buyer dep", "Ihr Ansprechpartner …")
  // names a person to ask, not the party (unless a legal form says it is a company).
  if (CONTACT_LINE.test(fold(t)) && !LEGAL_FORM.test(fold(t))) return true;
  const tokens = t.split(/\s+/);
  if (tokens.some(isIdentifierToken)) return true;
  const f = fold(t);
  // Street: "Word 94", "Word 94a", "94 Word Street", "12 rue …".
  const words = f.split(/\s+/);
  const last = words[words.length - 1] ?? "";
  if (/^\d{1,5}[a-z]?$/.test(last) && words.length <= 4 && STREET_SUFFIX.test(words[words.length - 2] ?? ""))
    return true;
  if (/^\d{1,5}[a-z]?,?\s/.test(f) && (STREET_START.test(f.replace(/^\d+[a-z]?,?\s+/, "")) || STREET_SUFFIX.test(f)))
    return true;
  // A sentence: several lower-case words and a verb-like length ("Bitte überweisen Sie den Betrag …").
  const lower = tokens.filter((w) => /^\p{Ll}{4,}/u.test(w)).length;
  if (tokens.length >= 6 && lower * 2 >= tokens.length) return true;
  // German capitalises nouns: a pronoun or verb of a payment sentence tells it instead.
  if (tokens.length >= 5 && words.some((w) => SENTENCE_WORDS.has(w))) return true;
  return false;
}

/**
 * A contact address on the line: an e-mail, also with OCR's space on one side of "@" ("tina
 * @tester.de", which invoice/values.ts's EMAIL_RE does not take), or a web address written as one
 * (www., http). A bare domain is not enough: "Amazon.com", "Booking.com B.V." are names.
 */
const CONTACT_ADDRESS = /\S@\s?\S|\S\s?@\S|(?:^|\s)www\.\S|https?:\/\//i;

const CONTACT_LINE =
  /(?:^|\s)(?:contact|kontakt(?:person)?|ansprechpartner(?:in)?|contacto|contatto|contactpersoon|interlocuteur|persona\s+de\s+contacto)(?=[\s:.,]|$)/;
const LEGAL_FORM = /\b(?:gmbh|ag|kg|ohg|ug|e\.?\s?k|ltd|limited|inc|llc|plc|corp|sarl|sas|sasu|eurl|sa|bv|nv|vof|srl|spa|sl|lda|ltda|oy|ab|as|aps)\b\.?/;

/** What forms print for an empty field ("n/a", "nicht vorhanden", "non renseigné", "não informado"). */
const PLACEHOLDER =
  /^(?:n\s?\/\s?a|none|nil|null|unknown|not\s+(?:available|applicable|specified|provided)|nicht\s+(?:vorhanden|angegeben|verfugbar|bekannt)|keine(?:\s+angaben?)?|unbekannt|non\s+(?:disponible|renseigne|applicable|communique|disponibile|specificato)|neant|inconnu|no\s+(?:disponible|aplica|consta)|sin\s+(?:datos|especificar)|desconocido|nao\s+(?:informado|disponivel|se\s+aplica)|niet\s+(?:beschikbaar|van\s+toepassing|opgegeven)|onbekend|[-–—.\s]+)$/;

/** Courtesy titles printed before a person's name (never part of the name itself). */
const COURTESY =
  /^(?:herrn?|frau|monsieur|madame|mademoiselle|mme|mlle|m\.|mr\.?|mrs\.?|ms\.?|miss|messrs\.?|se[nñ]or(?:a)?|sr\.|sra\.|signor(?:a)?|sig\.(?:ra)?|dhr\.|mevr\.|mevrouw|de\s+heer)\s+/iu;

/**
 * "Monsieur Julien Martin", "Mr James Wilson", "Frau Anna Weber": the person's name without its
 * courtesy title, when at least two capitalised words (given name and surname) follow it.
 */
export function withoutCourtesyTitle(name: string): string {
  const m = COURTESY.exec(name.trim());
  if (!m) return name;
  const rest = name.trim().slice(m[0].length).trim();
  const words = rest.split(/\s+/);
  if (words.length < 2 || words.length > 4 || !words.every((w) => /^\p{Lu}/u.test(w))) return name;
  return rest;
}

/**
 * A department after the organisation's name ("Free Service Abonnés", "Acme GmbH Kundenservice",
 * "Northwind Ltd Accounts Department"): the organisation is the part before it.
 */
const DEPARTMENT =
  /\s*[-–·,|/]?\s*(?:(?:service|servicio|servizio)\s+(?:abonnes?|clients?|clientele|a\s+la\s+clientele|facturation|comptabilite|al\s+cliente|clienti)|customer\s+(?:service|care|support|accounts?)|accounts?\s+(?:receivable|department|dept\.?)|billing\s+(?:department|dept\.?|team|services?)|kundenservice|kundendienst|kundenbetreuung|kundencenter|(?:abteilung\s+)?buchhaltung|rechnungswesen|debitorenbuchhaltung|klantenservice|klantendienst|debiteurenadministratie|atencion\s+al\s+cliente|apoio\s+ao\s+cliente)\s*$/;
export function withoutDepartment(name: string): string {
  const f = foldKeepLength(name);
  const m = DEPARTMENT.exec(f);
  if (!m || m.index === 0) return name;
  const rest = name.slice(0, m.index).replace(/[\s\-–·,|/]+$/, "").trim();
  return /\p{L}{2,}/u.test(rest) ? rest : name;
}

/** Pronouns and verbs of payment sentences (folded); company names do not contain them. */
const SENTENCE_WORDS = new Set([
  "bitte", "please", "sie", "wir", "ihr", "ihre", "unser", "unsere", "you", "your", "we", "our", "vous", "votre",
  "nous", "notre", "veuillez", "merci", "thank", "thanks", "danke", "ist", "sind", "is", "are", "will", "wird",
  "werden", "est", "sont", "innerhalb", "within", "payable", "zahlbar", "uberweisen", "pay", "payer", "betalen",
  "pague", "pagar", "paghi", "gelieve", "u", "uw",
]);

/** ISO 4217 code by ISO 3166 country code, for the countries whose invoices are common. */
const CURRENCY_BY_COUNTRY: Record<string, string> = {
  AT: "EUR", BE: "EUR", CY: "EUR", DE: "EUR", EE: "EUR", ES: "EUR", FI: "EUR", FR: "EUR", GR: "EUR", HR: "EUR",
  IE: "EUR", IT: "EUR", LT: "EUR", LU: "EUR", LV: "EUR", MT: "EUR", NL: "EUR", PT: "EUR", SI: "EUR", SK: "EUR",
  MC: "EUR", AD: "EUR", SM: "EUR", VA: "EUR", ME: "EUR", XK: "EUR",
  GB: "GBP", UK: "GBP", CH: "CHF", LI: "CHF", US: "USD", CA: "CAD", AU: "AUD", NZ: "NZD", BR: "BRL", IN: "INR",
  SE: "SEK", NO: "NOK", DK: "DKK", PL: "PLN", CZ: "CZK", HU: "HUF", RO: "RON", BG: "BGN", JP: "JPY", CN: "CNY",
  MX: "MXN", ZA: "ZAR", SG: "SGD", HK: "HKD", AE: "AED", TR: "TRY",
};

export function currencyOfCountry(code: string | undefined): string | undefined {
  return code ? CURRENCY_BY_COUNTRY[code.toUpperCase()] : undefined;
}
