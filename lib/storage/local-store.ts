import "server-only";
/** Earlier name of the stored-files module (kept for existing imports; see ./files). */
export * from "./files";
