/** What the reprocess routes share: the charging rule they state, and a reprocess as the API shows it. */
import { z } from "@hono/zod-openapi";
import type { ReprocessRow } from "../../../db/reprocesses";
import { REPROCESS_STATUSES } from "@clipforge/domain";
import { FREE_REPROCESSES_PER_VIDEO } from "../../../domain/reprocess";
import { VideoConfigInput, type VideoConfig } from "../../../domain/video-config";

export const CHARGING = `The first reprocess of a video is free (${FREE_REPROCESSES_PER_VIDEO} per video); each later one costs half the minutes of its time frame, rounded up (at least 1). A failed reprocess is refunded and does not count, unless the workspace caused the failure (deleting the split-screen background it draws): then its charge stays and it counts.`;

export const Reprocess = z
	.object({
		id: z.string().openapi({ example: "vid_3kTq9bX2mZpQ-r1" }),
		videoId: z.string(),
		number: z.number().int().openapi({ description: "1 for the video's first reprocess." }),
		status: z.enum(REPROCESS_STATUSES),
		config: VideoConfigInput,
		minutesCharged: z.number().int().openapi({
			description:
				"0 for a free reprocess; refunded when it failed, unless the workspace caused the failure (errorMessage says so).",
		}),
		errorMessage: z.string().nullable(),
		clipsCount: z.number().int().nullable(),
		createdAt: z.string(),
		completedAt: z.string().nullable(),
	})
	.openapi("Reprocess");

export const reprocessView = (row: ReprocessRow): z.infer<typeof Reprocess> => ({
	id: row.id,
	videoId: row.videoId,
	number: row.number,
	status: row.status,
	config: row.config as VideoConfig,
	minutesCharged: row.minutesCharged,
	errorMessage: row.errorMessage,
	clipsCount: row.clipsCount,
	createdAt: row.createdAt,
	completedAt: row.completedAt,
});
