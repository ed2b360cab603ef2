// The soak's Workers AI stand-in transcribes on its own, not through the render tier the soak kills.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { makeTalkVideo, SPEAKER_FACE } from "../../scripts/sample-video.ts";
import { startAiStandIn } from "./ai-stand-in.ts";

const dir = mkdtempSync(join(tmpdir(), "clipforge-ai-stand-in-test-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** 8 s of the sample talk's speech as MP3, base64: what the Worker sends Whisper. */
function talkAudio(): string {
	const video = join(dir, "talk.mp4");
	const mp3 = join(dir, "talk.mp3");
	makeTalkVideo({ out: video, seconds: 8, speaker: SPEAKER_FACE });
	const made = spawnSync("ffmpeg", ["-v", "error", "-y", "-i", video, "-vn", "-ac", "1", "-ar", "16000", mp3]);
	if (made.status !== 0) throw new Error(String(made.stderr));
	return readFileSync(mp3).toString("base64");
}

describe("the soak's Workers AI stand-in", () => {
	it("answers Whisper with no render tier anywhere (the soak's kills, drains and full disk are not its fate), a retried call joining the first", async () => {
		const standIn = await startAiStandIn({ faultShare: 0 });
		try {
			const call = () =>
				fetch(`${standIn.url}/run/@cf/openai/whisper-large-v3-turbo`, {
					method: "POST",
					body: JSON.stringify({ audio: audio, language: "en" }),
				});
			const audio = talkAudio();
			const [first, retried] = await Promise.all([call(), call()]);
			if (first.status !== 200) throw new Error(await first.text());
			const body = (await first.json()) as { result: { text: string; segments: { start: number }[] } };
			expect(body.result.segments.length).toBeGreaterThan(0);
			expect(body.result.text.length).toBeGreaterThan(0);
			expect(await retried.json()).toEqual(body);
			expect(standIn.counts.calls.whisper).toBe(2);
		} finally {
			await standIn.close();
		}
	});
});
