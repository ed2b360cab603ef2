/**
 * The workflow's plan (src/workflows/video-plan.ts) with steps the test finishes by hand: what may
 * start before what, and how many run at once. The workflow runs the same functions with durable
 * steps (test/workflows/process-video.test.ts checks it end to end); bench:plan with simulated ones.
 */
import { describe, expect, it } from "vitest";
import { runReprocessPlan, runVideoPlan, type VideoSteps } from "../../src/workflows/video-plan";

/** A step the test finishes (or fails) when it wants. */
function gate<T>() {
	let open!: (value: T) => void;
	let fail!: (error: Error) => void;
	const promise = new Promise<T>((resolve, reject) => {
		open = resolve;
		fail = reject;
	});
	return { promise, open, fail };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

function recorder() {
	const started: string[] = [];
	const running = new Set<string>();
	let peak = { transcribe: 0, render: 0 };
	const track = async <T>(name: string, work: Promise<T>): Promise<T> => {
		started.push(name);
		running.add(name);
		const kind = name.split(" ")[0] as "transcribe" | "render";
		if (kind in peak)
			peak = { ...peak, [kind]: Math.max(peak[kind], [...running].filter((r) => r.startsWith(kind)).length) };
		try {
			return await work;
		} finally {
			running.delete(name);
		}
	};
	return { started, running, track, peak: () => peak };
}

describe("a first run's plan", () => {
	it("the upload, loudness and look start with the audio; the words do not wait for the upload; renders wait for the ranking, the upload and the look", async () => {
		const { started, running, track, peak } = recorder();
		const upload = gate<string>();
		const signals = gate<string>();
		const look = gate<string>();
		const chunkGates = [gate<void>(), gate<void>(), gate<void>()];
		const renders = [gate<void>(), gate<void>(), gate<void>()];
		const steps: VideoSteps<string, number, string, string, string> = {
			download: () => track("download", Promise.resolve()),
			upload: () => track("upload", upload.promise),
			extractAudio: () => track("extract", Promise.resolve([0, 1, 2])),
			transcribe: (chunk) => track(`transcribe ${chunk}`, chunkGates[chunk]!.promise),
			merge: () => track("merge", Promise.resolve("transcript")),
			chapters: (transcript) => track(`chapters ${transcript}`, Promise.resolve()),
			signals: () => track("signals", signals.promise),
			look: () => track("look", look.promise),
			rank: (transcript, loudness) => track(`rank ${transcript} ${loudness}`, Promise.resolve(["a", "b", "c"])),
			render: (clip) =>
				track(
					`render ${clip.clipId} ${clip.index}/${clip.total} ${clip.source} ${clip.look}`,
					renders[clip.index]!.promise,
				),
			finish: (clips) => track(`finish ${clips}`, Promise.resolve()),
		};
		const done = runVideoPlan(steps, { transcriptions: 2, renders: 2 }, { clipping: true });
		await settle();
		expect(started).toEqual(["download", "upload", "signals", "look", "extract", "transcribe 0", "transcribe 1"]);
		chunkGates[0]!.open();
		await settle();
		expect(running.has("transcribe 2")).toBe(true);
		chunkGates[1]!.open();
		chunkGates[2]!.open();
		await settle();
		// The words are merged; the ranking waits for the loudness.
		expect(started).toContain("merge");
		expect(started).toContain("chapters transcript");
		expect(started.some((s) => s.startsWith("rank"))).toBe(false);
		signals.open("loud");
		await settle();
		expect(started).toContain("rank transcript loud");
		// Ranked, but the source is not in R2 yet and the look is not ready: no render.
		look.open("look");
		await settle();
		expect(started.some((s) => s.startsWith("render"))).toBe(false);
		upload.open("stored");
		await settle();
		expect(started.filter((s) => s.startsWith("render"))).toEqual([
			"render a 0/3 stored look",
			"render b 1/3 stored look",
		]);
		renders[1]!.open();
		await settle();
		expect(running.has("render c 2/3 stored look")).toBe(true);
		renders[0]!.open();
		renders[2]!.open();
		expect(await done).toEqual({ clips: 3 });
		expect(started.at(-1)).toBe("finish 3");
		expect(peak()).toEqual({ transcribe: 2, render: 2 });
	});

	it("transcribing only: chapters, but no loudness, look, ranking or renders; the end waits for the upload and the chapters", async () => {
		const { started, track } = recorder();
		const upload = gate<string>();
		const chaptered = gate<void>();
		const steps: VideoSteps<string, number, string, string, string> = {
			download: () => track("download", Promise.resolve()),
			upload: () => track("upload", upload.promise),
			extractAudio: () => track("extract", Promise.resolve([0])),
			transcribe: () => track("transcribe", Promise.resolve()),
			merge: () => track("merge", Promise.resolve("t")),
			chapters: (transcript) => track(`chapters ${transcript}`, chaptered.promise),
			signals: () => track("signals", Promise.resolve("s")),
			look: () => track("look", Promise.resolve("l")),
			rank: () => track("rank", Promise.resolve([])),
			render: () => track("render", Promise.resolve()),
			finish: (clips) => track(`finish ${clips}`, Promise.resolve()),
		};
		const done = runVideoPlan(steps, { transcriptions: 4, renders: 4 }, { clipping: false });
		await settle();
		expect(started).toEqual(["download", "upload", "extract", "transcribe", "merge", "chapters t"]);
		upload.open("stored");
		await settle();
		expect(started.some((s) => s.startsWith("finish"))).toBe(false);
		chaptered.open();
		expect(await done).toEqual({ clips: 0 });
		expect(started.at(-1)).toBe("finish 0");
	});

	it("a failed chunk fails the run at once, and the upload failing later is not an unhandled rejection", async () => {
		const upload = gate<string>();
		const unhandled: unknown[] = [];
		const onUnhandled = (event: PromiseRejectionEvent) => unhandled.push(event.reason);
		addEventListener("unhandledrejection", onUnhandled);
		try {
			const steps: VideoSteps<string, number, string, string, string> = {
				download: async () => undefined,
				upload: () => upload.promise,
				extractAudio: async () => [0, 1],
				transcribe: async (chunk) => {
					if (chunk === 1) throw new Error("Transcription failed: Workers AI (Whisper) answered 500");
				},
				merge: async () => "t",
				chapters: async () => undefined,
				signals: async () => "s",
				look: async () => "l",
				rank: async () => ["a"],
				render: async () => undefined,
				finish: async () => undefined,
			};
			await expect(runVideoPlan(steps, { transcriptions: 2, renders: 2 }, { clipping: true })).rejects.toThrow(
				/Whisper/,
			);
			upload.fail(new Error("Storing the source failed"));
			await settle();
			expect(unhandled).toEqual([]);
		} finally {
			removeEventListener("unhandledrejection", onUnhandled);
		}
	});
});

describe("a reprocess's plan", () => {
	it("prepares the look while it ranks, then renders the clips a few at a time", async () => {
		const { started, track, peak } = recorder();
		const signals = gate<string>();
		const result = runReprocessPlan(
			{
				signals: () => track("signals", signals.promise),
				look: () => track("look", Promise.resolve("look")),
				rank: (loudness) => track(`rank ${loudness}`, Promise.resolve(["a", "b", "c", "d"])),
				render: (clipId, n, total, look) =>
					track(`render ${clipId} ${n}/${total} ${look}`, new Promise((r) => setTimeout(r, 5))),
				finish: (clipIds) => track(`finish ${clipIds.join(",")}`, Promise.resolve()),
			},
			{ transcriptions: 1, renders: 3 },
		);
		await settle();
		expect(started).toEqual(["look", "signals"]);
		signals.open("stored loudness");
		expect(await result).toEqual({ clips: 4 });
		expect(started).toContain("rank stored loudness");
		expect(started.filter((s) => s.startsWith("render"))).toHaveLength(4);
		expect(started.at(-1)).toBe("finish a,b,c,d");
		expect(peak().render).toBe(3);
	});
});
