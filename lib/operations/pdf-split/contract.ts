import { z } from "zod";
import { common, encryptionProfileKeys, profileKeys, profiles } from "@/lib/operations/fields";
import { defineOperation } from "@/lib/operations/types";

/**
 * POST /v1/pdf/split — one PDF per item of the 1-based `pages` (empty: one per page), named
 * `result_page1-2.pdf` (or `<name without .pdf>_page1-2.pdf` when `name` is given).
 * Cost: 1 per call + 1 per page of the source (pageCount is the source's page count).
 */
export const operation = defineOperation({
  id: "pdf-split",
  path: "/v1/pdf/split",
  title: "Split PDF",
  summary: "Splits a PDF into several PDFs: one per page, or one per page range you list.",
  category: "organize",
  params: z.object({
    url: common.url,
    pages: common.pages1,
    password: common.password,
    name: common.name,
    inline: common.inline,
    async: common.async,
    callback: common.callback,
    httpusername: common.httpusername,
    httppassword: common.httppassword,
    expiration: common.expiration,
    profiles: profiles({ outputDataFormat: profileKeys.outputDataFormat, ...encryptionProfileKeys }),
  }),
  input: "pdf",
  pageBase: 1,
  cost: { perCall: 1, perPage: 1 },
  resultFile: { name: "result.pdf", contentType: "application/pdf", multiple: true },
  response: z.object({
    urls: z.array(z.string()).describe("One URL per output PDF, in the order of `pages`."),
  }),
});
