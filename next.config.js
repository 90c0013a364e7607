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
  // Types are checked once by `npm run check` (tsc over the whole project), not again by the build.
  typescript: { ignoreBuildErrors: true },
  allowedDevOrigins: ["127.0.0.1"],
};

export default nextConfig;
