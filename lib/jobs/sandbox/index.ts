import "server-only";
/** Sandboxed runs of operation runners in warm child processes (time and memory caps). */
export {
  createSandboxPool,
  readRssKb,
  type SandboxPool,
  type SandboxPoolOptions,
  type SandboxJob,
  type SandboxRunOptions,
} from "./pool";
