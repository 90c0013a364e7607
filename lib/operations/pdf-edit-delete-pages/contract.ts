import { z } from "zod";
import { common, encryptionProfileKeys, jobFields, meta, profileKeys, profiles } from "@/lib/operations/fields";
import { defineOperation } from "@/lib/operations/types";

/**
 * POST /v1/pdf/edit/delete-pages — removes the pages of `pages` (1-based, as the public API
 * documents for this path: `1-2` deletes the first two pages; `!1` is the last page). The rest of
 * the file (bookmarks, links, form fields on kept pages, attachments, metadata, encryption)
 * stays. Cost: 1 per call + 1 per page of the output.
 */
export const operation = defineOperation({
  id: "pdf-edit-delete-pages",
  path: "/v1/pdf/edit/delete-pages",
  title: "Delete pages",
  summary: "Removes pages from a PDF, keeping its bookmarks, links, form fields and attachments.",
  category: "organize",
  params: z.object({
    url: common.url,
    pages: meta(z.string().trim().min(1, "pages: name the pages to delete, e.g. 1-2 or 3,5,!1"), {
      label: "Pages to delete",
      help: "1-based pages to delete: 1, 2-5, 7- (to the end), !1 (the last page), comma-separated. At least one page must remain.",
      widget: "pages",
      example: "1-2",
    }),
    ...jobFields,
    profiles: profiles({ outputDataFormat: profileKeys.outputDataFormat, ...encryptionProfileKeys }),
  }),
  input: "pdf",
  pageBase: 1,
  cost: { perCall: 1, perPage: 1 },
  resultFile: { name: "result.pdf", contentType: "application/pdf" },
  response: z.object({
    url: z.string().describe("URL of the PDF without the deleted pages."),
  }),
});
