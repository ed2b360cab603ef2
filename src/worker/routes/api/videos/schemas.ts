import { z } from "@hono/zod-openapi";
import { OPTIONAL_SCORE_FEATURES, SCORE_FEATURES } from "@clipforge/domain";
import { VideoConfigInput } from "../../../domain/video-config";
import { TRANSCRIPT_SOURCES, VIDEO_STATUSES } from "@clipforge/domain";
import { CLIP_API_STATUSES, CLIP_SORT_FIELDS, SORT_ORDERS } from "@clipforge/domain";

export const VideoId = z
	.string()
	.min(1)
	.max(64)
	.openapi({ param: { name: "id", in: "path" }, example: "vid_3kTq9bX2mZpQ" });

/** Captions that replace transcription: a URL to fetch, or the file's text (a body is at most 64 KiB: longer files by URL). */
export const SuppliedCaptionsBody = z
	.union([
		z.strictObject({
			url: z.string().min(1).max(2048).openapi({
				description: "An SRT or WebVTT file to fetch (http or https, at most 5 MB).",
			}),
		}),
		z.strictObject({
			text: z.string().min(1).max(60_000).openapi({ description: "The SRT or WebVTT file itself." }),
		}),
	])
	.openapi("SuppliedCaptions", {
		description:
			"The video's captions (SRT or WebVTT), read instead of transcribing: any language, word times spread over each cue by its script. A file that cannot be read is a 400 naming what is wrong, nothing charged. They win over the source's own subtitles and `language` (when set) names their language.",
	});

export const SubmitHostedVideoBody = z
	.strictObject({
		hostedUrl: z.string().min(1).max(2048).openapi({ example: "https://videos.example.com/watch?v=abc123" }),
		workspaceId: z.string().min(1).max(64).optional(),
		config: VideoConfigInput.optional(),
		projectId: z.string().min(1).max(64).optional(),
		webhookUrl: z.string().min(1).max(2048).optional().openapi({
			description:
				"POSTed a signed `video.completed` or `video.failed` event (overrides the workspace's webhook).",
		}),
		captions: SuppliedCaptionsBody.optional(),
	})
	.openapi("SubmitHostedVideo");
export type SubmitHostedVideoBody = z.infer<typeof SubmitHostedVideoBody>;

export const SubmitUploadedVideoBody = z
	.strictObject({
		uploadId: z.string().min(1).max(64).openapi({
			example: "upl_3kTq9bX2mZpQ",
			description: "A completed upload (POST /api/uploads, its parts, then …/complete).",
		}),
		workspaceId: SubmitHostedVideoBody.shape.workspaceId,
		config: SubmitHostedVideoBody.shape.config,
		projectId: SubmitHostedVideoBody.shape.projectId,
		webhookUrl: SubmitHostedVideoBody.shape.webhookUrl,
		captions: SubmitHostedVideoBody.shape.captions,
	})
	.openapi("SubmitUploadedVideo");

const Status = z.enum(VIDEO_STATUSES);

/** Seed 2.1. */
export const Video = z
	.object({
		id: z.string(),
		title: z
			.string()
			.openapi({ description: "The source's title as its platform gives it, at most 300 characters." }),
		status: Status,
		sourceType: z.enum(["hosted", "upload"]),
		sourceUrl: z.string().openapi({ description: "The hosted URL; `upload://<uploadId>` for an uploaded file." }),
		workspaceId: z.string(),
		createdAt: z.string(),
	})
	.openapi("Video");

/** Seed 2.2. */
export const VideoInfo = z
	.object({
		id: z.string().openapi({ description: "The platform's id, at most 200 characters." }),
		title: z.string().openapi({ description: "At most 300 characters (longer titles end in …)." }),
		duration: z.number(),
		thumbnail: z.string().openapi({ description: "An http(s) URL of at most 2048 characters, or empty." }),
		channelName: z.string().openapi({ description: "At most 200 characters." }),
	})
	.openapi("VideoInfo");

export const SubmitHostedVideoResponse = z
	.object({ message: z.string(), video: Video, videoInfo: VideoInfo })
	.openapi("SubmitHostedVideoResponse");

export const VideoDetail = Video.extend({
	videoInfo: VideoInfo,
	config: VideoConfigInput.nullable(),
	errorMessage: z.string().nullable(),
	minutesCharged: z.number().int(),
	projectId: z.string().nullable(),
	language: z.string().nullable(),
	rankedBy: z.string().nullable().openapi({
		description:
			"What chose the moments: `ClipBasic (workers-ai:…)`, `ClipPro (…)`, or the offline ranker (and why, when it stood in for an LLM).",
	}),
	rankingNote: z.string().nullable().openapi({
		description:
			"Why the video has fewer clips than its talk has room for (min(4, seconds of speech ÷ clipDurationMax)): its talk is greetings and housekeeping, nothing else matches the custom prompt, no speech was heard; or why the prompt could not narrow them (it names only who spoke, which the transcript does not record). A video with no clips also says how its minutes were settled. Null otherwise.",
	}),
	progress: z.number(),
	updatedAt: z.string(),
	completedAt: z.string().nullable(),
	duration: z.number().openapi({ description: "The source's duration in seconds (as videoInfo.duration)." }),
	transcriptLanguage: z.string().nullable().openapi({
		description:
			"The transcript's language (forced by the config or detected); null before transcription. Same as `language`.",
	}),
	transcriptSource: z.enum(TRANSCRIPT_SOURCES).openapi({
		description:
			"Where the words come from: `transcription` (speech recognition), `captions` supplied with the submission, or the source's own `subtitles` (then transcription is skipped).",
	}),
	subtitleTrack: z.object({ lang: z.string(), automatic: z.boolean() }).nullable().openapi({
		description:
			"The source's subtitle track read (`automatic`: made by the site's speech recognition); null unless transcriptSource is `subtitles`.",
	}),
	clipsCount: z
		.number()
		.int()
		.openapi({ description: "Clips GET /api/videos/{id}/clips lists now (0 until completed)." }),
	favoritedClipsCount: z.number().int(),
	editBudget: z
		.object({
			limitSeconds: z.number().openapi({
				description:
					"Seconds of clips the video's edits may render again in all: 2 minutes per minute charged, at least 10 minutes.",
			}),
			usedSeconds: z
				.number()
				.openapi({ description: "Seconds rendered again so far (counted as each re-render starts)." }),
		})
		.openapi({
			description:
				"The video's edit budget: a PATCH of a clip that renders it again needs its new length left here, else 409 `quota_exceeded` (nothing changed).",
		}),
}).openapi("VideoDetail");

export const VideoStatusResponse = z
	.object({
		video: z.object({
			id: z.string(),
			title: z.string(),
			status: Status,
			errorMessage: z.string().nullable(),
			createdAt: z.string(),
			updatedAt: z.string(),
		}),
		job: z.object({
			progress: z.number().min(0).max(100),
			stage: Status,
			stageProgress: z
				.number()
				.min(0)
				.max(100)
				.openapi({ description: "How far through the current stage (0-100): for a progress bar per stage." }),
			startedAt: z.string().nullable(),
			updatedAt: z.string(),
			queuePosition: z
				.number()
				.int()
				.min(1)
				.nullable()
				.openapi({
					description:
						"Set while the video waits for one of its workspace's processing slots (status stays `downloading`, progress 0): 1 = next to start. " +
						"A workspace processes at most its plan's number of videos at once (default 2); null once it has a slot.",
				}),
		}),
	})
	.openapi("VideoStatus");

/** Seed 2.4. */
export const Clip = z
	.object({
		id: z.string(),
		title: z.string(),
		hookTitle: z
			.string()
			.nullable()
			.openapi({ description: "A headline (≤ 60 characters) written for the clip's first seconds." }),
		startTime: z.number(),
		endTime: z.number(),
		duration: z.number(),
		score: z.number().int().min(0).max(100),
		viralityReason: z.string(),
		scoreBreakdown: z
			.object({
				...(Object.fromEntries(SCORE_FEATURES.map((f) => [f, z.number()])) as Record<
					(typeof SCORE_FEATURES)[number],
					z.ZodNumber
				>),
				...(Object.fromEntries(OPTIONAL_SCORE_FEATURES.map((f) => [f, z.number().nullable()])) as Record<
					(typeof OPTIONAL_SCORE_FEATURES)[number],
					z.ZodNullable<z.ZodNumber>
				>),
			})
			.nullable()
			.openapi({
				description:
					"What the score is made of, each 0-100; the score is their weighted mean (README: Judging the ranking). substance (carries content: a story, an explanation, a decision, not chatter or logistics), hook (opens on the moment's first sentence), payoff (ends on it landing), story (narration, a scene), feeling, detail (names, numbers), flow (reads well as a clip); relevance to the customPrompt and vocal energy (null without a prompt / audio signals).",
			}),
		hooks: z.object({ question: z.string().nullable(), statement: z.string().nullable() }).openapi({
			description:
				"The question and/or statement that pulls viewers in during the first seconds (null when the clip has none).",
		}),
		emotions: z
			.array(z.string())
			.openapi({ description: "The feelings the clip carries, e.g. humor, surprise, tension." }),
		description: z.string().openapi({ description: "A post caption with hashtags." }),
		transcript: z.string(),
		downloadUrl: z.string(),
		thumbnailUrl: z.string(),
		status: z.enum(CLIP_API_STATUSES).openapi({
			description:
				"`completed` (rendered); `generating` while an edit renders it again (the previous file stays served until then); `detected`/`failed` for clips not rendered (only with the `status` filter).",
		}),
		aspectRatio: z.string(),
		videoId: z.string(),
		createdAt: z.string(),
		updatedAt: z.string().nullable().openapi({ description: "When the clip was last edited; null if never." }),
		favorited: z.boolean(),
		captionStyle: z.string().nullable().openapi({
			description:
				"The clip's own caption look (set by an edit; it turns captions on for the clip); null = the video's captionTemplateId.",
		}),
		edits: z
			.number()
			.int()
			.openapi({ description: "Re-renders its edits started (free up to the limit in the README)." }),
		editError: z.string().nullable().openapi({
			description: "Why the last edit's render failed (the clip kept its previous version); null otherwise.",
		}),
	})
	.openapi("Clip");

export const ClipId = z
	.string()
	.min(1)
	.max(100)
	.openapi({ param: { name: "id", in: "path" }, example: "clp_Zq3xWm8TkR2pLs9vN4bY" });

const CaptionWord = z
	.object({ index: z.number().int(), word: z.string(), start: z.number(), end: z.number() })
	.openapi("CaptionWord");

/** GET /api/clips/:id: the list's view plus the words its captions show. */
export const ClipDetail = Clip.extend({
	words: z.array(CaptionWord).openapi({
		description:
			"The words of the clip's captions (corrections applied), times in seconds from the clip's start; `index` is what PATCH `captionWords` refers to.",
	}),
}).openapi("ClipDetail");

export const ClipsResponse = z
	.object({
		videoId: z.string(),
		status: Status,
		clips: z.array(Clip),
		count: z.number().int(),
		nextCursor: z.string().nullable(),
		filters: z
			.object({
				minScore: z.number().nullable(),
				maxScore: z.number().nullable(),
				status: z.enum(CLIP_API_STATUSES).nullable(),
				favorited: z.boolean().nullable(),
				sortBy: z.enum(CLIP_SORT_FIELDS),
				sortOrder: z.enum(SORT_ORDERS),
			})
			.openapi({ description: "The filters and order this answer applied (defaults filled)." }),
	})
	.openapi("ClipList");
