/**
 * PATCH /api/clips/:id: what an edit changes, checked cheapest first. Changes that leave the
 * picture alone (favorite, title, a hook title that is not drawn, words of captions not shown) are
 * written at once; a change of the picture (trim, caption look, corrected words of shown captions,
 * a drawn hook title) starts a re-render of that clip alone in a workflow instance of its own
 * (`<clipId>-e<n>`, ProcessVideoWorkflow's `clipEdit`). Edits are free (domain/clip-edit.ts).
 */
import { cutOf, failClipEdit, runningEditRenders, startClipEdit, updateClipData, type ClipCut } from "../db/clip-edits";
import type { ClipRow } from "../db/clips";
import type { Db } from "../db/client";
import { reprocessesOf } from "../db/reprocesses";
import { findVideoById, type VideoRow } from "../db/videos";
import {
	clipWords,
	correctedWord,
	EDIT_BUDGET_FLOOR_SECONDS,
	EDIT_SECONDS_PER_MINUTE_CHARGED,
	editBudgetSeconds,
	MAX_CONCURRENT_EDIT_RENDERS,
	MAX_EDITS_PER_CLIP,
	sameTime,
	snapTrim,
	withCorrections,
	type CaptionFix,
	type EditIssue,
	type PaidFrame,
} from "../domain/clip-edit";
import { frameOf, VideoConfigInput, type VideoConfig } from "../domain/video-config";
import { ApiError } from "../errors";
import { assertCaptionTemplate } from "./caption-templates";
import { r2Keys } from "./r2-keys";
import type { settingsOf } from "../settings";
import { sourceExpired } from "./source-link";
import { clipText, type Transcript } from "@clipforge/moments/text";
import { startInstance } from "./workflow-instances";

export interface ClipChanges {
	favorited?: boolean;
	title?: string;
	hookTitle?: string | null;
	startTime?: number;
	endTime?: number;
	captionStyle?: string | null;
	captionWords?: { index: number; word: string }[];
}

/** `<clipId>-e<number>`: the edit's workflow instance id. */
export const clipEditIdOf = (clipId: string, number: number) => `${clipId}-e${number}`;

const PICTURE_FIELDS = ["startTime", "endTime", "captionStyle", "captionWords", "hookTitle"] as const;

/** Whether the clip's captions are drawn (the video's setting, or a look of the clip's own). */
export const captionsShown = (config: VideoConfig, captionStyle: string | null) =>
	config.enableCaptions || captionStyle !== null;

/** @returns whether a re-render was started. */
export async function editClip(
	env: Pick<Env, "PROCESS_VIDEO" | "MEDIA">,
	db: Db,
	video: VideoRow,
	clip: ClipRow,
	changes: ClipChanges,
): Promise<{ rendering: boolean }> {
	const data: Partial<Pick<ClipRow, "favorited" | "title">> = {};
	if (changes.favorited !== undefined) data.favorited = changes.favorited;
	if (changes.title !== undefined) data.title = changes.title.trim();
	// A hook title the video does not draw is data too.
	const undrawnHook = changes.hookTitle !== undefined && !(video.config as VideoConfig | null)?.enableIntroTitle;
	const touchesCut = PICTURE_FIELDS.some(
		(field) => changes[field] !== undefined && !(field === "hookTitle" && undrawnHook),
	);
	if (!touchesCut) {
		await updateClipData(db, clip.id, {
			...data,
			...(changes.hookTitle !== undefined ? { hookTitle: changes.hookTitle?.trim() || null } : {}),
		});
		return { rendering: false };
	}
	assertAtRest(video, clip);
	const config = VideoConfigInput.parse(video.config);
	// A workspace template must exist (the clip's current look may be one deleted since).
	if (changes.captionStyle)
		await assertCaptionTemplate(
			db,
			video.workspaceId,
			{ captionTemplateId: changes.captionStyle },
			clip.captionStyle ?? config.captionTemplateId,
			"captionStyle",
		);
	const transcript = await storedTranscript(env, video);
	const next = nextCut(clip, changes, transcript, await paidFrameOf(db, video));
	if (!affectsPicture(config, cutOf(clip), next)) {
		await updateClipData(db, clip.id, {
			...data,
			hookTitle: next.hookTitle,
			captionFixes: next.captionFixes,
			transcript: next.transcript,
		});
		return { rendering: false };
	}
	await startRerender(env, db, video, clip, next, data);
	return { rendering: true };
}

/** Anything about the cut needs the clip rendered and the video at rest (and so its stored files). */
function assertAtRest(video: VideoRow, clip: ClipRow): void {
	if (video.status === "failed")
		throw new ApiError(
			"conflict",
			"The video failed; its clips can be edited again once a reprocess of it completes.",
			{ status: video.status },
		);
	if (video.status !== "completed") {
		throw new ApiError(
			"video_processing",
			`The video is still processing (${video.status}); edit its clips once it has completed.`,
			{ status: video.status },
		);
	}
	if (clip.status !== "completed") {
		const what = clip.status === "generating" ? "being rendered again after an edit" : clip.status;
		throw new ApiError("clip_processing", `The clip is ${what}; edit it once it has completed.`, {
			status: clip.status,
		});
	}
}

/** The edit's guarded start (within the clip's and the workspace's caps), then its workflow instance. */
async function startRerender(
	env: Pick<Env, "PROCESS_VIDEO">,
	db: Db,
	video: VideoRow,
	clip: ClipRow,
	next: ClipCut,
	data: Partial<Pick<ClipRow, "favorited" | "title">>,
): Promise<void> {
	if (clip.edits >= MAX_EDITS_PER_CLIP) {
		const message = `A clip can be rendered again ${MAX_EDITS_PER_CLIP} times; this one has been. Reprocess the video for new clips.`;
		throw new ApiError("quota_exceeded", message, { limit: MAX_EDITS_PER_CLIP, used: clip.edits });
	}
	const budgetSeconds = editBudgetSeconds(video.minutesCharged);
	assertWithinBudget(video.editSeconds, next, budgetSeconds);
	const number = clip.edits + 1;
	const limits = { maxRunning: MAX_CONCURRENT_EDIT_RENDERS, budgetSeconds };
	if (!(await startClipEdit(db, clip, number, next, data, limits))) {
		// Another edit of the video spent the budget meanwhile.
		assertWithinBudget((await findVideoById(db, video.id))?.editSeconds ?? 0, next, budgetSeconds);
		if ((await runningEditRenders(db, clip.workspaceId)) >= MAX_CONCURRENT_EDIT_RENDERS) {
			const message = `The workspace already has ${MAX_CONCURRENT_EDIT_RENDERS} clips rendering again after edits; send this edit once one has finished. Nothing was changed.`;
			throw new ApiError("queue_full", message, { maxConcurrent: MAX_CONCURRENT_EDIT_RENDERS, retryAfter: 30 });
		}
		throw new ApiError(
			"clip_processing",
			"The clip or its video changed meanwhile (another edit, or a reprocess started); load it again.",
		);
	}
	const params = { kind: "clipEdit" as const, videoId: video.id, clipEdit: { clipId: clip.id, number } };
	await startInstance(env, clipEditIdOf(clip.id, number), params, () =>
		failClipEdit(db, clip.id, number, "The re-render could not be started."),
	);
}

/** 409 quota_exceeded when rendering `next` would take the video's edits past its budget (domain/clip-edit.ts). */
function assertWithinBudget(used: number, next: ClipCut, limit: number): void {
	const needed = Math.round((next.endTime - next.startTime) * 100) / 100;
	if (used + needed <= limit) return;
	const message = `This video's clip edits have rendered ${Math.round(used)} s of its ${limit} s edit budget (${EDIT_SECONDS_PER_MINUTE_CHARGED / 60} minutes of re-renders per minute charged, at least ${EDIT_BUDGET_FLOOR_SECONDS / 60}); this re-render needs ${needed} s. Nothing was changed: reprocess the video for new clips.`;
	throw new ApiError("quota_exceeded", message, { limit, used: Math.round(used * 100) / 100, needed });
}

/**
 * The stretch the video's charge paid for: its time frame when it was transcribed (the config
 * before its first reprocess, which may narrow the frame but never widen it past the transcript).
 */
async function paidFrameOf(db: Db, video: VideoRow): Promise<PaidFrame> {
	const [first] = await reprocessesOf(db, video.id);
	return frameOf(VideoConfigInput.parse(first ? first.previousConfig : video.config), video.duration);
}

/** The clip's new cut: trimmed (snapped), with its new look, hook title and corrected words. */
function nextCut(clip: ClipRow, changes: ClipChanges, transcript: Transcript, paid: PaidFrame): ClipCut {
	const { words } = transcript;
	const issues: EditIssue[] = [];
	let { startTime, endTime } = clip;
	if (changes.startTime !== undefined || changes.endTime !== undefined) {
		const trim = snapTrim(words, changes.startTime ?? clip.startTime, changes.endTime ?? clip.endTime, paid);
		issues.push(...trim.issues);
		({ start: startTime, end: endTime } = trim);
	}
	let fixes = (clip.captionFixes as CaptionFix[] | null) ?? null;
	if (changes.captionWords && changes.captionWords.length > 0) {
		const corrected = withCorrections(clipWords(words, startTime, endTime, null), fixes, changes.captionWords);
		issues.push(...corrected.issues);
		fixes = corrected.fixes;
	}
	if (issues.length > 0) throw new ApiError("invalid_request", "The request is invalid.", issues);
	return {
		startTime,
		endTime,
		hookTitle: changes.hookTitle !== undefined ? changes.hookTitle?.trim() || null : clip.hookTitle,
		captionStyle: changes.captionStyle !== undefined ? changes.captionStyle : clip.captionStyle,
		captionFixes: fixes,
		transcript: words.length > 0 ? clipText(transcript, startTime, endTime, correctedWord(fixes)) : clip.transcript,
	};
}

/** Whether the new cut draws anything differently. */
function affectsPicture(config: VideoConfig, before: ClipCut, after: ClipCut): boolean {
	if (!sameTime(before.startTime, after.startTime) || !sameTime(before.endTime, after.endTime)) return true;
	if (config.enableIntroTitle && before.hookTitle !== after.hookTitle) return true;
	const shownBefore = captionsShown(config, before.captionStyle);
	const shownAfter = captionsShown(config, after.captionStyle);
	if (shownBefore !== shownAfter) return true;
	if (!shownAfter) return false;
	return (
		(before.captionStyle ?? config.captionTemplateId) !== (after.captionStyle ?? config.captionTemplateId) ||
		JSON.stringify(before.captionFixes ?? []) !== JSON.stringify(after.captionFixes ?? [])
	);
}

/** The stored transcript, or 410 when the stored source or transcript is gone (a re-render needs both). */
async function storedTranscript(
	env: Pick<Env, "MEDIA"> & Parameters<typeof settingsOf>[0],
	video: VideoRow,
): Promise<Transcript> {
	if (video.sourcePurgedAt) throw sourceExpired(env, video.sourcePurgedAt, "rendered again");
	const sourceKey = video.sourceKey ?? r2Keys.source(video.id);
	const [source, transcript] = await Promise.all([
		env.MEDIA.head(sourceKey),
		video.transcriptKey ? env.MEDIA.get(video.transcriptKey) : null,
	]);
	if (!source || !transcript) {
		await transcript?.body.cancel();
		throw new ApiError(
			"source_deleted",
			"The stored source or transcript of this video is no longer there, so its clips cannot be rendered again; submit the URL again.",
		);
	}
	return (await transcript.json()) as Transcript;
}
