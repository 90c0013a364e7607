import "server-only";
import { QuireError } from "@/lib/core/errors";
import { parsePages } from "@/lib/engine/pages";
import { buildImagePdf, planPages, type ImageInput } from "./build-pdf";
import { imageLimitsFromEnv, probeImage, type ImageLimits } from "./probe-image";

export interface NamedImage {
  bytes: Uint8Array;
  name: string;
}

/**
 * Images → one PDF: probes every image first (headers only, limits enforced), selects the
 * output pages with the 0-based `pages` syntax over all pages in order, then builds the PDF.
 */
export async function imagesToPdf(
  images: NamedImage[],
  opts: { pages?: string; limits?: Partial<ImageLimits> } = {},
): Promise<{ pdf: Uint8Array; pageCount: number }> {
  const limits = { ...imageLimitsFromEnv(), ...opts.limits };
  if (images.length === 0) throw new QuireError(400, "url: give one or more image URLs, separated by commas.");
  const inputs: ImageInput[] = [];
  for (const [i, image] of images.entries()) {
    const label = images.length > 1 ? `image ${i + 1} (${image.name})` : `image (${image.name})`;
    inputs.push({ bytes: image.bytes, label, probe: await probeImage(image.bytes, label, limits) });
  }
  const all = planPages(inputs);
  if (all.length > limits.maxPages) {
    throw new QuireError(
      413,
      `url: the images hold ${all.length} pages, more than the limit of ${limits.maxPages}.`,
    );
  }
  const selected = parsePages(opts.pages, all.length, 0).map((i) => all[i]);
  const pdf = await buildImagePdf(inputs, selected, limits);
  return { pdf, pageCount: selected.length };
}
