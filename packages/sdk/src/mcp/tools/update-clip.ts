/** update_clip: favourite, retitle, trim, or change a clip's caption look or words (a change to the picture re-renders it). */
import { CAPTION_TEMPLATES, CLIP_API_STATUSES } from "@clipforge/domain";
import * as z from "zod";
import { clipId, clipOf, clipSchema } from "../shapes.ts";
import { defineTool } from "../tool.ts";

export const updateClip = defineTool({
	name: "update_clip",
	title: "Edit a clip",
	description:
		"Changes one clip: favorited and title are saved at once; a new startTime/endTime (seconds in the source, snapped to word edges, 5-600 s long), captionStyle, corrected caption words (index as in get_clip's words; timings stay) or a drawn hookTitle re-render that clip alone (status generating, then completed; call get_clip to see it). Free, up to 20 re-renders per clip. Refused while the video or clip is processing (video_processing, clip_processing) and once the video's files are gone (source_deleted).",
	input: {
		clipId,
		favorited: z.boolean().optional().describe("Mark or unmark as a favorite."),
		title: z.string().optional().describe("A new title (1-200 characters)."),
		hookTitle: z
			.string()
			.nullable()
			.optional()
			.describe("A new hook title (re-renders the clip when the video draws hook titles)."),
		startTime: z
			.number()
			.optional()
			.describe("New start, seconds in the source (snapped to the nearest word start). Re-renders the clip."),
		endTime: z
			.number()
			.optional()
			.describe("New end, seconds in the source (snapped to the nearest word end). Re-renders the clip."),
		captionStyle: z
			.string()
			.nullable()
			.optional()
			.describe(
				`The clip's own caption look (turns its captions on): a preset (${CAPTION_TEMPLATES.join(", ")}) or custom:<id> of the workspace; null = the video's. Re-renders the clip.`,
			),
		captionWords: z
			.array(z.object({ index: z.number().int(), word: z.string() }))
			.optional()
			.describe("Corrected caption words: index into get_clip's words, and the new text; timings stay."),
	},
	output: {
		clip: clipSchema,
		status: z
			.enum(CLIP_API_STATUSES)
			.describe("generating while the clip is rendered again; completed when saved without rendering."),
		rendering: z.boolean().describe("true when the change re-renders the clip."),
		favorited: z.boolean(),
		edits: z.number().describe("Re-renders so far (free up to 20 per clip)."),
		editError: z
			.string()
			.nullable()
			.describe("Why the last re-render failed (the clip kept its previous version)."),
	},
	annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
	async run(client, args) {
		const { clipId: id, ...changes } = args;
		const updated = await client.updateClip(id, changes);
		return {
			clip: clipOf(updated),
			status: updated.status,
			rendering: updated.status === "generating",
			favorited: updated.favorited,
			edits: updated.edits,
			editError: updated.editError,
		};
	},
});
