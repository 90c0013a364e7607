import { z } from "zod";
import { common, encryptionProfileKeys, meta, profileKeys, profiles } from "@/lib/operations/fields";
import { defineOperation } from "@/lib/operations/types";

const allow = (label: string, help: string) =>
  meta(z.boolean().optional(), { label, help: `${help} Applies to readers with the user password (or none); the owner password lifts every restriction. Default false.` });

/**
 * POST /v1/pdf/security/add — encrypts a PDF with an owner password (lifts restrictions), an
 * optional user password (needed to open it), an algorithm (AES_256bit default) and the
 * permissions of a reader without the owner password (each `allow…` flag, default false).
 * Cost: 1 per call + 1 per page.
 */
export const operation = defineOperation({
  id: "pdf-security-add",
  path: "/v1/pdf/security/add",
  title: "Add password and permissions",
  summary: "Encrypts a PDF with an owner and a user password and sets what readers may do with it.",
  category: "secure",
  params: z.object({
    url: common.url,
    ownerPassword: meta(z.string().optional(), {
      label: "Owner password",
      help: "Lifts every restriction and changes the security. Empty with a user password: a random one is made, so the restrictions can never be lifted.",
      widget: "password",
    }),
    userPassword: meta(z.string().optional(), {
      label: "User password",
      help: "Asked for when the PDF is opened. Empty: anyone can open it, with the permissions below.",
      widget: "password",
    }),
    encryptionAlgorithm: meta(z.enum(["AES_256bit", "AES_128bit", "RC4_128bit", "RC4_40bit"]).optional(), {
      label: "Encryption algorithm",
      help: "AES_256bit (default), AES_128bit, or RC4_128bit / RC4_40bit for very old readers (RC4_40bit only knows printing, copying, changing and annotating).",
    }),
    allowPrintDocument: allow("Allow printing", "Printing."),
    printQuality: meta(z.enum(["HighResolution", "LowResolution"]).optional(), {
      label: "Print quality",
      help: "With printing allowed: HighResolution (default) or LowResolution (a degraded image only; not with RC4_40bit).",
    }),
    allowContentExtraction: allow("Allow copying content", "Copying or extracting text and images."),
    allowAccessibilitySupport: allow("Allow accessibility extraction", "Extracting text for accessibility (screen readers)."),
    allowModifyDocument: allow("Allow changes", "Changing the document other than by the operations below."),
    allowModifyAnnotations: allow("Allow annotations", "Adding or changing annotations (comments), and filling fields."),
    allowFillForms: allow("Allow filling forms", "Filling form fields, signing included."),
    allowAssemblyDocument: allow("Allow assembly", "Inserting, deleting and rotating pages, bookmarks and thumbnails."),
    password: meta(z.string().optional(), {
      label: "Current password",
      help: "Password of the source PDF when it is already encrypted (its owner password when it restricts changes).",
      widget: "password",
      advanced: true,
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
    url: z.string().describe("URL of the encrypted PDF."),
  }),
});
