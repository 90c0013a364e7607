import { describe, expect, it } from "vitest";
import { buildUsageChart, colorOf, OTHER, palette } from "@/lib/dashboard/credits/usage-chart";
import { buildNav, groupByCategory, matchesQuery } from "@/lib/dashboard/shell/nav";
import { infoLabel } from "@/lib/dashboard/results/info-labels";
import { decodeCursor, encodeCursor, parseTimeBound } from "@/lib/api/paging";
import { parseRules } from "@/lib/engine/classify/parse-rules";
import { operations } from "@/lib/operations/registry";

const today = new Date("2026-11-24T12:00:00Z");

describe("usage chart", () => {
  it("y ticks are distinct whatever the maximum (no label drawn twice over the axis)", () => {
    for (const credits of [1, 2, 3, 7, 1000]) {
      const c = buildUsageChart([{ day: "2026-11-24", operation: "pdf-info", credits }], 7, today);
      expect(new Set(c.ticks).size).toBe(c.ticks.length);
      expect(c.ticks[0]).toBe(0);
      expect(c.ticks.at(-1)).toBe(credits);
    }
  });
  it("labels at most 8 days, today always among them, none adjacent on a 90-day range", () => {
    for (const days of [7, 30, 90]) {
      const c = buildUsageChart([], days, today);
      expect(c.labelled.length).toBeLessThanOrEqual(8);
      expect(c.labelled.at(-1)).toBe(days - 1);
      if (days > 8) for (let i = 1; i < c.labelled.length; i++) expect(c.labelled[i]! - c.labelled[i - 1]!).toBeGreaterThan(1);
    }
  });
  it("gives each operation its own colour; beyond the palette the smallest are summed as Other", () => {
    const daily = Array.from({ length: 12 }, (_, i) => ({ day: "2026-11-24", operation: `op-${i}`, credits: 100 - i }));
    const c = buildUsageChart(daily, 7, today);
    expect(c.operations).toHaveLength(palette.length);
    expect(c.operations.at(-1)).toBe(OTHER);
    const colours = c.operations.map((o) => colorOf(c, o));
    expect(new Set(colours).size).toBe(colours.length);
    expect(c.totals.at(-1)).toEqual({ operation: OTHER, credits: [93, 92, 91, 90, 89].reduce((a, b) => a + b) });
    expect(c.stacks.at(-1)!.total).toBe(daily.reduce((s, d) => s + d.credits, 0));
  });
});

describe("operations by category", () => {
  it("groups the registry's operations in the categories' order, each operation once", () => {
    const groups = groupByCategory(operations);
    expect(groups.map((g) => g.category).slice(0, 3)).toEqual(["info", "extract", "convert"]);
    expect(groups.flatMap((g) => g.ops).length).toBe(operations.length);
    expect(groups.find((g) => g.category === "secure")?.ops.map((o) => o.id)).toEqual(["pdf-security-add", "pdf-security-remove"]);
  });
  it("a category not in the list (a new one) is listed last, not dropped", () => {
    const groups = groupByCategory([{ id: "a", title: "A", category: "zeta" }, { id: "b", title: "B", category: "info" }]);
    expect(groups.map((g) => g.category)).toEqual(["info", "zeta"]);
    expect(buildNav([{ id: "a", title: "A", category: "zeta" }]).some((g) => g.category === "zeta")).toBe(true);
  });
  it("search matches every word in any order, case-insensitively", () => {
    expect(matchesQuery("Split PDF Splits a PDF pdf-split /v1/pdf/split Organise", "pdf SPLIT")).toBe(true);
    expect(matchesQuery("Split PDF", "split merge")).toBe(false);
    expect(matchesQuery("anything", "  ")).toBe(true);
  });
});

describe("plain words", () => {
  it("names PDF info keys for people", () => {
    expect(infoLabel("PermissionModifyAnnotations")).toBe("May add comments");
    expect(infoLabel("PERMISSIONMODIFYANNOTATIONS")).toBe("May add comments");
    expect(infoLabel("OpenActionURL")).toBe("Open action url");
    expect(infoLabel("page_layout")).toBe("Page layout");
  });
  it("flags a logic word the rules format does not have, without refusing the rules", () => {
    const r = parseRules("Invoice, XOR, invoice, total\nOther, OR, x\nQuoted, \"XOR\", y");
    expect(r.errors).toEqual([]);
    expect(r.warnings).toEqual([{ line: 1, message: expect.stringMatching(/^"XOR" is not a logic word \(use AND or OR\)/) }]);
    expect(r.rules[0]!.keywords.map((k) => k.raw)).toContain("XOR");
  });
});

describe("list paging", () => {
  it("reads dates: a bare `to` date includes that whole day; a bad one names its field", () => {
    expect(parseTimeBound("2026-11-01", "from")!.toISOString()).toBe("2026-11-01T00:00:00.000Z");
    expect(parseTimeBound("2026-11-30", "to")!.toISOString()).toBe("2026-12-01T00:00:00.000Z");
    expect(parseTimeBound("2026-11-30T10:00:00Z", "to")!.toISOString()).toBe("2026-11-30T10:00:00.000Z");
    expect(parseTimeBound("", "from")).toBeUndefined();
    expect(() => parseTimeBound("last week", "from")).toThrow(/^from: /);
  });
  it("cursors round-trip and a tampered one is refused", () => {
    const c = encodeCursor(["2026-11-24 08:53:30.399123+00", 42]);
    expect(decodeCursor(c, ["string", "number"])).toEqual(["2026-11-24 08:53:30.399123+00", 42]);
    expect(() => decodeCursor(c, ["number"])).toThrow(/^cursor: /);
    expect(() => decodeCursor("!!!", ["string"])).toThrow(/^cursor: /);
    expect(decodeCursor(undefined, ["string"])).toBeUndefined();
  });
});

describe("CSV export cells", () => {
  it("keeps numbers, defuses text a spreadsheet would run as a formula", async () => {
    const { csvCell } = await import("@/lib/dashboard/server/export");
    expect(csvCell(-2)).toBe("-2");
    expect(csvCell("-1.5")).toBe("-1.5");
    expect(csvCell("=HYPERLINK(\"http://x\")")).toBe("'=HYPERLINK(\"http://x\")");
    expect(csvCell("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(csvCell(null)).toBe("");
    expect(csvCell("https://example.com/a.pdf")).toBe("https://example.com/a.pdf");
  });
});
