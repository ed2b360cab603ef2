/**
 * The Worker's side of the render tier. In dev and tests the tier is a native Node process at
 * RENDER_URL; in production it is the RenderContainer (a Cloudflare Container) bound as
 * RENDER_CONTAINER. Which path, request and result belong to a job comes from the contract's job
 * table, so a call is type-checked end to end and every answer is validated.
 */
import {
	HEALTH_PATH, isUsableRenderSecret, JobStreamError, readJobEvents, RenderErrorBody, renderJobs, signRenderRequest, type JobName, type JobRequest, type JobResult, type RenderErrorCode,
} from "@clipforge/contract";
import { getContainer } from "@cloudflare/containers";
import { settingsOf } from "../settings";
import type { RenderInstance } from "./render-instances";

export class RenderTierError extends Error {
	readonly code: RenderErrorCode | "unreachable";
	readonly retryable: boolean;
	constructor(code: RenderTierError["code"], message: string, retryable: boolean) {
		super(message);
		this.name = "RenderTierError";
		this.code = code;
		this.retryable = retryable;
	}
}

export type ReportProgress = (fraction: number) => void | Promise<void>;

export interface RunOptions {
	/** Called with each progress event of a streamed job. */
	onProgress?: ReportProgress;
	/** For one-answer jobs: give up (503-worthy `timeout`) after this long. */
	timeoutMs?: number;
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
export function createRenderClient(env: Pick<Env, "RENDER_URL" | "RENDER_CONTAINER" | "RENDER_IDLE_TIMEOUT_SECONDS" | "RENDER_SECRET">, instance: RenderInstance): RenderClient {
	return renderClientOver(renderFetch(env, instance), settingsOf(env).renderIdleTimeoutSeconds * 1000, env.RENDER_SECRET);
}

export const INSTANCE_HEADER = "x-clipforge-instance";

function renderFetch(env: Pick<Env, "RENDER_URL" | "RENDER_CONTAINER">, instance: RenderInstance): RenderFetch {
	const tagged = (init: RequestInit): RequestInit => ({ ...init, headers: { ...(init.headers as Record<string, string>), [INSTANCE_HEADER]: instance } });
	if (env.RENDER_URL) {
		const base = env.RENDER_URL;
		return (path, init) => fetch(new URL(path, base), tagged(init));
	}
	const namespace = env.RENDER_CONTAINER;
	if (!namespace) {
		return () => Promise.reject(new RenderTierError("unreachable", "No render tier is configured (set RENDER_URL or bind RENDER_CONTAINER).", false));
	}
	return (path, init) => getContainer(namespace, instance).fetch(new Request(`http://render${path}`, tagged(init)));
}

/**
 * The tier's `/healthz` (its startup self-check: tools, ffmpeg filters, fonts) on `instance`, the
 * way its jobs reach it. For the operator's smoke check.
 */
export async function renderHealth(env: Pick<Env, "RENDER_URL" | "RENDER_CONTAINER">, instance: RenderInstance): Promise<{ status: number; body: unknown }> {
	try {
		const response = await renderFetch(env, instance)(HEALTH_PATH, { method: "GET", signal: AbortSignal.timeout(60_000) });
		const text = await response.text();
		let body: unknown = text.slice(0, 500);
		try {
			body = JSON.parse(text);
		} catch {
			// not JSON: keep the text
		}
		return { status: response.status, body };
	} catch (error) {
		throw error instanceof RenderTierError ? error : new RenderTierError("unreachable", `The render tier could not be reached: ${(error as Error).message}`, true);
	}
}

/**
 * A job that says nothing for `idleTimeoutMs` is taken as hung. The tier sends a heartbeat every
 * 15 s while it works, so silence means a dead or wedged process: better to retry now than to
 * wait for the step's own timeout (30 minutes).
 */
export function renderClientOver(send: RenderFetch, idleTimeoutMs: number, secret: string | undefined): RenderClient {
	const post = async (path: string, body: unknown, signal?: AbortSignal): Promise<Response> => {
		// The tier runs only jobs signed with the shared secret (packages/contract request-auth.ts).
		if (!isUsableRenderSecret(secret)) {
			throw new RenderTierError("unreachable", "The render tier is not configured: RENDER_SECRET is missing or too short (wrangler secret put RENDER_SECRET).", false);
		}
		const text = JSON.stringify(body);
		try {
			const authorization = await signRenderRequest(secret, { method: "POST", path, body: text });
			return await send(path, { method: "POST", headers: { "content-type": "application/json", authorization }, body: text, signal });
		} catch (error) {
			if (error instanceof RenderTierError) throw error;
			if (signal?.aborted) throw new RenderTierError("timeout", `The render tier stopped answering (${path}).`, true);
			throw new RenderTierError("unreachable", `The render tier could not be reached: ${(error as Error).message}`, true);
		}
	};
	return {
		async run(name, request, options = {}) {
			const job = renderJobs[name];
			const result = job.result as unknown as { parse(value: unknown): JobResult<typeof name> };
			if (!("progress" in job)) {
				const response = await post(job.path, request, options.timeoutMs ? AbortSignal.timeout(options.timeoutMs) : undefined);
				if (!response.ok) throw await errorFrom(response);
				return result.parse(await response.json());
			}
			// Aborted when the tier is silent longer than idleTimeoutMs (each event rearms it).
			const idle = new AbortController();
			let timer = setTimeout(() => idle.abort(), idleTimeoutMs);
			try {
				const response = await post(job.path, request, idle.signal);
				if (!response.ok || !response.body) throw await errorFrom(response);
				for await (const event of readJobEvents(response.body, idle.signal)) {
					clearTimeout(timer);
					timer = setTimeout(() => idle.abort(), idleTimeoutMs);
					if (event.type === "progress") await options.onProgress?.(event.fraction);
					else if (event.type === "error") throw new RenderTierError(event.error.code, event.error.message, event.error.retryable);
					else return result.parse(event.result);
				}
				throw new RenderTierError("internal_error", `The render tier closed ${job.path} without a result.`, true);
			} catch (error) {
				if (!(error instanceof JobStreamError)) throw error;
				if (error.reason === "stalled") throw new RenderTierError("timeout", `The render tier stopped answering (${job.path}).`, true);
				throw new RenderTierError("internal_error", `The render tier sent a malformed event on ${job.path}.`, true);
			} finally {
				clearTimeout(timer);
			}
		},
	};
}

async function errorFrom(response: Response): Promise<RenderTierError> {
	const text = await response.text();
	try {
		const { error } = RenderErrorBody.parse(JSON.parse(text));
		return new RenderTierError(error.code, error.message, error.retryable);
	} catch {
		return new RenderTierError("internal_error", `The render tier answered ${response.status}: ${text.slice(0, 200)}`, response.status >= 500);
	}
}
