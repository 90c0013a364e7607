import "server-only";
import { deleteFileRow, storeUpload } from "@/lib/storage/local-store";
import type { Caller } from "./auth";
import type { FilePart } from "./http";

/** A multipart file part streamed to storage as a new upload of the caller. */
export async function storePart(caller: Caller, part: FilePart) {
  const up = await storeUpload(caller.accountId, part.name, part.contentType, part.stream);
  return { ...up, field: part.field };
}

/**
 * The parts a call uses: every part for an operation that takes several files, else the part
 * named `file` (or the first). The others are removed again.
 */
export async function keepChosenParts<P extends { id: string; field: string }>(parts: P[], several: boolean): Promise<P[]> {
  const chosen = several ? parts : parts.filter((p) => p === (parts.find((f) => f.field.toLowerCase() === "file") ?? parts[0]));
  for (const p of parts) if (!chosen.includes(p)) await deleteFileRow(p.id);
  return chosen;
}

