/** get_status: a video's stage, progress and, if it failed, why. */
import { statusOf, statusShape, videoId } from "../shapes.ts";
import { defineTool, READ_ONLY } from "../tool.ts";

export const getStatus = defineTool({
	name: "get_status",
	title: "Get a video's status",
	description: "The video's stage, progress (0-100) and, if it failed, why.",
	input: { videoId },
	output: statusShape,
	annotations: READ_ONLY,
	run: async (client, args) => statusOf(await client.status(args.videoId)),
});
