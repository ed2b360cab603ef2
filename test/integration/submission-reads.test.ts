/**
 * A hosted submission reads each row it needs once before the charge (issue 49, "straight walks"):
 * the key's reservation, the workspace with its plan, balance and queue in one read, and only the
 * references the body names. Counted at the data layer's seam (db/d1-intercept.ts), every D1
 * execution from the request's first to the charge's batch.
 */
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../../src/worker/index";
import { createWorkspace } from "../helpers/accounts";
import { interceptedEnvDb } from "../helpers/intercepted-db";
import { BASE } from "../helpers/api";
import { useFakeRenderTier } from "../helpers/fake-render-tier";

const fake = useFakeRenderTier();

/** The common case may run this many statements before the charge; auth's lookups are in it. */
const MAX_READS_BEFORE_CHARGE = 4;

/** env.DB (its sessions too), recording every execution's SQL. */
function recordingDb(): { db: D1Database; executions: string[][] } {
	const executions: string[][] = [];
	const db = interceptedEnvDb((sql, execute) => {
		executions.push([...sql]);
		return execute();
	});
	return { db, executions };
}

async function submit(db: D1Database, apiKey: string, body: unknown, headers: Record<string, string> = {}) {
	const ctx = createExecutionContext();
	const response = await worker.fetch(
		new Request(`${BASE}/api/videos/hosted`, {
			method: "POST",
			headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json", ...headers },
			body: JSON.stringify(body),
		}),
		{ ...env, DB: db },
		ctx,
	);
	await waitOnExecutionContext(ctx);
	return response;
}

/** The statements run before the batch that creates the video (each of a batch's counts). */
function statementsBeforeCharge(executions: string[][]): string[] {
	const charge = executions.findIndex((sql) => sql.some((s) => /^insert into "videos"/i.test(s.trim())));
	expect(charge, "the charge's batch ran").toBeGreaterThan(-1);
	return executions.slice(0, charge).flat();
}

/** A hosted URL the fake tier knows, with a config (the common case: processing starts at once). */
function body() {
	const hostedUrl = fake().addSource(`https://videos.example.com/reads/${crypto.randomUUID()}`, { duration: 120 });
	return { hostedUrl, config: { maxClips: 3 } };
}

const plansRead = (statements: string[]) => statements.filter((s) => /from "plans"|join "plans"/i.test(s));

describe("a hosted submission's D1 reads before the charge", () => {
	it(`reads at most ${MAX_READS_BEFORE_CHARGE} times with an Idempotency-Key and a key not yet cached, the plan once`, async () => {
		const { apiKey } = await createWorkspace({ minutes: 100 });
		const { db, executions } = recordingDb();
		const response = await submit(db, apiKey, body(), { "idempotency-key": "reads-1" });
		expect(response.status, await response.clone().text()).toBe(201);
		const before = statementsBeforeCharge(executions);
		expect(plansRead(before), before.join("\n")).toHaveLength(1);
		expect(before.length, before.join("\n")).toBeLessThanOrEqual(MAX_READS_BEFORE_CHARGE);
	});

	it("reads the workspace once when the key is cached and no Idempotency-Key is sent", async () => {
		const { apiKey } = await createWorkspace({ minutes: 100 });
		expect((await submit(env.DB, apiKey, body())).status).toBe(201); // caches the verified key
		const { db, executions } = recordingDb();
		expect((await submit(db, apiKey, body())).status).toBe(201);
		const before = statementsBeforeCharge(executions);
		expect(plansRead(before), before.join("\n")).toHaveLength(1);
		expect(before.length, before.join("\n")).toBeLessThanOrEqual(1);
	});
});
