/**
 * Steps per workflow instance: 10,000 on Workers Paid (1,024 on Free), counting `step.do` and
 * `step.waitForEvent` (`step.sleep` does not count; a retry is an attempt of the same step). The
 * real step list (ProcessVideoWorkflow.run) is driven through its worst cases with a recording
 * step whose results are what the real bodies return at the bounds: a 3-hour source cut into
 * AUDIO_CHUNK_SECONDS chunks (planAudioChunks), 60 clips (split-clips' MAX_SPLIT_PARTS; viral
 * clips are at most 9), every look on, a day's wait for a processing slot, a failure at the very
 * end (mark failed, refund, failure webhook). A reprocess and a clip edit are instances of their
 * own. Each result a step returns at those bounds is checked against 1 MiB too, and every
 * instance id against the 64-character pattern Workflows takes.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { defaultConfig } from "../../src/worker/domain/video-config";
import { reprocessIdOf } from "../../src/worker/db/reprocesses";
import { MAX_SPLIT_PARTS } from "../../src/worker/services/configure-video";
import { clipEditIdOf } from "../../src/worker/services/edit-clip";
import { MAX_EDITS_PER_CLIP } from "../../src/worker/domain/clip-edit";
import { newId } from "../../src/worker/services/crypto";
import { planAudioChunks } from "../../src/worker/services/transcription/transcript";
import { settingsOf } from "../../src/worker/settings";
import { ProcessVideoWorkflow } from "../../src/workflows/process-video";
import { WORKFLOW_LIMITS } from "../helpers/platform-limits";
import { recordFigure } from "../helpers/limit-figures";
import { valueIn } from "../helpers/wrangler-config";

const THREE_HOURS = 3 * 3600;
/** Checks a waiting video makes before it gives up (process-video.ts: a day at one every 2 minutes). */
const SLOT_CHECKS_IN_A_DAY = 720;

interface Recorded {
	steps: string[];
	largestResult: { name: string; bytes: number };
}

type Script = (name: string) => unknown;

/** A WorkflowStep that records each step's name and answers what `script` says (an Error is thrown). */
function recordingStep(script: Script): { step: unknown; recorded: Recorded } {
	const recorded: Recorded = { steps: [], largestResult: { name: "", bytes: 0 } };
	const answer = async (name: string) => {
		recorded.steps.push(name);
		const value = script(name);
		if (value instanceof Error) throw value;
		const bytes = new TextEncoder().encode(JSON.stringify(value ?? null)).length;
		if (bytes > recorded.largestResult.bytes) recorded.largestResult = { name, bytes };
		return value;
	};
	const step = {
		do: (name: string) => answer(name),
		waitForEvent: async (name: string) => {
			recorded.steps.push(name);
			throw new Error("timed out");
		},
		sleep: async () => undefined,
		sleepUntil: async () => undefined,
	};
	return { step, recorded };
}

async function runWorkflow(payload: Record<string, unknown>, script: Script): Promise<Recorded> {
	const workflow = Object.create(ProcessVideoWorkflow.prototype) as ProcessVideoWorkflow & { env: Env };
	workflow.env = env;
	const { step, recorded } = recordingStep(script);
	// An instance id of its own per run (the platform guard counts steps per instance too).
	await workflow
		.run(
			{
				payload,
				timestamp: new Date(),
				instanceId: `${String(payload.videoId)}-${crypto.randomUUID()}`,
			} as never,
			step as never,
		)
		.catch(() => undefined);
	return recorded;
}

const worstConfig = {
	...defaultConfig(),
	clipType: "split-clips" as const,
	clipDurationMax: THREE_HOURS / MAX_SPLIT_PARTS,
	enableWatermark: true,
	enableSplitScreen: true,
	enableCaptions: true,
};
const worstVideo = {
	status: "downloading",
	duration: THREE_HOURS,
	config: worstConfig,
	sourceUrl: "https://videos.example.com/3h.mp4",
	sourceType: "hosted",
	workspaceId: "wsp_x",
};
const videoId = newId("vid");
const clipIds = Array.from({ length: MAX_SPLIT_PARTS }, (_, n) => `${videoId.replace(/^vid_/, "clp_")}_r99_${n + 1}`);
// The shortest chunks any environment cuts (production's 2 minutes, wrangler.toml [vars]): the most chunk steps.
const chunkSeconds = Math.min(Number(valueIn("vars", "AUDIO_CHUNK_SECONDS")), settingsOf(env).audioChunkSeconds);
const chunks = planAudioChunks(0, THREE_HOURS, chunkSeconds);
const finalFailure = new Error("the last step failed");

/** What the step bodies return at the worst case's bounds. */
function worstFirstRun(name: string): unknown {
	if (name === "load video") return worstVideo;
	const check = /^claim a processing slot(?: \((\d+)\))?$/.exec(name);
	if (check) return { state: Number(check[1] ?? 1) < SLOT_CHECKS_IN_A_DAY ? "waiting" : "claimed" };
	if (name === "extract audio") return chunks;
	if (name.startsWith("transcribe chunk")) return { key: `transcripts/${videoId}/chunk-999.json` };
	if (name === "merge transcript") return { key: `transcripts/${videoId}.json`, words: 30_000, language: "en" };
	if (name === "find chapters") return { chapters: 30, madeBy: `workers-ai:@cf/meta/llama-4-scout-17b-16e-instruct` };
	if (name === "rank moments")
		return {
			clipIds,
			rankedBy: `ClipPro (workers-ai:@cf/meta/llama-3.3-70b-instruct-fp8-fast; ${"x".repeat(200)})`,
			note: null,
		};
	if (name === "finish" || name === "finish reprocess") return finalFailure;
	return { key: `clips/${videoId}/${"x".repeat(40)}.mp4`, videoKey: "k", thumbnailKey: "k", bytes: 1, ok: true };
}

describe("workflow steps per instance, worst cases", () => {
	it("a 3-hour source, 60 clips, every look, a day's wait for a slot, failing at the end: within 10,000", async () => {
		const recorded = await runWorkflow({ videoId }, worstFirstRun);
		const count = (prefix: string) => recorded.steps.filter((s) => s.startsWith(prefix)).length;
		expect(count("claim a processing slot")).toBe(SLOT_CHECKS_IN_A_DAY);
		expect(count("wait for a processing slot")).toBe(SLOT_CHECKS_IN_A_DAY - 1);
		expect(count("transcribe chunk")).toBe(chunks.length);
		expect(count("render clip")).toBe(MAX_SPLIT_PARTS);
		expect(recorded.steps).toContain("mark video failed and refund minutes");
		expect(recorded.steps).toContain("deliver video.failed webhook");
		// Names are unique: a repeated name would be one step, replayed, not counted twice by Workflows.
		expect(new Set(recorded.steps).size).toBe(recorded.steps.length);
		expect(recorded.steps.length).toBeLessThanOrEqual(WORKFLOW_LIMITS.stepsPerInstance);
		expect(recorded.largestResult.bytes).toBeLessThan(WORKFLOW_LIMITS.stepResultBytes);
		console.log(
			`[step-budget] first run, worst case: ${recorded.steps.length} steps (${2 * SLOT_CHECKS_IN_A_DAY - 1} of them waiting for a slot); largest result ${recorded.largestResult.bytes} bytes (${recorded.largestResult.name})`,
		);
		recordFigure("steps.worstFirstRun", {
			steps: recorded.steps.length,
			waitingSteps: 2 * SLOT_CHECKS_IN_A_DAY - 1,
			chunks: chunks.length,
			clips: MAX_SPLIT_PARTS,
			largestResultBytes: recorded.largestResult.bytes,
			largestResultStep: recorded.largestResult.name,
		});
	});

	it("the same video without the wait: what one video costs on its own", async () => {
		const recorded = await runWorkflow({ videoId }, (name) =>
			name.startsWith("claim a processing slot") ? { state: "claimed" } : worstFirstRun(name),
		);
		expect(recorded.steps.length).toBeLessThan(WORKFLOW_LIMITS.stepsPerInstanceFree);
		// On Free, a video fits unless it waits: the checks left before 1,024, two steps each.
		const checksLeftOnFree = Math.floor((WORKFLOW_LIMITS.stepsPerInstanceFree - recorded.steps.length) / 2);
		console.log(
			`[step-budget] first run without waiting: ${recorded.steps.length} steps; on the Free plan's 1,024 it may wait ${checksLeftOnFree} slot checks (${((checksLeftOnFree * 2) / 60).toFixed(1)} h) before the instance runs out of steps`,
		);
		recordFigure("steps.withoutWait", { steps: recorded.steps.length, slotChecksLeftOnFree: checksLeftOnFree });
	});

	it("a reprocess of it (60 clips, failing at the end) and a clip edit are instances of their own, far within", async () => {
		const reprocessId = reprocessIdOf(videoId, 99);
		const reprocess = await runWorkflow({ videoId, reprocessId }, (name) =>
			name === "load reprocess"
				? {
						video: worstVideo,
						reprocess: {
							id: reprocessId,
							number: 99,
							status: "processing",
							sourceKey: "s",
							transcriptKey: "t",
						},
					}
				: worstFirstRun(name),
		);
		expect(reprocess.steps.filter((s) => s.startsWith("render clip"))).toHaveLength(MAX_SPLIT_PARTS);
		expect(reprocess.steps).toContain("mark reprocess failed and refund its minutes");
		expect(reprocess.steps.length).toBeLessThan(WORKFLOW_LIMITS.stepsPerInstanceFree);

		const edit = await runWorkflow(
			{ videoId, clipEdit: { clipId: clipIds.at(-1), number: MAX_EDITS_PER_CLIP } },
			(name) =>
				name === "load clip edit"
					? {
							video: worstVideo,
							edit: {
								clipId: clipIds.at(-1),
								number: MAX_EDITS_PER_CLIP,
								running: true,
								sourceKey: "s",
								transcriptKey: "t",
							},
						}
					: name === "finish clip edit"
						? finalFailure
						: worstFirstRun(name),
		);
		expect(edit.steps).toEqual([
			"load clip edit",
			"prepare the look of the edited clip",
			"render the edited clip",
			"finish clip edit",
			"mark clip edit failed",
		]);
		console.log(`[step-budget] reprocess: ${reprocess.steps.length} steps; clip edit: ${edit.steps.length} steps`);
		recordFigure("steps.reprocessAndEdit", { reprocess: reprocess.steps.length, clipEdit: edit.steps.length });
	});

	it("every instance id fits Workflows' 64 characters of [a-zA-Z0-9_-]", () => {
		// A smoke check's instance is `smoke-` and a UUID's 32 hex digits (routes/admin/smoke/).
		const ids = [
			videoId,
			reprocessIdOf(videoId, 9999),
			clipEditIdOf(clipIds.at(-1)!, MAX_EDITS_PER_CLIP),
			`smoke-${crypto.randomUUID().replaceAll("-", "")}`,
		];
		for (const id of ids) expect(id).toMatch(/^[a-zA-Z0-9_][a-zA-Z0-9_-]{0,63}$/);
		console.log(`[step-budget] longest instance id: ${Math.max(...ids.map((id) => id.length))} characters`);
		recordFigure("steps.longestInstanceId", Math.max(...ids.map((id) => id.length)));
	});
});
