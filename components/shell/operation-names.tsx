"use client";

import { createContext, useContext, type ReactNode } from "react";

/** An operation as lists name it: its human title and category, from the contracts. */
export interface OperationName {
  id: string;
  title: string;
  category: string;
}

const Names = createContext<Map<string, OperationName>>(new Map());

/** Hands the operations' names (read on the server from the registry) to client lists. */
export function OperationNamesProvider({ operations, children }: { operations: OperationName[]; children: ReactNode }) {
  return <Names.Provider value={new Map(operations.map((o) => [o.id, o]))}>{children}</Names.Provider>;
}

/** The human title of an operation id ("pdf-convert-to-csv" → "PDF to CSV"); the id when unknown. */
export function useOperationTitle(): (id: string | null | undefined) => string {
  const names = useContext(Names);
  return (id) => (id ? (names.get(id)?.title ?? id) : "—");
}
