/** Moved to the shared lexicon; this path stays while the invoice parser still imports it. */
export * from "@/lib/engine/lexicon/countries";
