/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // Native and WASM packages stay out of the bundle (ARCHITECTURE.md "Things that bite").
  serverExternalPackages: [
    "mupdf",
    "@electric-sql/pglite",
    "drizzle-orm",
    "pg",
    "pg-boss",
    "sharp",
    "tesseract.js",
    "playwright-core",
    "@e965/xlsx",
  ],
  typescript: { ignoreBuildErrors: false },
};

export default nextConfig;
