import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import worker from "../../src/worker/index";
import { describe, expect, it } from "vitest";
import { balanceOf, createWorkspace, ledgerSum } from "../helpers/accounts";
import { useFakeRenderTier } from "../helpers/fake-render-tier";
import { call } from "../helpers/api";
import { reconcileStaleVideos, WAKE_EVENT } from "../../src/worker/services/reconcile";

const fake = useFakeRenderTier();

async function staleVideo(workspaceId: string, minutesAgo: number, status = "transcribing"): Promise<string> {
	const id = `vid_rec${crypto.randomUUID().slice(0, 8)}`;
	const at = new Date(Date.now() - minutesAgo * 60_000).toISOString();
	await env.DB.batch([
		env.DB.prepare("UPDATE workspaces SET minutes_balance = minutes_balance - 3 WHERE id = ?").bind(workspaceId),
		env.DB.prepare(
			`INSERT INTO videos (id, workspace_id, source_url, title, status, progress, config, source_video_id, duration, thumbnail, channel_name, minutes_charged, updated_at)
			 VALUES (?1, ?2, 'https://videos.example.com/x', 'x', ?3, 30, '{}', 'x', 150, '', 'c', 3, ?4)`,
		).bind(id, workspaceId, status, at),
		env.DB.prepare(
			"INSERT INTO minutes_ledger (workspace_id, video_id, kind, minutes) VALUES (?1, ?2, 'charge', -3)",
		).bind(workspaceId, id),
	]);
	await env.MEDIA.put(`sources/${id}/source.mp4`, "partial");
	return id;
}

describe("reconciling stale videos", () => {
	it("fails and refunds a stale video whose workflow no longer exists, and cleans its files", async () => {
		const { workspaceId, apiKey } = await createWorkspace({ minutes: 20 });
		const id = await staleVideo(workspaceId, 30);
		const report = await reconcileStaleVideos(env);
		expect(report.failed).toContain(id);
		const status = await call("GET", `/api/videos/${id}/status`, { key: apiKey });
		expect(status.body.video.status).toBe("failed");
		expect(status.body.video.errorMessage).toBe(
			"Processing stopped unexpectedly (its processing job no longer exists). The minutes were refunded.",
		);
		expect(await balanceOf(workspaceId)).toBe(20);
		expect(await ledgerSum(workspaceId)).toBe(20);
		expect((await env.MEDIA.list({ prefix: `sources/${id}/` })).objects).toHaveLength(0);
	});

	it("leaves fresh videos and running workflows alone", async () => {
		const { workspaceId, apiKey } = await createWorkspace({ minutes: 20 });
		const fresh = await staleVideo(workspaceId, 2);
		const hostedUrl = fake().addSource(`https://videos.example.com/r/${crypto.randomUUID()}`, { duration: 60 });
		const running = (await call("POST", "/api/videos/hosted", { key: apiKey, body: { hostedUrl, config: {} } }))
			.body.video.id;
		await env.DB.prepare("UPDATE videos SET updated_at = '2020-01-01T00:00:00.000Z' WHERE id = ?")
			.bind(running)
			.run();
		const report = await reconcileStaleVideos(env);
		expect(report.failed).not.toContain(fresh);
		expect(report.failed).not.toContain(running);
		expect((await call("GET", `/api/videos/${fresh}/status`, { key: apiKey })).body.video.status).toBe(
			"transcribing",
		);
	});

	it("runs from the cron trigger", async () => {
		const { workspaceId } = await createWorkspace({ minutes: 20 });
		const id = await staleVideo(workspaceId, 60, "generating_clips");
		const ctx = createExecutionContext();
		worker.scheduled(createScheduledController({ scheduledTime: new Date(), cron: "*/5 * * * *" }), env, ctx);
		await waitOnExecutionContext(ctx);
		const row = await env.DB.prepare("SELECT status FROM videos WHERE id = ?").bind(id).first<string>("status");
		expect(row).toBe("failed");
	});

	it("wakes a stale video whose instance says it still runs (the local engine resumes it only on an event), and leaves it processing", async () => {
		const { workspaceId, apiKey } = await createWorkspace({ minutes: 20 });
		const id = await staleVideo(workspaceId, 30);
		const events: { instance: string; type: string }[] = [];
		// As `wrangler dev` leaves an instance after a restart: "running" on disk, nothing running it.
		const idleEngine = {
			get: async (instance: string) => ({
				status: async () => ({ status: "running" }),
				sendEvent: async (event: { type: string }) => void events.push({ instance, type: event.type }),
			}),
		} as unknown as Workflow;
		const report = await reconcileStaleVideos({ ...env, PROCESS_VIDEO: idleEngine });
		expect(report.running).toContain(id);
		expect(report.failed).not.toContain(id);
		expect(events).toContainEqual({ instance: id, type: WAKE_EVENT });
		expect((await call("GET", `/api/videos/${id}/status`, { key: apiKey })).body.video.status).toBe("transcribing");
		expect(await balanceOf(workspaceId)).toBe(17);
	});
});
