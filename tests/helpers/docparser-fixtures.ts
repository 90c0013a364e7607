import { makeTablesPdf } from "./extract-fixtures";

/**
 * A one-page invoice of a fixed layout (the kind a document parser template is written for):
 * header fields at known places, a bordered items table, totals below it.
 */
export function makeParserInvoicePdf(opts: ParserInvoiceOptions = {}): Buffer {
  return makeTablesPdf([parserInvoicePage(opts)]);
}

/** A document of several such invoices, one a page. */
export function makeParserInvoicesPdf(pages: ParserInvoiceOptions[]): Buffer {
  return makeTablesPdf(pages.map(parserInvoicePage));
}

export interface ParserInvoiceOptions {
  number?: string;
  date?: string;
  total?: string;
  items?: string[][];
}

function parserInvoicePage(opts: ParserInvoiceOptions): Parameters<typeof makeTablesPdf>[0][number] {
  const items = opts.items ?? [
    ["Paper A4", "10", "4.50", "45.00"],
    ["Toner cartridge", "2", "62.00", "124.00"],
    ["Stapler", "1", "1,250.00", "1,250.00"],
  ];
  return {
      texts: [
        { x: 72, y: 60, text: "ACME Supplies Ltd.", size: 16, bold: true },
        { x: 72, y: 100, text: `Invoice No: ${opts.number ?? "INV-2026-0042"}` },
        { x: 72, y: 116, text: `Invoice Date: ${opts.date ?? "11/24/2026"}` },
        { x: 360, y: 100, text: "Bill to:" },
        { x: 360, y: 116, text: "Globex Corporation" },
        { x: 360, y: 132, text: "1 Main Street" },
        { x: 360, y: 400, text: `TOTAL ${opts.total ?? "1,419.00"}` },
      ],
      tables: [{ x: 72, y: 180, cols: [200, 60, 80, 80], rows: [["Item", "Quantity", "Price", "Total"], ...items], borders: "horizontal" }],
  };
}

export const parserInvoiceTemplate = `templateName: ACME invoice
templateVersion: 3
culture: en-US
detectionRules:
  keywords:
    - ACME Supplies
fields:
  companyName:
    type: static
    expression: ACME Supplies Ltd.
  invoiceNumber:
    type: regex
    expression: 'Invoice No:{{Spaces}}({{LettersOrDigitsOrSymbols}})'
  invoiceDate:
    type: regex
    expression: 'Invoice Date:{{Spaces}}({{SmartDate}})'
    dataType: date
    dateFormat: MM/dd/yyyy
  billTo:
    type: rectangle
    rectangle: [355, 108, 200, 40]
    pageIndex: 0
  total:
    type: regex
    expression: 'TOTAL{{Spaces}}({{Number}})'
    dataType: decimal
tables:
  - name: items
    start:
      expression: 'Item{{Spaces}}Quantity{{Spaces}}Price{{Spaces}}Total'
    end:
      expression: 'TOTAL'
    row:
      expression: '{{LineStart}}{{SpacesOptional}}(?<description>{{SentenceWithSingleSpaces}}){{Spaces}}(?<quantity>{{Digits}}){{Spaces}}(?<unitPrice>{{Number}}){{Spaces}}(?<itemTotal>{{Number}})'
    columns:
      - name: description
      - name: quantity
        type: integer
      - name: unitPrice
        type: decimal
      - name: itemTotal
        type: decimal
`;
