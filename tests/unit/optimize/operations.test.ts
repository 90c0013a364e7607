import { beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseParams } from "@/lib/operations/wire";
import {
  jpegQualityForJpeg2000,
  optionsFromV1,
  optionsFromV2Config,
} from "@/lib/engine/optimize/from-config";
import { ssim } from "@/lib/engine/optimize/ssim";
import type { RunContext } from "@/lib/operations/runner-types";
import { DEFAULT_COMPRESS_CONFIG, operation as compressOp } from "@/lib/operations/pdf-compress/contract";
import { run as runCompress } from "@/lib/operations/pdf-compress/runner";
import { operation as optimizeOp } from "@/lib/operations/pdf-optimize/contract";
import { run as runOptimize } from "@/lib/operations/pdf-optimize/runner";
import { listImages, makeImagePdf, photoJpeg, renderGray } from "@/tests/helpers/optimize-fixtures";

let photoPdf: Buffer;

beforeAll(async () => {
  const photo = await photoJpeg(1200, 900, 11);
  photoPdf = makeImagePdf([
    {
      images: [{ image: { type: "jpeg", data: photo }, x: 72, y: 72, width: 288, height: 216 }],
      text: ["Page one"],
    },
    {
      images: [{ image: { type: "jpeg", data: photo }, x: 72, y: 72, width: 288, height: 216 }],
      text: ["Page two"],
    },
  ]);
});

function context<P>(params: P, bytes: Uint8Array): RunContext<P> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "quire-opt-"));
  const src = path.join(dir, "source.pdf");
  writeFileSync(src, bytes);
  return {
    params,
    sources: [
      {
        path: src,
        name: "source.pdf",
        contentType: "application/pdf",
        size: bytes.length,
        url: "https://example.com/source.pdf",
      },
    ],
    workDir: dir,
    fetchUrl: async () => {
      throw new Error("no secondary fetches here");
    },
    log: () => {},
  };
}

describe("pdf-compress contract", () => {
  it("applies the published default config when none is sent", () => {
    const p = parseParams({ url: "https://x/a.pdf" }, compressOp.params);
    expect(p.config).toEqual(DEFAULT_COMPRESS_CONFIG);
  });

  it("fills every member left out of a partial config (sent as a JSON string) with its default", () => {
    const p = parseParams(
      {
        url: "https://x/a.pdf",
        config: JSON.stringify({
          images: {
            color: { downsample: { downsample_ppi: "100" } },
            monochrome: { compression: { compression_format: "ccittgroup3" } },
          },
        }),
      },
      compressOp.params,
    );
    expect(p.config.images.color.downsample).toEqual({
      skip: false,
      downsample_ppi: 100,
      threshold_ppi: 225,
    });
    expect(p.config.images.color.compression).toEqual(DEFAULT_COMPRESS_CONFIG.images.color.compression);
    expect(p.config.images.grayscale).toEqual(DEFAULT_COMPRESS_CONFIG.images.grayscale);
    expect(p.config.images.monochrome.compression.compression_format).toBe("CCITTGroup3");
    expect(p.config.save.garbage).toBe(4);
  });

  it("rejects out-of-range values with 454 naming the field", () => {
    expect(() => parseParams({ url: "u", config: { save: { garbage: 7 } } }, compressOp.params)).toThrow(
      /config\.save\.garbage/,
    );
    expect(() =>
      parseParams(
        { url: "u", config: { images: { color: { compression: { compression_format: "webp" } } } } },
        compressOp.params,
      ),
    ).toThrowError(expect.objectContaining({ status: 454 }));
  });

  it("maps config and the JPEGQuality profile to engine options", () => {
    const config = parseParams({ url: "u" }, compressOp.params).config;
    const o = optionsFromV2Config(config);
    expect(o.images.color).toEqual({
      skip: false,
      downsample: { skip: false, targetPpi: 150, thresholdPpi: 225 },
      compression: { skip: false, format: "jpeg", jpegQuality: 60 },
    });
    expect(o.images.monochrome.compression.format).toBe("ccitt-g4");
    expect(optionsFromV2Config(config, 25).images.grayscale.compression.jpegQuality).toBe(25);
  });

  it.each([
    [{}, 55],
    [{ quality_mode: "rates" as const, quality_layers: [10] }, 85],
    [{ quality_mode: "dB" as const }, 60],
    [{ quality_mode: "dB" as const, quality_layers: [45] }, 95],
  ])("jpeg2000 params %j → JPEG quality %i", (params, q) => {
    expect(jpegQualityForJpeg2000(params)).toBe(q);
  });
});

describe("pdf-compress runner", () => {
  it("answers fileSize, inputFileSize and a smaller PDF that looks the same", async () => {
    const params = parseParams({ url: "https://x/a.pdf", name: "small" }, compressOp.params);
    const ctx = context(params, photoPdf);
    const r = await runCompress(ctx);
    const out = readFileSync(r.outputs![0].path);
    expect(r.outputs![0]).toMatchObject({ name: "small.pdf", contentType: "application/pdf" });
    expect(r.fields).toMatchObject({ fileSize: out.length, inputFileSize: photoPdf.length });
    expect(r.fields!.fileSize as number).toBeLessThan(photoPdf.length);
    expect(r.pageCount).toBe(2);
    expect(r.message).toMatch(/smaller/);
    expect(ssim(renderGray(photoPdf, 0), renderGray(out, 0))).toBeGreaterThan(0.95);
  });

  it("pages limits the images processed and 449 names the last page", async () => {
    const params = parseParams({ url: "u", pages: "!0" }, compressOp.params);
    const r = await runCompress(context(params, photoPdf));
    expect(
      listImages(readFileSync(r.outputs![0].path))
        .map((i) => i.width)
        .sort(),
    ).toEqual([1200, 600]);
    await expect(
      runCompress(context(parseParams({ url: "u", pages: "5" }, compressOp.params), photoPdf)),
    ).rejects.toMatchObject({ status: 449 });
  });
});

describe("pdf-optimize (v1)", () => {
  it("defaults: JPEG quality 25 at 120 dpi; one output (answered as url and urls) and fileSize", async () => {
    const params = parseParams({ url: "u" }, optimizeOp.params);
    const r = await runOptimize(context(params, photoPdf));
    expect(r.multiple).toBeFalsy();
    expect(r.outputs).toHaveLength(1);
    const out = readFileSync(r.outputs![0].path);
    expect(r.fields).toMatchObject({ fileSize: out.length, inputFileSize: photoPdf.length });
    // 1200 px over 4 in = 300 ppi ≥ 180 → 120 ppi = 480 px.
    expect(listImages(out)[0]).toMatchObject({ filter: "/DCTDecode", width: 480, height: 360 });
  });

  it("profiles (as a pseudo-JSON string): Flate, grayscale, resolution", async () => {
    const params = parseParams(
      {
        url: "u",
        profiles:
          "{ 'ImageOptimizationFormat': 'Flate', 'ResamplingResolution': '72', 'GrayscaleImages': true }",
      },
      optimizeOp.params,
    );
    const r = await runOptimize(context(params, photoPdf));
    const [img] = listImages(readFileSync(r.outputs![0].path));
    expect(img).toMatchObject({ filter: "/FlateDecode", width: 288, height: 216, colorSpace: "/DeviceGray" });
  });

  it("ResampleImages false keeps the pixel size", async () => {
    const params = parseParams({ url: "u", profiles: { ResampleImages: "false" } }, optimizeOp.params);
    const r = await runOptimize(context(params, photoPdf));
    expect(listImages(readFileSync(r.outputs![0].path))[0]).toMatchObject({
      filter: "/DCTDecode",
      width: 1200,
    });
  });

  it("Fax makes every image 1-bit CCITT G4", () => {
    const o = optionsFromV1({
      ImageOptimizationFormat: "Fax",
      JPEGQuality: 25,
      ResampleImages: true,
      ResamplingResolution: 120,
      GrayscaleImages: false,
    });
    expect(o.convertColor).toBe("mono");
    expect(o.images.color.compression.format).toBe("ccitt-g4");
    expect(o.images.monochrome.downsample).toEqual({ skip: false, targetPpi: 240, thresholdPpi: 360 });
  });

  it("is marked deprecated", () => {
    expect(optimizeOp.deprecated).toBe(true);
    expect(optimizeOp.response.shape).toHaveProperty("urls");
    expect(optimizeOp.response.shape).toHaveProperty("url");
    expect(optimizeOp.resultFile).toMatchObject({ alsoUrls: true });
    expect(optimizeOp.resultFile?.multiple).toBeFalsy();
  });
});
