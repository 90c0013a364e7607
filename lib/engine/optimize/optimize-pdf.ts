import "server-only";
import os from "node:os";
import zlib from "node:zlib";
import type * as mupdf from "mupdf";
import { openPdf } from "@/lib/engine/pdf/open-pdf";
import {
  decodeAndResize,
  encodeBitImage,
  encodeFlate,
  encodeJpeg,
  inspectImage,
  isEffectivelyGray,
  isLossyFiltered,
  otsuThreshold,
  packBits,
  readBitImage,
  resizeBitImage,
  toGray,
  writeImage,
  type EncodedImage,
  type ImageInfo,
  type RawPixels,
} from "./images";
import type {
  ImageClassOptions,
  ImageFormat,
  OptimizeOptions,
  OptimizeReport,
  OptimizeResult,
} from "./options";
import { findImagePlacements, type ImagePlacement } from "./placements";

/** Images smaller than this (pixels) are not worth the work. */
const MIN_PIXELS = 32 * 32;
/** Re-encoding an already lossy image at its own size must save at least this share. */
const LOSSY_REENCODE_GAIN = 0.9;

interface Plan {
  info: ImageInfo;
  tw: number;
  th: number;
  /** Output: lossy JPEG, lossless Flate, or 1-bit (CCITT/Flate). */
  kind: "jpeg" | "flate" | "bits";
  bitsFormat: "ccitt-g4" | "ccitt-g3" | "zip";
  jpegQuality: number;
  /** Colour images: convert to one channel. */
  gray: boolean;
  /** 8-bit images thresholded to 1 bit. */
  toBits: boolean;
}

/**
 * Makes a PDF smaller: downsamples images above the threshold resolution of their class,
 * recompresses them (JPEG, Flate with predictors, CCITT G4/G3), recompresses Flate streams,
 * drops unused objects, merges duplicates and packs objects into object streams. A result that
 * is not smaller than the input is discarded and the original bytes are returned.
 */
export async function optimizePdf(input: Uint8Array, options: OptimizeOptions): Promise<OptimizeResult> {
  const notes: string[] = [];
  const doc = openPdf(input, options.password);
  try {
    const pageCount = doc.countPages();
    const placements = findImagePlacements(doc);
    const images = collectImages(doc);
    const report: OptimizeReport = {
      inputSize: input.byteLength,
      outputSize: input.byteLength,
      pageCount,
      keptOriginal: false,
      images: { found: images.list.length, rewritten: 0, downsampled: 0, unreadable: 0 },
      notes,
    };

    const selected = options.pages ? new Set(options.pages) : null;
    const plans: Plan[] = [];
    const fallbackNotes = new Set<string>();
    for (const info of images.list) {
      const parent = images.maskParent.get(info.num);
      const placement = placementOf(info, parent, placements, images.byNum);
      if (selected && !(placement && [...placement.pages].some((p) => selected.has(p)))) continue;
      const plan = planImage(info, parent !== undefined, placement, options, fallbackNotes);
      if (plan) plans.push(plan);
    }
    notes.push(...fallbackNotes);

    await runPool(plans, Math.max(2, Math.min(8, os.availableParallelism())), async (plan) => {
      let enc: EncodedImage | null;
      try {
        enc = await executePlan(doc, plan);
      } catch {
        report.images.unreadable++;
        return;
      }
      if (!enc) return;
      const { info } = plan;
      const resized = plan.tw !== info.width || plan.th !== info.height;
      const limit = !resized && isLossyFiltered(info) ? info.rawLength * LOSSY_REENCODE_GAIN : info.rawLength;
      if (enc.bytes.length >= limit) return;
      writeImage(doc, info, enc);
      report.images.rewritten++;
      if (resized) report.images.downsampled++;
    });

    if (options.recompressFlate) recompressFlateStreams(doc, images.byNum);

    const saveOptions = [
      options.garbage > 0 ? `garbage=${options.garbage}` : "",
      "compress",
      "compress-fonts",
      "compress-images",
      options.objectStreams ? "objstms" : "",
    ].filter(Boolean);
    const buf = doc.saveToBuffer(saveOptions.join(","));
    let out: Uint8Array;
    try {
      out = buf.asUint8Array().slice();
    } finally {
      buf.destroy();
    }
    if (out.byteLength >= input.byteLength) {
      report.keptOriginal = true;
      report.outputSize = input.byteLength;
      notes.push(
        "the optimized file was not smaller than the original, so the original file was returned unchanged",
      );
      return { bytes: input, report };
    }
    report.outputSize = out.byteLength;
    return { bytes: out, report };
  } finally {
    doc.destroy();
  }
}

interface ImageSet {
  list: ImageInfo[];
  byNum: Map<number, ImageInfo>;
  /** Soft masks and stencil masks → the image they belong to. */
  maskParent: Map<number, number>;
}

function collectImages(doc: mupdf.PDFDocument): ImageSet {
  const list: ImageInfo[] = [];
  const byNum = new Map<number, ImageInfo>();
  const maskParent = new Map<number, number>();
  const count = doc.countObjects();
  for (let num = 1; num < count; num++) {
    let info: ImageInfo | null = null;
    try {
      info = inspectImage(num, doc.newIndirect(num));
    } catch {
      continue; // a broken object: leave it to the writer's repair
    }
    if (!info) continue;
    list.push(info);
    byNum.set(num, info);
    for (const key of ["SMask", "Mask"]) {
      const m = info.obj.get(key);
      if (m.isIndirect() && m.isStream()) maskParent.set(m.asIndirect(), num);
    }
  }
  return { list, byNum, maskParent };
}

/** A mask is drawn where its image is: its resolution follows from the image's placement. */
function placementOf(
  info: ImageInfo,
  parent: number | undefined,
  placements: Map<number, ImagePlacement>,
  byNum: Map<number, ImageInfo>,
): ImagePlacement | undefined {
  if (parent === undefined) return placements.get(info.num);
  const p = placements.get(parent);
  const pi = byNum.get(parent);
  if (!p || !pi) return undefined;
  return {
    ppiX: (p.ppiX * info.width) / pi.width,
    ppiY: (p.ppiY * info.height) / pi.height,
    pages: p.pages,
  };
}

function planImage(
  info: ImageInfo,
  isMask: boolean,
  placement: ImagePlacement | undefined,
  options: OptimizeOptions,
  notes: Set<string>,
): Plan | null {
  if (info.untouchable || info.width * info.height < MIN_PIXELS) return null;
  const policy: ImageClassOptions = options.images[info.cls];
  if (policy.skip) return null;

  let tw = info.width;
  let th = info.height;
  const ppi = placement ? Math.min(placement.ppiX, placement.ppiY) : Infinity;
  if (
    !policy.downsample.skip &&
    Number.isFinite(ppi) &&
    ppi >= policy.downsample.thresholdPpi &&
    ppi > policy.downsample.targetPpi
  ) {
    const s = policy.downsample.targetPpi / ppi;
    tw = Math.max(1, Math.round(info.width * s));
    th = Math.max(1, Math.round(info.height * s));
  }
  const resized = tw !== info.width || th !== info.height;
  if (policy.compression.skip && !resized) return null;

  // With compression skipped, a resized image keeps the kind of encoding it had.
  let format: ImageFormat = policy.compression.format;
  if (policy.compression.skip) {
    if (info.cls === "monochrome")
      format =
        info.filters.includes("CCITTFaxDecode") || info.filters.includes("JBIG2Decode") ? "ccitt-g4" : "zip";
    else format = isLossyFiltered(info) ? "jpeg" : "zip";
  }
  if (format === "jpeg2000") {
    notes.add(
      "JPEG 2000 cannot be written here; those images were written as JPEG at the same quality setting",
    );
    format = "jpeg";
  }

  const plan: Plan = {
    info,
    tw,
    th,
    kind: "jpeg",
    bitsFormat: "ccitt-g4",
    jpegQuality: policy.compression.jpegQuality,
    gray: false,
    toBits: false,
  };

  if (info.cls === "monochrome") {
    plan.kind = "bits";
    if (format === "jpeg") {
      notes.add("monochrome (1-bit) images cannot be JPEG; they were written with CCITT Group 4");
      plan.bitsFormat = "ccitt-g4";
    } else plan.bitsFormat = format;
    return plan;
  }
  if (isMask) {
    // Soft masks stay lossless: JPEG artefacts in alpha show as halos.
    plan.kind = "flate";
    return plan;
  }
  const wantsBits = format === "ccitt-g4" || format === "ccitt-g3" || options.convertColor === "mono";
  if (wantsBits) {
    plan.kind = "bits";
    plan.toBits = true;
    plan.bitsFormat = format === "ccitt-g3" ? "ccitt-g3" : format === "zip" ? "zip" : "ccitt-g4";
    return plan;
  }
  plan.kind = format === "zip" ? "flate" : "jpeg";
  plan.gray = info.cls === "color" && options.convertColor === "gray";
  return plan;
}

async function executePlan(doc: mupdf.PDFDocument, plan: Plan): Promise<EncodedImage | null> {
  const { info } = plan;
  if (plan.kind === "bits" && !plan.toBits) {
    let bits = readBitImage(info);
    if (!bits) throw new Error("unreadable 1-bit image");
    if (plan.tw !== info.width || plan.th !== info.height)
      bits = await resizeBitImage(bits, plan.tw, plan.th);
    return encodeBitImage(bits, plan.bitsFormat, "own");
  }
  let px: RawPixels = await decodeAndResize(doc, info, plan.tw, plan.th);
  if (px.channels === 3 && (plan.gray || plan.toBits || isEffectivelyGray(px))) px = toGray(px);
  if (plan.toBits) {
    const bits = packBits(px.data, px.width, px.height, otsuThreshold(px.data));
    return encodeBitImage(bits, plan.bitsFormat, "DeviceGray");
  }
  if (plan.kind === "flate") return encodeFlate(px);
  return encodeJpeg(px, plan.jpegQuality);
}

/**
 * Content streams, fonts and other Flate streams are often written at a fast zlib level;
 * recompressing at level 9 (what qpdf's --recompress-flate does) usually saves a few percent.
 */
function recompressFlateStreams(doc: mupdf.PDFDocument, images: Map<number, ImageInfo>): void {
  const count = doc.countObjects();
  for (let num = 1; num < count; num++) {
    if (images.has(num)) continue;
    try {
      const obj = doc.newIndirect(num);
      if (!obj.isStream()) continue;
      const filter = obj.get("Filter");
      const isFlate =
        (filter.isName() && filter.asName() === "FlateDecode") ||
        (filter.isArray() &&
          filter.length === 1 &&
          filter.get(0).isName() &&
          filter.get(0).asName() === "FlateDecode");
      if (!isFlate || !obj.get("DecodeParms").isNull()) continue;
      const type = obj.get("Type");
      if (type.isName() && (type.asName() === "XRef" || type.asName() === "ObjStm")) continue;
      const len = obj.get("Length");
      if (!len.isNumber() || len.asNumber() < 256) continue;
      const buf = obj.readStream();
      const data = buf.asUint8Array();
      const packed = zlib.deflateSync(data, { level: 9, memLevel: 9 });
      buf.destroy();
      if (packed.length < len.asNumber() * 0.98) {
        obj.writeRawStream(packed);
        obj.put("Filter", doc.newName("FlateDecode"));
      }
    } catch {
      /* leave a stream we cannot read as it is */
    }
  }
}

async function runPool<T>(items: T[], width: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++];
      await fn(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, worker));
}
