import type { ReadInputBarcodeFormat } from "zxing-wasm/reader";

/**
 * The public API's barcode type names (the seed's list for `/v1/barcode/generate`, also the
 * names `/v1/barcode/read/from/url` answers in `TypeName`) and how Quire makes and reads each:
 * `bcid` is bwip-js's encoder (BWIPP), `read` the ZXing formats that read it back. A type without
 * `bcid` has no maintained open generator (answered 400 naming the type); a type without `read`
 * is generated but ZXing cannot read it (postal and stacked symbologies).
 */
export interface BarcodeTypeInfo {
  /** The public name, e.g. "QRCode", "Code39Mod43". */
  name: string;
  /** bwip-js encoder name. */
  bcid?: string;
  /** Extra bwip-js options (check digits, GS1 parsing...). */
  options?: Record<string, unknown>;
  /** Whether the human-readable text goes under the bars (linear codes). */
  caption?: boolean;
  /** ZXing formats that read it. */
  read?: ReadInputBarcodeFormat[];
  /** What kind of value it takes (for messages and the docs). */
  value: string;
}

const linear = { caption: true } as const;

export const BARCODE_TYPES: BarcodeTypeInfo[] = [
  { name: "AustralianPostCode", bcid: "auspost", value: "FCC + 8-digit DPID (e.g. 5956439111ABA 9)" },
  { name: "Aztec", bcid: "azteccode", read: ["Aztec"], value: "any text" },
  { name: "Codabar", bcid: "rationalizedCodabar", ...linear, read: ["Codabar"], value: "A…A start/stop with digits and - $ : / . +" },
  { name: "CodablockF", bcid: "codablockf", value: "ASCII text" },
  { name: "Code128", bcid: "code128", ...linear, read: ["Code128"], value: "ASCII text" },
  { name: "Code16K", bcid: "code16k", value: "ASCII text" },
  { name: "Code39", bcid: "code39", ...linear, read: ["Code39"], value: "A-Z 0-9 space - . $ / + %" },
  { name: "Code39Extended", bcid: "code39ext", ...linear, read: ["Code39Ext"], value: "ASCII text" },
  { name: "Code39Mod43", bcid: "code39", options: { includecheck: true }, ...linear, read: ["Code39"], value: "A-Z 0-9 space - . $ / + %" },
  { name: "Code39Mod43Extended", bcid: "code39ext", options: { includecheck: true }, ...linear, read: ["Code39Ext"], value: "ASCII text" },
  { name: "Code93", bcid: "code93", options: { includecheck: true }, ...linear, read: ["Code93"], value: "A-Z 0-9 space - . $ / + %" },
  { name: "DataMatrix", bcid: "datamatrix", read: ["DataMatrix"], value: "any text" },
  // Direct part marking is a way of marking (dot peen, laser) the same Data Matrix symbol: drawn
  // here with square modules, which every reader takes.
  { name: "DPMDataMatrix", bcid: "datamatrix", read: ["DataMatrix"], value: "any text" },
  { name: "EAN13", bcid: "ean13", ...linear, read: ["EAN13"], value: "12 digits (13 with the check digit)" },
  { name: "EAN2", bcid: "ean2", ...linear, value: "2 digits (an add-on; ZXing reads it only beside an EAN/UPC)" },
  { name: "EAN5", bcid: "ean5", ...linear, value: "5 digits (an add-on; ZXing reads it only beside an EAN/UPC)" },
  { name: "EAN8", bcid: "ean8", ...linear, read: ["EAN8"], value: "7 digits (8 with the check digit)" },
  { name: "GS1DataBarExpanded", bcid: "databarexpanded", read: ["DataBarExp"], value: "GS1 element strings, e.g. (01)09521234543213(3103)000123" },
  { name: "GS1DataBarExpandedStacked", bcid: "databarexpandedstacked", read: ["DataBarExpStk", "DataBarExp"], value: "GS1 element strings" },
  { name: "GS1DataBarLimited", bcid: "databarlimited", read: ["DataBarLtd"], value: "(01) + 13 digits starting 0 or 1" },
  { name: "GS1DataBarOmnidirectional", bcid: "databaromni", read: ["DataBar", "DataBarOmni"], value: "(01) + 13 digits" },
  { name: "GS1DataBarStacked", bcid: "databarstacked", read: ["DataBarStk", "DataBar"], value: "(01) + 13 digits" },
  { name: "GTIN12", bcid: "upca", ...linear, read: ["UPCA"], value: "11 digits (12 with the check digit)" },
  { name: "GTIN13", bcid: "ean13", ...linear, read: ["EAN13"], value: "12 digits (13 with the check digit)" },
  { name: "GTIN14", bcid: "itf14", ...linear, read: ["ITF14"], value: "13 digits (14 with the check digit)" },
  { name: "GTIN8", bcid: "ean8", ...linear, read: ["EAN8"], value: "7 digits (8 with the check digit)" },
  { name: "IntelligentMail", bcid: "onecode", value: "20-digit tracking code + 0, 5, 9 or 11-digit routing code" },
  { name: "Interleaved2of5", bcid: "interleaved2of5", ...linear, read: ["ITF"], value: "an even number of digits" },
  { name: "ITF14", bcid: "itf14", ...linear, read: ["ITF14"], value: "13 digits (14 with the check digit)" },
  { name: "MaxiCode", bcid: "maxicode", read: ["MaxiCode"], value: "any text" },
  { name: "MICR", value: "(E-13B cheque characters are a font, not a barcode: not generated)" },
  { name: "MicroPDF", bcid: "micropdf417", read: ["MicroPDF417"], value: "text (up to about 150 characters)" },
  { name: "MSI", bcid: "msi", ...linear, value: "digits" },
  { name: "PatchCode", value: "(no maintained open generator: not generated)" },
  { name: "PDF417", bcid: "pdf417", read: ["PDF417", "MicroPDF417"], value: "any text" },
  { name: "Pharmacode", bcid: "pharmacode", value: "a number 3–131070" },
  { name: "PostNet", bcid: "postnet", value: "5, 9 or 11 digits" },
  { name: "PZN", bcid: "pzn", options: { pzn8: true }, ...linear, read: ["PZN"], value: "7 digits (PZN8; the check digit is added)" },
  { name: "QRCode", bcid: "qrcode", read: ["QRCode", "MicroQRCode", "RMQRCode"], value: "any text" },
  { name: "RoyalMail", bcid: "royalmail", value: "A-Z 0-9 (postcode + delivery point)" },
  { name: "RoyalMailKIX", bcid: "kix", value: "A-Z 0-9" },
  { name: "Trioptic", value: "(no maintained open generator: not generated)" },
  { name: "UPCA", bcid: "upca", ...linear, read: ["UPCA"], value: "11 digits (12 with the check digit)" },
  { name: "UPCE", bcid: "upce", ...linear, read: ["UPCE"], value: "7 digits starting 0 or 1 (8 with the check digit)" },
  { name: "UPU", value: "(no maintained open generator: not generated)" },
];

/** Reader-only names: what ZXing reads beyond the generator's list (and common spellings). */
const READ_ALIASES: Record<string, ReadInputBarcodeFormat[]> = {
  all: ["All"],
  microqrcode: ["MicroQRCode"],
  rmqrcode: ["RMQRCode"],
  micropdf417: ["MicroPDF417"],
  code39ext: ["Code39Ext"],
  gs1128: ["Code128"],
  ean128: ["Code128"],
  isbn: ["ISBN"],
  i2of5: ["ITF"],
  itf: ["ITF"],
  databar: ["DataBar", "DataBarExp", "DataBarLtd", "DataBarStk", "DataBarExpStk"],
  gs1databar: ["DataBar", "DataBarExp", "DataBarLtd", "DataBarStk", "DataBarExpStk"],
  databarexpanded: ["DataBarExp"],
  databarlimited: ["DataBarLtd"],
  code32: ["Code32"],
  telepen: ["Telepen"],
};

/** A type name as clients write it: any case, spaces, dashes and underscores ignored. */
export function typeKey(name: string): string {
  return name.toLowerCase().replace(/[\s_-]/g, "");
}

const byKey = new Map(BARCODE_TYPES.map((t) => [typeKey(t.name), t]));

/** The type a public name stands for (case-insensitive), or undefined. */
export function findBarcodeType(name: string): BarcodeTypeInfo | undefined {
  return byKey.get(typeKey(name));
}

/** ZXing formats a public type name reads, or undefined when the name is unknown or unreadable. */
export function readFormatsOf(name: string): ReadInputBarcodeFormat[] | undefined {
  const key = typeKey(name);
  return byKey.get(key)?.read ?? READ_ALIASES[key];
}

/** Every name the reader takes in `types` (for messages and the docs). */
export function readableTypeNames(): string[] {
  return [...BARCODE_TYPES.filter((t) => t.read).map((t) => t.name), "MicroQRCode", "RMQRCode", "ISBN", "All"];
}

/** ZXing's format of a found barcode → the public API's TypeName. */
const TYPE_NAMES: Record<string, string> = {
  Codabar: "Codabar",
  Code39: "Code39",
  Code39Std: "Code39",
  Code39Ext: "Code39Extended",
  Code32: "Code32",
  PZN: "PZN",
  Code93: "Code93",
  Code128: "Code128",
  ITF: "Interleaved2of5",
  ITF14: "ITF14",
  DataBar: "GS1DataBarOmnidirectional",
  DataBarOmni: "GS1DataBarOmnidirectional",
  DataBarStk: "GS1DataBarStacked",
  DataBarStkOmni: "GS1DataBarStacked",
  DataBarLtd: "GS1DataBarLimited",
  DataBarExp: "GS1DataBarExpanded",
  DataBarExpStk: "GS1DataBarExpandedStacked",
  EAN13: "EAN13",
  EAN8: "EAN8",
  ISBN: "ISBN",
  UPCA: "UPCA",
  UPCE: "UPCE",
  PDF417: "PDF417",
  CompactPDF417: "PDF417",
  MicroPDF417: "MicroPDF",
  Aztec: "Aztec",
  AztecCode: "Aztec",
  QRCode: "QRCode",
  QRCodeModel2: "QRCode",
  QRCodeModel1: "QRCode",
  MicroQRCode: "MicroQRCode",
  RMQRCode: "RMQRCode",
  DataMatrix: "DataMatrix",
  MaxiCode: "MaxiCode",
};

export function publicTypeName(zxingFormat: string, text = ""): string {
  // ITF-14 is Interleaved 2 of 5 carrying 14 digits: ZXing reports both as ITF.
  if (zxingFormat === "ITF" && /^\d{14}$/.test(text)) return "ITF14";
  return TYPE_NAMES[zxingFormat] ?? zxingFormat;
}
