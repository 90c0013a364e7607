/** Plain words for the keys of PDF info (the API keeps PDF.co's names; people read these). */
const LABELS: Record<string, string> = {
  PageCount: "Pages",
  Title: "Title",
  Author: "Author",
  Subject: "Subject",
  Keywords: "Keywords",
  Creator: "Created with",
  Producer: "PDF made by",
  CreationDate: "Created",
  ModificationDate: "Modified",
  Encrypted: "Encrypted",
  EncryptionAlgorithm: "Encryption",
  PermissionPrinting: "May print",
  PermissionHighQualityPrint: "May print in high quality",
  PermissionModifyDocument: "May change the document",
  PermissionContentExtraction: "May copy text and images",
  PermissionModifyAnnotations: "May add comments",
  PermissionFillForms: "May fill in forms",
  PermissionAccessibility: "May read aloud (accessibility)",
  PermissionAssemble: "May insert, rotate or delete pages",
  PageRectangle: "Page size",
  PdfVersion: "PDF version",
  Tagged: "Tagged (accessible structure)",
  Linearized: "Fast web view",
  HasAttachments: "Has attachments",
  HasJavaScript: "Has JavaScript",
  HasForms: "Has form fields",
  Bookmarks: "Bookmarks",
};

/** The label of an info key: a known one, else its words ("OpenAction" → "Open action"). */
export function infoLabel(key: string): string {
  const known = LABELS[key] ?? LABELS[Object.keys(LABELS).find((k) => k.toLowerCase() === key.toLowerCase()) ?? ""];
  if (known) return known;
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .replace(/[_-]+/g, " ")
    .trim();
  return words.charAt(0).toUpperCase() + words.slice(1).toLowerCase();
}
