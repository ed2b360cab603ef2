/**
 * The Worker's side of the render tier. In dev and tests the tier is a native Node process at
 * RENDER_URL; in production it is the RenderContainer (a Cloudflare Container) bound as
 * RENDER_CONTAINER. Which path, request and result belong to a job comes from the contract's job
 * table, so a call is type-checked end to end and every answer is validated.
 */
import {
	HEALTH_PATH,
	isUsableRenderSecret,
	JobStreamError,
	readJobEvents,
	RenderErrorBody,
	renderJobs,
	signRenderRequest,
	type JobName,
	type JobRequest,
	type JobResult,
	type RenderErrorCode,
} from "@clipforge/contract";
import { getContainer } from "@cloudflare/containers";
import { outgoingSlotsOf, type OutgoingSlots } from "../lib/outgoing-slots";
import { settingsOf } from "../settings";
import type { RenderInstance } from "./render-instances";
import { DEFAULT_RETRY_POLICY, retryPolicyOf, type RetryPolicy, type RetryVars } from "./render-retry";

export { DEFAULT_RETRY_POLICY, type RetryPolicy } from "./render-retry";

export class RenderTierError extends Error {
	readonly code: RenderErrorCode | "unreachable";
	readonly retryable: boolean;
	/** The tier's Retry-After (a busy tier), in ms. */
	readonly retryAfterMs: number | undefined;
	constructor(code: RenderTierError["code"], message: string, retryable: boolean, retryAfterMs?: number) {
		super(message);
		this.name = "RenderTierError";
		this.code = code;
		this.retryable = retryable;
		this.retryAfterMs = retryAfterMs;
	}
}

export type ReportProgress = (fraction: number) => void | Promise<void>;

export interface RunOptions {
	/** Called with each progress event of a streamed job. */
	onProgress?: ReportProgress;
	/** For one-answer jobs: give up (503-worthy `timeout`) after this long, reconnections included. */
	timeoutMs?: number;
	/**
	 * How long a lost connection is tried again, on a fresh one, from the first loss since the tier
	 * last said anything (at most the client's; see RetryPolicy).
	 */
	reconnectForMs?: number;
	/** How long a busy tier is asked again (at most the client's). */
	busyWaitMs?: number;
	/** For one-answer jobs: the caller stopped waiting (its own request ended); the tier then drops the job. */
	signal?: AbortSignal;
	/**
	 * How long to wait for the workspace's own share of the instance (429 `workspace_busy`) to free
	 * up, asking again after the tier's Retry-After; 0 (the default) gives up at once.
	 */
	shareWaitMs?: number;
}

export interface RenderClient {
	/** Runs job `name` of the contract and returns its validated result. */
	run<N extends JobName>(name: N, request: JobRequest<N>, options?: RunOptions): Promise<JobResult<N>>;
}

type RenderFetch = (path: string, init: RequestInit) => Promise<Response>;

/**
 * @param instance The container instance (render-instances.ts: a bounded set of names). Requests
 * with the same instance reach the same container (its disk holds a video's downloaded source
 * between the download and upload steps). Sent as `X-Clipforge-Instance` too, so a natively run
 * tier (and the tests' fake) sees which instance it stands for.
 */
export function createRenderClient(
	env: Pick<Env, "RENDER_URL" | "RENDER_CONTAINER" | "RENDER_IDLE_TIMEOUT_SECONDS" | "RENDER_SECRET"> & RetryVars,
	instance: RenderInstance,
): RenderClient {
	return renderClientOver(
		renderFetch(env, instance),
		settingsOf(env).renderIdleTimeoutSeconds * 1000,
		env.RENDER_SECRET,
		retryPolicyOf(env),
		outgoingSlotsOf(env),
	);
}

export const INSTANCE_HEADER = "x-clipforge-instance";

function renderFetch(env: Pick<Env, "RENDER_URL" | "RENDER_CONTAINER">, instance: RenderInstance): RenderFetch {
	const tagged = (init: RequestInit): RequestInit => ({
		...init,
		headers: { ...(init.headers as Record<string, string>), [INSTANCE_HEADER]: instance },
	});
	if (env.RENDER_URL) {
		const base = env.RENDER_URL;
		return (path, init) => fetch(new URL(path, base), tagged(init));
	}
	const namespace = env.RENDER_CONTAINER;
	if (!namespace) {
		return () =>
			Promise.reject(
				new RenderTierError(
					"unreachable",
					"No render tier is configured (set RENDER_URL or bind RENDER_CONTAINER).",
					false,
				),
			);
	}
	return (path, init) => getContainer(namespace, instance).fetch(new Request(`http://render${path}`, tagged(init)));
}

/**
 * The tier's `/healthz` (its startup self-check: tools, ffmpeg filters, fonts) on `instance`, the
 * way its jobs reach it. For the operator's smoke check.
 */
export async function renderHealth(
	env: Pick<Env, "RENDER_URL" | "RENDER_CONTAINER">,
	instance: RenderInstance,
): Promise<{ status: number; body: unknown }> {
	try {
		const response = await renderFetch(env, instance)(HEALTH_PATH, {
			method: "GET",
			signal: AbortSignal.timeout(60_000),
		});
		const text = await response.text();
		let body: unknown = text.slice(0, 500);
		try {
			body = JSON.parse(text);
		} catch {
			// not JSON: keep the text
		}
		return { status: response.status, body };
	} catch (error) {
		throw error instanceof RenderTierError
			? error
			: new RenderTierError(
					"unreachable",
					`The render tier could not be reached: ${(error as Error).message}`,
					true,
				);
	}
}

/**
 * The connection was lost: the request never reached the tier, or its answer stopped before the
 * job's last event (a reset, a cut, a tier killed mid-job). Sending the job again is safe.
 */
class ConnectionLost extends Error {
	/** Whether the tier said anything on this connection first (progress, a heartbeat). */
	readonly heard: boolean;
	readonly final: RenderTierError;
	constructor(final: RenderTierError, heard: boolean) {
		super(final.message);
		this.final = final;
		this.heard = heard;
	}
}

/**
 * A job that says nothing for `idleTimeoutMs` is taken as hung. The tier sends a heartbeat every
 * 15 s while it works, so silence means a dead or wedged process: better to retry now than to
 * wait for the step's own timeout (30 minutes).
 *
 * With `slots` (a workflow run's: lib/outgoing-slots.ts), each attempt first takes a slot and
 * gives it back once the tier's headers are in; the idle timer starts only once the request may
 * really go out, so a job waiting its turn is never taken for a hung one.
 */
export function renderClientOver(
	send: RenderFetch,
	idleTimeoutMs: number,
	secret: string | undefined,
	retry: RetryPolicy = DEFAULT_RETRY_POLICY,
	slots: OutgoingSlots | null = null,
): RenderClient {
	const post = signedPost(send, secret);
	const slot = () => (slots ? slots.acquire() : Promise.resolve(() => {}));
	return {
		run(name, request, options = {}) {
			const deadline = options.timeoutMs ? Date.now() + options.timeoutMs : null;
			const job = renderJobs[name];
			const once = async () => {
				const release = await slot();
				try {
					return "progress" in job
						? await streamedAttempt(post, name, request, options.onProgress, idleTimeoutMs, release)
						: await plainAttempt(post, name, request, deadline, release, options.signal);
				} finally {
					release();
				}
			};
			return withRetries(once, retry, options, deadline);
		},
	};
}

type Post = (path: string, body: unknown, signal?: AbortSignal) => Promise<Response>;

/** POSTs a job's body signed with the shared secret; a request that never got through is a ConnectionLost. */
function signedPost(send: RenderFetch, secret: string | undefined): Post {
	return async (path, body, signal) => {
		// The tier runs only jobs signed with the shared secret (packages/contract request-auth.ts).
		if (!isUsableRenderSecret(secret)) {
			throw new RenderTierError(
				"unreachable",
				"The render tier is not configured: RENDER_SECRET is missing or too short (wrangler secret put RENDER_SECRET).",
				false,
			);
		}
		const text = JSON.stringify(body);
		try {
			// Signed afresh for each attempt: the tier accepts a nonce once.
			const authorization = await signRenderRequest(secret, { method: "POST", path, body: text });
			const headers = { "content-type": "application/json", authorization };
			return await send(path, { method: "POST", headers, body: text, signal });
		} catch (error) {
			if (error instanceof RenderTierError) throw error;
			if (signal?.aborted) throw stoppedAnswering(path);
			throw lost(`The render tier could not be reached: ${(error as Error).message}`, false);
		}
	};
}

const stoppedAnswering = (path: string) =>
	new RenderTierError("timeout", `The render tier stopped answering (${path}).`, true);

/** A lost connection (retryable `unreachable` once the reconnections run out). */
const lost = (message: string, heard: boolean) =>
	new ConnectionLost(new RenderTierError("unreachable", message, true), heard);

type ResultParser<N extends JobName> = { parse(value: unknown): JobResult<N> };

/** One attempt of a job that answers once, as JSON, bounded by the call's deadline. */
async function plainAttempt<N extends JobName>(
	post: Post,
	name: N,
	request: JobRequest<N>,
	deadline: number | null,
	headersIn: () => void,
	caller?: AbortSignal,
): Promise<JobResult<N>> {
	const job = renderJobs[name];
	const timeout = deadline === null ? undefined : AbortSignal.timeout(Math.max(1, deadline - Date.now()));
	const signal = timeout && caller ? AbortSignal.any([timeout, caller]) : (timeout ?? caller);
	const response = await post(job.path, request, signal).finally(headersIn);
	if (!response.ok) throw await errorFrom(response);
	let text: string;
	try {
		text = await response.text();
	} catch (error) {
		if (signal?.aborted) throw stoppedAnswering(job.path);
		throw lost(`The render tier's answer to ${job.path} was cut off: ${(error as Error).message}`, false);
	}
	let answer: unknown;
	try {
		answer = JSON.parse(text);
	} catch {
		throw new RenderTierError(
			"internal_error",
			`The render tier answered ${job.path} with something other than JSON: ${text.slice(0, 100)}`,
			true,
		);
	}
	return (job.result as unknown as ResultParser<N>).parse(answer);
}

/** One attempt of a job that streams its progress (NDJSON), over one connection. */
async function streamedAttempt<N extends JobName>(
	post: Post,
	name: N,
	request: JobRequest<N>,
	onProgress: ReportProgress | undefined,
	idleTimeoutMs: number,
	headersIn: () => void,
): Promise<JobResult<N>> {
	const job = renderJobs[name];
	const result = job.result as unknown as ResultParser<N>;
	// Aborted when the tier is silent longer than idleTimeoutMs (each event rearms it).
	const idle = new AbortController();
	let timer = setTimeout(() => idle.abort(), idleTimeoutMs);
	let heard = false;
	try {
		const response = await post(job.path, request, idle.signal).finally(headersIn);
		if (!response.ok || !response.body) throw await errorFrom(response);
		for await (const event of readJobEvents(response.body, idle.signal)) {
			heard = true;
			clearTimeout(timer);
			timer = setTimeout(() => idle.abort(), idleTimeoutMs);
			if (event.type === "progress") await onProgress?.(event.fraction);
			else if (event.type === "error")
				throw new RenderTierError(event.error.code, event.error.message, event.error.retryable);
			else return result.parse(event.result);
		}
		// The stream ended without the job's last event: the tier died, or the connection was closed under it.
		throw new ConnectionLost(
			new RenderTierError("internal_error", `The render tier closed ${job.path} without a result.`, true),
			heard,
		);
	} catch (error) {
		throw streamFailure(error, job.path, heard);
	} finally {
		clearTimeout(timer);
	}
}

/** What a streamed attempt's failure means: the tier's own error, a stall, a malformed event or a lost connection. */
function streamFailure(error: unknown, path: string, heard: boolean): Error {
	if (error instanceof RenderTierError || error instanceof ConnectionLost) return error;
	if (error instanceof JobStreamError) {
		if (error.reason === "stalled") return stoppedAnswering(path);
		return new RenderTierError("internal_error", `The render tier sent a malformed event on ${path}.`, true);
	}
	// Reading the body failed: the connection was reset or cut mid-stream.
	return lost(`The render tier's connection was lost during ${path}: ${(error as Error).message}`, heard);
}

/**
 * Runs attempts until one answers: a lost connection is tried again on a fresh one (backing off,
 * within the reconnection budget, which restarts whenever the tier was heard), a busy tier is asked
 * again (within the busy budget, after its Retry-After); anything else, or the deadline, ends it.
 */
async function withRetries<T>(
	attempt: () => Promise<T>,
	retry: RetryPolicy,
	options: RunOptions,
	deadline: number | null,
): Promise<T> {
	const sleep = retry.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
	// A call may shorten the client's budgets (a request waiting on it), never lengthen them.
	const reconnectForMs = Math.min(options.reconnectForMs ?? Infinity, retry.reconnectForMs);
	const busyWaitMs = Math.min(options.busyWaitMs ?? Infinity, retry.busyWaitMs);
	const started = Date.now();
	let lostSince: number | null = null;
	let cutsAfterEvents = 0;
	let delay = retry.firstDelayMs;
	for (;;) {
		let wait: number;
		try {
			return await attempt();
		} catch (error) {
			const now = Date.now();
			if (error instanceof ConnectionLost) {
				// A connection that carried events proves the tier was there: the clock starts again.
				if (error.heard || lostSince === null) lostSince = now;
				if (error.heard) {
					delay = retry.firstDelayMs;
					if (++cutsAfterEvents > retry.maxCutsAfterEvents) throw error.final;
				}
				if (now - lostSince >= reconnectForMs) throw error.final;
				wait = delay;
				delay = Math.min(delay * 2, retry.maxDelayMs);
			} else if (error instanceof RenderTierError && error.code === "busy") {
				if (now - started >= busyWaitMs) throw error;
				wait = Math.max(delay, error.retryAfterMs ?? 0);
			} else if (error instanceof RenderTierError && error.code === "workspace_busy") {
				// Only the workspace's own jobs hold it up: it waits its turn, within its budget.
				if (now - started >= (options.shareWaitMs ?? 0)) throw error;
				wait = Math.max(delay, error.retryAfterMs ?? 0);
			} else {
				throw error;
			}
			if (deadline !== null && now + wait >= deadline)
				throw error instanceof ConnectionLost ? error.final : error;
		}
		await sleep(wait);
	}
}

async function errorFrom(response: Response): Promise<RenderTierError> {
	const text = await response.text();
	try {
		const { error } = RenderErrorBody.parse(JSON.parse(text));
		const retryAfter = Number(response.headers.get("retry-after"));
		return new RenderTierError(
			error.code,
			error.message,
			error.retryable,
			Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : undefined,
		);
	} catch {
		return new RenderTierError(
			"internal_error",
			`The render tier answered ${response.status}: ${text.slice(0, 200)}`,
			response.status >= 500,
		);
	}
}
