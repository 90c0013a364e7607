import { z } from "zod";
import { common, encryptionProfileKeys, meta, profileKeys, profiles } from "@/lib/operations/fields";
import { caseSensitiveField, regexSearchField } from "@/lib/operations/search-fields";

/**
 * The fields the three text edits share (POST /v1/pdf/edit/delete-text, replace-text,
 * replace-text-with-image): what to search, where, how many, and the usual source fields.
 */
export const textEditFields = {
  url: common.url,
  searchString: meta(z.string().optional(), {
    label: "Search text",
    help: "Text to find (white space matches any white space), or a regular expression with regex.",
    example: "CONFIDENTIAL",
  }),
  regex: regexSearchField("the search strings"),
  caseSensitive: caseSensitiveField(true),
  replacementLimit: meta(z.number().int().min(0).optional(), {
    label: "Limit",
    help: "Most occurrences to act on per search string, in page order. 0 or empty: all.",
    advanced: true,
  }),
  pages: common.pages0,
  password: common.password,
  name: common.name,
  async: common.async,
  callback: common.callback,
  httpusername: common.httpusername,
  httppassword: common.httppassword,
  expiration: common.expiration,
  profiles: profiles({ outputDataFormat: profileKeys.outputDataFormat, ...encryptionProfileKeys }),
};

export const searchStringsField = meta(z.array(z.string()).optional(), {
  label: "Search texts",
  help: "Several texts to find (each acted on in turn), instead of or besides searchString.",
  advanced: true,
});

/**
 * searchString and searchStrings as one list (searchString first), each with the field name an
 * error about it should cite (`searchStrings[2]`). Empty entries are left out.
 */
export function searchList(p: { searchString?: string; searchStrings?: string[] }): { search: string; field: string }[] {
  return [
    ...(p.searchString ? [{ search: p.searchString, field: "searchString" }] : []),
    ...(p.searchStrings ?? []).flatMap((search, i) => (search !== "" ? [{ search, field: `searchStrings[${i}]` }] : [])),
  ];
}
