/**
 * The orphan report: every object in the bucket that no row points to any more. Each key the
 * service writes (r2-keys.ts) belongs to a row, and lives only as long as the row says:
 * - a video's source, transcript, signals and watermark copy: while the video keeps its files (not a
 *   first run that failed: that one's files were deleted; a reprocessed video keeps them), its
 *   source only until the retention purge deleted it (domain/sources.ts);
 * - its audio chunks and per-chunk transcripts: only while it is processing (merged, they go);
 * - a clip's files: the keys its row names, or the keys of the render under way (a clip not yet
 *   rendered, an edit being rendered); an upload's object while the upload is not yet a video;
 * - a workspace background or watermark image: while its row names it;
 * - built-in backgrounds and caption previews are shared caches, never orphans.
 * Anything else (a key of no known shape too) is reported. For an operator (GET /internal/orphans,
 * `npm run admin -- orphans`) and the soak; it deletes nothing.
 */
import { and, inArray } from "drizzle-orm";
import { getDb, type Db } from "../db/client";
import { backgrounds, clips, uploads, videoReprocesses, videos, workspaces } from "../db/schema";
import { PROCESSING_STAGES } from "@clipforge/domain";

export interface OrphanObject {
	key: string;
	size: number;
	uploaded: string;
	/** Why no row claims it. */
	reason: string;
}

export interface OrphanReport {
	/** Objects listed. */
	scanned: number;
	/** Orphans at least `minAgeMinutes` old (younger ones may be writes under way). */
	orphans: OrphanObject[];
	orphanBytes: number;
	/** Unclaimed objects younger than minAgeMinutes, not reported as orphans. */
	young: number;
	minAgeMinutes: number;
}

/** D1 takes at most 100 bound parameters a query. */
const IN_CHUNK = 90;
const PROCESSING: readonly string[] = PROCESSING_STAGES;

interface VideoFacts {
	status: string;
	reprocessed: boolean;
	/** The retention purge deleted its source: nothing may store one again. */
	sourcePurged: boolean;
	clips: { id: string; status: string; edits: number; videoKey: string | null; thumbnailKey: string | null }[];
}

/**
 * @example const report = await findOrphans(env, { minAgeMinutes: 10 }); report.orphans.length // 0 on a clean bucket
 */
export async function findOrphans(
	env: Pick<Env, "DB" | "MEDIA">,
	options: { minAgeMinutes?: number; now?: number } = {},
): Promise<OrphanReport> {
	const minAgeMinutes = options.minAgeMinutes ?? 10;
	const now = options.now ?? Date.now();
	const objects: R2Object[] = [];
	let cursor: string | undefined;
	do {
		const page = await env.MEDIA.list({ cursor, limit: 1000 });
		objects.push(...page.objects);
		cursor = page.truncated ? page.cursor : undefined;
	} while (cursor);

	const db = getDb(env);
	const videoIds = new Set<string>();
	const workspaceIds = new Set<string>();
	for (const { key } of objects) {
		const [prefix, first] = key.split("/");
		if (!first) continue;
		if (prefix === "backgrounds" || prefix === "watermarks") workspaceIds.add(first);
		else videoIds.add(first.replace(/\.json$/, ""));
	}
	const facts = await videoFacts(db, [...videoIds]);
	const claimedKeys = await claimedLibraryKeys(
		db,
		[...workspaceIds],
		objects.filter((o) => o.key.startsWith("sources/")).map((o) => o.key),
	);

	const report: OrphanReport = { scanned: objects.length, orphans: [], orphanBytes: 0, young: 0, minAgeMinutes };
	for (const object of objects) {
		const reason = unclaimedBecause(object.key, facts, claimedKeys);
		if (reason === null) continue;
		if (now - object.uploaded.getTime() < minAgeMinutes * 60_000) {
			report.young++;
			continue;
		}
		report.orphans.push({ key: object.key, size: object.size, uploaded: object.uploaded.toISOString(), reason });
		report.orphanBytes += object.size;
	}
	return report;
}

/** The prefixes whose objects belong to one video (the first part after the prefix is its id). */
const VIDEO_PREFIXES = new Set(["sources", "audio", "transcripts", "signals", "chapters", "clips"]);

/**
 * Why nothing may be written at `key` now (its video is gone, or failed and dropped its files, or
 * no clip row expects the file), or null when a row expects it. The internal PUT route asks before
 * storing what the render tier sends, so a job that outlives its video (deleted, failed, an edit
 * overtaken) cannot leave an orphan behind.
 */
export async function refusedWrite(env: Pick<Env, "DB">, key: string): Promise<string | null> {
	const [prefix, first] = key.split("/");
	if (!prefix || !first || !VIDEO_PREFIXES.has(prefix)) return null;
	return unclaimedBecause(key, await videoFacts(getDb(env), [first.replace(/\.json$/, "")]), new Set());
}

/** Null when a row claims `key`; otherwise why none does. */
export function unclaimedBecause(key: string, facts: Map<string, VideoFacts>, claimedKeys: Set<string>): string | null {
	const parts = key.split("/");
	const [prefix] = parts;
	if (prefix === "caption-previews" || (prefix === "backgrounds" && parts[1] === "builtin")) return null;
	if (prefix === "backgrounds") return claimedKeys.has(key) ? null : "no background row names it";
	if (prefix === "watermarks") return claimedKeys.has(key) ? null : "no workspace uses it as its watermark";
	const videoId = (parts[1] ?? "").replace(/\.json$/, "");
	const video = facts.get(videoId);
	const keepsFiles = video !== undefined && (video.status !== "failed" || video.reprocessed);
	switch (prefix) {
		case "sources":
			if (claimedKeys.has(key)) return null;
			if (video?.sourcePurged) return "its source was deleted after its retention";
			return keepsFiles
				? null
				: video
					? "its video failed (a first run's files are deleted)"
					: "no video or upload row";
		case "audio":
			return video && PROCESSING.includes(video.status)
				? null
				: video
					? `its video is ${video.status} (audio chunks go once merged)`
					: "no video row";
		case "transcripts":
		case "signals":
		case "chapters":
			if (prefix === "transcripts" && parts.length > 2) {
				return video && PROCESSING.includes(video.status)
					? null
					: video
						? `its video is ${video.status} (chunk transcripts go once merged)`
						: "no video row";
			}
			return keepsFiles ? null : video ? "its video failed (a first run's files are deleted)" : "no video row";
		case "clips": {
			if (!keepsFiles) return video ? "its video failed (a first run's files are deleted)" : "no video row";
			const name = parts[2] ?? "";
			if (name === "watermark.png") return null;
			return clipFileClaimed(key, name, video) ? null : "no clip row names it";
		}
		default:
			return "a key of no known kind";
	}
}

/** A clip's file: named by its row, or being rendered (first render, or edit `.e<n>`). */
function clipFileClaimed(key: string, name: string, video: VideoFacts): boolean {
	if (video.clips.some((clip) => clip.videoKey === key || clip.thumbnailKey === key)) return true;
	const match = /^(.+?)(?:\.e(\d+))?\.(mp4|jpg)$/.exec(name);
	if (!match) return false;
	const [, clipId, edit] = match;
	const clip = video.clips.find((c) => c.id === clipId);
	if (!clip) return false;
	if (edit === undefined) return clip.status !== "completed";
	return clip.status === "generating" && Number(edit) === clip.edits;
}

async function videoFacts(db: Db, ids: string[]): Promise<Map<string, VideoFacts>> {
	const facts = new Map<string, VideoFacts>();
	for (let i = 0; i < ids.length; i += IN_CHUNK) {
		const chunk = ids.slice(i, i + IN_CHUNK);
		const [rows, reprocessed, clipRows] = await Promise.all([
			db
				.select({ id: videos.id, status: videos.status, sourcePurgedAt: videos.sourcePurgedAt })
				.from(videos)
				.where(inArray(videos.id, chunk))
				.all(),
			db
				.selectDistinct({ videoId: videoReprocesses.videoId })
				.from(videoReprocesses)
				.where(inArray(videoReprocesses.videoId, chunk))
				.all(),
			db
				.select({
					id: clips.id,
					videoId: clips.videoId,
					status: clips.status,
					edits: clips.edits,
					videoKey: clips.videoKey,
					thumbnailKey: clips.thumbnailKey,
				})
				.from(clips)
				.where(inArray(clips.videoId, chunk))
				.all(),
		]);
		const wasReprocessed = new Set(reprocessed.map((r) => r.videoId));
		for (const row of rows)
			facts.set(row.id, {
				status: row.status,
				reprocessed: wasReprocessed.has(row.id),
				sourcePurged: row.sourcePurgedAt !== null,
				clips: [],
			});
		for (const clip of clipRows) facts.get(clip.videoId)?.clips.push(clip);
	}
	return facts;
}

/** The library keys rows name (backgrounds, watermark images) and the sources of uploads not yet made into videos. */
async function claimedLibraryKeys(db: Db, workspaceIds: string[], sourceKeys: string[]): Promise<Set<string>> {
	const claimed = new Set<string>();
	for (let i = 0; i < workspaceIds.length; i += IN_CHUNK) {
		const chunk = workspaceIds.slice(i, i + IN_CHUNK);
		const [backgroundRows, workspaceRows] = await Promise.all([
			db
				.select({ key: backgrounds.objectKey })
				.from(backgrounds)
				.where(inArray(backgrounds.workspaceId, chunk))
				.all(),
			db
				.select({ key: workspaces.watermarkImageKey })
				.from(workspaces)
				.where(inArray(workspaces.id, chunk))
				.all(),
		]);
		for (const row of [...backgroundRows, ...workspaceRows]) if (row.key) claimed.add(row.key);
	}
	for (let i = 0; i < sourceKeys.length; i += IN_CHUNK) {
		const rows = await db
			.select({ key: uploads.objectKey })
			.from(uploads)
			.where(
				and(
					inArray(uploads.objectKey, sourceKeys.slice(i, i + IN_CHUNK)),
					inArray(uploads.status, ["uploading", "completed"]),
				),
			)
			.all();
		for (const row of rows) claimed.add(row.key);
	}
	return claimed;
}
