import { z } from "zod";
import { common, encryptionProfileKeys, meta, profileKeys, profiles } from "@/lib/operations/fields";
import { defineOperation } from "@/lib/operations/types";

/**
 * POST /v1/pdf/security/remove — the PDF without its encryption, passwords and permission
 * restrictions, opened with `password` (owner or user password, as the public API documents).
 * Cost: 1 per call + 1 per page.
 */
export const operation = defineOperation({
  id: "pdf-security-remove",
  path: "/v1/pdf/security/remove",
  title: "Remove password and permissions",
  summary: "Removes the encryption, passwords and restrictions of a PDF.",
  category: "secure",
  params: z.object({
    url: common.url,
    password: meta(z.string().optional(), {
      label: "PDF password",
      help: "The owner or user password of the PDF (not needed when it opens without one).",
      widget: "password",
    }),
    name: common.name,
    async: common.async,
    callback: common.callback,
    httpusername: common.httpusername,
    httppassword: common.httppassword,
    expiration: common.expiration,
    profiles: profiles({ outputDataFormat: profileKeys.outputDataFormat, ...encryptionProfileKeys }),
  }),
  input: "pdf",
  pageBase: 0,
  cost: { perCall: 1, perPage: 1 },
  resultFile: { name: "result.pdf", contentType: "application/pdf" },
  response: z.object({
    url: z.string().describe("URL of the PDF without encryption."),
  }),
});
