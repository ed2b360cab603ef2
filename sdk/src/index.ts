export { createClient, backoffMs, DEFAULT_POLL_MS } from "./client.ts";
export type { CaptionTemplate, CaptionTemplateChanges, CaptionTemplateList, NewCaptionTemplate, ClientOptions, ClipforgeClient, Clip, ClipsPage, ClipQuery, SubmitOptions, SubmitResponse, VideoConfig, VideoDetail, VideoStatus, WaitOptions, Workspace } from "./client.ts";
export { ClipforgeError, EXIT_CODES, exitCodeFor, isRetryable } from "./errors.ts";
export type { ApiErrorCode, ErrorCode } from "./errors.ts";
