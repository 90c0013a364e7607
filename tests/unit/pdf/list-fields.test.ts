import { describe, expect, test } from "vitest";
import { listFields } from "@/lib/engine/pdf/list-fields";
import { openPdf } from "@/lib/engine/pdf/open-pdf";
import { encryptPdf, FORM_FIXTURE_FIELDS, makeFormPdf, makePdf } from "@/tests/helpers/pdf-fixtures";

const fieldsOf = (bytes: Uint8Array, password?: string) => {
  const doc = openPdf(bytes, password);
  try {
    return listFields(doc);
  } finally {
    doc.destroy();
  }
};

describe("listFields", () => {
  test("names, values, types, tooltips and pages of every field type", async () => {
    const fields = fieldsOf(await makeFormPdf());
    expect(
      fields.map(({ FieldName, Value, Type, AltFieldName, PageIndex }) => ({
        FieldName,
        Value,
        Type,
        AltFieldName,
        PageIndex,
      })),
    ).toEqual(FORM_FIXTURE_FIELDS);
  });

  test("options of choice fields and radio groups, flags", async () => {
    const byName = Object.fromEntries(fieldsOf(await makeFormPdf()).map((f) => [f.FieldName, f]));
    expect(byName.country.Options).toEqual(["France", "Germany", "Spain"]);
    expect(byName.fruits.Options).toEqual(["Apple", "Banana", "Cherry"]);
    expect(byName.color.Options).toEqual(["red", "green", "blue"]);
    expect(byName.agree.Options).toEqual(["Yes"]);
    expect(byName.name.Options).toBeUndefined();
    expect(byName.name.ReadOnly).toBe(false);
    expect(byName.name.Required).toBe(false);
  });

  test("a PDF without a form has no fields", () => {
    expect(fieldsOf(makePdf({ pages: 2 }))).toEqual([]);
  });

  test("fields of an encrypted form are read with its password", async () => {
    const enc = encryptPdf(await makeFormPdf(), { userPassword: "pw" });
    expect(fieldsOf(enc, "pw").map((f) => f.FieldName)).toEqual(FORM_FIXTURE_FIELDS.map((f) => f.FieldName));
  });
});
