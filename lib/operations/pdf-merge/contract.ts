import { z } from "zod";
import { common, encryptionProfileKeys, meta, profileKeys, profiles } from "@/lib/operations/fields";
import { defineOperation } from "@/lib/operations/types";

/** The request fields of both merges (merge takes PDFs, merge2 also converts other documents). */
export function mergeParams(what: { label: string; help: string; example: string }) {
  return z.object({
    url: meta(z.string().min(1, "url: give the URLs of the files to merge, separated by commas"), {
      label: what.label,
      help: what.help,
      widget: "files",
      example: what.example,
    }),
    password: meta(z.string().optional(), {
      label: "PDF password",
      help: "Password of the encrypted input PDFs (the same for every input that needs one).",
      widget: "password",
      advanced: true,
    }),
    passwords: meta(z.array(z.string().max(1000).nullish()).max(500).optional(), {
      label: "Password per input",
      help: 'One password per URL of `url`, in the same order, as a JSON array ("" or null for an input without one), e.g. ["", "secret"]. An input\'s own password wins over `password`.',
      advanced: true,
      example: ["", "secret"],
    }),
    name: common.name,
    expiration: common.expiration,
    async: common.async,
    callback: common.callback,
    httpusername: common.httpusername,
    httppassword: common.httppassword,
    profiles: profiles({
      outputDataFormat: profileKeys.outputDataFormat,
      RenameMatchingFieldsDuringMerge: meta(z.boolean().optional(), {
        label: "Rename clashing form fields",
        help: "A form field whose name an earlier input already uses gets a new name (name → name_2), so both fields keep their own value (default true). false keeps the names.",
        advanced: true,
        default: true,
      }),
      GenerateBookmarks: meta(z.boolean().optional(), {
        label: "Bookmark per input",
        help: "Adds one top-level bookmark per input, named by its file name, holding that input's own bookmarks (default false).",
        advanced: true,
      }),
      ...encryptionProfileKeys,
    }),
  });
}

/**
 * POST /v1/pdf/merge — the PDFs of the comma-separated `url`, merged in order into one PDF with
 * their bookmarks, links and form fields. Cost: 1 per call + 1 per page of the merged PDF.
 */
export const operation = defineOperation({
  id: "pdf-merge",
  path: "/v1/pdf/merge",
  title: "Merge PDFs",
  summary: "Merges several PDFs into one, in order, keeping their bookmarks, links and form fields.",
  category: "organize",
  params: mergeParams({
    label: "PDF URLs",
    help: "URLs of the PDFs to merge, separated by commas, in order.",
    example: "https://example.com/a.pdf,https://example.com/b.pdf",
  }),
  input: "pdfs",
  pageBase: 0,
  cost: { perCall: 1, perPage: 1 },
  resultFile: { name: "result.pdf", contentType: "application/pdf" },
  response: z.object({
    url: z.string().describe("URL of the merged PDF."),
  }),
});
