/** Database rows → the API's shapes. One place, so every route shows a video the same way. */
import type { z } from "@hono/zod-openapi";
import type { Db } from "../../../db/client";
import type { ClipRow } from "../../../db/clips";
import { findVideo, type VideoRow } from "../../../db/videos";
import { clipApiStatusOf } from "@clipforge/domain";
import { clipCounts } from "../../../db/clips";
import { ApiError } from "../../../errors";
import { signClipUrl } from "../../../services/signing";
import { editBudgetSeconds } from "../../../domain/clip-edit";
import { stageProgress } from "../../../domain/progress";
import type { VideoConfig } from "../../../domain/video-config";
import { boundedText, boundedThumbnail, PROBE_TEXT_LIMITS } from "../../../domain/video-info";
import type { Clip, Video, VideoDetail, VideoInfo, VideoStatusResponse } from "./schemas";

/** A video of one of these workspaces, or 404 (also for other workspaces' videos: never reveal they exist). */
export async function requireVideo(db: Db, id: string, workspaceIds: string[]): Promise<VideoRow> {
	const row = await findVideo(db, id, workspaceIds);
	if (!row) throw new ApiError("not_found", `Video ${id} was not found.`);
	return row;
}

const titleOf = (row: Pick<VideoRow, "title">) => boundedText(row.title, PROBE_TEXT_LIMITS.title);

export function videoView(row: VideoRow): z.infer<typeof Video> {
	return {
		id: row.id,
		title: titleOf(row),
		status: row.status,
		sourceType: row.sourceType === "upload" ? "upload" : "hosted",
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

/** What a video's clip counts are when it shows none (not completed, or counts not asked for). */
const NO_CLIPS = { clips: 0, favorited: 0 };

/** The full record; `counts` from db/clips.ts `clipCounts` (a video that is not completed or failed lists none). */
export function videoDetailView(
	row: VideoRow,
	counts: { clips: number; favorited: number } = NO_CLIPS,
): z.infer<typeof VideoDetail> {
	const listed = row.status === "completed" || row.status === "failed";
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
		duration: row.duration,
		transcriptLanguage: row.language,
		transcriptSource: row.transcriptSource,
		subtitleTrack: row.transcriptSource === "subtitles" ? row.subtitleTrack : null,
		clipsCount: listed ? counts.clips : 0,
		favoritedClipsCount: listed ? counts.favorited : 0,
		editBudget: {
			limitSeconds: editBudgetSeconds(row.minutesCharged),
			usedSeconds: Math.round(row.editSeconds * 100) / 100,
		},
	};
}

/** The full record with its clip counts. */
export async function videoDetailOf(db: Db, row: VideoRow): Promise<z.infer<typeof VideoDetail>> {
	return videoDetailView(row, (await clipCounts(db, [row.id])).get(row.id));
}

export function videoStatusView(
	row: Pick<
		VideoRow,
		"id" | "title" | "status" | "errorMessage" | "createdAt" | "updatedAt" | "progress" | "startedAt"
	>,
	queuePosition: number | null = null,
): z.infer<typeof VideoStatusResponse> {
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

/** What every description of a clip starts with (the API's view, the ZIP's clips.json). */
export function clipBasics(row: ClipRow) {
	const { id, title, hookTitle, startTime, endTime, duration, score } = row;
	return { id, title, hookTitle, startTime, endTime, duration, score };
}

/** A clip with freshly signed URLs (each call issues new ones, valid for one hour). */
export async function clipView(
	env: Pick<Env, "SIGNING_SECRET">,
	origin: string,
	row: ClipRow,
): Promise<z.infer<typeof Clip>> {
	const [downloadUrl, thumbnailUrl] = await Promise.all([
		signClipUrl(env, origin, row.id, "download", row.videoKey ?? ""),
		signClipUrl(env, origin, row.id, "thumbnail", row.thumbnailKey ?? ""),
	]);
	return {
		...clipBasics(row),
		viralityReason: row.viralityReason,
		scoreBreakdown: (row.scoreBreakdown as z.infer<typeof Clip>["scoreBreakdown"]) ?? null,
		hooks: (row.hooks as z.infer<typeof Clip>["hooks"]) ?? { question: null, statement: null },
		emotions: (row.emotions as string[] | null) ?? [],
		description: row.description ?? "",
		transcript: row.transcript,
		downloadUrl,
		thumbnailUrl,
		status: clipApiStatusOf(row.status),
		aspectRatio: row.aspectRatio,
		videoId: row.videoId,
		createdAt: row.createdAt,
		updatedAt: row.updatedAt,
		favorited: row.favorited,
		captionStyle: row.captionStyle,
		edits: row.edits,
		editError: row.editError,
	};
}
