/**
 * The streamed job protocol, both ends of it. A job that reports progress answers 200 with NDJSON:
 * zero or more `progress` events, then exactly one `result` or `error` event. So a workflow step
 * reports progress while it waits, and a failure that happens after the status line still arrives
 * as a typed error. The tier writes with `jobEventStream`, the Worker reads with `readJobEvents`.
 */
import { z } from "zod";

/** Error codes the tier can answer with. `retryable` tells the workflow whether to try again. */
export const RenderErrorCode = z.enum([
	"invalid_request",
	/** The request carried no valid signature from the Worker (request-auth.ts). */
	"unauthorized",
	/** A browser's request (it carried an Origin header): the tier serves only the Worker. */
	"forbidden",
	"invalid_url",
	"unsupported_source",
	"source_unreachable",
	"source_missing",
	"process_failed",
	"timeout",
	"upload_failed",
	"internal_error",
	/** The instance already runs its maximum of jobs (503, retryable): the Workflow step retries it later. */
	"busy",
	/**
	 * The instance already runs this workspace's share of this job (429, WORKSPACE_JOB_LIMITS): the
	 * Worker answers that workspace 429; nobody else is refused for it.
	 */
	"workspace_busy",
]);
export type RenderErrorCode = z.infer<typeof RenderErrorCode>;

export const RenderError = z.object({
	code: RenderErrorCode,
	message: z.string(),
	retryable: z.boolean(),
});
export type RenderError = z.infer<typeof RenderError>;

/** Body of a non-streaming error answer (4xx/5xx before any NDJSON was written). */
export const RenderErrorBody = z.object({ error: RenderError });

export const JobProgress = z.object({
	type: z.literal("progress"),
	fraction: z.number().min(0).max(1),
	message: z.string().optional(),
});

export const JobEvent = z.discriminatedUnion("type", [
	JobProgress,
	z.object({ type: z.literal("result"), result: z.unknown() }),
	z.object({ type: z.literal("error"), error: RenderError }),
]);
export type JobEvent = z.infer<typeof JobEvent>;

export type OnProgress = (fraction: number, message?: string) => void;

export const NDJSON_HEADERS = { "content-type": "application/x-ndjson", "cache-control": "no-store" } as const;
/** How often a working job says so, to keep idle connections alive through proxies. */
export const HEARTBEAT_MS = 15_000;
/** Progress events are sent at most this often (completion always goes through). */
const PROGRESS_INTERVAL_MS = 250;

export const encodeJobEvent = (event: JobEvent): string => `${JSON.stringify(event)}\n`;

/**
 * The tier's side: runs `job` and streams its progress (throttled to ~4 events a second, at least
 * 1% apart), a heartbeat while it has nothing new to say, then its result, or `toError(thrown)`.
 * @example new Response(jobEventStream((p) => work(p), toRenderError), { headers: NDJSON_HEADERS })
 */
export function jobEventStream(
	job: (onProgress: OnProgress) => Promise<unknown>,
	toError: (error: unknown) => RenderError,
	heartbeatMs = HEARTBEAT_MS,
): ReadableStream<Uint8Array> {
	const encoder = new TextEncoder();
	let open = true;
	let heartbeat: ReturnType<typeof setInterval> | null = null;
	const stopHeartbeat = () => {
		if (heartbeat !== null) clearInterval(heartbeat);
	};
	return new ReadableStream<Uint8Array>({
		start(controller) {
			const write = (event: JobEvent) => {
				if (open) controller.enqueue(encoder.encode(encodeJobEvent(event)));
			};
			let lastSent = -1;
			let lastAt = 0;
			const onProgress: OnProgress = (fraction, message) => {
				const now = Date.now();
				if (fraction < 1 && (fraction - lastSent < 0.01 || now - lastAt < PROGRESS_INTERVAL_MS)) return;
				lastSent = fraction;
				lastAt = now;
				write({ type: "progress", fraction: Math.max(0, Math.min(1, fraction)), message });
			};
			heartbeat = setInterval(
				() => write({ type: "progress", fraction: Math.max(0, lastSent), message: "working" }),
				heartbeatMs,
			);
			void job(onProgress)
				.then(
					(result) => write({ type: "result", result }),
					(error: unknown) => write({ type: "error", error: toError(error) }),
				)
				.finally(() => {
					stopHeartbeat();
					if (open) controller.close();
					open = false;
				});
		},
		cancel() {
			open = false;
			stopHeartbeat();
		},
	});
}

/** Why a job stream could not be read: it went silent (`stalled`) or sent a line off the protocol (`malformed`). */
export class JobStreamError extends Error {
	readonly reason: "stalled" | "malformed";
	constructor(reason: JobStreamError["reason"]) {
		super(reason === "stalled" ? "the job stream went silent" : "the job stream sent a malformed event");
		this.name = "JobStreamError";
		this.reason = reason;
	}
}

/**
 * The Worker's side: the job's events as they arrive. `idle` aborting (the caller rearms it on each
 * event) ends the read with JobStreamError `stalled`; a line that is not an event, with `malformed`.
 */
export async function* readJobEvents(body: ReadableStream<Uint8Array>, idle?: AbortSignal): AsyncGenerator<JobEvent> {
	const reader = body.getReader();
	const stalled = new Promise<never>((_, reject) => {
		const fail = () => reject(new JobStreamError("stalled"));
		if (idle?.aborted) fail();
		else idle?.addEventListener("abort", fail, { once: true });
	});
	stalled.catch(() => undefined); // observed below through Promise.race
	const decoder = new TextDecoder();
	let buffered = "";
	try {
		for (;;) {
			const { done, value } = await Promise.race([reader.read(), stalled]);
			if (done) break;
			buffered += decoder.decode(value, { stream: true });
			let newline = buffered.indexOf("\n");
			while (newline !== -1) {
				const line = buffered.slice(0, newline).trim();
				buffered = buffered.slice(newline + 1);
				if (line) yield parseEvent(line);
				newline = buffered.indexOf("\n");
			}
		}
		if (buffered.trim()) yield parseEvent(buffered.trim());
	} finally {
		reader.cancel().catch(() => undefined);
	}
}

function parseEvent(line: string): JobEvent {
	try {
		return JobEvent.parse(JSON.parse(line));
	} catch {
		throw new JobStreamError("malformed");
	}
}
