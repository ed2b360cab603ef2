export { createClient, backoffMs, DEFAULT_POLL_MS, isSafeToRepeat, newIdempotencyKey } from "./client.ts";
export type { ClientOptions, ClipforgeClient, Clip, ClipsPage, ClipQuery, SubmitOptions, SubmitResponse, VideoConfig, VideoDetail, VideoStatus, WaitOptions, Workspace } from "./client.ts";
export { ClipforgeError, EXIT_CODES, exitCodeFor, isRetryable } from "./errors.ts";
export type { ApiErrorCode, ErrorCode } from "./errors.ts";
