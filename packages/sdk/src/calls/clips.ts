/** The calls on clips: list (every filter), one clip, edit and wait for its re-render. */
import type { Clip, ClipChanges, ClipDetail, ClipQuery, ClipsPage, WaitOptions } from "../client-types.ts";
import { ClipforgeError } from "../errors.ts";
import { sleep } from "../retry.ts";
import { body, filterQuery, pathId, type CallContext } from "./context.ts";

export function clipCalls({ api }: CallContext) {
	const calls = {
		listClips(videoId: string, query: ClipQuery = {}): Promise<ClipsPage> {
			return body(
				api.GET("/api/videos/{id}/clips", { params: { ...pathId(videoId), query: filterQuery(query) } }),
			);
		},
		/** Every clip of a completed video, following the cursor. */
		async allClips(videoId: string, query: Omit<ClipQuery, "cursor"> = {}): Promise<Clip[]> {
			const clips: Clip[] = [];
			let cursor: string | undefined;
			do {
				const page = await calls.listClips(videoId, { ...query, cursor });
				clips.push(...page.clips);
				cursor = page.nextCursor ?? undefined;
			} while (cursor);
			return clips;
		},
		/** GET /api/clips/:id: one clip with fresh signed URLs and its caption words. */
		clip(clipId: string, signal?: AbortSignal): Promise<ClipDetail> {
			return body(api.GET("/api/clips/{id}", { params: pathId(clipId), signal }));
		},
		/**
		 * PATCH /api/clips/:id. `favorited` and `title` are saved at once; a trim (`startTime`/`endTime`,
		 * snapped to word edges), `captionStyle`, `captionWords` or a drawn `hookTitle` re-render the
		 * clip (`status: "generating"`; wait with waitForClip). Edits are free up to a cap per clip.
		 */
		updateClip(clipId: string, changes: ClipChanges): Promise<ClipDetail> {
			return body(api.PATCH("/api/clips/{id}", { params: pathId(clipId), body: changes }));
		},
		/** Polls until the clip is no longer `generating`; check `editError` for a render that failed (the clip then kept its previous version). */
		async waitForClip(clipId: string, opts: Omit<WaitOptions, "onProgress"> = {}): Promise<ClipDetail> {
			const interval = opts.intervalMs ?? 3000;
			const deadline = opts.timeoutMs === undefined ? Infinity : Date.now() + opts.timeoutMs;
			for (;;) {
				const clip = await calls.clip(clipId, opts.signal);
				if (clip.status !== "generating") return clip;
				if (Date.now() + interval > deadline)
					throw new ClipforgeError(
						"timeout",
						`Clip ${clipId} was still generating after ${opts.timeoutMs} ms.`,
						{ status: 0 },
					);
				await sleep(interval, opts.signal);
			}
		},
	};
	return calls;
}
