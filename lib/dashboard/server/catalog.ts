import "server-only";

/**
 * The operations the dashboard shows, as plain data for navigation. Built from the operations
 * registry (the contracts), so a new operation appears in the sidebar without touching app/.
 */
export interface CatalogEntry {
  id: string;
  title: string;
  summary: string;
  category: string;
  path: string;
  deprecated?: boolean;
  alwaysAsync?: boolean;
}

export async function getCatalog(): Promise<CatalogEntry[]> {
  const { operations } = await import("@/lib/operations/registry");
  return operations.map((o) => ({
    id: o.id,
    title: o.title,
    summary: o.summary,
    category: o.category,
    path: o.path,
    deprecated: o.deprecated,
    alwaysAsync: o.alwaysAsync,
  }));
}
