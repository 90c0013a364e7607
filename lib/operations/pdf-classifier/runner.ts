import "server-only";
import { readFile } from "node:fs/promises";
import type { z } from "zod";
import { QuireError } from "@/lib/core/errors";
import { formatRuleErrors, parseRules, type ParsedRules } from "@/lib/engine/classify/parse-rules";
import { matchRules } from "@/lib/engine/classify/match-rules";
import { classifyBuiltin } from "@/lib/engine/classify/builtin";
import { pageTexts, readClassifierText } from "@/lib/engine/classify/document-text";
import type { Runner } from "@/lib/operations/runner-types";
import type { operation } from "./contract";

type Params = z.infer<typeof operation.params>;

const MAX_RULES_BYTES = 1024 * 1024;

/** Rules first (a bad rule fails before any page is read), then the text, then the classes. */
export const run: Runner<Params> = async (ctx) => {
  const source = ctx.sources[0];
  if (!source) throw new QuireError(400, "url: give the URL of a PDF, JPG, PNG or TIFF document.");
  const rules = await loadRules(ctx.params, ctx.fetchUrl);
  const p = ctx.params.profiles ?? {};
  const bytes = await readFile(source.path);
  const gamma = p["OCRImagePreprocessingFilters.AddGammaCorrection"]
    ?.map(Number)
    .filter((n) => Number.isFinite(n) && n > 0);
  const text = await readClassifierText(bytes, {
    password: ctx.params.password,
    ocrMode: p.OCRMode,
    ocrResolution: p.OCRResolution,
    rotation: p.RotationAngle,
    grayscale: p["OCRImagePreprocessingFilters.AddGrayscale"],
    gamma,
    useTextLayer: p.RenderTextObjects,
    useImages: p.RenderImageObjects,
  });
  const fields: Record<string, unknown> = {};
  if (rules) {
    const { classes, matches } = matchRules(rules.rules, pageTexts(text.pages), {
      caseSensitive: ctx.params.caseSensitive ?? true,
    });
    fields.body = { classes: classes.map((c) => ({ class: c })) };
    if (p.IncludeMatchDetails) fields.matches = matches;
    ctx.log(`${rules.rules.length} rule(s), ${classes.length} matched`);
  } else {
    const r = classifyBuiltin(text.pages, { formFields: text.formFields });
    // Type first, then what refines it (an invoice that is a credit note), then who and where.
    const classes = [r.type, ...r.subclasses, r.organisation, r.country].filter(
      (c): c is string => typeof c === "string" && c !== "",
    );
    fields.body = { classes: classes.map((c) => ({ class: c })) };
    if (p.IncludeMatchDetails) {
      fields.matches = [
        {
          class: r.type,
          logic: "builtin",
          matched: true,
          confidence: r.confidence,
          scores: r.scores,
          subclasses: r.subclasses,
          language: r.language,
          organisation: r.organisation,
          country: r.country,
          countryCode: r.countryCode,
          countryReason: r.countryReason,
          countryEvidence: r.countryEvidence,
        },
      ];
    }
    ctx.log(`built-in: ${r.type} (${r.confidence})`);
  }
  return { fields, pageCount: text.pageCount, pagesProcessed: text.pages.length };
};

async function loadRules(
  params: Params,
  fetchUrl: (url: string) => Promise<{ bytes: Buffer }>,
): Promise<ParsedRules | undefined> {
  let textRules = params.rulescsv;
  if ((!textRules || textRules.trim() === "") && params.rulescsvurl) {
    const file = await fetchUrl(params.rulescsvurl);
    if (file.bytes.length > MAX_RULES_BYTES)
      throw new QuireError(400, "rulescsvurl: the rules file is larger than 1 MB.");
    textRules = file.bytes.toString("utf8");
  }
  if (!textRules || textRules.trim() === "") return undefined;
  const parsed = parseRules(textRules);
  if (parsed.errors.length > 0) throw new QuireError(400, formatRuleErrors(parsed.errors));
  return parsed;
}
