/** The calls that read videos (status and waiting, one, the list, its chapters, its reprocesses, the workspaces) and delete one. */
import type {
	DeletedVideo,
	ReprocessList,
	VideoDetail,
	VideoList,
	VideoQuery,
	VideoChapters,
	VideoStatus,
	WaitOptions,
	Workspace,
} from "../client-types.ts";
import { ClipforgeError } from "../errors.ts";
import { sleep } from "../retry.ts";
import { body, pathId, type CallContext } from "./context.ts";

export const DEFAULT_POLL_MS = 12_000;

export function videoCalls({ api }: CallContext) {
	const calls = {
		status(videoId: string, signal?: AbortSignal): Promise<VideoStatus> {
			return body(api.GET("/api/videos/{id}/status", { params: pathId(videoId), signal }));
		},
		video(videoId: string): Promise<VideoDetail> {
			return body(api.GET("/api/videos/{id}", { params: pathId(videoId) }));
		},
		/**
		 * Polls until the video is completed (resolves with its last status) or failed (throws
		 * ClipforgeError `video_failed` carrying the errorMessage). Transient errors are retried.
		 */
		waitForCompletion(videoId: string, opts: WaitOptions = {}): Promise<VideoStatus> {
			return pollUntilDone((signal) => calls.status(videoId, signal), videoId, opts);
		},
		workspaces(): Promise<Workspace[]> {
			return body(api.GET("/api/workspaces"));
		},
		/** GET /api/videos: newest first. */
		listVideos(query: VideoQuery = {}): Promise<VideoList> {
			return body(api.GET("/api/videos", { params: { query } }));
		},
		/** GET /api/videos/:id/chapters: the whole video's chapters, summary and ready-to-paste show notes. */
		chapters(videoId: string): Promise<VideoChapters> {
			return body(api.GET("/api/videos/{id}/chapters", { params: pathId(videoId) }));
		},
		/** GET /api/videos/:id/reprocesses: each reprocess, and what the next would cost. */
		reprocesses(videoId: string): Promise<ReprocessList> {
			return body(api.GET("/api/videos/{id}/reprocesses", { params: pathId(videoId) }));
		},
		/** DELETE /api/videos/:id: stops processing, refunds what was not delivered, deletes its files. */
		deleteVideo(videoId: string): Promise<DeletedVideo> {
			return body(api.DELETE("/api/videos/{id}", { params: pathId(videoId) }));
		},
	};
	return calls;
}

/**
 * Polls until the video is completed (resolves with its last status) or failed (throws
 * ClipforgeError `video_failed` carrying the errorMessage). Transient errors are retried.
 */
async function pollUntilDone(
	status: (signal?: AbortSignal) => Promise<VideoStatus>,
	videoId: string,
	opts: WaitOptions,
): Promise<VideoStatus> {
	const interval = opts.intervalMs ?? DEFAULT_POLL_MS;
	const deadline = opts.timeoutMs === undefined ? Infinity : Date.now() + opts.timeoutMs;
	for (;;) {
		const current = await status(opts.signal);
		opts.onProgress?.(current);
		if (current.video.status === "completed") return current;
		if (current.video.status === "failed") {
			throw new ClipforgeError("video_failed", current.video.errorMessage ?? "Processing failed.", {
				status: 200,
				details: current,
			});
		}
		if (Date.now() + interval > deadline)
			throw new ClipforgeError(
				"timeout",
				`Video ${videoId} was still ${current.video.status} after ${opts.timeoutMs} ms.`,
				{ status: 0 },
			);
		await sleep(interval, opts.signal);
	}
}
