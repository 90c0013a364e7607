import { z } from "zod";
import { common, encryptionProfileKeys, ocrProfileKeys, profiles } from "@/lib/operations/fields";
import { defineOperation } from "@/lib/operations/types";

/**
 * POST /v1/pdf/info — the document info object of the public API, which lists the OCR, line
 * grouping and column profile keys for this endpoint, so they are accepted (and have no
 * effect: nothing is extracted). Cost: 1 credit per call whatever the page count.
 */
export const operation = defineOperation({
  id: "pdf-info",
  path: "/v1/pdf/info",
  title: "PDF info",
  summary:
    "Page count, metadata (title, author, dates...), bookmarks, first-page size, encryption and permissions of a PDF.",
  category: "info",
  params: z.object({
    url: common.url,
    password: common.password,
    callback: common.callback,
    httpusername: common.httpusername,
    httppassword: common.httppassword,
    async: common.async,
    profiles: profiles({ ...ocrProfileKeys, ...encryptionProfileKeys }),
  }),
  input: "pdf",
  pageBase: 0,
  cost: { perCall: 1, perPage: 0 },
  response: z.object({
    info: z
      .record(z.string(), z.unknown())
      .describe(
        "PageCount, Author, Title, Producer, Subject, Creator, Keywords, Bookmarks, CreationDate, ModificationDate (M/d/yyyy h:mm:ss AM|PM, UTC), Encrypted, EncryptionAlgorithm (0 none, 1 RC4-40, 2 RC4-128, 3 AES-128, 4 AES-256), PageRectangle, and the Permission* booleans.",
      ),
  }),
});
