import { describe, expect, it } from "vitest";
import { operation, pageRangeToPages, readTextSenseOptions, textSenseBaseName } from "@/lib/operations/textsense-job-build/contract";

/** textsense-job-build: reading the public API's nested options, page ranges and output names. */
describe("textsense-job-build options", () => {
  const opt = (option: Record<string, unknown>) => ({ extraJobs: { type: "textSense", option: { reqType: "Document", reqOption: {}, ...option } } });

  it("reads outputType (any case, txt/text), pageRange and reqOption.lang from an object, a JSON string or a one-item array", () => {
    expect(readTextSenseOptions(opt({ outputType: "PDF", pageRange: "1-3, 5" }))).toEqual({ job: { outputType: "pdf", pageRange: "1-3,5" }, problems: [] });
    expect(readTextSenseOptions(JSON.stringify(opt({ outputType: "text", reqOption: { lang: "deu" } }))).job).toEqual({ outputType: "txt", lang: "deu" });
    expect(readTextSenseOptions({ extraJobs: [{ type: "textsense", option: { outputType: "json" } }] }).job.outputType).toBe("json");
    expect(readTextSenseOptions(undefined)).toEqual({ job: { outputType: "json" }, problems: [] });
  });

  it("names each problem by its path", () => {
    const paths = (o: unknown) => readTextSenseOptions(o).problems.map(([p]) => p);
    expect(paths(opt({ outputType: "docx" }))).toEqual(["options.extraJobs.option.outputType"]);
    expect(paths(opt({ pageRange: "0" }))).toEqual(["options.extraJobs.option.pageRange"]);
    expect(paths(opt({ pageRange: "a-b" }))).toEqual(["options.extraJobs.option.pageRange"]);
    expect(paths({ extraJobs: { type: "other" } })).toEqual(["options.extraJobs.type"]);
    expect(paths(opt({ reqType: "Table" }))).toEqual(["options.extraJobs.option.reqType"]);
    expect(paths("not json")).toEqual(["options"]);
  });

  it("turns the 1-based pageRange into 0-based pages and keeps open ranges", () => {
    expect(pageRangeToPages("1-3,5")).toBe("0-2,4");
    expect(pageRangeToPages("2-")).toBe("1-");
    expect(pageRangeToPages(undefined)).toBeUndefined();
  });

  it("names the promised output by outputType and name", () => {
    expect(operation.resultFileFor!({ url: "x", options: opt({ outputType: "pdf" }) } as never)).toEqual({ name: "result.pdf", contentType: "application/pdf" });
    expect(operation.resultFileFor!({ url: "x", name: "scan.tif", options: opt({ outputType: "txt" }) } as never)).toEqual({ name: "scan.txt", contentType: "text/plain" });
    expect(textSenseBaseName("  ")).toBe("result");
  });
});
