/**
 * How the SDK sends a request again: which requests may be repeated, the backoff between tries,
 * and the two senders (openapi-fetch's, and the plain one of upload parts).
 */
import { ClipforgeError, isRetryable } from "./errors.ts";

/**
 * Whether a request may be sent again when its answer was lost: reads, and writes the API
 * deduplicates (an Idempotency-Key). Anything else may have been done once already.
 */
export function isSafeToRepeat(method: string, headers: Record<string, string>): boolean {
	return ["GET", "HEAD", "OPTIONS"].includes(method.toUpperCase()) || Boolean(headers["idempotency-key"]);
}

/** 1 s, 2 s, 4 s … capped at 30 s, with ±20% jitter so many clients do not retry in step. */
export function backoffMs(attempt: number): number {
	const base = Math.min(30_000, 1000 * 2 ** (attempt - 1));
	return Math.round(base * (0.8 + Math.random() * 0.4));
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
	return new Promise((resolve, reject) => {
		if (signal?.aborted) return reject(new ClipforgeError("aborted", "Cancelled.", { status: 0 }));
		const timer = setTimeout(() => {
			signal?.removeEventListener("abort", onAbort);
			resolve();
		}, ms);
		const onAbort = () => {
			clearTimeout(timer);
			reject(new ClipforgeError("aborted", "Cancelled.", { status: 0 }));
		};
		signal?.addEventListener("abort", onAbort, { once: true });
	});
}

const headersOf = (request: Request): Record<string, string> => {
	const headers: Record<string, string> = {};
	request.headers.forEach((value, name) => {
		headers[name] = value;
	});
	return headers;
};

/**
 * How openapi-fetch's requests are sent: with retries on what is worth retrying, and anything
 * else that is not a 2xx thrown as ClipforgeError. A request that is safe to repeat is retried
 * on network errors, 429 (after its Retry-After) and 5xx; any other only on 429 `rate_limited`,
 * which the API answers before it acts. The same headers, Idempotency-Key included, go with
 * every try.
 */
export function retrying(
	doFetch: (input: string, init: RequestInit) => Promise<Response>,
	maxAttempts: number,
	baseUrl: string,
): (request: Request) => Promise<Response> {
	return async (request) => {
		const headers = headersOf(request);
		const init = {
			method: request.method,
			headers,
			body: request.body ? await request.text() : undefined,
			signal: request.signal,
		};
		const repeatable = isSafeToRepeat(request.method, headers);
		for (let attempt = 1; ; attempt++) {
			let response: Response;
			try {
				response = await doFetch(request.url, init);
			} catch (error) {
				if (request.signal.aborted)
					throw new ClipforgeError("aborted", "The request was aborted.", { status: 0 });
				const failure = new ClipforgeError(
					"network_error",
					`Could not reach ${baseUrl.replace(/\/+$/, "")}: ${(error as Error).message}`,
					{ status: 0 },
				);
				if (!repeatable || attempt >= maxAttempts) throw failure;
				await sleep(backoffMs(attempt), request.signal);
				continue;
			}
			if (response.ok) return response;
			const failure = await ClipforgeError.fromResponse(response);
			const retry = repeatable ? isRetryable(failure) : failure.code === "rate_limited";
			if (!retry || attempt >= maxAttempts) throw failure;
			const retryAfter = Number(response.headers.get("retry-after"));
			await sleep(
				Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : backoffMs(attempt),
				request.signal,
			);
		}
	};
}

/** A request that is safe to repeat, sent until it answers 2xx (parsed as JSON) or fails for good. */
export async function sendWithRetries<T>(
	send: () => Promise<Response>,
	maxAttempts: number,
	signal?: AbortSignal,
): Promise<T> {
	for (let attempt = 1; ; attempt++) {
		let failure: ClipforgeError;
		let retryAfterMs = 0;
		try {
			const response = await send();
			if (response.ok) return (await response.json()) as T;
			failure = await ClipforgeError.fromResponse(response);
			retryAfterMs = Number(response.headers.get("retry-after")) * 1000 || 0;
		} catch (error) {
			if (signal?.aborted) throw new ClipforgeError("aborted", "The request was aborted.", { status: 0 });
			failure = new ClipforgeError("network_error", `The upload failed: ${(error as Error).message}`, {
				status: 0,
			});
		}
		if (!isRetryable(failure) || attempt >= maxAttempts) throw failure;
		await sleep(retryAfterMs || backoffMs(attempt), signal);
	}
}
