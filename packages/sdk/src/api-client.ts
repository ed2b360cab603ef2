/**
 * The clipforge API as typed functions, on openapi-fetch over the `paths` generated from the API's
 * OpenAPI document (api-types.ts), so every call is checked against the document. Errors are
 * ClipforgeError with the API's error code. Web-standard only (fetch, AbortSignal, timers), so it
 * also runs inside the Worker (the MCP server's tools); `createClient` in node-client.ts adds the
 * Node-side clip downloads. The calls are grouped by resource in calls/.
 *
 * @example
 * const cf = createApiClient({ baseUrl: process.env.CLIPFORGE_URL!, apiKey: process.env.CLIPFORGE_API_KEY! });
 * const { video } = await cf.submit("https://example.com/talk.mp4", { enableCaptions: true });
 * await cf.waitForCompletion(video.id, { onProgress: (s) => console.log(s.job.progress) });
 */
import createFetchClient from "openapi-fetch";
import type { paths } from "./api-types.ts";
import { captionTemplateCalls } from "./calls/caption-templates.ts";
import { clipCalls } from "./calls/clips.ts";
import { exportCalls } from "./calls/exports.ts";
import { submissionCalls } from "./calls/submissions.ts";
import type { CallContext } from "./calls/context.ts";
import { uploadCalls } from "./calls/uploads.ts";
import { videoCalls } from "./calls/videos.ts";
import type { ClientOptions } from "./client-types.ts";
import type { ErrorCode } from "./errors.ts";
import { retrying } from "./retry.ts";
import { withBookmarks, withConditionalGets } from "./transport.ts";

export * from "./client-types.ts";
export { newIdempotencyKey } from "./calls/context.ts";
export { DEFAULT_POLL_MS } from "./calls/videos.ts";
export { backoffMs, isSafeToRepeat } from "./retry.ts";
export type { ErrorCode };

export function createApiClient(options: ClientOptions) {
	const doFetch = options.fetch ?? fetch;
	const maxAttempts = Math.max(1, options.maxAttempts ?? 4);
	const api = createFetchClient<paths>({
		baseUrl: options.baseUrl.replace(/\/+$/, ""),
		fetch: retrying(
			withConditionalGets(withBookmarks((input, init) => doFetch(input, init))),
			maxAttempts,
			options.baseUrl,
		),
		headers: {
			...(options.apiKey === undefined ? {} : { authorization: `Bearer ${options.apiKey}` }),
			accept: "application/json",
		},
	});
	const context: CallContext = { api, doFetch, maxAttempts };
	return {
		...submissionCalls(context),
		...videoCalls(context),
		...clipCalls(context),
		...exportCalls(context),
		...uploadCalls(context),
		...captionTemplateCalls(context),
	};
}

/** The API's calls, without file downloads (see ClipforgeClient in node-client.ts). */
export type ApiClient = ReturnType<typeof createApiClient>;
