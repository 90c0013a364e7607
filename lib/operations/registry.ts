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
import { operation as pdfDocumentParser } from "./pdf-documentparser/contract";
import { operation as pdfConvertToText } from "./pdf-convert-to-text/contract";
import { operation as pdfConvertToTextSimple } from "./pdf-convert-to-text-simple/contract";
import { operation as pdfConvertToJson } from "./pdf-convert-to-json/contract";
import { operation as pdfConvertToJson2 } from "./pdf-convert-to-json2/contract";
import { operation as pdfConvertToJsonMeta } from "./pdf-convert-to-json-meta/contract";
import { operation as pdfConvertToXml } from "./pdf-convert-to-xml/contract";
import { operation as pdfConvertToXlsx } from "./pdf-convert-to-xlsx/contract";
import { operation as pdfConvertToXls } from "./pdf-convert-to-xls/contract";
import { operation as pdfConvertToPng } from "./pdf-convert-to-png/contract";
import { operation as pdfConvertToJpg } from "./pdf-convert-to-jpg/contract";
import { operation as pdfConvertToWebp } from "./pdf-convert-to-webp/contract";
import { operation as pdfConvertToTiff } from "./pdf-convert-to-tiff/contract";
import { operation as pdfFind } from "./pdf-find/contract";
import { operation as pdfFindTable } from "./pdf-find-table/contract";
import { operation as pdfEditDeleteText } from "./pdf-edit-delete-text/contract";
import { operation as pdfEditReplaceText } from "./pdf-edit-replace-text/contract";
import { operation as pdfEditReplaceTextWithImage } from "./pdf-edit-replace-text-with-image/contract";
import { operation as pdfMakesearchable } from "./pdf-makesearchable/contract";
import { operation as textsenseJobBuild } from "./textsense-job-build/contract";
import { operation as pdfMakeunsearchable } from "./pdf-makeunsearchable/contract";
import { operation as barcodeGenerate } from "./barcode-generate/contract";
import { operation as barcodeReadFromUrl } from "./barcode-read-from-url/contract";
import { operation as emailSend } from "./email-send/contract";
import { operation as emailDecode } from "./email-decode/contract";
import { operation as emailExtractAttachments } from "./email-extract-attachments/contract";
import { operation as xlsConvertToPdf } from "./xls-convert-to-pdf/contract";
import { operation as pdfConvertFromDoc } from "./pdf-convert-from-doc/contract";
import { operation as pdfConvertFromHtml } from "./pdf-convert-from-html/contract";
import { operation as xlsConvertToHtml } from "./xls-convert-to-html/contract";
import { operation as xlsConvertToJson } from "./xls-convert-to-json/contract";
import { operation as xlsConvertToTxt } from "./xls-convert-to-txt/contract";
import { operation as xlsConvertToXml } from "./xls-convert-to-xml/contract";
import { operation as pdfConvertFromCsv } from "./pdf-convert-from-csv/contract";
import { operation as pdfConvertFromEmail } from "./pdf-convert-from-email/contract";

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
  pdfDocumentParser,
  pdfConvertToText,
  pdfConvertToTextSimple,
  pdfConvertToJson,
  pdfConvertToJson2,
  pdfConvertToJsonMeta,
  pdfConvertToXml,
  pdfConvertToXlsx,
  pdfConvertToXls,
  pdfConvertToPng,
  pdfConvertToJpg,
  pdfConvertToWebp,
  pdfConvertToTiff,
  pdfFind,
  pdfFindTable,
  pdfEditDeleteText,
  pdfEditReplaceText,
  pdfEditReplaceTextWithImage,
  pdfMakesearchable,
  pdfMakeunsearchable,
  barcodeGenerate,
  barcodeReadFromUrl,
  emailSend,
  emailDecode,
  emailExtractAttachments,
  pdfConvertFromDoc,
  xlsConvertToPdf,
  pdfConvertFromHtml,
  xlsConvertToHtml,
  xlsConvertToJson,
  xlsConvertToTxt,
  xlsConvertToXml,
  pdfConvertFromCsv,
  pdfConvertFromEmail,
  textsenseJobBuild,
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
