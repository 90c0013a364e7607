import type { Config } from "tailwindcss";

/**
 * Tailwind CSS 4 is configured CSS-first: the theme tokens (brand colours, fonts) and the `dark`
 * variant live in app/globals.css, which loads this file with `@config`. It names the sources
 * Tailwind scans, so classes built in lib/ (form models, status colours) are never purged.
 */
const config: Config = {
  content: ["./app/**/*.{ts,tsx}", "./components/**/*.{ts,tsx}", "./lib/dashboard/**/*.{ts,tsx}"],
};

export default config;
