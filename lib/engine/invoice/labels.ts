/**
 * The label vocabulary of invoices (English, French, German, Dutch, Spanish, Italian,
 * Portuguese). Each entry is a regular expression over folded text (lower case, no accents,
 * "n°" → "no") anchored at a word start; the longest match at a position wins, so
 * "order date" is never read as "order" + value "date ...". Labels of fields Quire does not
 * output (order date, customer number, page...) are here too, as distractors and for customField.
 */

export type LabelKind = "date" | "amount" | "id" | "text" | "block" | "iban" | "bic" | "taxId" | "contact";

export interface LabelDef {
  field: string;
  kind: LabelKind;
  re: string;
  /** Specificity: 3 = unambiguous ("invoice number"), 2 = usual, 1 = generic ("date", "total"). */
  weight: number;
}

const NO = "(?:number|nummer|numero|nbr|num\\.?|no\\.?|nr\\.?|n\\.?o\\.?|#|id)";
const SP = "[\\s.\\-_/]*";

const defs: [string, LabelKind, number, string[]][] = [
  [
    "invoiceNo",
    "id",
    3,
    [
      `(?:tax\\s+|vat\\s+|commercial\\s+)?invoice${SP}${NO}`,
      `inv${SP}${NO}`,
      `invoice\\s+(?:reference|ref\\.?|code)`,
      `(?:bill|receipt|credit\\s+note|document)${SP}${NO}`,
      `(?:facture|fact\\.?|avoir)${SP}${NO}`,
      `(?:gutschrift|stornorechnung|rechnungskorrektur|creditnota|nota\\s+de\\s+credito|nota\\s+di\\s+credito)${SP}${NO}`,
      `n\\s*o${SP}(?:de\\s+)?(?:la\\s+)?facture`,
      `numero\\s+(?:de\\s+)?(?:la\\s+)?(?:facture|factura|fattura)`,
      `rechnungs?${SP}(?:nummer|nr\\.?|no\\.?|number)`,
      `rechnung${SP}${NO}`,
      `factuur${SP}(?:nummer|nr\\.?|no\\.?|number)`,
      `(?:factura|fattura|fatura)${SP}${NO}`,
      `n\\.?o\\.?${SP}(?:factura|fattura)`,
      // Brazil's fiscal documents: "Número da NFS-e", "Número da NF-e", "Número da nota fiscal".
      `numero${SP}(?:d[ao]\\s+)?(?:nfs-?e|nf-?e|nota\\s+fiscal(?:\\s+de\\s+servicos?)?(?:\\s+eletronica)?)`,
      `(?:beleg|dokument)${SP}(?:nummer|nr\\.?)|numero\\s+(?:del?\\s+)?documento|n\\.?o\\.?${SP}documento|document${SP}(?:number|no\\.?)`,
    ],
  ],
  [
    "invoiceNo",
    "id",
    1,
    ["invoice", "facture", "rechnung", "factuur", "factura", "fattura", "fatura", "bill"],
  ],
  [
    "invoiceDate",
    "date",
    3,
    [
      `(?:invoice|inv\\.?|bill(?:ing)?|issue|issuing|document|tax\\s+point|receipt)${SP}date`,
      "date\\s+(?:of\\s+)?(?:the\\s+)?(?:invoice|issue)",
      "date\\s+issued|issued\\s+on|issued",
      "date\\s+(?:de\\s+)?(?:la\\s+)?facture|date\\s+d'emission|date\\s+de\\s+facturation",
      "rechnungs\\s*-?\\s*datum|ausstellungsdatum|ausgestellt\\s+am|beleg\\s*-?\\s*datum|dokumenten?datum|datum\\s+der\\s+rechnung",
      "factuur\\s*-?\\s*datum",
      "fecha\\s+(?:de\\s+)?(?:la\\s+)?(?:factura|emision)|data\\s+(?:della\\s+)?fattura|data\\s+(?:e\\s+hora\\s+)?(?:d[ae]\\s+)?emissao|data\\s+(?:di\\s+)?emissione",
      "emissao|emision|emissione|date\\s+d'emission",
    ],
  ],
  ["invoiceDate", "date", 1, ["date", "dated", "datum", "fecha", "data"]],
  // A letter's place and date: "München, den 01.11.2024", "Paris, le 12 juin 2024".
  ["invoiceDate", "date", 2, ["[a-z][a-z .'-]{1,30},\\s*(?:den|le)(?=\\s*(?:\\d|:?\\s*$))"]],
  [
    "dueDate",
    "date",
    3,
    [
      `due${SP}date`,
      "payment\\s+due(?:\\s+date)?|due\\s+(?:by|on)|pay(?:able)?\\s+by|payment\\s+date|payable\\s+(?:before|until|on)",
      "netto\\s+bis|zahlbar\\s+(?:am|spatestens\\s+(?:am|bis))|vencimento|fecha\\s+(?:de\\s+)?pago|pagar\\s+antes\\s+de|da\\s+pagare\\s+entro|betalen\\s+voor",
      "date\\s+d'echeance|echeance|date\\s+limite\\s+(?:de\\s+)?(?:paiement|reglement)|a\\s+payer\\s+avant\\s+le",
      "f(?:a|ae)lligkeits?datum|f(?:a|ae)llig\\s+(?:am|bis)|zahlbar\\s+bis|zahlungsziel|zahlungsdatum",
      "vervaldatum|vervaldag|uiterste\\s+betaaldatum|te\\s+betalen\\s+voor",
      "fecha\\s+de\\s+vencimiento|vencimiento|data\\s+(?:di\\s+)?scadenza|scadenza|data\\s+de\\s+vencimento",
    ],
  ],
  ["dueDate", "date", 1, ["due"]],
  [
    "poNo",
    "id",
    3,
    [
      `p${SP}o${SP}${NO}`,
      `purchase\\s+order(?:${SP}${NO})?`,
      `(?:customer|client|your)\\s+(?:p${SP}o|order|purchase\\s+order)(?:${SP}${NO})?`,
      `(?:bon\\s+de\\s+commande|votre\\s+commande|bestellnummer|ihre\\s+bestellung|uw\\s+bestelling|uw\\s+order|orden\\s+de\\s+compra|ordine\\s+d'acquisto)(?:${SP}${NO})?`,
    ],
  ],
  ["poNo", "id", 1, [`p${SP}o`]],
  [
    "orderNo",
    "id",
    2,
    [
      `(?:sales\\s+)?order${SP}${NO}`,
      "order\\s*(?:reference|ref\\.?)",
      `ordernummer|bestelnummer|order${SP}nr`,
      `(?:n\\s*o\\s+de\\s+|numero\\s+de\\s+)?commande(?:${SP}${NO})?`,
      `auftrags?${SP}(?:nummer|nr\\.?|no\\.?)`,
      `(?:numero\\s+de\\s+)?pedido(?:${SP}${NO})?|(?:numero\\s+)?ordine(?:${SP}${NO})?`,
    ],
  ],
  ["orderNo", "id", 1, ["order"]],
  [
    "paymentTerms",
    "text",
    3,
    [
      "payment\\s+terms|terms\\s+of\\s+payment|payment\\s+conditions|credit\\s+terms",
      "conditions?\\s+de\\s+(?:paiement|reglement)|modalites\\s+de\\s+(?:paiement|reglement)|delai\\s+de\\s+paiement",
      "zahlungsbedingungen|zahlungskonditionen|zahlungsfrist",
      "betalingsvoorwaarden|betalingstermijn|betalingscondities",
      "condiciones\\s+de\\s+pago|forma\\s+de\\s+pago|termini\\s+di\\s+pagamento|condizioni\\s+di\\s+pagamento",
    ],
  ],
  ["paymentTerms", "text", 1, ["terms"]],
  [
    "total",
    "amount",
    3,
    [
      "grand\\s+total|total\\s+(?:amount\\s+)?(?:due|payable)|amount\\s+(?:due|payable)|total\\s+amount(?:\\s+due)?|invoice\\s+(?:total|amount)",
      "total\\s+(?:incl\\.?|including|inc\\.?|with)\\s*(?:vat|tax|gst|taxes)?|total\\s+to\\s+pay|net\\s+payable|total\\s+payable|total\\s+charges",
      "total\\s+ttc|montant\\s+(?:total\\s+)?ttc|net\\s+a\\s+payer|somme\\s+a\\s+payer|total\\s+a\\s+payer|montant\\s+a\\s+payer|montant\\s+total|total\\s+facture",
      "gesamtbetrag|gesamtsumme|rechnungsbetrag|endbetrag|zu\\s+zahlen(?:der\\s+betrag)?|bruttobetrag|summe\\s+brutto|gesamt\\s+brutto|total\\s+brutto",
      "rechnungssumme|rechnungsendbetrag|endsumme|bruttosumme|bruttogesamtbetrag|zahlbetrag|zahlungsbetrag|betrag\\s+brutto|brutto\\s+gesamt|gesamtbetrag\\s+brutto|summe\\s+inkl\\.?\\s*(?:mwst|ust)",
      "montant\\s+net\\s+a\\s+payer|total\\s+general|totaal\\s+generaal|eindtotaal|importe\\s+a\\s+pagar|totale\\s+complessivo|total\\s+geral",
      "totaal\\s+(?:incl\\.?|inclusief)\\s*btw|te\\s+betalen(?:\\s+bedrag)?|totaalbedrag|factuur\\s+totaal|totaal\\s+te\\s+betalen",
      "importe\\s+total|total\\s+(?:a\\s+pagar|factura)|totale(?:\\s+(?:fattura|documento|da\\s+pagare))?|valor\\s+total(?:\\s+da\\s+(?:nota|fatura)(?:\\s+fiscal)?)?",
    ],
  ],
  [
    "balanceDue",
    "amount",
    2,
    ["balance(?:\\s+due)?|amount\\s+remaining|solde|restant\\s+du|saldo|openstaand"],
  ],
  ["total", "amount", 1, ["total", "totaal", "gesamt", "summe", "montant", "totale", "importe"]],
  [
    "subtotal",
    "amount",
    3,
    [
      `sub${SP}total|net\\s+(?:total|amount|value)|total\\s+net|taxable\\s+(?:amount|value)|amount\\s+(?:before|excl\\.?|excluding)\\s+(?:vat|tax|gst)`,
      "total\\s+(?:excl\\.?|excluding|ex\\.?|before|without|w\\/o|pre-?)\\s*(?:vat|tax|gst|taxes)?|total\\s+before\\s+tax",
      "total\\s+ht|montant\\s+(?:total\\s+)?ht|total\\s+hors\\s+taxes?|sous-?\\s*total",
      "zwischensumme|nettobetrag|netto\\s*(?:summe|betrag|gesamt)|summe\\s+netto|gesamt\\s+netto|total\\s+netto|warenwert",
      "nettosumme|nettowert|betrag\\s+netto|summe\\s+(?:der\\s+|aller\\s+)?positionen|positionssumme|gesamtnettobetrag|rechnungsbetrag\\s+netto|summe\\s+exkl\\.?\\s*(?:mwst|ust)",
      "total\\s+hors\\s+tva|montant\\s+hors\\s+taxes?|total\\s+net\\s+ht|net\\s+ht|totaal\\s+netto|nettobedrag|importe\\s+neto|totale\\s+netto|total\\s+liquido",
      "subtotaal|totaal\\s+(?:excl\\.?|exclusief)\\s*btw|exclusief\\s+btw|bedrag\\s+excl\\.?\\s*btw|netto\\s+bedrag",
      "base\\s+imponible|imponibile|totale\\s+imponibile|subtotale|total\\s+parcial|totale\\s+parziale",
      "valor\\s+(?:total\\s+)?dos\\s+(?:produtos|servicos)(?:\\s+e\\s+servicos)?|total\\s+dos\\s+(?:produtos|servicos)|valor\\s+liquido|total\\s+sem\\s+iva|total\\s+(?:sin|senza)\\s+iva",
    ],
  ],
  [
    "subtotal",
    "amount",
    2,
    ["grondslag|taxable\\s+base|tax\\s+base|base\\s+ht|base\\s+hors\\s+taxes|bemessungsgrundlage|basis"],
  ],
  ["subtotal", "amount", 1, ["netto", "net", "charges", "service charges", "current charges"]],
  [
    "tax",
    "amount",
    2,
    [
      "(?:total\\s+)?(?:sales\\s+)?tax(?:es)?(?:\\s+(?:amount|total))?",
      "(?:total\\s+)?vat(?:\\s+(?:amount|total))?|(?:total\\s+)?gst|hst|pst|qst|[cis]gst|igst",
      "(?:(?:montant|total)\\s+)?(?:(?:de\\s+la|des)\\s+)?(?:tva|taxes?)",
      "(?:(?:summe|gesamt|gesamtbetrag)\\s+)?(?:mwst\\.?|ust\\.?|umsatzsteuer|mehrwertsteuer)",
      "btw(?:\\s+bedrag)?|iva|(?:total\\s+)?impuestos?|imposta|imposte|i\\.v\\.a\\.",
    ],
  ],
  [
    "discount",
    "amount",
    2,
    ["(?:less\\s+)?discount|rebate|remise|rabais|rabatt|nachlass|skonto|korting|descuento|sconto|desconto"],
  ],
  [
    "shipping",
    "amount",
    2,
    [
      "shipping(?:\\s*(?:&|and)\\s*handling)?(?:\\s+(?:charges?|costs?|fee))?|s\\s*&\\s*h|freight|postage|carriage|delivery\\s+(?:charges?|fee|costs?)|handling",
      "frais\\s+de\\s+(?:port|livraison|transport|envoi)|versand(?:kosten)?|lieferkosten|frachtkosten|porto|verzend(?:kosten)?|bezorgkosten|gastos\\s+de\\s+envio|envio|spedizione|trasporto|frete",
    ],
  ],
  ["shipping", "amount", 1, ["delivery"]],
  [
    "amountPaid",
    "amount",
    2,
    [
      "amount\\s+paid|paid(?:\\s+amount)?|payments?(?:\\s*\\/\\s*credits?)?|deposit|credits?|deja\\s+paye|acompte|bereits\\s+bezahlt|anzahlung|betaald",
    ],
  ],
  // Parties
  [
    "billTo",
    "block",
    3,
    [
      `bill(?:ed)?${SP}to|invoice(?:d)?\\s+to|sold${SP}to|billing\\s+address|invoice\\s+address|bill\\s+to\\s+address`,
      "customer(?:\\s+(?:details|information|address|name))?|client(?:\\s+(?:details|information|address))?|buyer|purchaser|recipient",
      "factur(?:e|er)\\s+a|adresse\\s+de\\s+facturation|adresse\\s+(?:du\\s+)?client|kundenadresse|kundenanschrift|klantadres|direccion\\s+del\\s+cliente|indirizzo\\s+(?:del\\s+)?cliente|endereco\\s+do\\s+cliente|destinataire|rechnungs(?:adresse|anschrift|empfanger)|kunde|empfanger",
      "factuuradres|factuur\\s+aan|facturar\\s+a|cobrar\\s+a|cliente|destinatario|intestatario",
      // Section headings that name the buyer's role ("Informationen zum Käufer", "Buyer information").
      "k(?:a|ae)ufer|acheteur|comprador|acquirente|adquirente|tomador(?:\\s+(?:do|dos|de)\\s+servicos?)?|koper|afnemer",
      "(?:informationen|angaben|daten)\\s+zu[mr]\\s+(?:k(?:a|ae)ufer|kunden|rechnungsempf(?:a|ae)nger|leistungsempf(?:a|ae)nger)",
      "(?:informations?|donnees|coordonnees)\\s+(?:de\\s+l'|sur\\s+l')?(?:acheteur|client)|(?:buyer|customer)\\s+(?:information|details|data)",
      "(?:informacion|datos)\\s+del\\s+(?:comprador|cliente)|(?:informacoes|dados)\\s+do\\s+(?:comprador|cliente|destinatario)|gegevens\\s+(?:van\\s+de\\s+)?(?:koper|klant)",
    ],
  ],
  ["billTo", "block", 1, ["to", "attn\\.?", "attention", "pour(?=\\s*:)", "aan(?=\\s*:)", "an(?=\\s*:)", "para(?=\\s*:)"]],
  [
    "shipTo",
    "block",
    3,
    [
      `ship(?:ped)?${SP}to|deliver(?:ed)?\\s+to|delivery\\s+address|shipping\\s+address|ship\\s+address|consignee|deliver\\s+to\\s+address`,
      "livr(?:e|er)\\s+a|adresse\\s+de\\s+livraison|adresse\\s+d'expedition|adresse\\s+de\\s+l'installation|liefer(?:adresse|anschrift)|versandadresse",
      "afleveradres|leveradres|bezorgadres|enviar\\s+a|envie\\s+a|direccion\\s+de\\s+envio|indirizzo\\s+di\\s+(?:consegna|spedizione)|destinazione",
    ],
  ],
  [
    "vendor",
    "block",
    3,
    [
      "from|seller|vendor|supplier|sold\\s+by|issued\\s+by|bill(?:ed)?\\s+from|service\\s+provider|provider|merchant",
      "pay\\s+to|remit\\s+to|remittance\\s+address|make\\s+(?:checks|cheques)\\s+payable\\s+to",
      "auftragnehmer|cedente(?:\\s*\\/\\s*prestatore)?|prestatore|prestador(?:\\s+(?:do|dos|de)\\s+servicos?)?|afzender|emitente",
      "fournisseur|vendeur|emetteur|prestataire|lieferant|verk(?:a|ae)ufer|absender|rechnungssteller|rechnungsaussteller|leistungserbringer|leverancier|verkoper|proveedor|vendedor|emisor|fornitore|venditore|fornecedor",
      // Section headings that name the seller's role.
      "(?:informationen|angaben|daten)\\s+zu[mr]\\s+(?:verk(?:a|ae)ufer|lieferanten|rechnungssteller|leistungserbringer)",
      "(?:informations?|donnees|coordonnees)\\s+(?:du\\s+|sur\\s+le\\s+)?(?:vendeur|fournisseur)|(?:seller|supplier|vendor)\\s+(?:information|details|data)",
      "(?:informacion|datos)\\s+del\\s+(?:vendedor|proveedor)|(?:informacoes|dados)\\s+do\\s+(?:vendedor|fornecedor|emitente)|gegevens\\s+(?:van\\s+de\\s+)?(?:verkoper|leverancier)",
    ],
  ],
  ["vendor", "block", 1, ["de(?=\\s*:)", "von(?=\\s*:)", "van(?=\\s*:)", "da(?=\\s*:)"]],
  // Identifiers
  [
    "customerTaxId",
    "taxId",
    3,
    [
      `(?:customer|client|buyer|your|recipient)(?:'s)?\\s+(?:vat|tax|gst)${SP}(?:reg(?:istration)?${SP})?(?:${NO}|id)?`,
      `uw\\s+btw${SP}(?:nummer|nr\\.?|id)?|votre\\s+(?:n\\s*o\\s+(?:de\\s+)?)?tva|ihre\\s+ust${SP}(?:id(?:nr)?|nr)?|tva\\s+client`,
    ],
  ],
  [
    "taxId",
    "taxId",
    3,
    [
      `vat${SP}(?:reg(?:istration)?${SP})?(?:${NO}|id|code)|vat\\s+registration|tax${SP}(?:reg(?:istration)?${SP})?(?:${NO}|id|code)|tax\\s+registration`,
      `vat${SP}\\/${SP}tin|tin${SP}\\/${SP}vat|tin|ein|fein|abn|acn|gstin|gst${SP}(?:reg(?:istration)?${SP})?${NO}|hst${SP}${NO}|pan(?:${SP}${NO})?`,
      `siret|siren|(?:n\\s*o\\s+(?:de\\s+)?)?tva\\s+intra(?:communautaire|-communautaire)?|n\\s*o\\s+(?:de\\s+)?tva|numero\\s+de\\s+tva|identifiant\\s+tva`,
      `ust${SP}id${SP}(?:nr\\.?)?|ustid(?:nr\\.?)?|ust-?idnr\\.?|umsatzsteuer${SP}id(?:entifikationsnummer)?|steuer${SP}(?:nr\\.?|nummer)|st\\.?${SP}nr\\.?`,
      `btw${SP}(?:nummer|nr\\.?|id|no\\.?)|btw-?nr|kvk(?:${SP}(?:nummer|nr\\.?))?|kamer\\s+van\\s+koophandel`,
      `company\\s+(?:reg(?:istration)?${SP})?${NO}|(?:company\\s+)?registration${SP}${NO}|reg\\.?${SP}${NO}|business\\s+${NO}`,
      `cif|nif|nie|p${SP}iva|partita\\s+iva|codice\\s+fiscale|cnpj|cin|uid|rcs|hrb|handelsregister`,
    ],
  ],
  ["taxId", "taxId", 1, ["vat", "tva", "btw", "gst", "mwst", "iva"]],
  // Banking
  ["iban", "iban", 3, [`iban(?:${SP}${NO})?`]],
  [
    "bic",
    "bic",
    3,
    [
      `swift${SP}(?:\\/?${SP}bic)?(?:${SP}code)?|bic${SP}(?:\\/?${SP}swift)?(?:${SP}code)?|swift${SP}code|bic-?code|code\\s+swift|code\\s+bic`,
    ],
  ],
  [
    "accountNumber",
    "id",
    2,
    [
      `(?:bank\\s+)?(?:account|acct\\.?|a\\/c)${SP}${NO}|bank\\s+account|account`,
      `kto${SP}(?:nr\\.?|nummer)?|konto(?:nummer|nr\\.?)?|rekening(?:nummer|nr\\.?)?|(?:numero|n\\s*o)\\s+de\\s+compte|numero\\s+de\\s+cuenta|conto(?:\\s+corrente)?`,
    ],
  ],
  [
    "accountHolder",
    "text",
    3,
    [
      "account\\s+(?:name|holder(?:'s)?(?:\\s+name)?|title)|beneficiary(?:\\s+name)?|payee(?:\\s+name)?|in\\s+favou?r\\s+of|payable\\s+to",
      "titulaire(?:\\s+du\\s+compte)?|beneficiaire|kontoinhaber|empf(?:a|ae)nger|begunstigde|t\\.?\\s*n\\.?\\s*v\\.?|ten\\s+name\\s+van|titular(?:\\s+de\\s+la\\s+cuenta)?|beneficiario|intestatario",
    ],
  ],
  [
    "bankName",
    "text",
    2,
    [
      "bank(?:\\s+name)?|name\\s+of\\s+(?:the\\s+)?bank|nom\\s+de\\s+la\\s+banque|banque|domiciliation|bankverbindung|kreditinstitut|bankname|banco|banca|instituto\\s+bancario",
    ],
  ],
  [
    "bankAddress",
    "block",
    3,
    ["bank\\s+address|adresse\\s+(?:de\\s+la\\s+)?banque|bankanschrift|direccion\\s+del\\s+banco"],
  ],
  [
    "routing",
    "id",
    3,
    [
      `(?:aba${SP})?routing(?:${SP}(?:${NO}|code|transit))?|aba(?:${SP}${NO})?|rtn|ach(?:${SP}routing)?|ifsc(?:${SP}code)?|fedwire|wire\\s+routing`,
    ],
  ],
  [
    "bankCode",
    "id",
    3,
    [
      `sort${SP}code|blz|bankleitzahl|bank${SP}code|code\\s+banque|bsb(?:${SP}${NO})?|clearing(?:${SP}${NO})?|bank${SP}id`,
    ],
  ],
  [
    "branchNumber",
    "id",
    3,
    [`branch(?:${SP}(?:${NO}|code))?|transit(?:${SP}${NO})?|code\\s+guichet|agencia|filiale`],
  ],
  ["purposeCode", "id", 3, ["purpose(?:\\s+(?:code|of\\s+payment))?"]],
  [
    "paymentReference",
    "text",
    3,
    [
      "payment\\s+reference|payment\\s+ref\\.?|remittance\\s+(?:information|reference)|please\\s+(?:use|quote)\\s+(?:the\\s+following\\s+)?(?:reference|communication)(?:\\s+for\\s+your\\s+payment)?",
      "communication|reference\\s+(?:de\\s+)?paiement|verwendungszweck|zahlungsreferenz|betalingskenmerk|betalingsreferentie|omschrijving\\s+betaling|referencia\\s+de\\s+pago|causale",
    ],
  ],
  // Contacts
  ["email", "contact", 2, ["e-?mail(?:\\s+address)?|courriel|mail|adresse\\s+(?:e-?mail|electronique)"]],
  [
    "phone",
    "contact",
    2,
    [
      "tel(?:ephone|efon|efono)?\\.?|phone(?:\\s+(?:no|number))?|ph\\.?|mobile|mob\\.?|cell|fon|telefoon|gsm|t",
    ],
  ],
  ["fax", "contact", 2, ["fax|telefax|fax\\s+no\\.?|f"]],
  ["website", "contact", 2, ["web(?:site)?|internet|im\\s+internet|url|homepage|site\\s+web|w"]],
  // Notes
  [
    "notes",
    "text",
    2,
    [
      "notes?|comments?|remarks?|memo|additional\\s+(?:information|notes)|special\\s+instructions|observations?|remarques?|bemerkung(?:en)?|hinweis(?:e)?|anmerkung(?:en)?|opmerking(?:en)?|observaciones|note|annotazioni",
    ],
  ],
  // Distractors (and customField vocabulary)
  [
    "orderDate",
    "date",
    3,
    [
      "order\\s+date|date\\s+(?:de\\s+(?:la\\s+)?)?commande|bestell?datum|auftragsdatum|orderdatum|fecha\\s+(?:del\\s+)?pedido|data\\s+ordine",
    ],
  ],
  [
    "deliveryDate",
    "date",
    3,
    [
      "delivery\\s+date|date\\s+(?:of\\s+)?(?:delivery|supply)|ship(?:ping|ment)?\\s+date|date\\s+shipped|date\\s+de\\s+livraison|liefer(?:datum|tag)|leverdatum|leveringsdatum|fecha\\s+de\\s+entrega|data\\s+(?:di\\s+)?consegna|service\\s+date|performance\\s+date|leistungsdatum",
    ],
  ],
  [
    "customerNo",
    "id",
    3,
    [
      `(?:customer|client|account|member)${SP}(?:${NO}|code|ref(?:erence)?)|kunden${SP}(?:nummer|nr\\.?|no\\.?)|klant${SP}(?:nummer|nr\\.?)|(?:numero|n\\s*o)\\s+(?:de\\s+)?client|id${SP}client|numero\\s+de\\s+cliente|codice\\s+cliente`,
    ],
  ],
  ["customerNo", "id", 1, ["klant", "kunde", "client", "customer"]],
  [
    "customerReference",
    "text",
    3,
    [
      "(?:customer|client|your)\\s+ref(?:erence)?\\.?|votre\\s+reference|ihre\\s+referenz|ihr\\s+zeichen|uw\\s+referentie|uw\\s+kenmerk|su\\s+referencia|vostro\\s+riferimento",
    ],
  ],
  ["reference", "text", 1, ["reference|ref\\.?|referenz|referentie|kenmerk|referencia|riferimento"]],
  ["page", "text", 2, ["page|seite|pagina|blatt|blad"]],
  [
    "contact",
    "text",
    2,
    [
      "contact(?:\\s+person)?|ansprechpartner|contactpersoon|interlocuteur|sales\\s*person|salesperson|representative|rep",
    ],
  ],
  [
    "period",
    "text",
    2,
    ["billing\\s+period|period|periode|zeitraum|leistungszeitraum|periodo|service\\s+period"],
  ],
  ["currency", "text", 2, ["currency|devise|wahrung|valuta|moneda|valuta"]],
  [
    "paymentMethod",
    "text",
    2,
    [
      "payment\\s+(?:method|mode|type)|paid\\s+(?:by|via|with)|mode\\s+de\\s+(?:paiement|reglement)|zahlungs(?:art|weise|form)|betaalwijze|betaalmethode|forma\\s+de\\s+pago|metodo\\s+di\\s+pagamento",
    ],
  ],
  ["quantityHeader", "text", 1, ["qty|quantity|description|unit\\s+price|amount|rate|hours|price"]],
];

export interface CompiledLabel extends LabelDef {
  regex: RegExp;
}

/** Splits a regex source at its top-level "|" so each alternative competes on length. */
export function splitAlternatives(re: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cls = false;
  let cur = "";
  for (let i = 0; i < re.length; i++) {
    const c = re[i];
    if (c === "\\") {
      cur += c + (re[i + 1] ?? "");
      i++;
      continue;
    }
    if (cls) {
      if (c === "]") cls = false;
    } else if (c === "[") cls = true;
    else if (c === "(") depth++;
    else if (c === ")") depth--;
    else if (c === "|" && depth === 0) {
      out.push(cur);
      cur = "";
      continue;
    }
    cur += c;
  }
  out.push(cur);
  return out.filter((x) => x !== "");
}

/**
 * Tax abbreviations are also printed with dots ("Total H.T.", "T.T.C.", "T.V.A.", "M.W.St.",
 * "I.V.A."): each whole abbreviation in a label's pattern accepts the dotted forms.
 */
export function dottedAbbreviations(re: string): string {
  return re.replace(/(?<![a-z\\])(ttc|tva|ht|mwst|btw|iva|ust)(?![a-z])/g, (abbr: string) =>
    abbr
      .split("")
      .map((ch, i) => (i === 0 ? ch : `\\.?\\s?${ch}`))
      .join("") + "\\.?",
  );
}

// A label ends at a word end: the lookahead makes the engine backtrack into a shorter
// alternative ("num" in "number" is not a label end). A label ending in a letter is never glued
// to a digit either: "F2025-1119" is an identifier, not the fax label "F" and a number.
const compile = (re: string) => new RegExp(`(?:${dottedAbbreviations(re)})(?![a-z])(?<![a-z](?=\\d))`, "y");

/** Every label, compiled as a sticky regex over folded text. */
export const LABELS: CompiledLabel[] = defs.flatMap(([field, kind, weight, res]) =>
  res.flatMap(splitAlternatives).map((re) => ({ field, kind, re, weight, regex: compile(re) })),
);

/** Adds label definitions at run time (customField vocabulary). */
export function compileLabel(field: string, kind: LabelKind, re: string, weight: number): CompiledLabel {
  return { field, kind, re, weight, regex: compile(re) };
}

export interface LabelHit {
  label: CompiledLabel;
  /** Start and end of the label in the folded text. */
  start: number;
  end: number;
  /** End of the separators after the label (":", "#", "-", spaces). */
  valueStart: number;
  hasColon: boolean;
}

/**
 * The longest label starting at `pos` of folded `text`, ending at a word boundary. The label
 * may be followed by separators (":", "#", "-", "."), which are skipped.
 */
export function matchLabelAt(
  text: string,
  pos: number,
  labels: CompiledLabel[] = LABELS,
): LabelHit | undefined {
  let best: LabelHit | undefined;
  for (const label of labels) {
    label.regex.lastIndex = pos;
    const m = label.regex.exec(text);
    if (!m) continue;
    const end = pos + m[0].length;
    if (end === pos) continue;
    const rest = /^[\s*]*(?:\([^)]{0,12}\))?[\s*]*([:#.\-–]?)[\s:]*/.exec(text.slice(end));
    const valueStart = end + (rest ? rest[0].length : 0);
    const hasColon = rest ? rest[0].includes(":") : false;
    const len = end - pos;
    if (
      !best ||
      len > best.end - best.start ||
      (len === best.end - best.start && label.weight > best.label.weight)
    ) {
      best = { label, start: pos, end, valueStart, hasColon };
    }
  }
  return best;
}
