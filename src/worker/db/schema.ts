/**
 * D1 schema. `npm run db:generate` turns changes here into a new SQL file in migrations/.
 * Times are ISO 8601 UTC strings (what the API returns); money-like values (minutes) are integers.
 */
import { sql } from "drizzle-orm";
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import {
	CLIP_STATUSES,
	LEDGER_KINDS,
	MEMBERSHIP_ROLES,
	REPROCESS_STATUSES,
	TRANSCRIPT_SOURCES,
	UPLOAD_STATUSES,
	VIDEO_STATUSES,
} from "@clipforge/domain";
import { CAPTION_OVERRIDE_FIELDS, CAPTION_TEMPLATE_FIELDS, type CaptionOverrideField } from "@clipforge/contract";

/**
 * One nullable text column per caption-template field (null = the preset's), from the contract's
 * table, so a new field is its row and the migration `npm run db:generate` writes from this.
 */
function overrideColumns() {
	const column = (name: string) => text(name);
	return Object.fromEntries(
		CAPTION_OVERRIDE_FIELDS.map((field) => [field, column(CAPTION_TEMPLATE_FIELDS[field].column)]),
	) as Record<CaptionOverrideField, ReturnType<typeof column>>;
}

const createdAt = () =>
	text("created_at")
		.notNull()
		.default(sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`);

export const users = sqliteTable("users", {
	id: text("id").primaryKey(),
	email: text("email").notNull().unique(),
	/** PBKDF2 hash for session sign-in; null for accounts that only use API keys. */
	passwordHash: text("password_hash"),
	createdAt: createdAt(),
});

export const workspaces = sqliteTable("workspaces", {
	id: text("id").primaryKey(),
	name: text("name").notNull(),
	/** Whole minutes; only ever changed together with a ledger row (db/ledger.ts). */
	minutesBalance: integer("minutes_balance").notNull().default(0),
	/** Text drawn on clips when `enableWatermark` is true; null (and no image) → the default clipforge mark. */
	watermarkText: text("watermark_text"),
	/** R2 key of the workspace's watermark image (PNG, imported by the render tier); wins over the text. */
	watermarkImageKey: text("watermark_image_key"),
	/** Receives `completed`/`failed` events of every video of the workspace (a submission's own URL wins). */
	webhookUrl: text("webhook_url"),
	/** HMAC key of the workspace's webhook signatures (`whsec_…`), shown to its members. */
	webhookSecret: text("webhook_secret"),
	createdAt: createdAt(),
});

/** Signed-in browser sessions: only the SHA-256 of the cookie's token is stored. */
export const sessions = sqliteTable(
	"sessions",
	{
		id: text("id").primaryKey(),
		tokenHash: text("token_hash").notNull().unique(),
		userId: text("user_id")
			.notNull()
			.references(() => users.id),
		expiresAt: text("expires_at").notNull(),
		createdAt: createdAt(),
	},
	(t) => [index("sessions_user").on(t.userId), index("sessions_expires").on(t.expiresAt)],
);

export const memberships = sqliteTable(
	"memberships",
	{
		userId: text("user_id")
			.notNull()
			.references(() => users.id),
		workspaceId: text("workspace_id")
			.notNull()
			.references(() => workspaces.id),
		/** owner and admin manage the workspace (API keys, webhook); a member uses it. */
		role: text("role", { enum: MEMBERSHIP_ROLES }).notNull().default("owner"),
		createdAt: createdAt(),
	},
	(t) => [uniqueIndex("memberships_user_workspace").on(t.userId, t.workspaceId)],
);

/** A workspace's plan: whether it may submit at all, how long and large a source may be, how many backgrounds it keeps. */
export const plans = sqliteTable("plans", {
	id: text("id").primaryKey(),
	workspaceId: text("workspace_id")
		.notNull()
		.unique()
		.references(() => workspaces.id),
	name: text("name").notNull(),
	active: integer("active", { mode: "boolean" }).notNull().default(true),
	maxVideoSeconds: integer("max_video_seconds")
		.notNull()
		.default(3 * 60 * 60),
	/** Split-screen backgrounds the workspace may keep (POST /api/backgrounds beyond it → 409 quota_exceeded). */
	maxBackgrounds: integer("max_backgrounds").notNull().default(20),
	/** Width × height of a source the render tier fetches; null = the operator's MAX_SOURCE_PIXELS. */
	maxSourcePixels: integer("max_source_pixels"),
	/** Bytes of a downloaded source; null = the operator's MAX_SOURCE_BYTES. */
	maxSourceBytes: integer("max_source_bytes"),
	/** Videos the workspace may have processing at once (more wait their turn); null = the operator's MAX_CONCURRENT_VIDEOS. */
	maxConcurrentVideos: integer("max_concurrent_videos"),
	/** Null = no expiry. */
	expiresAt: text("expires_at"),
	createdAt: createdAt(),
});

export const apiKeys = sqliteTable(
	"api_keys",
	{
		id: text("id").primaryKey(),
		workspaceId: text("workspace_id")
			.notNull()
			.references(() => workspaces.id),
		name: text("name").notNull(),
		/** SHA-256 of the plaintext key, hex. The plaintext is shown once and never stored. */
		keyHash: text("key_hash").notNull().unique(),
		/** First characters of the key, so a user can tell keys apart in a list. */
		prefix: text("prefix").notNull(),
		revokedAt: text("revoked_at"),
		lastUsedAt: text("last_used_at"),
		createdAt: createdAt(),
	},
	(t) => [index("api_keys_workspace").on(t.workspaceId)],
);

export const projects = sqliteTable(
	"projects",
	{
		id: text("id").primaryKey(),
		workspaceId: text("workspace_id")
			.notNull()
			.references(() => workspaces.id),
		name: text("name").notNull(),
		createdAt: createdAt(),
	},
	(t) => [index("projects_workspace").on(t.workspaceId)],
);

export const videos = sqliteTable(
	"videos",
	{
		id: text("id").primaryKey(),
		workspaceId: text("workspace_id")
			.notNull()
			.references(() => workspaces.id),
		projectId: text("project_id").references(() => projects.id),
		sourceType: text("source_type").notNull().default("hosted"),
		sourceUrl: text("source_url").notNull(),
		title: text("title").notNull(),
		status: text("status", { enum: VIDEO_STATUSES }).notNull(),
		/** 0-100, only ever raised (see domain/progress.ts). */
		progress: real("progress").notNull().default(0),
		errorMessage: text("error_message"),
		/** JSON of the full config (defaults filled); null while pending_config. */
		config: text("config", { mode: "json" }),
		/** videoInfo of the seed (2.2): platform id, title, duration, thumbnail, channel. */
		sourceVideoId: text("source_video_id").notNull(),
		duration: real("duration").notNull(),
		thumbnail: text("thumbnail").notNull(),
		channelName: text("channel_name").notNull(),
		minutesCharged: integer("minutes_charged").notNull(),
		/** Language of the transcript (forced by config or detected). */
		language: text("language"),
		/**
		 * Where the words come from (domain/transcript-source.ts): `transcription` (Whisper, or the
		 * local engine), `captions` the user supplied (stored at r2Keys.suppliedCaptions), or the
		 * source's own `subtitles` (the track in `subtitleTrack`, fetched by the workflow).
		 */
		transcriptSource: text("transcript_source", { enum: TRANSCRIPT_SOURCES }).notNull().default("transcription"),
		/** The source's subtitle track used: `{ lang, automatic }`; null unless transcriptSource is `subtitles`. */
		subtitleTrack: text("subtitle_track", { mode: "json" }).$type<{ lang: string; automatic: boolean }>(),
		/** Every subtitle track the probe listed, and the language the source says it speaks: what a config arriving later chooses from. */
		sourceSubtitles: text("source_subtitles", { mode: "json" }).$type<{
			tracks: { lang: string; automatic: boolean }[];
			language: string | null;
		}>(),
		/** R2 keys of the stored artefacts, set as stages finish. */
		sourceKey: text("source_key"),
		/**
		 * Where the stored source begins in the source, in seconds: it is kept cut to the video's time
		 * frame (domain/sources.ts), so its time 0 is the frame's start; 0 for a whole source.
		 */
		sourceStart: real("source_start").notNull().default(0),
		transcriptKey: text("transcript_key"),
		/** Which ranker produced the clips (ClipPro may fall back to ClipBasic). */
		rankedBy: text("ranked_by"),
		/** Why the video has fewer clips than usual (e.g. nothing matched its custom prompt), or why the prompt could not narrow them. */
		rankingNote: text("ranking_note"),
		/** This submission's webhook (overrides the workspace's). */
		webhookUrl: text("webhook_url"),
		stageStartedAt: text("stage_started_at"),
		/** When processing was asked for (the config arrived): a waiting video's place in its workspace's queue. */
		startedAt: text("started_at"),
		/** When the video got one of its workspace's processing slots; null while it waits its turn. */
		slotClaimedAt: text("slot_claimed_at"),
		completedAt: text("completed_at"),
		/**
		 * When the video's charge was delivered: its first run completed (a reprocess does not move
		 * it). Its source is served from then on (a source link is a delivery), never before.
		 */
		deliveredAt: text("delivered_at"),
		/**
		 * When a link to the stored source was first signed (GET …/source-url): the source left the
		 * service, so DELETE refunds nothing from then on (db/videos.ts deleteVideoSettled).
		 */
		sourceSignedAt: text("source_signed_at"),
		/**
		 * Seconds of its clips rendered again after edits, counted as each re-render starts, against
		 * the video's edit budget (domain/clip-edit.ts editBudgetSeconds).
		 */
		editSeconds: real("edit_seconds").notNull().default(0),
		/** When the retention purge deleted the stored source (domain/sources.ts): its link then answers 410. */
		sourcePurgedAt: text("source_purged_at"),
		updatedAt: text("updated_at")
			.notNull()
			.default(sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`),
		createdAt: createdAt(),
	},
	(t) => [
		index("videos_workspace_created").on(t.workspaceId, t.createdAt),
		index("videos_workspace_status").on(t.workspaceId, t.status),
		// The retention purge's question: delivered sources not yet deleted, oldest first.
		index("videos_source_kept")
			.on(t.deliveredAt)
			.where(sql`${t.sourcePurgedAt} IS NULL AND ${t.deliveredAt} IS NOT NULL`),
	],
);

/** Every status a video entered, in order: the audit trail of the workflow (and what tests check). */
export const videoEvents = sqliteTable(
	"video_events",
	{
		id: integer("id").primaryKey({ autoIncrement: true }),
		videoId: text("video_id")
			.notNull()
			.references(() => videos.id),
		status: text("status", { enum: VIDEO_STATUSES }).notNull(),
		message: text("message"),
		createdAt: createdAt(),
	},
	(t) => [index("video_events_video").on(t.videoId, t.id)],
);

/**
 * A video's timeline: one row per workflow step attempt that ran (not a replayed result), with
 * when it started and ended, so where a video's minutes went can be read afterwards (`npm run
 * bench:pipeline` does; `services/step-timeline.ts` writes it). Deleted with the video; the cron
 * drops rows older than STEP_TIMELINE_DAYS. The step names are the workflow's (process-video.ts).
 */
export const videoSteps = sqliteTable(
	"video_steps",
	{
		id: integer("id").primaryKey({ autoIncrement: true }),
		videoId: text("video_id").notNull(),
		/** The workflow instance: the video id, `<videoId>-r<n>` for a reprocess, `<clipId>-e<n>` for a clip edit. */
		instanceId: text("instance_id").notNull(),
		step: text("step").notNull(),
		startedAt: text("started_at").notNull(),
		endedAt: text("ended_at").notNull(),
		/** False for an attempt that threw (it is retried, or the video fails). */
		ok: integer("ok", { mode: "boolean" }).notNull(),
	},
	(t) => [index("video_steps_video").on(t.videoId, t.id), index("video_steps_ended").on(t.endedAt)],
);

/** A row's video and that video's workspace, both required: the columns a clip and a reprocess start with. */
function ownedByVideo() {
	return {
		videoId: text("video_id")
			.notNull()
			.references(() => videos.id),
		workspaceId: text("workspace_id")
			.notNull()
			.references(() => workspaces.id),
	};
}

export const clips = sqliteTable(
	"clips",
	{
		id: text("id").primaryKey(),
		...ownedByVideo(),
		/** Rank order from the ranker (0 = best), or part number for split-clips. */
		position: integer("position").notNull(),
		title: text("title").notNull(),
		/** A headline for the clip's first seconds, written for the clip. */
		hookTitle: text("hook_title"),
		startTime: real("start_time").notNull(),
		endTime: real("end_time").notNull(),
		duration: real("duration").notNull(),
		score: integer("score").notNull(),
		viralityReason: text("virality_reason").notNull(),
		/** Each ranking component 0-100 (hook, story, payoff, feeling, detail, flow, relevance, energy). */
		scoreBreakdown: text("score_breakdown", { mode: "json" }),
		/** The question and/or statement that hooks a viewer in the first seconds. */
		hooks: text("hooks", { mode: "json" }),
		emotions: text("emotions", { mode: "json" }),
		/** A post description with hashtags. */
		description: text("description"),
		transcript: text("transcript").notNull(),
		status: text("status", { enum: CLIP_STATUSES }).notNull(),
		aspectRatio: text("aspect_ratio").notNull(),
		videoKey: text("video_key"),
		thumbnailKey: text("thumbnail_key"),
		bytes: integer("bytes"),
		/** 0 for the clips of the first run, N for those of the video's Nth reprocess (see videoReprocesses). */
		generation: integer("generation").notNull().default(0),
		/** Set by the user (PATCH /api/clips/:id). */
		favorited: integer("favorited", { mode: "boolean" }).notNull().default(false),
		/** The clip's own caption look (overrides the video's captionTemplateId, and turns captions on); null = the video's. */
		captionStyle: text("caption_style"),
		/** Corrected caption words: `[{start, word}]`, keyed by the transcript word's start (seconds in the source), timings kept. */
		captionFixes: text("caption_fixes", { mode: "json" }),
		/** Re-renders started by edits (the edit's workflow instance is `<clipId>-e<edits>`). */
		edits: integer("edits").notNull().default(0),
		/** What the clip was before the edit being rendered (restored if that render fails). */
		previousEdit: text("previous_edit", { mode: "json" }),
		/** Why the last edit's render failed (the clip kept its previous version); null otherwise. */
		editError: text("edit_error"),
		/**
		 * Remove silences: the stretches cut out of the rendered file, `[{start, end}]` in seconds from
		 * the clip's start on the source's timeline (as the tier cut them); null when nothing was cut.
		 * Its captions, exported or listed, are retimed by them (domain/silences.ts).
		 */
		jumpCuts: text("jump_cuts", { mode: "json" }).$type<{ start: number; end: number }[]>(),
		updatedAt: text("updated_at"),
		createdAt: createdAt(),
	},
	(t) => [index("clips_video_position").on(t.videoId, t.position)],
);

/** A workspace's own split-screen backgrounds (the built-in library lives in the render contract). */
export const backgrounds = sqliteTable(
	"backgrounds",
	{
		id: text("id").primaryKey(),
		workspaceId: text("workspace_id")
			.notNull()
			.references(() => workspaces.id),
		name: text("name").notNull(),
		categoryId: text("category_id").notNull(),
		sourceUrl: text("source_url").notNull(),
		/** R2 key of the normalised loop (H.264, no audio, ≤ 60 s). */
		objectKey: text("object_key").notNull(),
		width: integer("width").notNull(),
		height: integer("height").notNull(),
		duration: real("duration").notNull(),
		createdAt: createdAt(),
	},
	(t) => [index("backgrounds_workspace").on(t.workspaceId, t.createdAt)],
);

/**
 * `Idempotency-Key` of a submission: the first response is kept 24 h and replayed for the same key
 * and body; the same key with another body is a 409.
 */
export const idempotencyKeys = sqliteTable(
	"idempotency_keys",
	{
		workspaceId: text("workspace_id")
			.notNull()
			.references(() => workspaces.id),
		key: text("key").notNull(),
		requestHash: text("request_hash").notNull(),
		/** Null while the first request is still being handled. */
		responseStatus: integer("response_status"),
		responseBody: text("response_body"),
		/**
		 * The video the first request made, set in the batch that creates and charges it: a request
		 * with the key answers with this video instead of making a second (services/idempotency.ts).
		 */
		videoId: text("video_id"),
		createdAt: createdAt(),
	},
	(t) => [
		uniqueIndex("idempotency_keys_workspace_key").on(t.workspaceId, t.key),
		index("idempotency_keys_created").on(t.createdAt),
	],
);

/** Every webhook delivery attempt, visible at GET /api/videos/:id/webhooks. */
export const webhookDeliveries = sqliteTable(
	"webhook_deliveries",
	{
		id: integer("id").primaryKey({ autoIncrement: true }),
		videoId: text("video_id")
			.notNull()
			.references(() => videos.id),
		event: text("event").notNull(),
		url: text("url").notNull(),
		attempt: integer("attempt").notNull(),
		/** HTTP status of the receiver, null when it could not be reached. */
		statusCode: integer("status_code"),
		error: text("error"),
		durationMs: integer("duration_ms"),
		createdAt: createdAt(),
	},
	(t) => [index("webhook_deliveries_video").on(t.videoId, t.id)],
);

/** Every movement of minutes. A workspace's balance always equals the sum of its rows. */
export const minutesLedger = sqliteTable(
	"minutes_ledger",
	{
		id: integer("id").primaryKey({ autoIncrement: true }),
		workspaceId: text("workspace_id")
			.notNull()
			.references(() => workspaces.id),
		videoId: text("video_id"),
		kind: text("kind", { enum: LEDGER_KINDS }).notNull(),
		/** Signed: grants and refunds positive, charges negative. */
		minutes: integer("minutes").notNull(),
		note: text("note"),
		createdAt: createdAt(),
	},
	(t) => [
		index("minutes_ledger_workspace").on(t.workspaceId),
		// One charge and at most one refund per video: makes retried refund steps harmless.
		uniqueIndex("minutes_ledger_video_kind").on(t.videoId, t.kind),
	],
);

/**
 * Sign-in attempts per client IP and per email (hashed), for backoff: `attempts` within the current
 * run (reset after a quiet hour), `nextAllowedAt` the earliest next try (unix ms). `nonce` tells an
 * attempt whether its own upsert was the one accepted (services/login-throttle.ts).
 */
export const loginThrottle = sqliteTable(
	"login_throttle",
	{
		key: text("key").primaryKey(),
		attempts: integer("attempts").notNull(),
		lastAttemptAt: integer("last_attempt_at").notNull(),
		nextAllowedAt: integer("next_allowed_at").notNull(),
		nonce: text("nonce").notNull(),
	},
	(t) => [index("login_throttle_last_attempt").on(t.lastAttemptAt)],
);

/**
 * POST /api/videos/:id/reprocess: a new run of analyzing and generating_clips from the stored source
 * and transcript. Its id (`<videoId>-r<number>`) is also its workflow instance's id and the
 * `video_id` of its own ledger rows (so the ledger's one-charge-one-refund index holds per reprocess).
 */
export const videoReprocesses = sqliteTable(
	"video_reprocesses",
	{
		id: text("id").primaryKey(),
		...ownedByVideo(),
		/** 1 for the video's first reprocess; also the generation of the clips it makes. */
		number: integer("number").notNull(),
		status: text("status", { enum: REPROCESS_STATUSES }).notNull(),
		/** The config it runs with (defaults filled) and the one before it (restored if it fails). */
		config: text("config", { mode: "json" }).notNull(),
		previousConfig: text("previous_config", { mode: "json" }).notNull(),
		/** 0 when it was one of the free reprocesses (domain/reprocess.ts). */
		minutesCharged: integer("minutes_charged").notNull(),
		errorMessage: text("error_message"),
		/** It failed by the user's own doing (USER_CAUSED_FAILURES): its charge stays and it counts toward the free ones. */
		chargeKept: integer("charge_kept", { mode: "boolean" }).notNull().default(false),
		clipsCount: integer("clips_count"),
		createdAt: createdAt(),
		completedAt: text("completed_at"),
	},
	(t) => [
		uniqueIndex("video_reprocesses_video_number").on(t.videoId, t.number),
		// At most one reprocess of a video runs at a time (the status guard says so too).
		uniqueIndex("video_reprocesses_one_running")
			.on(t.videoId)
			.where(sql`status = 'processing'`),
	],
);

/**
 * A file uploaded instead of a URL (POST /api/uploads): an R2 multipart upload through the Worker,
 * resumable from its recorded parts. It reserves the id of the video it may become, and writes
 * straight to that video's source key, so a video made from it needs no copy.
 * `uploading` → `completed` (every part stored, the object exists) → `used` (a video was made of it).
 */
export const uploads = sqliteTable(
	"uploads",
	{
		id: text("id").primaryKey(),
		workspaceId: text("workspace_id")
			.notNull()
			.references(() => workspaces.id),
		/** The video's id once made of it (reserved now: the object is written under its source key). */
		videoId: text("video_id").notNull().unique(),
		objectKey: text("object_key").notNull(),
		/** R2's id of the multipart upload (resumeMultipartUpload). */
		r2UploadId: text("r2_upload_id").notNull(),
		fileName: text("file_name").notNull(),
		contentType: text("content_type").notNull(),
		size: integer("size").notNull(),
		/** Bytes of every part but the last (R2 wants them equal). */
		partSize: integer("part_size").notNull(),
		partCount: integer("part_count").notNull(),
		status: text("status", { enum: UPLOAD_STATUSES }).notNull(),
		/** Past it, an upload not made into a video is aborted and deleted by the cron. */
		expiresAt: text("expires_at").notNull(),
		completedAt: text("completed_at"),
		createdAt: createdAt(),
	},
	(t) => [index("uploads_workspace_status").on(t.workspaceId, t.status), index("uploads_expires").on(t.expiresAt)],
);

/** The parts R2 has stored for an upload (its ETags, for completing it): the resume point. */
export const uploadParts = sqliteTable(
	"upload_parts",
	{
		uploadId: text("upload_id")
			.notNull()
			.references(() => uploads.id),
		partNumber: integer("part_number").notNull(),
		etag: text("etag").notNull(),
		size: integer("size").notNull(),
		createdAt: createdAt(),
	},
	(t) => [primaryKey({ columns: [t.uploadId, t.partNumber] })],
);

/**
 * A workspace's own caption templates (`custom:<id>`): a preset look plus overrides of its font,
 * colours and position (null = the preset's). Deleting one only stamps `deletedAt`: videos submitted
 * with it still render with it, while lists and new submissions no longer see it.
 */
export const captionTemplates = sqliteTable(
	"caption_templates",
	{
		id: text("id").primaryKey(),
		workspaceId: text("workspace_id")
			.notNull()
			.references(() => workspaces.id),
		name: text("name").notNull(),
		presetId: text("preset_id").notNull(),
		...overrideColumns(),
		deletedAt: text("deleted_at"),
		updatedAt: text("updated_at")
			.notNull()
			.default(sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`),
		createdAt: createdAt(),
	},
	(t) => [index("caption_templates_workspace").on(t.workspaceId, t.createdAt)],
);
