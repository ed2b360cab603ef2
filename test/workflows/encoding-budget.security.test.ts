/**
 * Free encoding through split parts and edits (issue 45, N2): a submission and a reprocess are
 * checked alike, split-clips never makes more than 60 parts (the ranker lengthens them; a frame 60
 * parts of the maximum cannot cover is refused), and each video's clip edits may render at most its edit budget.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { renderJobs } from "@clipforge/contract";
import { balanceOf, createWorkspace } from "../helpers/accounts";
import { call, submitAndProcess } from "../helpers/api";
import { useFakeRenderTier } from "../helpers/fake-render-tier";
import { introspectVideoRuns } from "../helpers/video-runs";

const fake = useFakeRenderTier({ introspect: false });
const source = (duration: number) =>
	fake().addSource(`https://videos.example.com/enc/${crypto.randomUUID()}.mp4`, { duration });

// Each test processes a 400-600 s video through the workflow (and some a reprocess or many edits):
// 10-20 s alone, past the suite's 30 s on a loaded two-core machine (make test's run timed out once).
const PROCESSES_A_VIDEO = 120_000;

describe("split-clips' 60 parts", { timeout: PROCESSES_A_VIDEO }, () => {
	it("a 601 s talk as split-clips of 5-11 s (up to 121 parts of the minimum) is cut into at most 60 parts, together about the frame once", async () => {
		const { apiKey } = await createWorkspace({ minutes: 30 });
		const videoId = await submitAndProcess(apiKey, source(601), {
			clipType: "split-clips",
			clipDurationMin: 5,
			clipDurationMax: 11,
		});
		const { clips } = (await call("GET", `/api/videos/${videoId}/clips?limit=100`, { key: apiKey })).body as {
			clips: { startTime: number; endTime: number }[];
		};
		expect(clips.length).toBeGreaterThan(0);
		expect(clips.length).toBeLessThanOrEqual(60);
		const rendered = clips.reduce((s, c) => s + c.endTime - c.startTime, 0);
		expect(rendered).toBeLessThanOrEqual(601 + 11);
		for (const c of clips) expect(c.endTime - c.startTime).toBeLessThanOrEqual(11 + 0.01);
	});

	it("a reprocess is checked as a submission is: 5-5 s split-clips of a 400 s video (80 parts of the maximum) is refused, nothing charged or started", async () => {
		const { apiKey, workspaceId } = await createWorkspace({ minutes: 30 });
		const videoId = await submitAndProcess(apiKey, source(400), { clipDurationMin: 15, clipDurationMax: 30 });
		const balance = await balanceOf(workspaceId);
		const renders = fake().calls.filter((c) => c.path === renderJobs.renderClip.path).length;
		const refused = await call("POST", `/api/videos/${videoId}/reprocess`, {
			key: apiKey,
			body: { config: { clipType: "split-clips", clipDurationMin: 5, clipDurationMax: 5 } },
		});
		expect(refused.status).toBe(400);
		expect(refused.body.error.details[0]).toMatchObject({
			path: "config.clipDurationMax",
			message: expect.stringMatching(/needs 80 parts.*at most 60.*at least 7 s/),
		});
		expect(await balanceOf(workspaceId)).toBe(balance);
		expect((await call("GET", `/api/videos/${videoId}`, { key: apiKey })).body.status).toBe("completed");
		expect((await call("GET", `/api/videos/${videoId}/reprocesses`, { key: apiKey })).body.reprocesses).toEqual([]);
		expect(fake().calls.filter((c) => c.path === renderJobs.renderClip.path)).toHaveLength(renders);
		// Parts of up to 7 s (58 of them at least) fit.
		const fits = await call("POST", `/api/videos/${videoId}/reprocess`, {
			key: apiKey,
			body: { config: { clipType: "split-clips", clipDurationMin: 5, clipDurationMax: 7 } },
		});
		expect(fits.status, JSON.stringify(fits.body)).toBe(202);
		await waitUntilAtRest(apiKey, videoId);
	});
});

describe("each video's edit budget, in seconds rendered again", { timeout: PROCESSES_A_VIDEO }, () => {
	it("a 1-minute video may have 600 s of its clips rendered again; past that a re-rendering edit is 409 quota_exceeded and changes nothing", async () => {
		const { apiKey } = await createWorkspace({ minutes: 10 });
		const videoId = await submitAndProcess(apiKey, source(60), { clipDurationMin: 10, clipDurationMax: 20 });
		const budget = async () => (await call("GET", `/api/videos/${videoId}`, { key: apiKey })).body.editBudget;
		expect(await budget()).toEqual({ limitSeconds: 600, usedSeconds: 0 });

		const [clip] = (await call("GET", `/api/videos/${videoId}/clips`, { key: apiKey })).body.clips;
		const edited = await editAndWait(apiKey, clip.id, { startTime: clip.startTime + 1 });
		const length = Math.round((edited.endTime - edited.startTime) * 100) / 100;
		expect(await budget()).toEqual({ limitSeconds: 600, usedSeconds: length });

		// Many edits later (of this clip and the others), the budget is nearly spent.
		await env.DB.prepare("UPDATE videos SET edit_seconds = 595 WHERE id = ?").bind(videoId).run();
		const renders = fake().calls.filter((c) => c.path === renderJobs.renderClip.path).length;
		const refused = await call("PATCH", `/api/clips/${clip.id}`, {
			key: apiKey,
			body: { endTime: edited.endTime - 1 },
		});
		expect(refused.status).toBe(409);
		expect(refused.body.error).toMatchObject({
			code: "quota_exceeded",
			details: { limit: 600, used: 595 },
		});
		expect(refused.body.error.details.needed).toBeGreaterThan(5);
		expect(refused.body.error.message).toMatch(/edit budget/);
		const after = (await call("GET", `/api/clips/${clip.id}`, { key: apiKey })).body;
		expect(after).toMatchObject({ status: "completed", startTime: edited.startTime, endTime: edited.endTime });
		expect(fake().calls.filter((c) => c.path === renderJobs.renderClip.path)).toHaveLength(renders);
		expect(await budget()).toEqual({ limitSeconds: 600, usedSeconds: 595 });
		// What renders nothing is not counted.
		expect((await call("PATCH", `/api/clips/${clip.id}`, { key: apiKey, body: { favorited: true } })).status).toBe(
			200,
		);
	});

	it("grows with what was paid: 2 minutes of re-renders per minute charged", async () => {
		const { apiKey } = await createWorkspace({ minutes: 20 });
		const videoId = await submitAndProcess(apiKey, source(610), { skipClipping: true });
		expect((await call("GET", `/api/videos/${videoId}`, { key: apiKey })).body.editBudget).toEqual({
			limitSeconds: 11 * 120,
			usedSeconds: 0,
		});
	});
});

/** PATCHes a clip with a re-render and waits until it is drawn again. */
async function editAndWait(apiKey: string, clipId: string, changes: Record<string, unknown>) {
	await using introspector = await introspectVideoRuns();
	const patched = await call("PATCH", `/api/clips/${clipId}`, { key: apiKey, body: changes });
	expect(patched.status, JSON.stringify(patched.body)).toBe(202);
	for (const instance of await introspector.get()) await instance.waitForStatus("complete");
	return (await call("GET", `/api/clips/${clipId}`, { key: apiKey })).body;
}

async function waitUntilAtRest(apiKey: string, videoId: string): Promise<void> {
	for (let i = 0; i < 400; i++) {
		const { status } = (await call("GET", `/api/videos/${videoId}`, { key: apiKey })).body;
		if (status === "completed" || status === "failed") return;
		await new Promise((r) => setTimeout(r, 25));
	}
	throw new Error(`video ${videoId} did not come to rest`);
}
