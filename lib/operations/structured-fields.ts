import { z } from "zod";
import { common, encryptionProfileKeys, ocrProfileKeys, profileKeys, profiles } from "@/lib/operations/fields";
import { extractionFields, tableProfileKeys } from "@/lib/operations/extraction-fields";

/** Request fields of PDF → JSON, JSON2, JSON-meta and XML (universal; docs/convert.md). */
export const structuredParams = z.object({
  url: common.url,
  pages: common.pages0,
  ...extractionFields,
  inline: common.inline,
  password: common.password,
  async: common.async,
  name: common.name,
  expiration: common.expiration,
  callback: common.callback,
  httpusername: common.httpusername,
  httppassword: common.httppassword,
  profiles: profiles({
    ...ocrProfileKeys,
    ...tableProfileKeys,
    outputDataFormat: profileKeys.outputDataFormat,
    ...encryptionProfileKeys,
  }),
});

export const jsonResponse = z.object({
  url: z.string().optional().describe("URL of the JSON file (without inline)."),
  body: z.record(z.string(), z.unknown()).optional().describe("The JSON document (inline: true): { document: { page: [...] } } (docs/convert.md)."),
});

export const xmlResponse = z.object({
  url: z.string().optional().describe("URL of the XML file (without inline)."),
  body: z.string().optional().describe("The XML text (inline: true)."),
});
