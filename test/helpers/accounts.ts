import { env } from "cloudflare:workers";
import { sha256Hex } from "../../src/worker/services/crypto";

export interface TestWorkspace {
	workspaceId: string;
	apiKey: string;
	apiKeyId: string;
}

let counter = 0;
const unique = (prefix: string) =>
	`${prefix}_t${Date.now().toString(36)}${(counter++).toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** A workspace with a plan, a minutes grant (ledger row included) and an API key, straight in D1. */
export async function createWorkspace(
	options: {
		minutes?: number;
		planActive?: boolean;
		plan?: boolean;
		maxVideoSeconds?: number;
		expiresAt?: string | null;
	} = {},
): Promise<TestWorkspace> {
	const { minutes = 600, planActive = true, plan = true, maxVideoSeconds = 3 * 3600, expiresAt = null } = options;
	const workspaceId = unique("wsp");
	const apiKeyId = unique("key");
	const apiKey = `cf_live_${unique("k")}${crypto.randomUUID().replace(/-/g, "")}`;
	await env.DB.batch([
		env.DB.prepare("INSERT INTO workspaces (id, name, minutes_balance) VALUES (?1, ?2, ?3)").bind(
			workspaceId,
			`Workspace ${workspaceId}`,
			minutes,
		),
		env.DB.prepare(
			"INSERT INTO minutes_ledger (workspace_id, kind, minutes, note) VALUES (?1, 'grant', ?2, 'test grant')",
		).bind(workspaceId, minutes),
		env.DB.prepare(
			"INSERT INTO api_keys (id, workspace_id, name, key_hash, prefix) VALUES (?1, ?2, 'test', ?3, ?4)",
		).bind(apiKeyId, workspaceId, await sha256Hex(apiKey), apiKey.slice(0, 12)),
		...(plan
			? [
					env.DB.prepare(
						"INSERT INTO plans (id, workspace_id, name, active, max_video_seconds, expires_at) VALUES (?1, ?2, 'test', ?3, ?4, ?5)",
					).bind(unique("pln"), workspaceId, planActive ? 1 : 0, maxVideoSeconds, expiresAt),
				]
			: []),
	]);
	return { workspaceId, apiKey, apiKeyId };
}

export async function balanceOf(workspaceId: string): Promise<number> {
	return (
		(await env.DB.prepare("SELECT minutes_balance AS b FROM workspaces WHERE id = ?")
			.bind(workspaceId)
			.first<number>("b")) ?? Number.NaN
	);
}

export async function ledgerSum(workspaceId: string): Promise<number> {
	return (
		(await env.DB.prepare("SELECT COALESCE(SUM(minutes), 0) AS s FROM minutes_ledger WHERE workspace_id = ?")
			.bind(workspaceId)
			.first<number>("s")) ?? Number.NaN
	);
}

export async function statusEvents(videoId: string): Promise<string[]> {
	const { results } = await env.DB.prepare("SELECT status FROM video_events WHERE video_id = ? ORDER BY id")
		.bind(videoId)
		.all<{ status: string }>();
	return results.map((r) => r.status);
}

export interface TestUser {
	userId: string;
	email: string;
	password: string;
	workspaceIds: string[];
}

/** A user with a password and memberships in `workspaces` new workspaces (each with minutes and a plan). */
export async function createUser(options: { workspaces?: number; minutes?: number } = {}): Promise<TestUser> {
	const { hashPassword } = await import("../../src/worker/services/passwords");
	const userId = unique("usr");
	const email = `${userId}@example.com`;
	const password = `pw-${crypto.randomUUID()}`;
	await env.DB.prepare("INSERT INTO users (id, email, password_hash) VALUES (?1, ?2, ?3)")
		.bind(userId, email, await hashPassword(password))
		.run();
	const workspaceIds: string[] = [];
	for (let i = 0; i < (options.workspaces ?? 1); i++) {
		const { workspaceId } = await createWorkspace({ minutes: options.minutes ?? 600 });
		await env.DB.prepare("INSERT INTO memberships (user_id, workspace_id) VALUES (?1, ?2)")
			.bind(userId, workspaceId)
			.run();
		workspaceIds.push(workspaceId);
	}
	return { userId, email, password, workspaceIds };
}
