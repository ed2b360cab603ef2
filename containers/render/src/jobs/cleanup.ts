/**
 * `cleanup`: the video is done; its folder on this instance goes, and it no longer counts among its
 * workspace's videos in progress.
 */
import { cpuSlots } from "../runtime/encode-slots.ts";
import type { JobHandler } from "../runtime/job-registry.ts";
import { removeVideoDir } from "../runtime/workdir.ts";

export const cleanupJob: JobHandler<"cleanup"> = async (req) => {
	cpuSlots.forget(req.videoId);
	await removeVideoDir(req.videoId);
	return { ok: true };
};
