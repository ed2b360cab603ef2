/**
 * The free downloader (issue 45, H1): submit a hosted video, take its stored source through
 * GET …/source-url while it is still processing, then DELETE it for a full refund. A source link
 * is a delivery: it is handed out only once the video's charge was delivered (`completed`), and
 * once one was signed the video's charge is never given back.
 */
import { introspectWorkflow } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { renderJobs } from "@clipforge/contract";
import { balanceOf, createWorkspace, ledgerSum } from "../helpers/accounts";
import { call, submitAndProcess } from "../helpers/api";
import { useFakeRenderTier } from "../helpers/fake-render-tier";

const fake = useFakeRenderTier({ introspect: false });
const source = (duration: number) =>
	fake().addSource(`https://videos.example.com/dl/${crypto.randomUUID()}.mp4`, { duration });
const pathOf = (link: string) => {
	const u = new URL(link);
	return u.pathname + u.search;
};
const sourceKeyOf = (videoId: string) =>
	env.DB.prepare("SELECT source_key FROM videos WHERE id = ?").bind(videoId).first<string | null>("source_key");

describe("the free downloader: source link, then DELETE", () => {
	it("a 75 s video still transcribing: the link is refused (409), so DELETE's refund gives nothing away", async () => {
		const { apiKey, workspaceId } = await createWorkspace({ minutes: 10 });
		await using introspector = await introspectWorkflow(env.PROCESS_VIDEO);
		await introspector.modifyAll(async (m) => {
			await m.disableSleeps();
			await m.disableRetryDelays();
		});
		const seen: { link?: { status: number; body: any }; download?: number } = {};
		let videoId = "";
		// While the tier transcribes (the video is `transcribing`), the attacker asks for the source…
		fake().before.set(renderJobs.transcribe.path, async () => {
			// The source is stored by now (the upload runs beside the audio): the window the issue found.
			for (let i = 0; i < 100 && !(await sourceKeyOf(videoId)); i++) await new Promise((r) => setTimeout(r, 20));
			const status = (await call("GET", `/api/videos/${videoId}/status`, { key: apiKey })).body.video.status;
			expect(status).toBe("transcribing");
			seen.link = await call("GET", `/api/videos/${videoId}/source-url`, { key: apiKey });
			if (seen.link.status === 200)
				seen.download = (await call("GET", pathOf(seen.link.body.url), { key: null })).status;
		});
		// …and deletes it while the transcription still runs.
		fake().jobDelays.set(renderJobs.transcribe.path, 2000);
		const submitted = await call("POST", "/api/videos/hosted", {
			key: apiKey,
			body: { hostedUrl: source(75), config: {} },
		});
		expect(submitted.status).toBe(201);
		videoId = submitted.body.video.id;
		expect(await balanceOf(workspaceId)).toBe(8);
		for (let i = 0; i < 400 && !seen.link; i++) await new Promise((r) => setTimeout(r, 25));
		const deleted = await call("DELETE", `/api/videos/${videoId}`, { key: apiKey });
		await (await introspector.get())[0]!.waitForStatus("terminated").catch(() => undefined);

		expect(seen.download).toBeUndefined();
		expect(seen.link?.status).toBe(409);
		expect(seen.link?.body.error).toMatchObject({ code: "conflict", details: { status: "transcribing" } });
		expect(JSON.stringify(seen.link?.body)).not.toContain("source?token");
		// Nothing was delivered, so the refund is owed, and nothing left with it.
		expect(deleted.body).toMatchObject({ deleted: true, minutesRefunded: 2 });
		expect(await balanceOf(workspaceId)).toBe(10);
		expect(await ledgerSum(workspaceId)).toBe(10);
	});

	it("a completed video: the link is served, and DELETE then refunds nothing", async () => {
		const { apiKey, workspaceId } = await createWorkspace({ minutes: 10 });
		const videoId = await submitAndProcess(apiKey, source(75), {});
		const link = await call("GET", `/api/videos/${videoId}/source-url`, { key: apiKey });
		expect(link.status).toBe(200);
		expect((await call("GET", pathOf(link.body.url), { key: null })).status).toBe(200);
		const deleted = await call("DELETE", `/api/videos/${videoId}`, { key: apiKey });
		expect(deleted.body).toMatchObject({ deleted: true, minutesRefunded: 0 });
		expect(await balanceOf(workspaceId)).toBe(8);
		expect(await ledgerSum(workspaceId)).toBe(8);
	});

	it("the refund guard knows a link was signed: a video with a signed source is never refunded, whatever its status", async () => {
		const { apiKey, workspaceId } = await createWorkspace({ minutes: 10 });
		const videoId = await submitAndProcess(apiKey, source(75), { skipClipping: true });
		expect((await call("GET", `/api/videos/${videoId}/source-url`, { key: apiKey })).status).toBe(200);
		// Whatever path could ever put a delivered video back before `analyzing` (none does today), DELETE still refunds nothing.
		await env.DB.prepare("UPDATE videos SET status = 'transcribing' WHERE id = ?").bind(videoId).run();
		const deleted = await call("DELETE", `/api/videos/${videoId}`, { key: apiKey });
		expect(deleted.body).toMatchObject({ deleted: true, minutesRefunded: 0 });
		expect(await balanceOf(workspaceId)).toBe(8);
		expect(await ledgerSum(workspaceId)).toBe(8);
	});
});
