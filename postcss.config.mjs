/** Tailwind CSS 4 through its PostCSS plugin (configuration lives in app/globals.css). */
export default { plugins: { "@tailwindcss/postcss": {} } };
