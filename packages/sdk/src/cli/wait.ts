/** Waiting for a video with a bar per stage, and downloading its clips: `--wait`, `--out`, `clips --download`. */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { PROCESSING_STAGES as STAGES } from "@clipforge/domain";
import cliProgress from "cli-progress";
import type { Clip, VideoStatus } from "../node-client.ts";
import type { Cli } from "./context.ts";
import { untilInterrupted } from "./interrupt.ts";
import type { WaitFlags } from "./config-options.ts";
import { clipsText, fileStem } from "./text.ts";

export const stoppedDownloading = (id: string, dir: string) =>
	`Stopped downloading; the finished clips are in ${dir}. Download them all with: clipforge clips ${id} --download --out ${dir}`;

/**
 * --wait: a bar per stage until the video is done, then its clips (downloaded with --out).
 * `announce` goes to stderr once Ctrl-C is handled, so whoever reacts to it can interrupt cleanly.
 */
export async function waitAndCollect(cli: Cli, id: string, opts: WaitFlags, announce: string): Promise<void> {
	let downloading = false;
	const { status, clips, files, rankingNote } = await untilInterrupted(
		async (signal) => {
			if (!cli.json()) console.error(announce);
			const status = await waitWithProgress(cli, id, opts.interval * 1000, signal);
			const [clips, video] = await Promise.all([cli.client().allClips(id), cli.client().video(id)]);
			downloading = true;
			const files = opts.out ? await downloadClips(cli, clips, opts.out, signal) : [];
			return { status, clips, files, rankingNote: video.rankingNote };
		},
		() =>
			downloading
				? stoppedDownloading(id, opts.out!)
				: `Stopped waiting; ${id} keeps processing. Follow it with: clipforge status ${id}`,
	);
	cli.output({ video: status.video, rankingNote, clips, files }, () => clipsText(clips, files, rankingNote));
}

/** How a status reads: a bar per stage on a terminal, a line per change otherwise. */
function progressView(cli: Cli) {
	const live = process.stderr.isTTY && !cli.json();
	const format = {
		format: " {stage} |{bar}| {value}%",
		hideCursor: true,
		clearOnComplete: false,
		stream: process.stderr,
	};
	const bars = live ? new cliProgress.MultiBar(format, cliProgress.Presets.shades_classic) : null;
	const stageBars = new Map(STAGES.map((stage) => [stage, bars?.create(100, 0, { stage: stage.padEnd(16) })]));
	let lastLine = "";
	const show = (status: VideoStatus) => {
		const current = STAGES.indexOf(status.job.stage as (typeof STAGES)[number]);
		STAGES.forEach((stage, i) => {
			const value =
				status.video.status === "completed" || i < current
					? 100
					: i === current
						? Math.round(status.job.stageProgress)
						: 0;
			const waiting =
				stage === "downloading" && status.job.queuePosition ? `waiting #${status.job.queuePosition}` : stage;
			stageBars.get(stage)?.update(value, { stage: waiting.padEnd(16) });
		});
		if (live || cli.json()) return;
		const queued = status.job.queuePosition
			? ` (waiting for a processing slot, number ${status.job.queuePosition} in line)`
			: "";
		const line = `${status.video.status} ${status.job.progress.toFixed(0)}%${queued}`;
		if (line !== lastLine) console.error(line);
		lastLine = line;
	};
	return { show, stop: () => bars?.stop() };
}

/** Polls, showing progress; throws when the video fails. */
async function waitWithProgress(cli: Cli, id: string, intervalMs: number, signal: AbortSignal): Promise<VideoStatus> {
	const view = progressView(cli);
	try {
		return await cli.client().waitForCompletion(id, { intervalMs, onProgress: view.show, signal });
	} finally {
		view.stop();
	}
}

/** Each clip's MP4 into `dir` as NN-title.mp4; the paths written. */
export async function downloadClips(cli: Cli, clips: Clip[], dir: string, signal: AbortSignal): Promise<string[]> {
	mkdirSync(dir, { recursive: true });
	const files: string[] = [];
	for (const [n, clip] of clips.entries()) {
		const path = join(dir, `${fileStem(clip, n)}.mp4`);
		await cli.client().downloadClip(clip, path, signal);
		files.push(path);
	}
	return files;
}
