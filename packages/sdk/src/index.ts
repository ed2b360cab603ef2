export {
	createClient,
	createApiClient,
	backoffMs,
	DEFAULT_POLL_MS,
	isSafeToRepeat,
	newIdempotencyKey,
} from "./node-client.ts";
export type {
	ApiClient,
	ClientOptions,
	ClipforgeClient,
	Clip,
	ClipsPage,
	ClipQuery,
	SubmitOptions,
	SubmitResponse,
	VideoConfig,
	VideoDetail,
	VideoStatus,
	WaitOptions,
	Workspace,
} from "./node-client.ts";
export type {
	DeletedVideo,
	ReprocessConfig,
	ReprocessList,
	ReprocessOptions,
	ReprocessResponse,
	VideoList,
	VideoQuery,
} from "./node-client.ts";
export type {
	CaptionTemplate,
	CaptionTemplateChanges,
	CaptionTemplateList,
	NewCaptionTemplate,
} from "./node-client.ts";
export { ClipforgeError, EXIT_CODES, exitCodeFor, isRetryable } from "./errors.ts";
export type { ApiErrorCode, ErrorCode } from "./errors.ts";
export { createMcpServer, MCP_SERVER_INFO } from "./mcp/server.ts";
