/**
 * The order and fan-out of a video's steps, and nothing else: no Workflows, no bindings. The
 * workflow (process-video.ts) runs these plans with durable steps; `npm run bench:plan` runs the
 * very same functions with simulated steps (virtual time, N instances), so what the simulation
 * predicts is the scheduling the workflow really does.
 *
 * A first run, as a timeline (→ waits for, ∥ runs beside):
 *
 *     download → upload ∥ signals ∥ look ∥ (audio → transcribe chunks, `transcriptions` at once → merge,
 *                                          or the supplied captions / the source's subtitles read instead)
 *              → chapters (needs the words) ∥ rank (needs the words and the signals) → render clips,
 *                `renders` at once (needs the upload and the look) → finish (after the chapters too)
 *
 * Nothing that only needs the source waits for the words: the upload to R2, the loudness and the
 * clips' shared look run while the chunks are transcribed, so the renders start as soon as the
 * ranking ends.
 */

import { inPool } from "../worker/lib/in-pool";

export { inPool };
import type { FanOut } from "../worker/settings";
import type { ProcessingStage } from "@clipforge/domain";
import { TRANSCRIBING_SHARES } from "../worker/domain/progress";

export type { FanOut };

/**
 * The names of a first run's steps, as the video's timeline (video_steps) and the Workflows dashboard
 * show them: the workflow (process-video.ts) names its durable steps from here, and the plan
 * simulator (tools/plan/simulate.ts) its virtual ones, so the two timelines line up.
 */
export const VIDEO_STEP_NAMES = {
	download: "download source",
	upload: "upload source",
	extractAudio: "extract audio",
	transcribe: (index: number, total: number) => `transcribe chunk ${index + 1} of ${total}`,
	merge: "merge transcript",
	fetchSubtitles: "fetch the source's subtitles",
	readSupplied: "read the supplied words",
	chapters: "find chapters",
	signals: "compute signals",
	look: "prepare the caption look",
	rank: "rank moments",
	render: (index: number, total: number) => `render clip ${index + 1} of ${total}`,
	finish: "finish",
} as const;

/** A point of a video's progress: a processing stage, and how far through its band (0..1, domain/progress.ts). */
export interface StageMark {
	stage: ProcessingStage;
	at: number;
}

/** The part of a stage's band (from and to, 0..1 of it) that a running job's own progress moves across. */
export interface StageSpan {
	stage: ProcessingStage;
	from: number;
	to: number;
}

/** Where a step stands in its family: its index of `total`, and how many of the family had ended when it began. */
export interface StepPlace {
	index: number;
	total: number;
	ended: number;
}

/**
 * What a step writes of the video's stage and progress. The step runner (staged-steps.ts) writes it
 * around the step's body, which only does its work: `enter` the stage before the body (a stage only
 * moves forward, progress only rises), `during` the span its job's own progress (0..1) moves across,
 * `leave` the progress reached once the body returned (a counted step, one of a fan-out, from the
 * share of its family that has ended, itself included), `next` the stage it hands over to.
 */
export interface StepProgress {
	enter?: StageMark;
	during?: StageSpan | ((place: StepPlace) => StageSpan);
	leave?: StageMark | ((ended: number) => StageMark);
	next?: StageMark;
}

export type StepProgressTable = Partial<Record<keyof typeof VIDEO_STEP_NAMES, StepProgress>>;

const mark = (stage: ProcessingStage, at: number): StageMark => ({ stage, at });
const { extract, chunks } = TRANSCRIBING_SHARES;
/** Each clip rendered moves its share of generating_clips, however many render at once. */
const RENDER_PROGRESS: StepProgress = {
	enter: mark("generating_clips", 0),
	during: ({ ended, total }) => ({ stage: "generating_clips", from: ended / total, to: (ended + 1) / total }),
	leave: (ended) => mark("generating_clips", ended),
};
/** Chunk `index` of `total` moves its own part of the chunks' share of the transcribing band. */
const chunkSpan = ({ index, total }: StepPlace): StageSpan => ({
	stage: "transcribing",
	from: extract + (chunks * index) / total,
	to: extract + (chunks * (index + 1)) / total,
});

/**
 * A first run's stages, step by step: downloading → uploading → transcribing → analyzing →
 * generating_clips (finishing completes the video, db/videos.ts markCompleted). The download moves
 * the video to `uploading` itself: the upload, the audio and the loudness all start from its file at
 * once, so the stage moves there rather than in whichever of them starts first; extracting the audio
 * reports nothing and leaves the stage to the chunks (the video is still `uploading`).
 */
export const FIRST_RUN_PROGRESS: StepProgressTable = {
	download: {
		enter: mark("downloading", 0),
		during: { stage: "downloading", from: 0, to: 1 },
		next: mark("uploading", 0),
	},
	upload: { enter: mark("uploading", 0), during: { stage: "uploading", from: 0, to: 1 } },
	fetchSubtitles: { enter: mark("transcribing", 0) },
	readSupplied: { enter: mark("transcribing", 0), leave: mark("transcribing", 1) },
	transcribe: {
		enter: mark("transcribing", extract),
		during: chunkSpan,
		leave: (ended) => mark("transcribing", extract + chunks * ended),
	},
	merge: { leave: mark("transcribing", 1) },
	rank: { enter: mark("analyzing", 0), leave: mark("analyzing", 1) },
	render: RENDER_PROGRESS,
};

/** A reprocess starts in `analyzing` (db/reprocesses.ts, with its charge): its ranking only ends the band. */
export const REPROCESS_PROGRESS: StepProgressTable = {
	rank: { leave: mark("analyzing", 1) },
	render: RENDER_PROGRESS,
};

/** What a first run's steps take and give; the workflow's are durable steps, the simulator's virtual. */
export interface VideoSteps<Source, Chunk, Transcript, Signals, Look> {
	download(): Promise<unknown>;
	/** The source into R2 (what renders read). */
	upload(): Promise<Source>;
	/** The audio cut into chunks, from the instance's own copy of the source while it is uploaded. */
	extractAudio(): Promise<Chunk[]>;
	transcribe(chunk: Chunk, index: number, total: number): Promise<unknown>;
	merge(chunks: Chunk[]): Promise<Transcript>;
	/**
	 * The words read from captions the user supplied or the source's own subtitles, instead of
	 * transcribing (only called when the video has them); null when they could not be had (the
	 * source no longer serves its subtitles): the audio is transcribed after all.
	 */
	readSupplied?(): Promise<Transcript | null>;
	/** The whole video's chapters and summary, from the words (every first run, clipping or not). */
	chapters(transcript: Transcript): Promise<unknown>;
	signals(): Promise<Signals>;
	/** What every clip is drawn with (watermark, background, caption look). */
	look(): Promise<Look>;
	/** @returns the ids of the clips to render, best first. */
	rank(transcript: Transcript, signals: Signals): Promise<string[]>;
	render(clip: ClipJob<Source, Transcript, Look>): Promise<unknown>;
	finish(clips: number): Promise<unknown>;
}

export interface ClipJob<Source, Transcript, Look> {
	clipId: string;
	/** 0-based position in the ranking: also which instance of the render pool it goes to. */
	index: number;
	total: number;
	source: Source;
	transcript: Transcript;
	look: Look;
}

/** A first run. `clipping` false (skipClipping): transcribed (and chaptered) only, no signals, ranking or renders. */
export async function runVideoPlan<S, C, T, G, L>(
	steps: VideoSteps<S, C, T, G, L>,
	fanOut: FanOut,
	options: { clipping: boolean; supplied?: boolean },
): Promise<{ clips: number }> {
	await steps.download();
	const source = begun(steps.upload());
	const signals = options.clipping ? begun(steps.signals()) : null;
	const look = options.clipping ? begun(steps.look()) : null;
	const supplied = options.supplied && steps.readSupplied ? await steps.readSupplied() : null;
	const transcript = supplied ?? (await transcribeAll(steps, await steps.extractAudio(), fanOut));
	const chapters = begun(steps.chapters(transcript));
	let clipIds: string[] = [];
	if (signals && look) {
		clipIds = await steps.rank(transcript, await signals);
		const [stored, drawnWith] = await Promise.all([source, look]);
		await renderAll(clipIds, fanOut, (clipId, index, total) =>
			steps.render({ clipId, index, total, source: stored, transcript, look: drawnWith }),
		);
	}
	await Promise.all([source, chapters]);
	await steps.finish(clipIds.length);
	return { clips: clipIds.length };
}

async function transcribeAll<S, C, T, G, L>(steps: VideoSteps<S, C, T, G, L>, chunks: C[], fanOut: FanOut): Promise<T> {
	await inPool(chunks, fanOut.transcriptions, (chunk, index) => steps.transcribe(chunk, index, chunks.length));
	return steps.merge(chunks);
}

/** A reprocess: the stored source and transcript ranked again with a new config, and its clips rendered. */
export interface ReprocessSteps<Signals, Look> {
	signals(): Promise<Signals>;
	look(): Promise<Look>;
	rank(signals: Signals): Promise<string[]>;
	render(clipId: string, index: number, total: number, look: Look): Promise<unknown>;
	finish(clipIds: string[]): Promise<unknown>;
}

export async function runReprocessPlan<G, L>(steps: ReprocessSteps<G, L>, fanOut: FanOut): Promise<{ clips: number }> {
	const look = begun(steps.look());
	const clipIds = await steps.rank(await steps.signals());
	const drawnWith = await look;
	await renderAll(clipIds, fanOut, (clipId, index, total) => steps.render(clipId, index, total, drawnWith));
	await steps.finish(clipIds);
	return { clips: clipIds.length };
}

/** Every clip through `render`, `fanOut.renders` at once, the next starting as soon as any ends. */
export function renderAll(
	clipIds: string[],
	fanOut: FanOut,
	render: (clipId: string, index: number, total: number) => Promise<unknown>,
): Promise<void> {
	return inPool(clipIds, fanOut.renders, (clipId, index) => render(clipId, index, clipIds.length));
}

/**
 * A step started now and awaited later: its failure is still thrown where it is awaited, but is
 * not reported as unhandled if the run fails elsewhere first.
 */
function begun<T>(work: Promise<T>): Promise<T> {
	work.catch(() => undefined);
	return work;
}
