/**
 * The statements `npm run admin` runs (scripts/admin.ts) through `wrangler d1 execute`, and the
 * benchmarks' seed, as SQL text built from the schema's table and column objects (so a renamed
 * column breaks the build, not an operator's account). Pure functions, so the Workers tests run
 * them against D1 too. Imports only the schema (with its extension): Node runs this file as it is.
 */
import { eq, inArray, is, sql, SQL } from "drizzle-orm";
import { drizzle } from "drizzle-orm/sqlite-proxy";
import { SQLiteAsyncDialect } from "drizzle-orm/sqlite-core";
import { apiKeys, memberships, minutesLedger, plans, sessions, users, videos, workspaces } from "./schema.ts";

/** A database that runs nothing: its builders only write statements. */
const offline = drizzle(async () => ({ rows: [] }));
const dialect = new SQLiteAsyncDialect();

const literal = (value: unknown): string => {
	if (value === null || value === undefined) return "NULL";
	if (typeof value === "number") return String(value);
	if (typeof value === "boolean") return value ? "1" : "0";
	return `'${String(value).replace(/'/g, "''")}'`;
};

/** A statement with its values written in (the placeholders are the only `?` drizzle writes). */
function text(statement: SQL | { toSQL(): { sql: string; params: unknown[] } }): string {
	const { sql: query, params } = is(statement, SQL) ? dialect.sqlToQuery(statement) : statement.toSQL();
	let n = 0;
	return `${query.replace(/\?/g, () => literal(params[n++]))};`;
}

/** Sets the user's password hash and signs them out everywhere (one file: D1 runs it as one batch). */
export function setPasswordSql(email: string, passwordHash: string): string {
	const user = offline.select({ id: users.id }).from(users).where(eq(users.email, email));
	return [
		text(offline.update(users).set({ passwordHash }).where(eq(users.email, email))),
		text(offline.delete(sessions).where(inArray(sessions.userId, user))),
	].join("\n");
}

export interface NewAccount {
	userId: string;
	email: string;
	/** PBKDF2 hash, or null to leave the password as it is. */
	passwordHash: string | null;
	workspaceId: string;
	workspaceName: string;
	minutes: number;
	planId: string;
	maxSeconds: number;
	/** Videos processing at once; null = the operator's MAX_CONCURRENT_VIDEOS. */
	maxConcurrent: number | null;
	keyId: string;
	keyHash: string;
	keyPrefix: string;
}

/** A user (or another workspace for an existing one), owner of a new workspace with a plan, minutes and an API key. */
export function createAccountSql(a: NewAccount): string {
	const m = memberships;
	const owner = sql`INSERT INTO ${m} (${sql.identifier(m.userId.name)}, ${sql.identifier(m.workspaceId.name)}, ${sql.identifier(m.role.name)})
		SELECT ${users.id}, ${a.workspaceId}, 'owner' FROM ${users} WHERE ${users.email} = ${a.email}`;
	return [
		text(
			offline.insert(users).values({ id: a.userId, email: a.email }).onConflictDoNothing({ target: users.email }),
		),
		...(a.passwordHash ? [setPasswordSql(a.email, a.passwordHash)] : []),
		text(
			offline.insert(workspaces).values({ id: a.workspaceId, name: a.workspaceName, minutesBalance: a.minutes }),
		),
		text(owner),
		text(
			offline.insert(plans).values({
				id: a.planId,
				workspaceId: a.workspaceId,
				name: "starter",
				active: true,
				maxVideoSeconds: a.maxSeconds,
				maxConcurrentVideos: a.maxConcurrent,
			}),
		),
		text(
			offline
				.insert(minutesLedger)
				.values({ workspaceId: a.workspaceId, kind: "grant", minutes: a.minutes, note: "bootstrap grant" }),
		),
		text(
			offline.insert(apiKeys).values({
				id: a.keyId,
				workspaceId: a.workspaceId,
				name: "bootstrap key",
				keyHash: a.keyHash,
				prefix: a.keyPrefix,
			}),
		),
	].join("\n");
}

/** bench:api's workspace: a plan, API keys (by their hashes) and videos in every processing status. */
export function benchSeedSql(
	workspaceId: string,
	keys: { hash: string; prefix: string }[],
	seeded: { id: string; status: (typeof videos.$inferInsert)["status"]; progress: number }[],
): string {
	return [
		text(offline.insert(workspaces).values({ id: workspaceId, name: "bench", minutesBalance: 0 })),
		text(offline.insert(plans).values({ id: `pln_${workspaceId}`, workspaceId, name: "bench" })),
		...keys.map((k, i) =>
			text(
				offline.insert(apiKeys).values({
					id: `key_bench${i}`,
					workspaceId,
					name: `bench ${i}`,
					keyHash: k.hash,
					prefix: k.prefix,
				}),
			),
		),
		...seeded.map((v, i) =>
			text(
				offline.insert(videos).values({
					id: v.id,
					workspaceId,
					sourceUrl: `https://videos.example.com/${i}`,
					title: `Bench video ${i}`,
					status: v.status,
					progress: v.progress,
					config: {},
					sourceVideoId: `v${i}`,
					duration: 600,
					thumbnail: "",
					channelName: "bench",
					minutesCharged: 10,
					// Distinct start times: the waiting videos have places in line, as the status poll reads them.
					startedAt: `2026-01-01T00:00:${String(i % 60).padStart(2, "0")}Z`,
				}),
			),
		),
	].join("\n");
}
