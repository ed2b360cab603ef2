/**
 * R2 and D1 fail a write once, as storage does under load: the step that wrote is retried, the
 * video completes (or fails and is refunded) exactly once, charged once, with every file stored
 * and nothing left behind. The errors are injected into the bindings the workflow uses.
 */
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { balanceOf, createWorkspace, ledgerSum, statusEvents } from "../helpers/accounts";
import { call, submitAndProcess } from "../helpers/api";
import { useFakeRenderTier } from "../helpers/fake-render-tier";
import { findOrphans } from "../../src/worker/services/orphans";
import { r2Keys } from "../../src/worker/services/r2-keys";

const fake = useFakeRenderTier({ introspect: false });
const url = () => `https://videos.example.com/s/${crypto.randomUUID()}.mp4`;
const config = { clipDurationMin: 10, clipDurationMax: 20 };

afterEach(() => {
	vi.restoreAllMocks();
});

/** Makes the first call of `method` on `target` whose arguments match `when` throw `error`; counts the failures. */
function failOnce<T extends object, K extends keyof T>(
	target: T,
	method: K,
	when: (...args: any[]) => boolean,
	error: Error,
): { failed: number } {
	const state = { failed: 0 };
	const original = (target[method] as (...args: unknown[]) => unknown).bind(target);
	vi.spyOn(target, method as never).mockImplementation(((...args: unknown[]) => {
		if (state.failed === 0 && when(...args)) {
			state.failed++;
			return Promise.reject(error);
		}
		return original(...args);
	}) as never);
	return state;
}

/** The SQL of each statement the workflow prepares (bound copies included), to tell batches apart. */
function isCompletion(query: string): boolean {
	return (
		/^update "videos" set/i.test(query) &&
		query.includes('"completed_at"') &&
		query.includes('"progress"') &&
		!query.includes('"error_message"')
	);
}

function trackSql(): (statement: D1PreparedStatement) => string {
	const sqlOf = new WeakMap<object, string>();
	const prepare = env.DB.prepare.bind(env.DB);
	vi.spyOn(env.DB, "prepare").mockImplementation((query: string) => {
		const statement = prepare(query);
		const bind = statement.bind.bind(statement);
		statement.bind = (...values: unknown[]) => {
			const bound = bind(...values);
			sqlOf.set(bound, query);
			return bound;
		};
		sqlOf.set(statement, query);
		return statement;
	});
	return (statement) => sqlOf.get(statement) ?? "";
}

async function expectCompletedOnce(apiKey: string, workspaceId: string, videoId: string, minutes: number) {
	const { body } = await call("GET", `/api/videos/${videoId}/clips`, { key: apiKey });
	expect(body.status).toBe("completed");
	expect(body.count).toBeGreaterThan(0);
	for (const clip of body.clips)
		expect(await env.MEDIA.head(r2Keys.clipVideo(videoId, clip.id)), clip.id).not.toBeNull();
	expect((await statusEvents(videoId)).filter((s) => s === "completed")).toHaveLength(1);
	expect(await balanceOf(workspaceId)).toBe(minutes - 1);
	expect(await ledgerSum(workspaceId)).toBe(minutes - 1);
	const orphans = (await findOrphans(env, { minAgeMinutes: 0 })).orphans.filter((o) => o.key.includes(videoId));
	expect(orphans).toEqual([]);
}

describe("a storage write that fails once", () => {
	it("R2: the merged transcript's put → its step is retried, the video completes", async () => {
		const { apiKey, workspaceId } = await createWorkspace({ minutes: 10 });
		const fault = failOnce(
			env.MEDIA,
			"put",
			(key: string) => /^transcripts\/[^/]+\.json$/.test(key),
			new Error("R2 put failed: internal error (10001)"),
		);
		const videoId = await submitAndProcess(apiKey, fake().addSource(url(), { duration: 60 }), config);
		expect(fault.failed).toBe(1);
		await expectCompletedOnce(apiKey, workspaceId, videoId, 10);
	});

	it("R2: a clip file the tier stores through the internal PUT → the tier's job is sent again, every clip stored", async () => {
		const { apiKey, workspaceId } = await createWorkspace({ minutes: 10 });
		const fault = failOnce(
			env.MEDIA,
			"put",
			(key: string) => /^clips\/.+\.mp4$/.test(key),
			new Error("R2 put failed: we encountered an internal error (10001)"),
		);
		const videoId = await submitAndProcess(apiKey, fake().addSource(url(), { duration: 60 }), config);
		expect(fault.failed).toBe(1);
		await expectCompletedOnce(apiKey, workspaceId, videoId, 10);
	});

	it("D1: the batch that marks the video completed → the finish step is retried, completed once", async () => {
		const { apiKey, workspaceId } = await createWorkspace({ minutes: 10 });
		const sqlOf = trackSql();
		const fault = failOnce(
			env.DB,
			"batch",
			// The UPDATE that completes the video: it alone sets progress and completed_at without an error message.
			(statements: D1PreparedStatement[]) => statements.some((s) => isCompletion(sqlOf(s))),
			new Error("D1_ERROR: Network connection lost."),
		);
		const videoId = await submitAndProcess(apiKey, fake().addSource(url(), { duration: 60 }), config);
		expect(fault.failed).toBe(1);
		await expectCompletedOnce(apiKey, workspaceId, videoId, 10);
	});

	it("D1: the refund of a failed video → its step is retried, refunded exactly once", async () => {
		const { apiKey, workspaceId } = await createWorkspace({ minutes: 10 });
		fake().failAlways("/jobs/extract-audio", {
			code: "invalid_request",
			message: "The source has no audio track to extract.",
			retryable: false,
		});
		const sqlOf = trackSql();
		const fault = failOnce(
			env.DB,
			"batch",
			(statements: D1PreparedStatement[]) => statements.some((s) => /'refund'/.test(sqlOf(s))),
			new Error("D1_ERROR: Network connection lost."),
		);
		const videoId = await submitAndProcess(apiKey, fake().addSource(url(), { duration: 60 }), config, "errored");
		expect(fault.failed).toBe(1);
		expect((await call("GET", `/api/videos/${videoId}/status`, { key: apiKey })).body.video.status).toBe("failed");
		expect(await balanceOf(workspaceId)).toBe(10);
		expect(await ledgerSum(workspaceId)).toBe(10);
		const refunds = await env.DB.prepare(
			"SELECT COUNT(*) AS n FROM minutes_ledger WHERE video_id = ? AND kind = 'refund'",
		)
			.bind(videoId)
			.first<number>("n");
		expect(refunds).toBe(1);
	});
});
