/**
 * `@clipforge/sdk/web`: the parts of the SDK that need only web standards (fetch, AbortSignal,
 * timers): the API client and the MCP server over it. The Worker's /mcp route and a browser use
 * this entry (a page's bundle, `@clipforge/sdk/browser`: the same client and upload loop without the
 * MCP server); `@clipforge/sdk` adds the Node-side file uploads and downloads.
 */
export { backoffMs, createApiClient, DEFAULT_POLL_MS, isSafeToRepeat, newIdempotencyKey } from "./api-client.ts";
export type { ApiClient, ClientOptions } from "./api-client.ts";
export { ClipforgeError, isRetryable } from "./errors.ts";
export type { ApiErrorCode, ErrorCode } from "./errors.ts";
export { createMcpServer, MCP_SERVER_INFO } from "./mcp/server.ts";
export type { McpServerOptions } from "./mcp/server.ts";
