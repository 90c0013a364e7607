import { z } from "zod";
import { common, encryptionProfileKeys, jobFields, profileKeys, profiles } from "@/lib/operations/fields";
import { defineOperation } from "@/lib/operations/types";

export const foundTableSchema = z.object({
  PageIndex: z.number().int().describe("0-based page of the table."),
  X: z.number().describe("Left edge, points from the left of the page as displayed."),
  Y: z.number().describe("Top edge, points from the top of the page."),
  Width: z.number(),
  Height: z.number(),
  rect: z.string().describe('"X,Y,Width,Height": pass it as `rect` to /v1/pdf/convert/to/csv (with `pages` = PageIndex) to extract this table only.'),
  Columns: z.array(z.number()).describe("Left edge (x, points) of each column."),
  Rows: z.number().int().describe("Number of rows."),
  Source: z.enum(["borders", "content"]).describe("borders: found from ruling lines; content: from the alignment of the text."),
});

/**
 * POST /v1/pdf/find/table — the tables of the selected pages as the table engine of the
 * extraction operations sees them (ruling lines where a table has them, aligned text columns
 * elsewhere): page, box, `rect` for the extraction endpoints, column edges.
 * The list is in `body.tables`; without `inline` it is also stored as a JSON file (`url`).
 * Cost: 1 per call + 1 per page searched.
 */
export const operation = defineOperation({
  id: "pdf-find-table",
  path: "/v1/pdf/find/table",
  title: "Find tables",
  summary: "Finds the tables of a PDF and answers each with its page, box and column edges.",
  category: "extract",
  params: z.object({
    url: common.url,
    pages: common.pages0,
    inline: common.inline,
    ...jobFields,
    profiles: profiles({ outputDataFormat: profileKeys.outputDataFormat, ...encryptionProfileKeys }),
  }),
  input: "pdf",
  pageBase: 0,
  cost: { perCall: 1, perPage: 1 },
  resultFile: { name: "result.json", contentType: "application/json" },
  response: z.object({
    body: z.object({ tables: z.array(foundTableSchema) }),
    url: z.string().optional().describe("URL of the same answer as a JSON file (without inline)."),
  }),
});
