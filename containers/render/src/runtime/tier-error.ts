import type { RenderErrorCode } from "@clipforge/contract";
import { redactUrls } from "./redact.ts";
import { ProcessError } from "./run-process.ts";

/**
 * A failure the tier reports in the contract's error shape; no URL in its message keeps a query
 * string or credentials.
 */
export class TierError extends Error {
	readonly code: RenderErrorCode;
	readonly retryable: boolean;
	readonly status: number;
	constructor(code: RenderErrorCode, message: string, retryable: boolean, status = 500) {
		super(redactUrls(message));
		this.name = "TierError";
		this.code = code;
		this.retryable = retryable;
		this.status = status;
	}
}

/** A write the instance's disk had no room for: Node's ENOSPC, or a tool saying so (ffmpeg, yt-dlp, pocketsphinx). */
const NO_SPACE = /ENOSPC|No space left on device|Disk quota exceeded/i;

/**
 * The job's error when the disk filled up under it: busy (503, retryable), so the Worker asks again
 * after a pause (other videos' files go as their jobs end) and the workflow step after that; the
 * job's own scratch went with its `finally`, and the sweep takes what a cut job left.
 */
export const diskFull = (during: string): TierError =>
	new TierError(
		"busy",
		`This render instance's disk is full (no space left while ${during}); the job is tried again when other videos' files are cleared.`,
		true,
		503,
	);

/** Maps anything thrown inside a job to the contract's error; process timeouts and crashes are retryable. */
export function toTierError(error: unknown): TierError {
	if (error instanceof TierError) return error;
	if (error instanceof ProcessError && NO_SPACE.test(`${error.message}\n${error.stderrTail}`))
		return diskFull(`running ${error.message.split(/[\s:]/)[0] || "a tool"}`);
	if (!(error instanceof ProcessError) && error instanceof Error && NO_SPACE.test(error.message))
		return diskFull(error.message.replace(/^ENOSPC: no space left on device, /i, "").slice(0, 120));
	if (error instanceof ProcessError) {
		if (error.reason === "timeout") return new TierError("timeout", error.message, true, 504);
		// A bug in the job's own arithmetic: the same request would fail the same way again.
		if (error.reason === "internal") return new TierError("internal_error", error.message, false, 500);
		return new TierError("process_failed", error.message, true, 500);
	}
	const message = error instanceof Error ? error.message : String(error);
	return new TierError("internal_error", message, true, 500);
}
