/**
 * A workflow run's Whisper calls under the run's slots (lib/outgoing-slots.ts), with the
 * production transcriber: a 40-minute source is sixteen chunks, all started at once here
 * (TRANSCRIBE_PARALLELISM 16 in vitest.ai.config.ts), yet Workers AI never has more than five of
 * them waiting at once, so one connection of the invocation's six stays free; and the video
 * completes with every chunk's words.
 */
import { env } from "cloudflare:workers";
import { expect, it } from "vitest";
import { SLOW_CALL_SLOTS } from "../../src/worker/lib/outgoing-slots";
import { createWorkspace } from "../helpers/accounts";
import { call, submitAndProcess } from "../helpers/api";
import { useFakeRenderTier } from "../helpers/fake-render-tier";

const fake = useFakeRenderTier({ introspect: false });

it("sixteen chunks at once: at most five Whisper calls wait at a time, and the video completes", async () => {
	const { apiKey } = await createWorkspace({ minutes: 60 });
	const url = `https://videos.example.com/slots/${crypto.randomUUID()}.mp4`;
	const source = fake().addSource(url, { duration: 40 * 60, whisperDelayMs: 150 });
	const videoId = await submitAndProcess(apiKey, source, { clipDurationMin: 10, clipDurationMax: 20 });
	const chunks = fake()
		.calls.filter((c) => c.path === "/jobs/extract-audio")
		.at(-1)?.body as { chunks: unknown[] };
	expect(chunks.chunks.length).toBeGreaterThanOrEqual(16);
	const most = await (env.AI as unknown as { run(model: string, input: unknown): Promise<number> }).run(
		"stub:whisper-most",
		{ videoId },
	);
	expect(most).toBe(SLOW_CALL_SLOTS);
	const transcript = await call("GET", `/api/videos/${videoId}/transcript`, { key: apiKey });
	expect(transcript.body.words.at(-1).end).toBeGreaterThan(39 * 60);
});
