/** wait_for_completion: waits (at most timeoutSeconds) until a video is completed or failed, with progress notifications. */
import * as z from "zod";
import type { VideoStatus } from "../../api-client.ts";
import { ClipforgeError } from "../../errors.ts";
import { statusOf, statusShape, videoId } from "../shapes.ts";
import { defineTool, READ_ONLY } from "../tool.ts";

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

type Notify = (notification: {
	method: "notifications/progress";
	params: { progressToken: string | number; progress: number; total: number; message: string };
}) => Promise<void>;

/** Sends a progress notification each time the overall progress rises (none without a progress token). */
function progressNotifier(token: string | number | undefined, notify: Notify) {
	let reported = -1;
	let last: VideoStatus | null = null;
	const onProgress = (status: VideoStatus) => {
		last = status;
		const progress = Math.round(status.job.progress * 10) / 10;
		if (token === undefined || progress <= reported) return;
		reported = progress;
		const message = `${status.video.status.replace("_", " ")}: ${Math.round(status.job.stageProgress)}% of this stage`;
		notify({
			method: "notifications/progress",
			params: { progressToken: token, progress, total: 100, message },
		}).catch(() => undefined);
	};
	return { onProgress, last: () => last };
}

export const waitForCompletion = defineTool({
	name: "wait_for_completion",
	title: "Wait for a video to finish",
	description:
		"Waits until the video is completed or failed, for at most timeoutSeconds (default 50), sending progress notifications as it moves. done=false means it is still processing: call again. A 30-minute video takes a few minutes.",
	input: {
		videoId,
		timeoutSeconds: z
			.number()
			.optional()
			.describe(
				"How long to wait at most (5-600, default 50). If the video is not done by then, the answer says so: call again.",
			),
		pollSeconds: z.number().optional().describe("How often to look (2-30, default 10)."),
	},
	output: {
		done: z
			.boolean()
			.describe("true once the video is completed or failed; false when the wait timed out (call again)."),
		...statusShape,
		rankingNote: z
			.string()
			.nullable()
			.describe(
				"Once completed: why the video has fewer clips than its talk has room for, or none; null otherwise.",
			),
		language: z
			.string()
			.nullable()
			.describe("Once completed: the speech's language (ISO 639-1), detected or given."),
	},
	annotations: READ_ONLY,
	async run(client, args, extra) {
		const timeoutMs = clamp(args.timeoutSeconds ?? 50, 5, 600) * 1000;
		const intervalMs = clamp(args.pollSeconds ?? 10, 2, 30) * 1000;
		const progress = progressNotifier(extra._meta?.progressToken, extra.sendNotification as Notify);
		try {
			const done = await client.waitForCompletion(args.videoId, {
				intervalMs,
				timeoutMs,
				signal: extra.signal,
				onProgress: progress.onProgress,
			});
			const detail = done.video.status === "completed" ? await client.video(args.videoId) : null;
			return {
				done: true,
				...statusOf(done),
				rankingNote: detail?.rankingNote ?? null,
				language: detail?.language ?? null,
			};
		} catch (error) {
			const last = progress.last();
			const ended =
				error instanceof ClipforgeError && (error.code === "video_failed" || error.code === "timeout");
			if (!ended || !last) throw error;
			return { done: error.code === "video_failed", ...statusOf(last), rankingNote: null, language: null };
		}
	},
});
