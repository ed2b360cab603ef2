/**
 * One tenant cannot take the whole container pool: its videos beyond its plan's limit are accepted
 * and wait their turn (status `downloading`, `job.queuePosition`), enforced both at submission and
 * by the workflow itself; too many waiting → 429 `queue_full`; every job lands on an instance of
 * the bounded set; another tenant starts at once.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { renderJobs, WORKSPACE_JOB_LIMITS } from "@clipforge/contract";
import { getDb } from "../../src/worker/db/client";
import { markCompleted } from "../../src/worker/db/videos";
import { wakeWaiting } from "../../src/worker/services/processing-slots";
import { allRenderInstances, renderInstance } from "../../src/worker/services/render-instances";
import { balanceOf, createWorkspace, ledgerSum } from "../helpers/accounts";
import { call } from "../helpers/api";
import { itCountsInOneWindow } from "../helpers/rate-window";
import { useFakeRenderTier } from "../helpers/fake-render-tier";
import { introspectVideoRuns } from "../helpers/video-runs";

const fake = useFakeRenderTier({ introspect: false });
const source = () => fake().addSource(`https://videos.example.com/q/${crypto.randomUUID()}.mp4`, { duration: 40 });
const config = { clipDurationMin: 10, clipDurationMax: 20 };

const setLimit = (workspaceId: string, limit: number) =>
	env.DB.prepare("UPDATE plans SET max_concurrent_videos = ? WHERE workspace_id = ?").bind(limit, workspaceId).run();
const holding = async (workspaceId: string) =>
	(await env.DB.prepare(
		"SELECT COUNT(*) AS n FROM videos WHERE workspace_id = ? AND slot_claimed_at IS NOT NULL AND status NOT IN ('completed', 'failed', 'pending_config')",
	)
		.bind(workspaceId)
		.first<number>("n"))!;

/** Largest number of the videos that held a slot at the same moment, from their claim and end times. */
async function peakConcurrency(ids: string[]): Promise<number> {
	const rows = await Promise.all(
		ids.map((id) =>
			env.DB.prepare("SELECT slot_claimed_at AS a, completed_at AS b FROM videos WHERE id = ?")
				.bind(id)
				.first<{ a: string; b: string }>(),
		),
	);
	const edges = rows
		.flatMap((r) => [[Date.parse(r!.a), 1] as const, [Date.parse(r!.b), -1] as const])
		.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
	let now = 0;
	let peak = 0;
	for (const [, step] of edges) peak = Math.max(peak, (now += step));
	return peak;
}

describe("per-workspace processing slots", () => {
	it("a flood of 8 submissions with a limit of 2: all accepted and charged, 2 process, 6 wait in line; all complete; another tenant starts at once", async () => {
		await using introspector = await introspectVideoRuns();
		const flooder = await createWorkspace({ minutes: 100 });
		await setLimit(flooder.workspaceId, 2);
		// Hold every render until the other tenant has been checked (a hook runs once: each one sets the next).
		// The submissions take a few seconds (a workspace's probes run a few at a time), so no video may end meanwhile.
		let release!: () => void;
		const held = new Promise<void>((r) => (release = r));
		const hold = () =>
			fake().before.set(renderJobs.renderClip.path, async () => {
				hold();
				await held;
			});
		hold();

		const submitted = await Promise.all(
			Array.from({ length: 8 }, () =>
				call("POST", "/api/videos/hosted", { key: flooder.apiKey, body: { hostedUrl: source(), config } }),
			),
		);
		expect(submitted.map((s) => s.status)).toEqual(Array(8).fill(201));
		expect(await balanceOf(flooder.workspaceId)).toBe(92);
		const ids = submitted.map((s) => s.body.video.id as string);
		expect(await holding(flooder.workspaceId)).toBe(2);
		const positions = (
			await Promise.all(ids.map((id) => call("GET", `/api/videos/${id}/status`, { key: flooder.apiKey })))
		).map((s) => s.body.job.queuePosition);
		expect(positions.filter((p) => p === null)).toHaveLength(2);
		expect(positions.filter((p) => p !== null).sort()).toEqual([1, 2, 3, 4, 5, 6]);
		expect(
			submitted.filter((s) => /waits for one of the workspace's processing slots/.test(s.body.message)),
		).toHaveLength(6);

		const other = await createWorkspace({ minutes: 10 });
		const theirs = await call("POST", "/api/videos/hosted", {
			key: other.apiKey,
			body: { hostedUrl: source(), config },
		});
		expect(theirs.status).toBe(201);
		expect(
			(await call("GET", `/api/videos/${theirs.body.video.id}/status`, { key: other.apiKey })).body.job
				.queuePosition,
		).toBeNull();
		expect(await holding(flooder.workspaceId)).toBe(2);
		release();

		for (const instance of await introspector.get()) await instance.waitForStatus("complete");
		for (const id of ids)
			expect((await call("GET", `/api/videos/${id}`, { key: flooder.apiKey })).body.status).toBe("completed");
		expect(await peakConcurrency(ids)).toBeLessThanOrEqual(2);
		// The waiting ones did nothing before their turn: one download each, never more than two at once.
		expect(fake().calls.filter((c) => c.path === renderJobs.download.path)).toHaveLength(9);
		// Every job went to an instance of the bounded set.
		const allowed = new Set(allRenderInstances(env));
		for (const c of fake().calls) expect(allowed.has(c.instance ?? ""), `${c.path} → ${c.instance}`).toBe(true);
		expect(await ledgerSum(flooder.workspaceId)).toBe(await balanceOf(flooder.workspaceId));
	}, 60_000);

	it("the workflow enforces the limit itself: a video that skipped the submission's check waits until a slot is free", async () => {
		await using introspector = await introspectVideoRuns();
		const { apiKey, workspaceId } = await createWorkspace({ minutes: 20 });
		await setLimit(workspaceId, 1);
		const make = async () =>
			(await call("POST", "/api/videos/hosted", { key: apiKey, body: { hostedUrl: source() } })).body.video
				.id as string;
		const [holder, sneaky] = [await make(), await make()];
		// The holder is mid-processing with the slot; the other is put straight into `downloading` with no slot.
		await env.DB.prepare(
			"UPDATE videos SET status = 'transcribing', config = ?, started_at = '2026-01-01T00:00:00.000Z', slot_claimed_at = '2026-01-01T00:00:00.000Z' WHERE id = ?",
		)
			.bind(JSON.stringify(config), holder)
			.run();
		await env.DB.prepare(
			"UPDATE videos SET status = 'downloading', config = ?, started_at = '2026-01-01T00:00:01.000Z' WHERE id = ?",
		)
			.bind(JSON.stringify(config), sneaky)
			.run();
		await env.PROCESS_VIDEO.create({ id: sneaky, params: { kind: "process", videoId: sneaky } });
		await expect
			.poll(
				async () => (await call("GET", `/api/videos/${sneaky}/status`, { key: apiKey })).body.job.queuePosition,
				{ timeout: 5000 },
			)
			.toBe(1);
		await new Promise((r) => setTimeout(r, 500));
		expect(fake().calls.filter((c) => (c.body as { videoId?: string }).videoId === sneaky)).toHaveLength(0);

		expect(await markCompleted(getDb(env), holder)).toBe(true);
		await wakeWaiting(env, getDb(env), workspaceId);
		const [instance] = await introspector.get();
		await instance!.waitForStatus("complete");
		expect((await call("GET", `/api/videos/${sneaky}`, { key: apiKey })).body.status).toBe("completed");
	}, 30_000);

	it("deleting a waiting video refunds it (nothing was delivered) and lets the next one move up", async () => {
		const { apiKey, workspaceId } = await createWorkspace({ minutes: 20 });
		await setLimit(workspaceId, 1);
		const stamp = (n: number) => `2026-01-01T00:00:0${n}.000Z`;
		const ids: string[] = [];
		for (let n = 0; n < 3; n++) {
			const id = (await call("POST", "/api/videos/hosted", { key: apiKey, body: { hostedUrl: source() } })).body
				.video.id as string;
			await env.DB.prepare(
				"UPDATE videos SET status = ?, config = ?, started_at = ?, slot_claimed_at = ? WHERE id = ?",
			)
				.bind(
					n === 0 ? "analyzing" : "downloading",
					JSON.stringify(config),
					stamp(n),
					n === 0 ? stamp(n) : null,
					id,
				)
				.run();
			ids.push(id);
		}
		const position = async (id: string) =>
			(await call("GET", `/api/videos/${id}/status`, { key: apiKey })).body.job.queuePosition;
		expect([await position(ids[0]!), await position(ids[1]!), await position(ids[2]!)]).toEqual([null, 1, 2]);
		expect((await call("DELETE", `/api/videos/${ids[1]}`, { key: apiKey })).body.minutesRefunded).toBe(1);
		expect(await position(ids[2]!)).toBe(1);
	});
});

describe("the waiting line is bounded", () => {
	async function fullLine(workspaceId: string, apiKey: string, waiting: number) {
		await setLimit(workspaceId, 1);
		const statements = [];
		for (let n = 0; n < waiting; n++) {
			const id = `vid_q${crypto.randomUUID().replace(/-/g, "").slice(0, 16)}`;
			statements.push(
				env.DB.prepare(
					`INSERT INTO videos (id, workspace_id, source_type, source_url, title, status, progress, config, source_video_id, duration, thumbnail, channel_name, minutes_charged, started_at)
					VALUES (?, ?, 'hosted', 'https://videos.example.com/x', 't', 'downloading', 0, '{}', 'x', 60, '', 'c', 0, ?)`,
				).bind(id, workspaceId, new Date(Date.now() - 60_000 + n).toISOString()),
			);
		}
		await env.DB.batch(statements);
		expect(apiKey).toBeTruthy();
	}

	it("past MAX_QUEUED_VIDEOS waiting, a submission is refused with 429 queue_full and Retry-After before any probe, nothing charged", async () => {
		const { apiKey, workspaceId } = await createWorkspace({ minutes: 20 });
		await fullLine(workspaceId, apiKey, 50);
		const refused = await call("POST", "/api/videos/hosted", {
			key: apiKey,
			body: { hostedUrl: source(), config },
		});
		expect(refused.status).toBe(429);
		expect(refused.body.error.code).toBe("queue_full");
		expect(refused.body.error.details).toMatchObject({ maxQueued: 50, maxConcurrent: 1 });
		expect(refused.response.headers.get("retry-after")).toBe("60");
		expect(fake().calls).toHaveLength(0);
		expect(await balanceOf(workspaceId)).toBe(20);
		// Without a config (pending_config) nothing waits, so it is accepted; its PUT …/config is refused the same way.
		const pending = await call("POST", "/api/videos/hosted", { key: apiKey, body: { hostedUrl: source() } });
		expect(pending.status).toBe(201);
		const configured = await call("PUT", `/api/videos/${pending.body.video.id}/config`, {
			key: apiKey,
			body: config,
		});
		expect(configured.status).toBe(429);
		expect(configured.body.error.code).toBe("queue_full");
		expect((await call("GET", `/api/videos/${pending.body.video.id}`, { key: apiKey })).body.status).toBe(
			"pending_config",
		);
	});

	itCountsInOneWindow(
		"one tenant's burst of 30 submissions: it gets 429 with Retry-After past its probe share, never 503, and another tenant's submissions side by side all go through",
		10,
		async () => {
			const burster = await createWorkspace({ minutes: 10 });
			const other = await createWorkspace({ minutes: 10 });
			// Pending videos (no config) take no processing slot: only the probes and the minutes bound them.
			const burstUrls = Array.from({ length: 30 }, () => source());
			const otherUrls = Array.from({ length: 3 }, () => source());
			const submit = (key: string, hostedUrl: string) =>
				call("POST", "/api/videos/hosted", { key, body: { hostedUrl } });
			// The probe limit counts in 10 s windows: a burst that straddles an edge is tried again.
			const [burst, others] = await Promise.all([
				Promise.all(burstUrls.map((u) => submit(burster.apiKey, u))),
				Promise.all(otherUrls.map((u) => submit(other.apiKey, u))),
			]);
			expect(others.map((r) => r.status)).toEqual([201, 201, 201]);
			const statuses = burst.map((r) => r.status);
			expect(statuses.filter((s) => s >= 500)).toEqual([]);
			const limited = burst.filter((r) => r.status === 429);
			expect(limited.length).toBeGreaterThanOrEqual(20);
			for (const r of limited) {
				expect(r.body.error.code).toBe("rate_limited");
				expect(r.response.headers.get("retry-after")).toBe("10");
			}
			expect(statuses.filter((s) => s === 201).length).toBeLessThanOrEqual(10);
			// The burst probed at most its share (probes that ran; a request the tier told to wait its turn is not one); the refused ones cost nothing.
			const probed = (urls: string[]) => fake().probeLog.filter((p) => urls.includes(p.url)).length;
			expect(probed(burstUrls)).toBeLessThanOrEqual(10);
			expect(probed(otherUrls)).toBe(3);
			const accepted = statuses.filter((s) => s === 201).length;
			expect(await balanceOf(burster.workspaceId)).toBe(10 - accepted);
			expect(await ledgerSum(burster.workspaceId)).toBe(10 - accepted);
		},
	);

	itCountsInOneWindow(
		"a workspace's probes in flight are its share of its probe instance: a burst of slow probes holds at most 4 at once, the rest wait their turn (or get 429), and another tenant on that instance is not kept waiting",
		10,
		async () => {
			// Two tenants whose probes land on the same instance of the pool, which has room for 6 jobs here.
			const burster = await createWorkspace({ minutes: 20 });
			let other = await createWorkspace({ minutes: 20 });
			while (renderInstance.probe(other.workspaceId) !== renderInstance.probe(burster.workspaceId))
				other = await createWorkspace({ minutes: 20 });
			fake().maxJobsPerInstance = 6;
			const slow = Array.from({ length: 8 }, () =>
				fake().addSource(`https://videos.example.com/slow/${crypto.randomUUID()}.mp4`, {
					duration: 40,
					probeMs: 3000,
				}),
			);
			const submit = (key: string, hostedUrl: string) =>
				call("POST", "/api/videos/hosted", { key, body: { hostedUrl } });
			const burst = Promise.all(slow.map((u) => submit(burster.apiKey, u)));
			await new Promise((r) => setTimeout(r, 500));
			const asked = Date.now();
			const theirs = await submit(other.apiKey, source());
			const waited = Date.now() - asked;
			const answers = await burst;

			expect(theirs.status).toBe(201);
			expect(waited).toBeLessThan(2000);
			const statuses = answers.map((r) => r.status);
			expect(statuses.filter((s) => s !== 201 && s !== 429)).toEqual([]);
			for (const r of answers.filter((a) => a.status === 429)) {
				expect(r.body.error.code).toBe("rate_limited");
				expect(Number(r.response.headers.get("retry-after"))).toBeGreaterThan(0);
			}
			// At no moment did the burst hold more than its share of the instance.
			const runs = fake().probeLog.filter((p) => slow.includes(p.url));
			const peak = Math.max(...runs.map((r) => runs.filter((o) => o.start <= r.start && o.end > r.start).length));
			expect(peak).toBe(WORKSPACE_JOB_LIMITS.probe);
			// The rest waited for the first ones to end, then ran (or were refused, costing nothing).
			const accepted = statuses.filter((s) => s === 201).length;
			expect(accepted).toBeGreaterThan(WORKSPACE_JOB_LIMITS.probe);
			expect(await balanceOf(burster.workspaceId)).toBe(20 - accepted);
		},
	);

	it("a workspace with no minutes is refused (402) before any probe", async () => {
		const { apiKey } = await createWorkspace({ minutes: 0 });
		const refused = await call("POST", "/api/videos/hosted", {
			key: apiKey,
			body: { hostedUrl: source(), config },
		});
		expect(refused.status).toBe(402);
		expect(fake().calls.filter((c) => c.path === renderJobs.probe.path)).toHaveLength(0);
	});

	it("racing for the last place in line: of 6 concurrent submissions exactly one is accepted and charged", async () => {
		const { apiKey, workspaceId } = await createWorkspace({ minutes: 20 });
		await fullLine(workspaceId, apiKey, 49);
		const results = await Promise.all(
			Array.from({ length: 6 }, () =>
				call("POST", "/api/videos/hosted", { key: apiKey, body: { hostedUrl: source(), config } }),
			),
		);
		expect(results.filter((r) => r.status === 201)).toHaveLength(1);
		expect(results.filter((r) => r.status === 429 && r.body.error.code === "queue_full")).toHaveLength(5);
		expect(await balanceOf(workspaceId)).toBe(19);
		expect(await ledgerSum(workspaceId)).toBe(19);
	});
});
