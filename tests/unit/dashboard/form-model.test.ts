import { describe, expect, it } from "vitest";
import { z } from "zod";
import { meta, common } from "@/lib/operations/fields";
import { defineOperation } from "@/lib/operations/types";
import { buildFormModel, initialValues, parseJsonText, toRequestBody, validateValues } from "@/lib/dashboard/operations/form-model";
import { operations } from "@/lib/operations/registry";

const sample = defineOperation({
  id: "sample-op",
  path: "/v1/sample",
  title: "Sample",
  summary: "A sample.",
  category: "info",
  params: z.object({
    url: common.url,
    pages: common.pages0,
    async: common.async,
    callback: common.callback,
    quality: meta(z.number().int().min(1).max(100).default(25), { label: "Quality", help: "1 to 100" }),
    mode: meta(z.enum(["Auto", "Never"]).optional(), { label: "Mode" }),
    gray: meta(z.boolean().default(false), { label: "Grayscale", advanced: true }),
    annotations: meta(z.array(z.object({ text: z.string(), x: z.number(), y: z.number() })).optional(), { label: "Annotations" }),
    profiles: meta(z.object({ OCRMode: meta(z.enum(["Auto", "Always"]).optional(), { label: "OCR mode" }) }).optional(), { label: "Profiles", widget: "json" }),
  }),
  input: "pdf",
  pageBase: 0,
  cost: { perCall: 1, perPage: 0 },
  response: z.object({}),
});

describe("form model (lib/dashboard/form-model)", () => {
  const model = buildFormModel(sample);
  const byName = Object.fromEntries(model.fields.map((f) => [f.name, f]));

  it("reads label, help, default, allowed values and sections from the contract", () => {
    expect(byName.url).toMatchObject({ label: "Source URL", required: true, section: "source", widget: "url" });
    expect(byName.quality).toMatchObject({ kind: "integer", default: 25, minimum: 1, maximum: 100, required: false });
    expect(byName.mode).toMatchObject({ kind: "enum", options: ["Auto", "Never"] });
    expect(byName.gray).toMatchObject({ kind: "boolean", advanced: true, section: "advanced" });
    expect(byName.async.section).toBe("delivery");
    expect(byName["profiles.OCRMode"]).toMatchObject({ section: "profiles", options: ["Auto", "Always"] });
    expect(byName.annotations.kind).toBe("object-array");
    expect(byName.annotations.itemFields?.map((f) => f.key)).toEqual(["text", "x", "y"]);
  });

  it("keeps the contract's own validation messages", () => {
    expect(byName.url.messages.min_length).toBe("url: give the URL of the source file");
    const errors = validateValues(model, { ...initialValues(model), url: "" });
    expect(errors.url).toBe("url: give the URL of the source file");
  });

  it("validates numbers, URLs and JSON", () => {
    const v = { ...initialValues(model), url: "https://x/a.pdf", quality: "300", callback: "nope", "profiles.$extra": "{ bad" };
    const e = validateValues(model, v);
    expect(e.quality).toMatch(/at most 100/);
    expect(e.callback).toBe("callback: must be an http(s) URL");
    expect(e["profiles.$extra"]).toMatch(/Invalid JSON/);
  });

  it("serialises only what was set, with profiles merged", () => {
    const v = { ...initialValues(model), url: "https://x/a.pdf", pages: "0-2", quality: "25", "profiles.OCRMode": "Always", "profiles.$extra": '{"Extra": 1}' };
    expect(toRequestBody(model, v)).toEqual({ url: "https://x/a.pdf", pages: "0-2", profiles: { OCRMode: "Always", Extra: 1 } });
  });

  it("reports the JSON error line", () => {
    expect(parseJsonText('{\n "a": 1,\n}').error).toMatch(/line 3/);
  });

  it("builds a model for every registered operation", () => {
    for (const op of operations) {
      const m = buildFormModel(op);
      expect(m.fields.length).toBeGreaterThan(0);
      // Operations without a source file (barcode generate, e-mail send) have no required url;
      // HTML → PDF's source is its html field.
      if (op.id === "pdf-convert-from-html") expect(m.fields.find((f) => f.name === "html")).toBeTruthy();
      else if (op.input !== "none") expect(m.fields.find((f) => f.name === "url")?.required, op.id).toBe(true);
      for (const f of m.fields) expect(f.label).toBeTruthy();
    }
  });
});
