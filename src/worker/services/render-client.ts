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
export function createRenderClient(env: Pick<Env, "RENDER_URL" | "RENDER_CONTAINER">, affinity = "default"): RenderClient {
	return renderClientOver(renderFetch(env, affinity));
}

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

export function renderClientOver(send: RenderFetch): RenderClient {
	const post = async (path: string, body: unknown): Promise<Response> => {
		try {
			return await send(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
		} catch (error) {
			if (error instanceof RenderTierError) throw error;
			throw new RenderTierError("unreachable", `The render tier could not be reached: ${(error as Error).message}`, true);
		}
	};
	return {
		async probe(url) {
			const response = await post(RENDER_PATHS.probe, { url });
			if (!response.ok) throw await errorFrom(response);
			return ProbeResult.parse(await response.json());
		},
		async job(path, body, resultSchema, onProgress) {
			const response = await post(path, body);
			if (!response.ok || !response.body) throw await errorFrom(response);
			for await (const event of ndjsonEvents(response.body)) {
				if (event.type === "progress") await onProgress?.(event.fraction);
				else if (event.type === "error") throw new RenderTierError(event.error.code, event.error.message, event.error.retryable);
				else return resultSchema.parse(event.result);
			}
			throw new RenderTierError("internal_error", `The render tier closed ${path} without a result.`, true);
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

async function* ndjsonEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<JobEvent> {
	const decoder = new TextDecoder();
	let buffered = "";
	for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
		buffered += decoder.decode(chunk, { stream: true });
		let newline = buffered.indexOf("\n");
		while (newline !== -1) {
			const line = buffered.slice(0, newline).trim();
			buffered = buffered.slice(newline + 1);
			if (line) yield JobEvent.parse(JSON.parse(line));
			newline = buffered.indexOf("\n");
		}
	}
	if (buffered.trim()) yield JobEvent.parse(JSON.parse(buffered));
}

export { RENDER_PATHS };
