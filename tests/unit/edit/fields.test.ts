import { beforeAll, describe, expect, it } from "vitest";
import * as mupdf from "mupdf";
import { listFields, type FormField } from "@/lib/engine/pdf/list-fields";
import { makeFormPdf, makePdf } from "@/tests/helpers/pdf-fixtures";
import { edit, inkIn, pixel, text } from "./helpers";

let form: Buffer;

beforeAll(async () => {
  form = await makeFormPdf();
});

function fields(bytes: Uint8Array): FormField[] {
  const doc = new mupdf.PDFDocument(Buffer.from(bytes));
  try {
    return listFields(doc);
  } finally {
    doc.destroy();
  }
}

const value = (bytes: Uint8Array, name: string) => fields(bytes).find((f) => f.FieldName === name)?.Value;

describe("edit/add fields: filling existing form fields", () => {
  it("fills text (nested names too), check box, radio group, combo box and list box", async () => {
    const { bytes } = await edit(form, {
      fields: [
        { fieldName: "name", text: "Bob" },
        { fieldName: "address.city", text: "Berlin" },
        { fieldName: "agree", text: "False" },
        { fieldName: "color", text: "blue" },
        { fieldName: "country", text: "Spain" },
        { fieldName: "fruits", text: "Cherry" },
      ],
    });
    expect(value(bytes, "name")).toBe("Bob");
    expect(value(bytes, "address.city")).toBe("Berlin");
    expect(value(bytes, "agree")).toBe("Off");
    expect(value(bytes, "color")).toBe("blue");
    expect(value(bytes, "country")).toBe("Spain");
    expect(value(bytes, "fruits")).toBe("Cherry");
    // The new values are drawn: "Bob" inside the name field's box (72, 122)-(272, 142) from the top.
    expect(inkIn(bytes, [74, 124, 120, 140]).length).toBeGreaterThan(10);
  });

  it("checks a check box with True (any case) and matches option text case-insensitively", async () => {
    const off = await edit(form, { fields: [{ fieldName: "agree", text: "false" }] });
    const on = await edit(off.bytes, {
      fields: [
        { fieldName: "agree", text: "True" },
        { fieldName: "country", text: "france" },
      ],
    });
    expect(value(on.bytes, "agree")).toBe("Yes");
    expect(value(on.bytes, "country")).toBe("France");
  });

  it("unknown field name → 400 naming the form's fields", async () => {
    await expect(edit(form, { fields: [{ fieldName: "nmae", text: "x" }] })).rejects.toMatchObject({
      status: 400,
      message: expect.stringMatching(
        /fields\[0\]\.fieldName: no field named "nmae"; the form's fields are: name, address\.city, agree, color/,
      ),
    });
    await expect(edit(makePdf(), { fields: [{ fieldName: "a", text: "x" }] })).rejects.toMatchObject({
      status: 400,
      message: /no form fields/,
    });
  });

  it("a value that is not an option → 454 listing the options", async () => {
    await expect(edit(form, { fields: [{ fieldName: "country", text: "Narnia" }] })).rejects.toMatchObject({
      status: 454,
      message: expect.stringContaining("France, Germany, Spain"),
    });
    await expect(edit(form, { fields: [{ fieldName: "color", text: "purple" }] })).rejects.toMatchObject({
      status: 454,
      message: expect.stringContaining("red, green, blue"),
    });
    await expect(edit(form, { fields: [{ fieldName: "submit", text: "x" }] })).rejects.toMatchObject({
      status: 454,
    });
  });
});

describe("edit/add annotations: new form fields", () => {
  it("adds TextField, TextFieldMultiline, Checkbox and CheckboxChecked named by id", async () => {
    const { bytes } = await edit(makePdf(), {
      annotations: [
        text("prefilled", 72, 200, { type: "TextField", id: "first" }),
        text("line 1\nline 2", 72, 250, { type: "TextFieldMultiline", id: "notes", width: 200 }),
        text("", 72, 350, { type: "Checkbox", id: "opt" }),
        text("", 100, 350, { type: "CheckboxChecked", id: "ok", color: "#FF0000" }),
      ],
    });
    const f = fields(bytes);
    expect(f.map((x) => [x.FieldName, x.Type, x.Value, x.PageIndex])).toEqual([
      ["first", "EditBox", "prefilled", 0],
      ["notes", "EditBox", "line 1\nline 2", 0],
      ["opt", "CheckBox", "Off", 0],
      ["ok", "CheckBox", "Yes", 0],
    ]);
    const doc = new mupdf.PDFDocument(Buffer.from(bytes));
    const widgets = doc.loadPage(0).getWidgets();
    const notes = widgets.find((w) => w.getName() === "notes")!;
    expect(notes.isMultiline()).toBe(true);
    // Widget rectangles follow x, y (from the top) and width.
    const r = notes.getBounds();
    expect(r[0]).toBeCloseTo(72, 0);
    expect(r[1]).toBeCloseTo(250, 0);
    expect(r[2]).toBeCloseTo(272, 0);
    // The checked box shows a red check mark; the unchecked one only its border.
    expect(inkIn(bytes, [102, 352, 112, 362]).some(([red, g, b]) => red > 200 && g < 80 && b < 80)).toBe(
      true,
    );
    expect(inkIn(bytes, [75, 353, 83, 361])).toHaveLength(0);
    expect(pixel(bytes, 72.5, 357)[0]).toBeLessThan(100); // left border
  });

  it("one field with a widget on every selected page; a taken name gets a suffix and a note", async () => {
    const { bytes, notes } = await edit(await makeFormPdf(), {
      annotations: [text("shared", 300, 300, { type: "TextField", id: "name", pages: "0-1" })],
    });
    const mine = fields(bytes).filter((f) => f.FieldName === "name_2");
    expect(mine).toHaveLength(1);
    expect(mine[0].Value).toBe("shared");
    expect(notes.join(" ")).toMatch(/"name" already exists.*"name_2"/);
    const doc = new mupdf.PDFDocument(Buffer.from(bytes));
    for (const p of [0, 1])
      expect(
        doc
          .loadPage(p)
          .getWidgets()
          .some((w) => w.getName() === "name_2"),
      ).toBe(true);
  });

  it("fields without id get field1, field2...", async () => {
    const { bytes } = await edit(makePdf(), {
      annotations: [text("", 72, 100, { type: "Checkbox" }), text("v", 72, 150, { type: "TextField" })],
    });
    expect(fields(bytes).map((f) => f.FieldName)).toEqual(["field1", "field2"]);
  });

  it("keeps widgets upright and in place on rotated pages", async () => {
    const { bytes } = await edit(makePdf({ rotate: 90 }), {
      annotations: [
        text("", 50, 170, { type: "CheckboxChecked", id: "c", width: 30, height: 20 }),
        text("value", 50, 100, { type: "TextField", id: "t", width: 120, height: 20 }),
      ],
    });
    const doc = new mupdf.PDFDocument(Buffer.from(bytes));
    const byName = Object.fromEntries(
      doc
        .loadPage(0)
        .getWidgets()
        .map((w) => [w.getName(), w.getBounds()]),
    );
    for (const [name, want] of [
      ["c", [50, 170, 80, 190]],
      ["t", [50, 100, 170, 120]],
    ] as const) {
      byName[name].forEach((v, i) => expect(v).toBeCloseTo(want[i], 0));
    }
    // The check mark's long stroke rises to the right as on an upright page: ink near its top right.
    const ink = inkIn(bytes, [70, 172, 78, 178]);
    expect(ink.length).toBeGreaterThan(0);
  });
});
