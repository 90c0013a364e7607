import type { OperationDefinition } from "./types";
import { operation as pdfInfo } from "./pdf-info/contract";
import { operation as pdfInfoFields } from "./pdf-info-fields/contract";
import { operation as pdfSplit } from "./pdf-split/contract";
import { operation as pdfAttachmentsExtract } from "./pdf-attachments-extract/contract";
import { operation as pdfConvertToCsv } from "./pdf-convert-to-csv/contract";
import { operation as pdfConvertFromUrl } from "./pdf-convert-from-url/contract";
import { operation as pdfConvertFromImage } from "./pdf-convert-from-image/contract";
import { operation as xlsConvertToCsv } from "./xls-convert-to-csv/contract";
import { operation as pdfCompress } from "./pdf-compress/contract";
import { operation as pdfOptimize } from "./pdf-optimize/contract";
import { operation as pdfConvertToHtml } from "./pdf-convert-to-html/contract";
import { operation as aiInvoiceParser } from "./ai-invoice-parser/contract";
import { operation as pdfClassifier } from "./pdf-classifier/contract";
import { operation as pdfEditAdd } from "./pdf-edit-add/contract";
import { operation as pdfMerge } from "./pdf-merge/contract";
import { operation as pdfEditDeletePages } from "./pdf-edit-delete-pages/contract";
import { operation as pdfEditRotate } from "./pdf-edit-rotate/contract";
import { operation as pdfSecurityAdd } from "./pdf-security-add/contract";
import { operation as pdfSecurityRemove } from "./pdf-security-remove/contract";
import { operation as pdfSplit2 } from "./pdf-split2/contract";
import { operation as pdfEditRotateAuto } from "./pdf-edit-rotate-auto/contract";
import { operation as pdfMerge2 } from "./pdf-merge2/contract";

/**
 * Every operation of Quire, by id. Universal (client + server): the API router, the OpenAPI
 * document, the dashboard's forms and the registry test all read this list.
 */
export const operations: OperationDefinition[] = [
  pdfInfo,
  pdfInfoFields,
  pdfSplit,
  pdfAttachmentsExtract,
  pdfConvertToCsv,
  pdfConvertToHtml,
  aiInvoiceParser,
  pdfClassifier,
  pdfConvertFromUrl,
  pdfConvertFromImage,
  xlsConvertToCsv,
  pdfCompress,
  pdfOptimize,
  pdfEditAdd,
  pdfMerge,
  pdfEditDeletePages,
  pdfEditRotate,
  pdfSecurityAdd,
  pdfSecurityRemove,
  pdfSplit2,
  pdfEditRotateAuto,
  pdfMerge2,
] as OperationDefinition[];

const byId = new Map(operations.map((o) => [o.id, o]));
const byPath = new Map(operations.map((o) => [o.path.toLowerCase(), o]));

export function getOperation(id: string): OperationDefinition | undefined {
  return byId.get(id);
}

/** Paths are matched case-insensitively (clients differ). */
export function getOperationByPath(path: string): OperationDefinition | undefined {
  return byPath.get(path.toLowerCase());
}

/** The methods an operation's path accepts: GET (query string) and POST unless its contract says otherwise. */
export function operationMethods(op: OperationDefinition): readonly ("GET" | "POST")[] {
  return op.methods ?? ["GET", "POST"];
}
