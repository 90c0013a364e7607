import { describe, expect, it } from "vitest";
import { z } from "zod";
import { coerceObject, parseParams, parseProfiles } from "@/lib/operations/wire";
import { QuireError } from "@/lib/core/errors";

const schema = z.object({
  url: z.string().min(1),
  async: z.boolean().optional(),
  lineGrouping: z.enum(["1", "2", "3"]).optional(),
  worksheetIndex: z.string().optional(),
  x: z.number().optional(),
  orientation: z.enum(["Portrait", "Landscape"]).optional(),
  annotations: z.array(z.object({ text: z.string(), x: z.number(), y: z.number(), fontBold: z.boolean().optional() })).optional(),
  config: z.object({ save: z.object({ garbage: z.number() }).optional() }).optional(),
  profiles: z
    .object({
      JPEGQuality: z.number().optional(),
      "OCRImagePreprocessingFilters.AddGrayscale": z.boolean().optional(),
      "OCRImagePreprocessingFilters.AddGammaCorrection": z.array(z.string()).optional(),
    })
    .optional(),
});

describe("wire coercion (API-COMPAT leniencies)", () => {
  it.each([
    [{ url: "u", async: "True" }, { url: "u", async: true }],
    [{ url: "u", async: "false" }, { url: "u", async: false }],
    [{ URL: "u", LINEGROUPING: 1 }, { url: "u", lineGrouping: "1" }],
    [{ url: "u", worksheetindex: 2 }, { url: "u", worksheetIndex: "2" }],
    [{ url: "u", x: "10" }, { url: "u", x: 10 }],
    [{ url: "u", orientation: "landscape" }, { url: "u", orientation: "Landscape" }],
    [{ url: "u", password: "", pages: "", encrypt: true, lang: "eng" }, { url: "u" }],
  ])("%j → %j", (raw, expected) => {
    expect(coerceObject(raw, schema)).toEqual(expected);
  });

  it("JSON strings for arrays and objects, nested coercion", () => {
    const r = coerceObject(
      { url: "u", annotations: '[{"text":"a","x":"5","y":6,"fontbold":"true"}]', config: '{"save":{"garbage":"4"}}' },
      schema,
    );
    expect(r.annotations).toEqual([{ text: "a", x: 5, y: 6, fontBold: true }]);
    expect(r.config).toEqual({ save: { garbage: 4 } });
  });

  it("profile keys with and without () and a scalar for an array", () => {
    const r = coerceObject(
      { url: "u", profiles: { "OCRImagePreprocessingFilters.AddGrayscale()": "True", "OCRImagePreprocessingFilters.AddGammaCorrection": "1.4" } },
      schema,
    );
    expect(r.profiles).toEqual({ "OCRImagePreprocessingFilters.AddGrayscale": true, "OCRImagePreprocessingFilters.AddGammaCorrection": ["1.4"] });
  });
});

describe("profiles shapes", () => {
  it.each([
    [{ JPEGQuality: 25 }, { JPEGQuality: 25 }],
    ['{"JPEGQuality": 25}', { JPEGQuality: 25 }],
    ["{ 'JPEGQuality': 25 }", { JPEGQuality: 25 }],
    ["'JPEGQuality': 25", { JPEGQuality: 25 }],
    ['"JPEGQuality": 25, "x": "it\'s"', { JPEGQuality: 25, x: "it's" }],
    ['{"profiles":[{"profile1":{"JPEGQuality":25}}]}', { JPEGQuality: 25 }],
    [{ profiles: [{ profile1: { JPEGQuality: 25 } }] }, { JPEGQuality: 25 }],
  ])("%j", (input, expected) => {
    expect(parseProfiles(input)).toEqual(expected);
  });

  it("empty is absent; unreadable text is 444", () => {
    expect(parseProfiles("")).toBeUndefined();
    try {
      parseProfiles("{this is: not json");
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(QuireError);
      expect((e as QuireError).status).toBe(444);
    }
  });
});

describe("parseParams", () => {
  it("missing required → 400 naming the field; wrong type → 454", () => {
    expect(() => parseParams({}, schema)).toThrow(expect.objectContaining({ status: 400, message: expect.stringContaining("url") }));
    expect(() => parseParams({ url: "u", x: "abc" }, schema)).toThrow(expect.objectContaining({ status: 454 }));
  });
});
