/**
 * The data layer's seam (db/client.ts): D1's transient errors on reads are tried again, writes are
 * left to their callers, the API answers a transient storage error with 503 and Retry-After, and
 * the chaos soak's injected faults (INJECT_FAULTS) fail as the platform documents.
 */
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../../src/worker/index";
import { eq } from "drizzle-orm";
import { getDb } from "../../src/worker/db/client";
import { videoRun } from "../../src/workflows/steps/run";
import { interceptD1, type D1Interceptor } from "../../src/worker/db/d1-intercept";
import { isReadOnlySql, retryReads, retryWrite } from "../../src/worker/db/d1-retry";
import { isTransientD1Error } from "../../src/worker/lib/d1-transient";
import { parseFaultPlan } from "../../src/worker/faults/plan";
import { withR2Faults } from "../../src/worker/faults/r2";
import { withInjectedFaults } from "../../src/worker/faults/env";
import { workspaces } from "../../src/worker/db/schema";
import { createWorkspace } from "../helpers/accounts";
import { interceptedEnvDb } from "../helpers/intercepted-db";
import { BASE } from "../helpers/api";

const LOST = "D1_ERROR: Network connection lost.";

/** Fails the first `times` executions whose SQL matches, with `message`; counts them. */
function failing(times: number, message: string, when: (sql: readonly string[]) => boolean = () => true) {
	const state = { failed: 0, executions: 0 };
	const around: D1Interceptor = async (sql, execute) => {
		state.executions++;
		if (state.failed < times && when(sql)) {
			state.failed++;
			throw new Error(message);
		}
		return execute();
	};
	return { state, around };
}

async function fetchWith(db: D1Database, path: string, init: RequestInit & { key: string }) {
	const ctx = createExecutionContext();
	const response = await worker.fetch(
		new Request(`${BASE}${path}`, {
			...init,
			headers: { authorization: `Bearer ${init.key}`, "content-type": "application/json" },
		}),
		{ ...env, DB: db },
		ctx,
	);
	await waitOnExecutionContext(ctx);
	return response;
}

describe("D1's transient errors at the data layer's seam", () => {
	it("tells read-only SQL from writes, and D1's transient errors from the rest", () => {
		expect(isReadOnlySql('select "id" from "videos" where "id" = ?')).toBe(true);
		expect(isReadOnlySql("WITH x AS (SELECT 1) SELECT * FROM x")).toBe(true);
		expect(isReadOnlySql('update "videos" set "status" = ?')).toBe(false);
		expect(isReadOnlySql("WITH x AS (SELECT 1) INSERT INTO t SELECT * FROM x")).toBe(false);
		expect(isTransientD1Error(new Error(LOST))).toBe(true);
		expect(isTransientD1Error(new Error("D1_ERROR: D1 DB is overloaded. Too many requests queued."))).toBe(true);
		expect(isTransientD1Error(new Error("D1_ERROR: UNIQUE constraint failed: videos.id"))).toBe(false);
	});

	it("a read that loses its connection is tried again and answers", async () => {
		const { state, around } = failing(2, LOST);
		const db = interceptD1(interceptD1(env.DB, around), retryReads);
		const row = await db.prepare("SELECT 1 AS one").first<{ one: number }>();
		expect(row?.one).toBe(1);
		expect(state.failed).toBe(2);
	});

	it("a write is not tried again blindly: whether it committed is unknown", async () => {
		const { workspaceId } = await createWorkspace({ minutes: 10 });
		const { state, around } = failing(1, LOST);
		const db = interceptD1(interceptD1(env.DB, around), retryReads);
		await expect(
			db.prepare("UPDATE workspaces SET name = 'x' WHERE id = ?").bind(workspaceId).run(),
		).rejects.toThrow(LOST);
		expect(state.executions).toBe(1);
	});

	it("a non-transient error is not tried again", async () => {
		const { state, around } = failing(1, "D1_ERROR: no such table: nothing");
		const db = interceptD1(interceptD1(env.DB, around), retryReads);
		await expect(db.prepare("SELECT 1").first()).rejects.toThrow("no such table");
		expect(state.executions).toBe(1);
	});

	it("retryWrite asks whether the lost write landed before trying again, and never applies it twice", async () => {
		const { workspaceId } = await createWorkspace({ minutes: 10 });
		const db = getDb(env);
		let tries = 0;
		const write = async () => {
			tries++;
			await env.DB.prepare("UPDATE workspaces SET minutes_balance = minutes_balance + 1 WHERE id = ?")
				.bind(workspaceId)
				.run();
			if (tries === 1) throw new Error(LOST); // it committed; its answer was lost
			return "written";
		};
		const landed = async () => {
			const [row] = await db.select().from(workspaces).where(eq(workspaces.id, workspaceId));
			return row && row.minutesBalance === 11 ? "landed" : undefined;
		};
		expect(await retryWrite(write, landed)).toBe("landed");
		expect(tries).toBe(1);
		expect(workspaces).toBeDefined();
	});

	it("GET …/status whose D1 read loses its connection answers as if nothing failed (no 5xx)", async () => {
		const { apiKey } = await createWorkspace({ minutes: 10 });
		const { state, around } = failing(1, LOST, (sql) => sql.some((s) => /"videos"/.test(s)));
		const response = await fetchWith(interceptedEnvDb(around), "/api/videos/vid_nonexistent00001/status", {
			method: "GET",
			key: apiKey,
		});
		expect(state.failed).toBe(1);
		expect(response.status).toBe(404);
	});

	it("a write the API makes that meets a transient error answers 503 with Retry-After, not 500", async () => {
		const { apiKey } = await createWorkspace({ minutes: 10 });
		const { around } = failing(1, LOST, (sql) => sql.some((s) => /^insert into "projects"/i.test(s)));
		const response = await fetchWith(interceptedEnvDb(around), "/api/projects", {
			method: "POST",
			key: apiKey,
			body: JSON.stringify({ name: "Talks" }),
		});
		expect(response.status).toBe(503);
		expect(response.headers.get("retry-after")).toBe("1");
		expect(((await response.json()) as { error: { code: string } }).error.code).toBe("service_unavailable");
	});

	it("a workflow step's writes (each safe to apply twice) are tried again alone, so a step of many writes survives 10% faults", async () => {
		const { workspaceId } = await createWorkspace({ minutes: 10 });
		// The soak's injected faults, a lost connection after the write ran among them.
		const faulty = { ...env, INJECT_FAULTS: "d1=0.1" } as Env;
		const run = videoRun(faulty, "vid_seam", "vid_seam");
		for (let i = 0; i < 50; i++)
			await run.db
				.update(workspaces)
				.set({ name: `step write ${i % 5}` })
				.where(eq(workspaces.id, workspaceId));
		const [row] = await getDb(env).select().from(workspaces).where(eq(workspaces.id, workspaceId));
		expect(row?.name).toBe("step write 4");
		// The API's own writes are still not tried again blindly.
		const { around } = failing(1, LOST);
		const api = interceptD1(interceptD1(env.DB, around), retryReads);
		await expect(
			api.prepare("UPDATE workspaces SET name = 'x' WHERE id = ?").bind(workspaceId).run(),
		).rejects.toThrow(LOST);
	});
});

describe("the soak's injected faults (INJECT_FAULTS)", () => {
	it("reads the plan, and nothing without it", () => {
		expect(parseFaultPlan("d1=0.02,r2=0.05,until=123")).toEqual({ rates: { d1: 0.02, r2: 0.05 }, until: 123 });
		expect(parseFaultPlan("")).toBeNull();
		expect(withInjectedFaults(env)).toBe(env);
	});

	it("D1: a statement fails with one of D1's documented errors, reads after their retries", async () => {
		const db = getDb({ ...env, INJECT_FAULTS: "d1=1" });
		const failure = await db
			.select()
			.from(workspaces)
			.limit(1)
			.then(
				() => null,
				(error: Error) => error,
			);
		// drizzle wraps D1's error ("Failed query: …"), its cause the platform's own.
		expect(String((failure?.cause as Error | undefined)?.message)).toMatch(/^D1_ERROR: /);
		const ended = getDb({ ...env, INJECT_FAULTS: `d1=1,until=${Date.now() - 1}` });
		await expect(ended.select().from(workspaces).limit(1)).resolves.toBeDefined();
	});

	it("R2: puts, gets and multipart parts fail with R2's service errors; the rest is the bucket", async () => {
		const plan = parseFaultPlan("r2=1")!;
		const bucket = withR2Faults(env.MEDIA, plan);
		await expect(bucket.put("faults/x", "x")).rejects.toThrow(/^put: .*\(100(01|43|58)\)$/);
		await expect(bucket.get("faults/x")).rejects.toThrow(/^get: /);
		expect(await bucket.head("faults/x")).toBeNull();
		const upload = await bucket.createMultipartUpload("faults/y");
		await expect(upload.uploadPart(1, "y")).rejects.toThrow(/^uploadPart: /);
		await upload.abort();
	});
});
