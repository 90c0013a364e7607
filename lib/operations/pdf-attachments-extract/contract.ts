import { z } from "zod";
import { common, encryptionProfileKeys, profileKeys, profiles } from "@/lib/operations/fields";
import { defineOperation } from "@/lib/operations/types";

/**
 * POST /v1/pdf/attachments/extract — every embedded file (document EmbeddedFiles and
 * FileAttachment annotations) under its original, de-duplicated name. No attachments is a
 * success with `urls: []`. Cost: 1 per call.
 */
export const operation = defineOperation({
  id: "pdf-attachments-extract",
  path: "/v1/pdf/attachments/extract",
  title: "Extract attachments",
  summary: "Extracts the files embedded in a PDF (attachments and portfolio files), one URL per file.",
  category: "extract",
  params: z.object({
    url: common.url,
    password: common.password,
    inline: common.inline,
    async: common.async,
    callback: common.callback,
    httpusername: common.httpusername,
    httppassword: common.httppassword,
    expiration: common.expiration,
    profiles: profiles({ outputDataFormat: profileKeys.outputDataFormat, ...encryptionProfileKeys }),
  }),
  input: "pdf",
  pageBase: 0,
  cost: { perCall: 1, perPage: 0 },
  resultFile: { name: "attachments", contentType: "application/octet-stream", multiple: true },
  response: z.object({
    urls: z.array(z.string()).describe("One URL per extracted file, named as in the PDF; [] when there are none."),
  }),
});
