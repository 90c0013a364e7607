import { describe, expect, it } from "vitest";
import { checkHtmlTemplate, parseTemplateData, renderHtmlTemplate } from "@/lib/engine/templates/html-template";
import { systemTemplates } from "@/lib/engine/templates/system-templates";

describe("HTML templates (Mustache)", () => {
  it("renders values HTML-escaped, triple braces raw, sections over lists and inverted sections", () => {
    const html = renderHtmlTemplate(
      "<h1>{{title}}</h1>{{{raw}}}<ul>{{#items}}<li>{{name}}: {{price}}</li>{{/items}}</ul>{{^empty}}<p>none</p>{{/empty}}",
      { title: "A & <B>", raw: "<b>bold</b>", items: [{ name: "Pen", price: "1.50" }, { name: "Ink", price: "3.00" }], empty: [] },
    );
    expect(html).toBe("<h1>A &#38; &#60;B&#62;</h1><b>bold</b><ul><li>Pen: 1.50</li><li>Ink: 3.00</li></ul><p>none</p>");
  });

  it("reports a syntax error with its line and column", () => {
    const body = "<html>\n<body>\n{{#items}}\n<p>{{name}}</p>\n</body>";
    const problems = checkHtmlTemplate(body);
    expect(problems).toHaveLength(1);
    expect(problems[0].message).toMatch(/Unclosed section "items"/);
    expect(problems[0].line).toBeGreaterThanOrEqual(3);
    const unopened = checkHtmlTemplate("line one\nline two {{/x}}");
    expect(unopened[0]).toMatchObject({ line: 2, message: expect.stringMatching(/Unopened section "x"/) });
    expect(() => renderHtmlTemplate("a\n{{#x}}", {}, "template 7")).toThrow(/^template 7: line 2, column 1: Unclosed section "x"/);
    expect(checkHtmlTemplate("fine {{x}}")).toEqual([]);
  });

  it("takes templateData as an object or JSON text, and refuses anything else with 400", () => {
    expect(parseTemplateData('{"a": 1}')).toEqual({ a: 1 });
    expect(parseTemplateData({ b: [1] })).toEqual({ b: [1] });
    expect(parseTemplateData(undefined)).toEqual({});
    expect(() => parseTemplateData("{nope")).toThrow(/templateData: not valid JSON/);
    expect(() => parseTemplateData("[1,2]")).toThrow(/give a JSON object/);
  });

  it("refuses a rendered page past the size cap (413) instead of exhausting memory", () => {
    const items = Array.from({ length: 2_000 }, () => ({ x: "y".repeat(30_000) }));
    try {
      renderHtmlTemplate("{{#items}}{{x}}{{/items}}", { items });
      expect.unreachable();
    } catch (e) {
      expect((e as { status: number }).status).toBe(413);
    }
  });

  it("every built-in template parses and renders its own sample data", () => {
    for (const t of systemTemplates) {
      expect(checkHtmlTemplate(t.body)).toEqual([]);
      const html = renderHtmlTemplate(t.body, JSON.parse(t.testJson));
      expect(html).not.toMatch(/{{|}}/);
      expect(html).toContain("2026-0042");
    }
  });
});
