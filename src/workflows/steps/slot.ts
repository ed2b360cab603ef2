/** Step "claim a processing slot": whether this video may process now, or waits its workspace's turn. */
import type { SlotState } from "../../worker/db/slots";
import { claimProcessingSlot } from "../../worker/services/processing-slots";
import type { LoadedVideo, VideoRun } from "./run";

export async function claimSlotStep(run: VideoRun, video: LoadedVideo): Promise<{ state: SlotState }> {
	return { state: await claimProcessingSlot(run.env, run.db, run.videoId, video.workspaceId) };
}
