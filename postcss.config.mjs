/** Tailwind CSS 4 through its PostCSS plugin (theme in app/globals.css, sources in tailwind.config.ts). */
const config = { plugins: { "@tailwindcss/postcss": {} } };

export default config;
