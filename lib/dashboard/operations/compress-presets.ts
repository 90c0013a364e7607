/** Presets for /v2/pdf/compress `config` (public API: config.images.{color,grayscale,monochrome}, config.save.garbage). */
const img = (ppi: number, threshold: number, format: string, params?: Record<string, unknown>) => ({
  skip: false,
  downsample: { skip: false, downsample_ppi: ppi, threshold_ppi: threshold },
  compression: { skip: false, compression_format: format, ...(params ? { compression_params: params } : {}) },
});

export const compressPresets: { id: string; label: string; help: string; config: Record<string, unknown> }[] = [
  {
    id: "balanced",
    label: "Balanced",
    help: "150 ppi JPEG q60 for colour and grey, 300 ppi CCITT G4 for black and white.",
    config: { images: { color: img(150, 225, "jpeg", { quality: 60 }), grayscale: img(150, 225, "jpeg", { quality: 60 }), monochrome: img(300, 450, "CCITTGroup4") }, save: { garbage: 4 } },
  },
  {
    id: "smallest",
    label: "Smallest",
    help: "96 ppi JPEG q40: for screens and e-mail.",
    config: { images: { color: img(96, 144, "jpeg", { quality: 40 }), grayscale: img(96, 144, "jpeg", { quality: 40 }), monochrome: img(200, 300, "CCITTGroup4") }, save: { garbage: 4 } },
  },
  {
    id: "print",
    label: "Print quality",
    help: "300 ppi JPEG q85: keeps print quality, removes waste.",
    config: { images: { color: img(300, 450, "jpeg", { quality: 85 }), grayscale: img(300, 450, "jpeg", { quality: 85 }), monochrome: img(600, 900, "CCITTGroup4") }, save: { garbage: 4 } },
  },
  {
    id: "lossless",
    label: "Lossless",
    help: "Images untouched; only unused and duplicate objects are removed.",
    config: { images: { color: { skip: true }, grayscale: { skip: true }, monochrome: { skip: true } }, save: { garbage: 4 } },
  },
];
