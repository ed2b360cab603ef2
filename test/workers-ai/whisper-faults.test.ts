/**
 * Workers AI failing under the workflow (TRANSCRIBER=workers-ai, see vitest.ai.config.ts): capacity
 * errors, timeouts and answers in the wrong shape are retried with backoff and the video completes;
 * when they persist, the video ends failed with a readable errorMessage, every minute refunded,
 * nothing left behind.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { r2Keys } from "../../src/worker/services/r2-keys";
import { balanceOf, createWorkspace, ledgerSum } from "../helpers/accounts";
import { call, submitAndProcess } from "../helpers/api";
import { useFakeRenderTier, type WhisperFault } from "../helpers/fake-render-tier";

const fake = useFakeRenderTier({ introspect: false });
const url = () => `https://videos.example.com/ai/${crypto.randomUUID()}.mp4`;
const config = { clipDurationMin: 10, clipDurationMax: 20 };

describe("Whisper on Workers AI", () => {
	it("transcribes through the binding when it works (the clips' transcripts are Whisper's words)", async () => {
		const { apiKey } = await createWorkspace({ minutes: 10 });
		const videoId = await submitAndProcess(apiKey, fake().addSource(url(), { duration: 60 }), config);
		const transcript = await call("GET", `/api/videos/${videoId}/transcript`, { key: apiKey });
		expect(transcript.body.language).toBe("en");
		expect(transcript.body.words.length).toBeGreaterThan(50);
		// Whisper's leading spaces are trimmed.
		expect(transcript.body.words.every((w: { word: string }) => w.word === w.word.trim())).toBe(true);
		// pocketsphinx's path in the fake tier was not used.
		expect(fake().calls.some((c) => c.path === "/jobs/transcribe")).toBe(false);
	});

	const transient: [string, WhisperFault[]][] = [
		["capacity errors (5xx)", ["error", "error"]],
		["a timeout", ["timeout"]],
		["an answer in the wrong shape", ["malformed", "malformed"]],
		// Given up at the Worker's deadline (AI_TIMEOUT_SECONDS, 2 s here), not at the step's 30 minutes.
		["a call that never answers", ["hang"]],
	];
	for (const [name, faults] of transient) {
		it(`retries ${name} and completes`, async () => {
			const { apiKey, workspaceId } = await createWorkspace({ minutes: 10 });
			const videoId = await submitAndProcess(
				apiKey,
				fake().addSource(url(), { duration: 60, whisperFaults: { faults } }),
				config,
			);
			const { body } = await call("GET", `/api/videos/${videoId}/clips`, { key: apiKey });
			expect(body.status).toBe("completed");
			expect(body.count).toBeGreaterThan(0);
			expect(await balanceOf(workspaceId)).toBe(9);
		});
	}

	const persistent: [string, WhisperFault, RegExp][] = [
		[
			"capacity errors",
			"error",
			/^Transcription failed: Workers AI \(Whisper\) failed: 3040: Capacity temporarily exceeded/,
		],
		["timeouts", "timeout", /^Transcription failed: Workers AI \(Whisper\) failed: 3046: Request timeout$/],
		[
			"answers in the wrong shape",
			"malformed",
			/^Transcription failed: Workers AI \(Whisper\) answered in an unexpected shape/,
		],
	];
	for (const [name, fault, message] of persistent) {
		it(`fails with a readable message and a full refund when ${name} persist`, async () => {
			const { apiKey, workspaceId } = await createWorkspace({ minutes: 10 });
			const videoId = await submitAndProcess(
				apiKey,
				fake().addSource(url(), { duration: 60, whisperFaults: { faults: [fault], repeat: true } }),
				config,
				"errored",
			);
			const { body } = await call("GET", `/api/videos/${videoId}/status`, { key: apiKey });
			expect(body.video.status).toBe("failed");
			expect(body.video.errorMessage).toMatch(message);
			expect(await balanceOf(workspaceId)).toBe(10);
			expect(await ledgerSum(workspaceId)).toBe(10);
			for (const prefix of r2Keys.videoPrefixes(videoId))
				expect((await env.MEDIA.list({ prefix })).objects, prefix).toHaveLength(0);
		});
	}
});
