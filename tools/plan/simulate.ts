/**
 * One video through the workflow's own plan (src/workflows/video-plan.ts: the order, the overlaps,
 * the chunk and render pools), the Worker's own instance naming (render-instances.ts) and the
 * tier's own encode slots (encode-slots.ts), with each step's work replayed as virtual time from
 * the stage costs: the predicted wall time of that video on the configured deployment.
 */
import { Slots } from "../../containers/render/src/runtime/encode-slots.ts";
import { renderInstance, renderPoolsOf } from "../../src/worker/services/render-instances.ts";
import { planAudioChunks, type ChunkPlan } from "../../src/worker/services/transcription/transcript.ts";
import { settingsOf } from "../../src/worker/settings.ts";
import { inPool, runVideoPlan, VIDEO_STEP_NAMES as STEP } from "../../src/workflows/video-plan.ts";
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
	const cloud = new SimulatedCloud(input);
	const wallSeconds = await cloud.clock.run(async () => {
		const stages = {
			...sourceStages(cloud, input),
			...analysisStages(cloud, input),
			...renderStages(cloud, input),
		};
		await runVideoPlan<string, ChunkPlan, string, string, string>(stages, settingsOf(input.vars).fanOut, {
			clipping: true,
		});
		return cloud.clock.now;
	});
	const { steps } = cloud;
	return { wallSeconds, steps, criticalPath: criticalPath(steps), instancesUsed: cloud.instanceCount };
}

/** Virtual time, the container instances started so far, and the steps run on them. */
class SimulatedCloud {
	readonly clock = new VirtualClock();
	readonly steps: StepRun[] = [];
	readonly vcpus: number;
	private readonly instances = new Map<string, { cpu: SharedCpu; slots: Slots; ready: Promise<void> }>();

	constructor(private readonly input: SimulationInput) {
		const vcpus = input.platform.vcpus[input.instanceType];
		if (!vcpus) throw new Error(`Unknown instance type ${input.instanceType}.`);
		this.vcpus = vcpus;
	}

	get instanceCount(): number {
		return this.instances.size;
	}

	/** The instance, started on first use (cold start + the tier's own start). */
	async on(name: string) {
		const { platform, costs } = this.input;
		let instance = this.instances.get(name);
		if (!instance) {
			const speedup = (cores: number) =>
				cores <= 1 ? cores : cores * platform.threadEfficiencyPerDoubling ** Math.log2(cores);
			instance = {
				cpu: new SharedCpu(this.clock, this.vcpus, speedup),
				slots: new Slots(Math.max(1, Math.floor(this.vcpus))),
				ready: this.clock.sleep(platform.containerColdStartSeconds + costs.tierStartSeconds),
			};
			this.instances.set(name, instance);
		}
		await instance.ready;
		return instance;
	}

	/** A workflow step: its work, then the platform's per-step overhead. */
	async step<T>(name: string, work: () => Promise<T>, instance?: string): Promise<T> {
		const run: StepRun = { step: name, from: this.clock.now, to: 0, ...(instance ? { instance } : {}) };
		this.steps.push(run);
		const result = await work();
		await this.clock.sleep(this.input.platform.stepSeconds);
		run.to = this.clock.now;
		return result;
	}
}

const sourceSeconds = (video: SimulationInput["video"]) => video.minutes * 60;
const sourceMegabytes = (video: SimulationInput["video"]) => (sourceSeconds(video) * video.sourceMegabits) / 8;

/** Download, store and cut the audio, on the video's instance. */
function sourceStages(cloud: SimulatedCloud, { vars, video, platform, costs }: SimulationInput) {
	const videoInstance = renderInstance.video(vars, VIDEO_ID);
	const onVideoInstance = <T>(name: string, work: () => Promise<T>) =>
		cloud.step(name, async () => work(), videoInstance);
	return {
		download: () =>
			onVideoInstance(STEP.download, async () => {
				await cloud.on(videoInstance);
				await cloud.clock.sleep(sourceMegabytes(video) / platform.originMegabytesPerSecond);
			}),
		upload: () =>
			onVideoInstance(STEP.upload, async () => {
				await cloud.on(videoInstance);
				await cloud.clock.sleep(sourceMegabytes(video) / platform.r2MegabytesPerSecond);
				return "source";
			}),
		extractAudio: () =>
			onVideoInstance(STEP.extractAudio, async () => {
				const { cpu } = await cloud.on(videoInstance);
				const chunks = planAudioChunks(0, sourceSeconds(video), settingsOf(vars).audioChunkSeconds);
				// As the tier: chunks cut one per core at once (containers/render/src/audio/extract-audio.ts).
				await inPool(chunks, Math.max(1, Math.floor(cloud.vcpus)), (chunk) =>
					cpu.work(chunk.duration * costs.audioCpuPerSourceSecond, 1),
				);
				return chunks;
			}),
		signals: () =>
			onVideoInstance(STEP.signals, async () => {
				const { cpu } = await cloud.on(videoInstance);
				await cpu.work(sourceSeconds(video) * costs.loudnessCpuPerSourceSecond, 1);
				return "signals";
			}),
	};
}

/** Transcription (Workers AI), chapters and ranking: no instance. */
function analysisStages(cloud: SimulatedCloud, { video, platform, costs }: SimulationInput) {
	const seconds = sourceSeconds(video);
	const clipIds = video.clipSeconds.map((_, n) => `clp_budget_${n + 1}`);
	return {
		transcribe: (chunk: ChunkPlan, n: number, total: number) =>
			cloud.step(STEP.transcribe(n, total), () =>
				cloud.clock.sleep(platform.whisperCallSeconds + chunk.duration / platform.whisperRealtimeFactor),
			),
		merge: () => cloud.step(STEP.merge, async () => "transcript"),
		// Offline, about 0.2 s per hour of talk; with an LLM, a few calls of a few seconds.
		chapters: () =>
			cloud.step(STEP.chapters, () => cloud.clock.sleep(0.2 * (seconds / 3600) + platform.llmRankSeconds / 4)),
		look: () => cloud.step(STEP.look, async () => "look"),
		rank: () =>
			cloud.step(STEP.rank, async () => {
				await cloud.clock.sleep((costs.offlineRankSeconds ?? 2) + platform.llmRankSeconds);
				return clipIds;
			}),
		finish: () => cloud.step(STEP.finish, async () => undefined),
	};
}

/** Each clip on its render instance: read its stretch from R2, encode in a slot, store it. */
function renderStages(cloud: SimulatedCloud, { vars, video, platform, costs }: SimulationInput) {
	return {
		render: (clip: { index: number; total: number }) => {
			const name = renderInstance.render(vars, VIDEO_ID, clip.index);
			const clipSeconds = video.clipSeconds[clip.index]!;
			return cloud.step(
				STEP.render(clip.index, clip.total),
				async () => {
					const { cpu, slots } = await cloud.on(name);
					const release = await slots.acquire();
					try {
						await cloud.clock.sleep(
							(clipSeconds * video.sourceMegabits) / 8 / platform.r2MegabytesPerSecond,
						);
						await cpu.work(clipSeconds * costs.encodeCpuPerClipSecond, cloud.vcpus);
					} finally {
						release();
					}
					await cloud.clock.sleep((clipSeconds * video.clipMegabits) / 8 / platform.r2MegabytesPerSecond);
				},
				name,
			);
		},
	};
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
