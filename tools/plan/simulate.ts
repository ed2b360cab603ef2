/**
 * One video through the workflow's own plan (src/workflows/video-plan.ts: the order, the overlaps,
 * the chunk and render pools), the Worker's own instance naming (render-instances.ts) and the
 * tier's own encode slots (encode-slots.ts), with each step's work replayed as virtual time from
 * the stage costs: the predicted wall time of that video on the configured deployment.
 */
import { Slots } from "../../containers/render/src/encode-slots.ts";
import { renderInstance, renderPoolsOf } from "../../src/worker/services/render-instances.ts";
import { planAudioChunks, type ChunkPlan } from "../../src/worker/services/transcription/transcript.ts";
import { settingsOf } from "../../src/worker/settings.ts";
import { inPool, runVideoPlan } from "../../src/workflows/video-plan.ts";
import type { BUDGET_VIDEO, MeasuredCosts, PLATFORM } from "./costs.ts";
import { SharedCpu, VirtualClock } from "./virtual-clock.ts";

/** The platform's figures, any of which a what-if may change. */
export type Platform = {
	-readonly [K in keyof typeof PLATFORM]: (typeof PLATFORM)[K] extends number ? number : (typeof PLATFORM)[K];
};
export type Video = { minutes: number; sourceMegabits: number; clipSeconds: readonly number[]; clipMegabits: number };

export interface SimulationInput {
	/** The deployment's vars (wrangler.toml [vars]): chunk size, fan-out, pools. */
	vars: Record<string, string>;
	instanceType: string;
	costs: MeasuredCosts;
	platform: Platform;
	video: Video | typeof BUDGET_VIDEO;
}

export interface StepRun {
	step: string;
	from: number;
	to: number;
	instance?: string;
}

export interface Simulation {
	wallSeconds: number;
	steps: StepRun[];
	/** The steps that set the end time, first to last (each one waited for the one before). */
	criticalPath: StepRun[];
	instancesUsed: number;
}

const VIDEO_ID = "vid_budget";

export async function simulate(input: SimulationInput): Promise<Simulation> {
	const { costs, platform, video } = input;
	const clock = new VirtualClock();
	const vcpus = platform.vcpus[input.instanceType];
	if (!vcpus) throw new Error(`Unknown instance type ${input.instanceType}.`);
	const settings = settingsOf(input.vars);
	const speedup = (cores: number) =>
		cores <= 1 ? cores : cores * platform.threadEfficiencyPerDoubling ** Math.log2(cores);
	const instances = new Map<string, { cpu: SharedCpu; slots: Slots; ready: Promise<void> }>();
	/** The instance, started on first use (cold start + the tier's own start). */
	const on = async (name: string) => {
		let instance = instances.get(name);
		if (!instance) {
			instance = {
				cpu: new SharedCpu(clock, vcpus, speedup),
				slots: new Slots(Math.max(1, Math.floor(vcpus))),
				ready: clock.sleep(platform.containerColdStartSeconds + costs.tierStartSeconds),
			};
			instances.set(name, instance);
		}
		await instance.ready;
		return instance;
	};
	const steps: StepRun[] = [];
	const step = async <T>(name: string, work: () => Promise<T>, instance?: string): Promise<T> => {
		const run: StepRun = { step: name, from: clock.now, to: 0, ...(instance ? { instance } : {}) };
		steps.push(run);
		const result = await work();
		await clock.sleep(platform.stepSeconds);
		run.to = clock.now;
		return result;
	};
	const seconds = video.minutes * 60;
	const sourceMegabytes = (seconds * video.sourceMegabits) / 8;
	const videoInstance = renderInstance.video(input.vars, VIDEO_ID);
	const clipIds = video.clipSeconds.map((_, n) => `clp_budget_${n + 1}`);

	const wallSeconds = await clock.run(async () => {
		await runVideoPlan<string, ChunkPlan, string, string, string>(
			{
				download: () =>
					step(
						"download source",
						async () => {
							await on(videoInstance);
							await clock.sleep(sourceMegabytes / platform.originMegabytesPerSecond);
						},
						videoInstance,
					),
				upload: () =>
					step(
						"upload source",
						async () => {
							await on(videoInstance);
							await clock.sleep(sourceMegabytes / platform.r2MegabytesPerSecond);
							return "source";
						},
						videoInstance,
					),
				extractAudio: () =>
					step(
						"extract audio",
						async () => {
							const { cpu } = await on(videoInstance);
							const chunks = planAudioChunks(0, seconds, settings.audioChunkSeconds);
							// As the tier: chunks cut one per core at once (containers/render/src/jobs.ts).
							await inPool(chunks, Math.max(1, Math.floor(vcpus)), (chunk) =>
								cpu.work(chunk.duration * costs.audioCpuPerSourceSecond, 1),
							);
							return chunks;
						},
						videoInstance,
					),
				transcribe: (chunk, n, total) =>
					step(`transcribe chunk ${n + 1} of ${total}`, () =>
						clock.sleep(platform.whisperCallSeconds + chunk.duration / platform.whisperRealtimeFactor),
					),
				merge: () => step("merge transcript", async () => "transcript"),
				// Offline, about 0.2 s per hour of talk; with an LLM, a few calls of a few seconds.
				chapters: () =>
					step("find chapters", () => clock.sleep(0.2 * (seconds / 3600) + platform.llmRankSeconds / 4)),
				signals: () =>
					step(
						"compute signals",
						async () => {
							const { cpu } = await on(videoInstance);
							await cpu.work(seconds * costs.loudnessCpuPerSourceSecond, 1);
							return "signals";
						},
						videoInstance,
					),
				look: () => step("prepare the caption look", async () => "look"),
				rank: () =>
					step("rank moments", async () => {
						await clock.sleep((costs.offlineRankSeconds ?? 2) + platform.llmRankSeconds);
						return clipIds;
					}),
				render: (clip) => {
					const name = renderInstance.render(input.vars, VIDEO_ID, clip.index);
					const clipSeconds = video.clipSeconds[clip.index]!;
					return step(
						`render clip ${clip.index + 1} of ${clip.total}`,
						async () => {
							const { cpu, slots } = await on(name);
							// The tier: read the clip's stretch of the source from R2, encode in an encode slot, store the clip.
							const release = await slots.acquire();
							try {
								await clock.sleep(
									(clipSeconds * video.sourceMegabits) / 8 / platform.r2MegabytesPerSecond,
								);
								await cpu.work(clipSeconds * costs.encodeCpuPerClipSecond, vcpus);
							} finally {
								release();
							}
							await clock.sleep((clipSeconds * video.clipMegabits) / 8 / platform.r2MegabytesPerSecond);
						},
						name,
					);
				},
				finish: () => step("finish", async () => undefined),
			},
			settings.fanOut,
			{ clipping: true },
		);
		return clock.now;
	});
	return { wallSeconds, steps, criticalPath: criticalPath(steps), instancesUsed: instances.size };
}

/** From the last step back: each step's predecessor is the one that ended last before it started. */
function criticalPath(steps: StepRun[]): StepRun[] {
	const path: StepRun[] = [];
	let current = [...steps].sort((a, b) => b.to - a.to)[0];
	while (current) {
		path.unshift(current);
		const start = current.from;
		current = steps.filter((s) => s !== current && s.to <= start + 1e-6).sort((a, b) => b.to - a.to)[0];
	}
	return path;
}

/** The configured pools, for the report. */
export function poolsOf(vars: Record<string, string>) {
	return {
		...renderPoolsOf(vars),
		fanOut: settingsOf(vars).fanOut,
		audioChunkSeconds: settingsOf(vars).audioChunkSeconds,
	};
}
