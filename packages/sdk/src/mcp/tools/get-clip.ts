/** get_clip: one clip of a video with newly signed links, and its caption words (for update_clip). */
import * as z from "zod";
import { ClipforgeError } from "../../errors.ts";
import { clipId, clipOf, clipSchema, videoId } from "../shapes.ts";
import { defineTool, READ_ONLY } from "../tool.ts";

/** Signed clip links are valid this long from each listing (the API's rule). */
const LINK_SECONDS = 3600;

const notAmong = (clip: string, video: string) =>
	new ClipforgeError("not_found", `Clip ${clip} is not among the clips of video ${video} (list_clips shows them).`, {
		status: 404,
	});

export const getClip = defineTool({
	name: "get_clip",
	title: "Get a clip with a fresh download link",
	description:
		"One clip of a video with newly signed download and thumbnail links (valid for one hour; anyone with the link can download it), and its caption words with their indexes (for update_clip).",
	input: { videoId, clipId },
	output: {
		videoId: z.string(),
		clip: clipSchema,
		words: z
			.array(z.object({ index: z.number(), word: z.string() }))
			.describe("The clip's caption words (corrections applied)."),
		linksExpireInSeconds: z.number(),
	},
	annotations: READ_ONLY,
	async run(client, args) {
		const found = await client.clip(args.clipId).catch((error: unknown) => {
			throw error instanceof ClipforgeError && error.code === "not_found"
				? notAmong(args.clipId, args.videoId)
				: error;
		});
		if (found.videoId !== args.videoId) throw notAmong(args.clipId, args.videoId);
		const words = found.words.map(({ index, word }) => ({ index, word: word.trim() }));
		return { videoId: args.videoId, clip: clipOf(found), words, linksExpireInSeconds: LINK_SECONDS };
	},
});
