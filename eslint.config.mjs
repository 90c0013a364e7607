import next from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

/** ESLint flat config with the Next rules (STYLE.md §13). */
const config = [
  ...next,
  ...nextTs,
  {
    ignores: [".next/**", "node_modules/**", "data/**", ".tools/**", "test-results/**", "next-env.d.ts", "lib/db/migrations/**"],
  },
  {
    rules: {
      "@typescript-eslint/no-explicit-any": "off",
      "@typescript-eslint/no-unused-vars": ["warn", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
];
export default config;
