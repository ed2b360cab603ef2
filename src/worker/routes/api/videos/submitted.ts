/** The 201 body both submission routes (hosted URL, upload) answer with, once the video is created. */
import type { z } from "@hono/zod-openapi";
import type { Db } from "../../../db/client";
import { queuePosition } from "../../../db/slots";
import type { SubmitHostedVideoResponse } from "./schemas";
import { loadVideo, videoInfoView, videoView } from "./views";

export async function submittedResponse(db: Db, videoId: string, workspaceId: string, configured: boolean): Promise<z.infer<typeof SubmitHostedVideoResponse>> {
	const row = await loadVideo(db, videoId, [workspaceId]);
	const position = configured && !row.slotClaimedAt ? await queuePosition(db, videoId, workspaceId) : null;
	return {
		message: !configured
			? "Video submitted; send its config to PUT /api/videos/{id}/config to start processing."
			: position
				? `Video submitted; it waits for one of the workspace's processing slots (number ${position} in line) and starts by itself.`
				: "Video submitted; processing has started.",
		video: videoView(row),
		videoInfo: videoInfoView(row),
	};
}
