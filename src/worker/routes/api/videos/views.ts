/** Database rows → the API's shapes. One place, so every route shows a video the same way. */
import type { z } from "@hono/zod-openapi";
import type { Db } from "../../../db/client";
import { findVideo, type ClipRow, type VideoRow } from "../../../db/videos";
import { ApiError } from "../../../errors";
import { signClipUrl } from "../../../services/signing";
import { stageProgress } from "../../../domain/progress";
import type { VideoConfig } from "../../../domain/video-config";
import { boundedText, boundedThumbnail, PROBE_TEXT_LIMITS } from "../../../domain/video-info";
import type { Clip, Video, VideoDetail, VideoInfo, VideoStatusResponse } from "./schemas";

/** A video of one of these workspaces, or 404 (also for other workspaces' videos: never reveal they exist). */
export async function loadVideo(db: Db, id: string, workspaceIds: string[]): Promise<VideoRow> {
	const row = await findVideo(db, id, workspaceIds);
	if (!row) throw new ApiError("not_found", `Video ${id} was not found.`);
	return row;
}

const titleOf = (row: VideoRow) => boundedText(row.title, PROBE_TEXT_LIMITS.title);

export function videoView(row: VideoRow): z.infer<typeof Video> {
	return {
		id: row.id,
		title: titleOf(row),
		status: row.status,
		sourceType: "hosted",
		sourceUrl: row.sourceUrl,
		workspaceId: row.workspaceId,
		createdAt: row.createdAt,
	};
}

export function videoInfoView(row: VideoRow): z.infer<typeof VideoInfo> {
	return {
		id: boundedText(row.sourceVideoId, PROBE_TEXT_LIMITS.sourceVideoId),
		title: titleOf(row),
		duration: row.duration,
		thumbnail: boundedThumbnail(row.thumbnail),
		channelName: boundedText(row.channelName, PROBE_TEXT_LIMITS.channelName),
	};
}

export function videoDetailView(row: VideoRow): z.infer<typeof VideoDetail> {
	return {
		...videoView(row),
		videoInfo: videoInfoView(row),
		config: (row.config as VideoConfig | null) ?? null,
		errorMessage: row.errorMessage,
		minutesCharged: row.minutesCharged,
		projectId: row.projectId,
		language: row.language,
		rankedBy: row.rankedBy,
		rankingNote: row.rankingNote,
		progress: row.progress,
		updatedAt: row.updatedAt,
		completedAt: row.completedAt,
	};
}

export function videoStatusView(row: VideoRow, queuePosition: number | null = null): z.infer<typeof VideoStatusResponse> {
	return {
		video: {
			id: row.id,
			title: titleOf(row),
			status: row.status,
			errorMessage: row.errorMessage,
			createdAt: row.createdAt,
			updatedAt: row.updatedAt,
		},
		job: {
			progress: Math.round(row.progress * 10) / 10,
			stage: row.status,
			stageProgress: stageProgress(row.status, row.progress),
			startedAt: row.startedAt,
			updatedAt: row.updatedAt,
			queuePosition,
		},
	};
}

/** A clip with freshly signed URLs (each call issues new ones, valid for one hour). */
export async function clipView(env: Pick<Env, "SIGNING_SECRET">, origin: string, row: ClipRow): Promise<z.infer<typeof Clip>> {
	const [downloadUrl, thumbnailUrl] = await Promise.all([
		signClipUrl(env, origin, row.id, "download", row.videoKey ?? ""),
		signClipUrl(env, origin, row.id, "thumbnail", row.thumbnailKey ?? ""),
	]);
	return {
		id: row.id,
		title: row.title,
		hookTitle: row.hookTitle,
		startTime: row.startTime,
		endTime: row.endTime,
		duration: row.duration,
		score: row.score,
		viralityReason: row.viralityReason,
		scoreBreakdown: (row.scoreBreakdown as z.infer<typeof Clip>["scoreBreakdown"]) ?? null,
		hooks: (row.hooks as z.infer<typeof Clip>["hooks"]) ?? { question: null, statement: null },
		emotions: (row.emotions as string[] | null) ?? [],
		description: row.description ?? "",
		transcript: row.transcript,
		downloadUrl,
		thumbnailUrl,
		status: "completed",
		aspectRatio: row.aspectRatio,
	};
}
