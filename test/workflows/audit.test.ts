/**
 * The consistency audit (services/audit.ts, GET /internal/audit): clean after a video is processed;
 * a clip whose file is gone, an object no row claims, a balance off its ledger and a second charge
 * are each reported.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { auditStore } from "../../src/worker/services/audit";
import { r2Keys } from "../../src/worker/services/r2-keys";
import { createWorkspace } from "../helpers/accounts";
import { call, submitAndProcess } from "../helpers/api";
import { useFakeRenderTier } from "../helpers/fake-render-tier";

const fake = useFakeRenderTier({ introspect: false });
const url = () => `https://videos.example.com/audit/${crypto.randomUUID()}.mp4`;

const about = (report: Awaited<ReturnType<typeof auditStore>>, needle: string) =>
	report.problems.filter((p) => p.row.includes(needle) || p.detail.includes(needle));

describe("the store's audit", () => {
	it("finds nothing wrong after a video is processed, and each kind of disagreement when there is one", async () => {
		const { apiKey, workspaceId } = await createWorkspace({ minutes: 10 });
		const videoId = await submitAndProcess(apiKey, fake().addSource(url(), { duration: 60 }), {
			clipDurationMin: 10,
			clipDurationMax: 20,
		});
		const before = await auditStore(env);
		expect(about(before, videoId)).toEqual([]);
		expect(about(before, workspaceId)).toEqual([]);
		expect(before.orphans.filter((o) => o.key.includes(videoId))).toEqual([]);

		const { body } = await call("GET", `/api/videos/${videoId}/clips`, { key: apiKey });
		const clipId = body.clips[0].id as string;
		await env.MEDIA.delete(r2Keys.clipVideo(videoId, clipId));
		await env.MEDIA.put(`clips/${videoId}/stray.mp4`, "x");
		await env.DB.prepare("UPDATE workspaces SET minutes_balance = minutes_balance + 5 WHERE id = ?")
			.bind(workspaceId)
			.run();
		await env.DB.prepare(
			"INSERT INTO minutes_ledger (workspace_id, video_id, kind, minutes) VALUES (?, ?, 'refund', 1)",
		)
			.bind(workspaceId, videoId)
			.run();

		const after = await auditStore(env);
		expect(after.clean).toBe(false);
		expect(about(after, `clips/${clipId}`).map((p) => p.kind)).toEqual(["missing_object"]);
		expect(after.orphans.map((o) => o.key)).toContain(`clips/${videoId}/stray.mp4`);
		expect(about(after, `workspaces/${workspaceId}`).map((p) => p.kind)).toEqual(["balance"]);
		expect(about(after, `videos/${videoId}`).map((p) => p.kind)).toEqual(["refund"]);
	});
});
