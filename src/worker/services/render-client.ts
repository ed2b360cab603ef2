/**
 * The Worker's side of the render tier. In dev and tests the tier is a native Node process at
 * RENDER_URL; in production it is the RenderContainer (a Cloudflare Container) bound as
 * RENDER_CONTAINER. Requests and answers are checked against containers/render/src/contract.ts.
 */
import { getContainer } from "@cloudflare/containers";
import type { z } from "zod";
import { JobEvent, ProbeResult, RENDER_PATHS, RenderErrorBody, type RenderErrorCode } from "../../../containers/render/src/contract";

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

export type OnProgress = (fraction: number) => void | Promise<void>;

export interface RenderClient {
	probe(url: string): Promise<ProbeResult>;
	/** Runs an NDJSON job and returns its result, parsed with `resultSchema`. */
	job<S extends z.ZodType>(path: string, body: unknown, resultSchema: S, onProgress?: OnProgress): Promise<z.infer<S>>;
	/** Deletes the tier's scratch files of a video. */
	cleanup(videoId: string): Promise<void>;
}

type RenderFetch = (path: string, init: RequestInit) => Promise<Response>;

/**
 * @param affinity Requests with the same affinity reach the same container instance (its local
 * disk holds the downloaded source between the download and upload steps).
 */
export function createRenderClient(env: Pick<Env, "RENDER_URL" | "RENDER_CONTAINER" | "RENDER_IDLE_TIMEOUT_SECONDS">, affinity = "default"): RenderClient {
	return renderClientOver(renderFetch(env, affinity), (Number(env.RENDER_IDLE_TIMEOUT_SECONDS) || DEFAULT_IDLE_TIMEOUT_SECONDS) * 1000);
}

/**
 * A job that says nothing for this long is taken as hung. The tier sends a heartbeat every 15 s
 * while it works, so silence means a dead or wedged process: better to retry now than to wait for
 * the step's own timeout (30 minutes).
 */
export const DEFAULT_IDLE_TIMEOUT_SECONDS = 60;
/** The probe answers synchronously; past this the submission is refused with 503, nothing charged. */
const PROBE_TIMEOUT_MS = 30_000;

function renderFetch(env: Pick<Env, "RENDER_URL" | "RENDER_CONTAINER">, affinity: string): RenderFetch {
	if (env.RENDER_URL) {
		const base = env.RENDER_URL;
		return (path, init) => fetch(new URL(path, base), init);
	}
	const namespace = env.RENDER_CONTAINER;
	if (!namespace) {
		return () => Promise.reject(new RenderTierError("unreachable", "No render tier is configured (set RENDER_URL or bind RENDER_CONTAINER).", false));
	}
	return (path, init) => getContainer(namespace, affinity).fetch(new Request(`http://render${path}`, init));
}

export function renderClientOver(send: RenderFetch, idleTimeoutMs = DEFAULT_IDLE_TIMEOUT_SECONDS * 1000): RenderClient {
	const post = async (path: string, body: unknown, signal?: AbortSignal): Promise<Response> => {
		try {
			return await send(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body), signal });
		} catch (error) {
			if (error instanceof RenderTierError) throw error;
			if (signal?.aborted) throw new RenderTierError("timeout", `The render tier stopped answering (${path}).`, true);
			throw new RenderTierError("unreachable", `The render tier could not be reached: ${(error as Error).message}`, true);
		}
	};
	return {
		async probe(url) {
			const response = await post(RENDER_PATHS.probe, { url }, AbortSignal.timeout(PROBE_TIMEOUT_MS));
			if (!response.ok) throw await errorFrom(response);
			return ProbeResult.parse(await response.json());
		},
		async job(path, body, resultSchema, onProgress) {
			// Aborted when the tier is silent longer than idleTimeoutMs (each event rearms it).
			const idle = new AbortController();
			let timer = setTimeout(() => idle.abort(), idleTimeoutMs);
			const rearm = () => {
				clearTimeout(timer);
				timer = setTimeout(() => idle.abort(), idleTimeoutMs);
			};
			try {
				const response = await post(path, body, idle.signal);
				if (!response.ok || !response.body) throw await errorFrom(response);
				for await (const event of ndjsonEvents(response.body, idle.signal, path)) {
					rearm();
					if (event.type === "progress") await onProgress?.(event.fraction);
					else if (event.type === "error") throw new RenderTierError(event.error.code, event.error.message, event.error.retryable);
					else return resultSchema.parse(event.result);
				}
				throw new RenderTierError("internal_error", `The render tier closed ${path} without a result.`, true);
			} finally {
				clearTimeout(timer);
			}
		},
		async cleanup(videoId) {
			const response = await post(RENDER_PATHS.cleanup, { videoId });
			if (!response.ok) throw await errorFrom(response);
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

/** The job's events; a silent stream (idle abort) or a line off the contract is a retryable tier error. */
async function* ndjsonEvents(body: ReadableStream<Uint8Array>, idle: AbortSignal, path: string): AsyncGenerator<JobEvent> {
	const reader = body.getReader();
	const aborted = new Promise<never>((_, reject) => {
		const fail = () => reject(new RenderTierError("timeout", `The render tier stopped answering (${path}).`, true));
		if (idle.aborted) fail();
		else idle.addEventListener("abort", fail, { once: true });
	});
	aborted.catch(() => undefined); // observed below through Promise.race
	const decoder = new TextDecoder();
	let buffered = "";
	try {
		for (;;) {
			const { done, value } = await Promise.race([reader.read(), aborted]);
			if (done) break;
			buffered += decoder.decode(value, { stream: true });
			let newline = buffered.indexOf("\n");
			while (newline !== -1) {
				const line = buffered.slice(0, newline).trim();
				buffered = buffered.slice(newline + 1);
				if (line) yield parseEvent(line, path);
				newline = buffered.indexOf("\n");
			}
		}
		if (buffered.trim()) yield parseEvent(buffered.trim(), path);
	} finally {
		reader.cancel().catch(() => undefined);
	}
}

function parseEvent(line: string, path: string): JobEvent {
	try {
		return JobEvent.parse(JSON.parse(line));
	} catch {
		throw new RenderTierError("internal_error", `The render tier sent a malformed event on ${path}.`, true);
	}
}

export { RENDER_PATHS };
