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

/** Maps anything thrown inside a job to the contract's error; process timeouts and crashes are retryable. */
export function toTierError(error: unknown): TierError {
	if (error instanceof TierError) return error;
	if (error instanceof ProcessError) {
		if (error.reason === "timeout") return new TierError("timeout", error.message, true, 504);
		// A bug in the job's own arithmetic: the same request would fail the same way again.
		if (error.reason === "internal") return new TierError("internal_error", error.message, false, 500);
		return new TierError("process_failed", error.message, true, 500);
	}
	const message = error instanceof Error ? error.message : String(error);
	return new TierError("internal_error", message, true, 500);
}
