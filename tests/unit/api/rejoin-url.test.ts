import { describe, expect, test } from "vitest";
import { rejoinCutUrl } from "@/lib/api/router";

/** A file link pasted unencoded into a query string (the official samples do) is put back together. */
describe("rejoinCutUrl", () => {
  const link = "http://q.test/files/0123/sample.pdf?exp=1700000000&sig=AbC-_9";

  test("a link cut at its own & is joined back", () => {
    expect(rejoinCutUrl(`?name=result.pdf&password=&url=${link}`)).toBe(link);
    expect(rejoinCutUrl(`?url=${link}&name=result.pdf`)).toBe(link);
  });

  test("several links of a comma-separated list", () => {
    const other = "http://q.test/files/4567/b.pdf?exp=1700000001&sig=XyZ";
    expect(rejoinCutUrl(`?url=${link},${other}&async=True`)).toBe(`${link},${other}`);
  });

  test("an object store's presigned link (X-Amz-… parameters)", () => {
    const s3 = "https://bucket.s3.test/a.pdf?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=k%2F2024&X-Amz-Signature=abc";
    expect(rejoinCutUrl(`?name=r.pdf&url=${s3}`)).toBe(decodeURIComponent(s3));
  });

  test("percent-escapes of the pasted link are read as a query parser would", () => {
    expect(rejoinCutUrl("?url=http://q.test/files/1/My%20Invoice.pdf?exp=1&sig=s")).toBe("http://q.test/files/1/My Invoice.pdf?exp=1&sig=s");
  });

  test("nothing to join: an encoded link, or no url at all", () => {
    expect(rejoinCutUrl(`?url=${encodeURIComponent(link)}&name=x`)).toBeUndefined();
    expect(rejoinCutUrl("?name=x")).toBeUndefined();
    expect(rejoinCutUrl("")).toBeUndefined();
  });
});
