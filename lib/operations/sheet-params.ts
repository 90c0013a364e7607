import { z } from "zod";
import { common, encryptionProfileKeys, meta, profileKeys, profiles } from "@/lib/operations/fields";

/**
 * The request fields every spreadsheet conversion (xls → csv, html, json, txt, xml) shares: the
 * source, the 1-based worksheet, inline, naming, async and the output profiles.
 */
export const sheetParams = {
  url: common.url,
  worksheetIndex: meta(
    z
      .string()
      .regex(/^\s*\d+\s*$/, "worksheetIndex: give the sheet number, 1 for the first sheet")
      .optional(),
    {
      label: "Worksheet",
      help: "Number of the sheet to convert; the first sheet is 1 (default).",
      example: "1",
    },
  ),
  inline: common.inline,
  name: common.name,
  expiration: common.expiration,
  async: common.async,
  callback: common.callback,
  httpusername: common.httpusername,
  httppassword: common.httppassword,
  profiles: profiles({ outputDataFormat: profileKeys.outputDataFormat, ...encryptionProfileKeys }),
};
