/**
 * A video that ends with no clips says why, and its minutes follow the rule of domain/minutes.ts
 * noClipsSettlement: talk that is all greetings and sign-offs (nothing a clip could be made of) is
 * refunded; a prompt the user wrote that matches nothing keeps the charge; a story said in the
 * same breath as a greeting and a sign-off gets its clips.
 */
import { describe, expect, it } from "vitest";
import { balanceOf, createWorkspace, ledgerSum } from "../helpers/accounts";
import { call, submitAndProcess } from "../helpers/api";
import { useFakeRenderTier } from "../helpers/fake-render-tier";

const fake = useFakeRenderTier({ introspect: false });
const url = (name: string) => `https://videos.example.com/${name}-${crypto.randomUUID()}.mp4`;

const CHATTER = ["welcome back to the show", "thanks for listening and see you next week", "hi everyone how are you"];
const STORY =
	"last winter I came home late and my keys were still on my desk at the office so I called a locksmith who said an hour and a neighbour I had never met invited me in for tea and we talked about her years as a nurse until the locksmith opened the door in four seconds and charged me ninety dollars";

async function videoOf(apiKey: string, id: string) {
	return (await call("GET", `/api/videos/${id}`, { key: apiKey })).body as {
		status: string;
		clipsCount: number;
		rankingNote: string | null;
		minutesCharged: number;
	};
}

describe("a video that ends with no clips", () => {
	it("talk that is all greetings and sign-offs completes with no clips, says why, and is refunded", async () => {
		const { apiKey, workspaceId } = await createWorkspace({ minutes: 10 });
		// Ten rounds of the three lines (8.34 s each in the fake's timing) and nothing cut off after them.
		const source = fake().addSource(url("all-chatter"), { duration: 83.5, script: CHATTER });
		const id = await submitAndProcess(apiKey, source, {});
		const video = await videoOf(apiKey, id);
		expect(video.status).toBe("completed");
		expect(video.clipsCount).toBe(0);
		expect(video.rankingNote).toMatch(/^No clips: all \d+ s of speech .* greetings, sign-offs or housekeeping/);
		expect(video.rankingNote).toMatch(/The minutes were refunded\.$/);
		expect(await balanceOf(workspaceId)).toBe(10);
		expect(await ledgerSum(workspaceId)).toBe(10);
	});

	it("a prompt that matches nothing completes with no clips, says why, and keeps the charge", async () => {
		const { apiKey, workspaceId } = await createWorkspace({ minutes: 10 });
		const source = fake().addSource(url("prompt-nothing"), { duration: 90, script: [STORY] });
		const id = await submitAndProcess(apiKey, source, { customPrompt: "the part about zebras in Antarctica" });
		const video = await videoOf(apiKey, id);
		expect(video.status).toBe("completed");
		expect(video.clipsCount).toBe(0);
		expect(video.rankingNote).toMatch(/^No clips\. Nothing in the video matches the prompt/);
		expect(video.rankingNote).toMatch(/minutes stay charged .* reprocess with another prompt/);
		expect(await balanceOf(workspaceId)).toBe(8);
		expect(await ledgerSum(workspaceId)).toBe(8);
	});

	it("a story between a greeting and a sign-off, said without a pause, gets clips and keeps the charge", async () => {
		const { apiKey, workspaceId } = await createWorkspace({ minutes: 10 });
		const oneBreath = `${CHATTER[0]} today I want to tell you about the time I got locked out ${STORY} ${CHATTER[1]}`;
		const source = fake().addSource(url("one-breath"), { duration: 60, script: [oneBreath], pauseSeconds: 0 });
		const id = await submitAndProcess(apiKey, source, {});
		const video = await videoOf(apiKey, id);
		expect(video.status).toBe("completed");
		expect(video.clipsCount).toBeGreaterThan(0);
		const clips = (await call("GET", `/api/videos/${id}/clips`, { key: apiKey })).body as {
			clips: { transcript: string }[];
		};
		expect(clips.clips[0]!.transcript).toMatch(/locksmith/);
		expect(clips.clips[0]!.transcript).not.toMatch(/^welcome back/i);
		expect(await balanceOf(workspaceId)).toBe(9);
	});
});
