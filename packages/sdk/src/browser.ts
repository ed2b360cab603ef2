/**
 * `@clipforge/sdk/browser`: the API client and the upload loop without the MCP server (which
 * `@clipforge/sdk/web` also exports, and which would pull zod and the MCP SDK into a page's
 * bundle). The dashboard's uploads use it.
 */
export { createApiClient } from "./api-client.ts";
export type { ApiClient, ClientOptions, Upload } from "./api-client.ts";
export { ClipforgeError } from "./errors.ts";
export { sendUploadParts } from "./upload-parts.ts";
export type { SendPartsOptions, UploadCalls, UploadProgress, UploadSource } from "./upload-parts.ts";
