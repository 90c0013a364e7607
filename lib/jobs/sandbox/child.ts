import "server-only";
// First, before anything loads MuPDF.js (see the file).
import "@/lib/engine/pdf/mupdf-preload";
import { findRunner } from "@/lib/operations/runners";
import { startSandboxChild } from "./child-runtime";

/** Entry of a sandbox child process (forked by pool.ts): runs the runners of Quire's registry. */
startSandboxChild(findRunner);
