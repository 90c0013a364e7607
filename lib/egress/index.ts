import "server-only";
/**
 * The egress guard: every outbound request of Quire (source downloads, secondary URLs,
 * callbacks, browser requests) goes through here. See docs/security.md.
 */
export { checkUrl, type CheckUrlOptions, type CheckedUrl, type LookupFn } from "./check-url";
export {
  egressFetch,
  egressDownloadToFile,
  egressStream,
  type EgressFetchOptions,
  type EgressResponse,
  type EgressDownload,
  type EgressStream,
  type EgressStreamOptions,
} from "./fetch";
export {
  getEgressPolicy,
  setEgressPolicyForTests,
  parseEgressAllow,
  isHostAllowed,
  isAddressAllowed,
  type EgressPolicy,
} from "./policy";
export { classifyAddress, isPublicAddress, parseIp, type AddressKind, type AddressVerdict } from "./address";
export { fileNameFromResponse } from "./file-name";
