/**
 * The built-in ("system") HTML templates every account sees, with ids below 100 (the accounts'
 * own start at 100). Read-only; copy one to change it.
 */
export interface SystemTemplate {
  id: number;
  title: string;
  description: string;
  body: string;
  testJson: string;
}

const invoiceBody = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Invoice {{invoiceNumber}}</title>
<style>
  body { font-family: "Liberation Sans", Arial, sans-serif; font-size: 11pt; color: #222; margin: 32px; }
  h1 { font-size: 22pt; margin: 0 0 4px; }
  .parties { display: flex; justify-content: space-between; margin: 24px 0; }
  .parties div { width: 45%; }
  table { width: 100%; border-collapse: collapse; margin-top: 16px; }
  th, td { padding: 6px 8px; border-bottom: 1px solid #ddd; text-align: left; }
  th.num, td.num { text-align: right; }
  tfoot td { font-weight: bold; border-bottom: none; }
  .muted { color: #666; }
</style>
</head>
<body>
  <h1>Invoice</h1>
  <div class="muted">No. {{invoiceNumber}} · Date {{invoiceDate}}{{#dueDate}} · Due {{dueDate}}{{/dueDate}}</div>
  <div class="parties">
    <div><strong>{{issuer.name}}</strong><br>{{issuer.address}}</div>
    <div><strong>Bill to</strong><br>{{client.name}}<br>{{client.address}}</div>
  </div>
  <table>
    <thead><tr><th>Description</th><th class="num">Qty</th><th class="num">Price</th><th class="num">Amount</th></tr></thead>
    <tbody>
    {{#items}}
      <tr><td>{{description}}</td><td class="num">{{quantity}}</td><td class="num">{{price}}</td><td class="num">{{amount}}</td></tr>
    {{/items}}
    {{^items}}<tr><td colspan="4" class="muted">No items</td></tr>{{/items}}
    </tbody>
    <tfoot><tr><td colspan="3" class="num">Total {{currency}}</td><td class="num">{{total}}</td></tr></tfoot>
  </table>
  {{#notes}}<p class="muted">{{notes}}</p>{{/notes}}
</body>
</html>
`;

const invoiceData = {
  invoiceNumber: "2026-0042",
  invoiceDate: "2026-11-24",
  dueDate: "2026-12-24",
  currency: "EUR",
  issuer: { name: "Example Supplies GmbH", address: "Hauptstraße 1, 10115 Berlin" },
  client: { name: "ACME Corp.", address: "1 Main Street, Springfield" },
  items: [
    { description: "Paper, A4, 500 sheets", quantity: 10, price: "4.50", amount: "45.00" },
    { description: "Toner cartridge", quantity: 2, price: "62.00", amount: "124.00" },
  ],
  total: "169.00",
  notes: "Thank you for your business.",
};

export const systemTemplates: SystemTemplate[] = [
  {
    id: 1,
    title: "Invoice",
    description: "A one-page invoice: parties, line items and total (Mustache; fill it with templateData).",
    body: invoiceBody,
    testJson: JSON.stringify(invoiceData, null, 2),
  },
];
