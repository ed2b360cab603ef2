/** Every tool, in the order an assistant lists them. */
import { deleteVideo } from "./delete-video.ts";
import { getChapters } from "./get-chapters.ts";
import { getClip } from "./get-clip.ts";
import { getStatus } from "./get-status.ts";
import { listClips } from "./list-clips.ts";
import { listVideos } from "./list-videos.ts";
import { listWorkspaces } from "./list-workspaces.ts";
import { reprocessVideo } from "./reprocess-video.ts";
import { submitVideo } from "./submit-video.ts";
import { updateClip } from "./update-clip.ts";
import { waitForCompletion } from "./wait-for-completion.ts";

export const TOOLS = [
	listWorkspaces,
	listVideos,
	submitVideo,
	getStatus,
	waitForCompletion,
	getChapters,
	listClips,
	getClip,
	updateClip,
	reprocessVideo,
	deleteVideo,
] as const;
