import { z } from "zod";
import { common, encryptionProfileKeys, profiles } from "@/lib/operations/fields";
import { defineOperation } from "@/lib/operations/types";

/**
 * POST /v1/pdf/info/fields — the info object of /v1/pdf/info plus the form fields, in PDF.co's
 * shape: `info.FieldsInfo.Fields[]`, each with FieldName, Value, Type, AltFieldName, PageIndex
 * (0-based) and Quire's extras Options, ReadOnly, Required (lib/engine/pdf/list-fields.ts).
 * The public API does not show its request; it takes what /v1/pdf/info takes. Cost: 1 per call.
 */
export const operation = defineOperation({
  id: "pdf-info-fields",
  path: "/v1/pdf/info/fields",
  title: "PDF form fields",
  summary: "Document info plus every fillable form field: name, type, value, tooltip and page.",
  category: "info",
  params: z.object({
    url: common.url,
    password: common.password,
    callback: common.callback,
    httpusername: common.httpusername,
    httppassword: common.httppassword,
    async: common.async,
    profiles: profiles({ ...encryptionProfileKeys }),
  }),
  input: "pdf",
  pageBase: 0,
  cost: { perCall: 1, perPage: 0 },
  response: z.object({
    info: z
      .record(z.string(), z.unknown())
      .describe(
        "The /v1/pdf/info object plus FieldsInfo.Fields: [{FieldName, Value, Type (EditBox, CheckBox, RadioButton, PushButton, ComboBox, ListBox, Signature), AltFieldName, PageIndex (0-based, -1 if none), Options, ReadOnly, Required}].",
      ),
  }),
});
