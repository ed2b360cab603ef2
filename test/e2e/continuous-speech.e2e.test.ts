/**
 * Talk said in one breath, on the real stack: a greeting, a story and a sign-off spoken by flite
 * without a pause over 0.25 s, heard by the local recognizer as one long utterance, submitted with
 * the default durations. It completes with clips that open on the story (issue 44: such a talk came
 * back with no clips, no reason, and the minutes kept).
 */
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { api, useServedMedia, waitForStatus } from "./client.ts";
import { cachedTalkVideo } from "../../scripts/sample-video.ts";

const GREETING =
	"welcome back to the show today I want to tell you about the time I got locked out of my own apartment";
const STORY = [
	"last winter I came home late from work and realised my keys were still on my desk at the office",
	"my phone was at two percent and the landlord lives in another city so I called a locksmith who said he would be there in an hour",
	"it was minus ten outside and I waited in the stairwell where a neighbour I had never met invited me in for tea",
	"we talked for two hours about her years as a nurse in the war and when the locksmith finally came he opened the door in four seconds and charged me ninety dollars",
	"but honestly I would pay it again because I made a friend that night and now we have dinner every sunday",
];
const SIGN_OFF = "anyway that is the story thanks for listening and see you next week";

const media = useServedMedia("clipforge-e2e-breath-", (dir) =>
	cachedTalkVideo({
		out: join(dir, "breath.mp4"),
		seconds: 42,
		script: [GREETING, ...STORY, SIGN_OFF],
		continuous: true,
	}),
);

/** Silences of at least `seconds` in the file's audio (start, end), as ffmpeg's silencedetect finds them. */
function silences(file: string, seconds: number): [number, number][] {
	const log = execFileSync(
		"ffmpeg",
		["-hide_banner", "-i", file, "-af", `silencedetect=noise=-35dB:d=${seconds}`, "-f", "null", "-"],
		{ encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] },
	);
	return [...log.matchAll(/silence_start: ([\d.]+)[\s\S]*?silence_end: ([\d.]+)/g)].map((m) => [
		Number(m[1]),
		Number(m[2]),
	]);
}

describe("talk said in one breath", () => {
	it("a story between a greeting and a sign-off, with no pause over 0.25 s, completes with clips that open on the story", async () => {
		// The shape itself: no silence of 0.25 s before the speech ends (the file's last seconds are quiet).
		const file = join(media.dir(), "breath.mp4");
		expect(silences(file, 0.25).filter(([start]) => start < 35)).toEqual([]);

		// The seed's default durations (15-90 s): a config with nothing in it.
		const submitted = await api("POST", "/api/videos/hosted", {
			hostedUrl: `${media.url()}/breath.mp4`,
			config: {},
		});
		expect(submitted.status).toBe(201);
		const id = submitted.body.video.id as string;
		const done = await waitForStatus(id);
		expect(done.video.status).toBe("completed");

		const video = (await api("GET", `/api/videos/${id}`)).body;
		expect(video.config).toMatchObject({ clipDurationMin: 15, clipDurationMax: 90 });
		expect(video.clipsCount, video.rankingNote ?? "no note").toBeGreaterThan(0);
		const { body } = await api("GET", `/api/videos/${id}/clips`);
		const best = body.clips[0];
		expect(best.transcript).toMatch(/locksmith/i);
		// It opens on the story, not on the greeting.
		expect(best.transcript).not.toMatch(/^welcome back/i);
		expect(best.endTime - best.startTime).toBeGreaterThanOrEqual(15);
	});
});
