/**
 * PATCH /api/clips/{id}: editing a clip (favorite and title at once; a trim, caption look, corrected
 * words or drawn hook title re-render it).
 */
import { createRoute, z } from "@hono/zod-openapi";
import { CLIP_SECONDS } from "@clipforge/domain";
import { getDb } from "../../../db/client";
import { EDIT_CHARGING_RULE, MAX_EDITS_PER_CLIP } from "../../../domain/clip-edit";
import { VideoConfigInput } from "../../../domain/video-config";
import type { Api } from "../../../env";
import { editClip } from "../../../services/edit-clip";
import { oneLine } from "../../../services/transcription/transcript-formats";
import { BEARER_OR_SESSION, errorResponses, jsonBody, jsonOk } from "../../openapi";
import { ClipDetail, ClipId } from "../videos/schemas";
import { detailOf, loadClip } from "./clip-detail";

/** The caption looks a clip may take: whatever a video's `captionTemplateId` accepts. */
const CaptionStyleInput = VideoConfigInput.shape.captionTemplateId.unwrap();

export const UpdateClipBody = z
	.strictObject({
		favorited: z.boolean().optional(),
		title: z.string().trim().min(1).max(200).optional(),
		hookTitle: z
			.string()
			.max(100)
			.nullable()
			.optional()
			.openapi({ description: "Re-renders the clip when the video draws hook titles (`enableIntroTitle`)." }),
		startTime: z.number().min(0).optional().openapi({
			description:
				"Seconds in the source; snapped to the nearest word start (within 1.5 s). Re-renders the clip.",
		}),
		endTime: z
			.number()
			.min(0)
			.optional()
			.openapi({
				description: `Seconds in the source; snapped to the nearest word end (within 1.5 s), inside the video's charged time frame (else 400 with the frame in \`details\`); the clip must last ${CLIP_SECONDS.min}-${CLIP_SECONDS.max} s. Re-renders the clip.`,
			}),
		captionStyle: CaptionStyleInput.nullable().optional().openapi({
			description:
				"The clip's own caption look (turns captions on for it); null = the video's. Re-renders the clip.",
		}),
		captionWords: z
			.array(
				z.strictObject({
					index: z.number().int().min(0),
					// One line: line breaks and control characters become a space (captions files are line-based).
					word: z
						.string()
						.max(100)
						.transform(oneLine)
						.refine((word) => word.length > 0, "must not be empty"),
				}),
			)
			.max(500)
			.optional()
			.openapi({
				description:
					"Corrected caption words: `index` as GET /api/clips/{id} lists `words` (after this request's trim); the timing stays. Re-renders the clip when its captions are shown.",
			}),
	})
	.openapi("UpdateClip");

const updateRoute = createRoute({
	method: "patch",
	path: "/clips/{id}",
	tags: ["clips"],
	summary:
		"Edit a clip: favorite and title at once; a trim, caption look, corrected words or drawn hook title re-render it",
	description:
		"Only the fields sent change. `favorited` and `title` (and changes that draw nothing differently) are saved at once: 200. " +
		"A new `startTime`/`endTime` (snapped to word edges), `captionStyle`, corrected `captionWords` of shown captions, or a `hookTitle` the video draws re-render this clip alone from the stored source: 202, `status` `generating` until the new file replaces the old one (which is served meanwhile), then `completed`; if the render fails the clip keeps its previous version and `editError` says why. " +
		`409 \`video_processing\` while the video is processing, \`clip_processing\` while the clip is being rendered again, \`quota_exceeded\` past ${MAX_EDITS_PER_CLIP} re-renders or past the video's edit budget (\`editBudget\` on the video, \`details: {limit, used, needed}\`); 410 \`source_deleted\` when the stored source is gone (past its retention); 400 for times outside the charged time frame (\`details\` gives it) or the length bounds. ${EDIT_CHARGING_RULE}`,
	security: BEARER_OR_SESSION,
	request: { params: z.object({ id: ClipId }), body: jsonBody(UpdateClipBody) },
	responses: {
		200: jsonOk(ClipDetail, "Saved; nothing to render again."),
		202: jsonOk(ClipDetail, "Saved; the clip is being rendered again (`status: generating`)."),
		...errorResponses(400, 401, 404, 409, 410),
	},
});

export function registerUpdateClip(api: Api) {
	api.openapi(updateRoute, async (c) => {
		const db = getDb(c.env);
		const { id } = c.req.valid("param");
		const { workspaceIds } = c.get("principal");
		const { clip, video } = await loadClip(db, id, workspaceIds);
		const { rendering } = await editClip(c.env, db, video, clip, c.req.valid("json"));
		const now = await loadClip(db, id, workspaceIds);
		c.header("Cache-Control", "no-store");
		const body = await detailOf(c.env, new URL(c.req.url).origin, now.video, now.clip);
		return rendering ? c.json(body, 202) : c.json(body, 200);
	});
}
