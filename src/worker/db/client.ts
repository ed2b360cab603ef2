import { is, SQL, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { SQLiteAsyncDialect, type SQLiteColumn } from "drizzle-orm/sqlite-core";
import { injectD1Faults } from "./d1-faults";
import { faultPlanOf, type FaultVars } from "../faults/plan";
import { interceptD1 } from "./d1-intercept";
import { retryIdempotent, retryReads } from "./d1-retry";

export type Db = ReturnType<typeof getDb>;

/**
 * The data layer's one way into D1: every query runs through `retryReads` (D1's transient errors
 * on read-only queries tried again, d1-retry.ts), or, for a caller whose every write is idempotent
 * (`idempotentWrites`: the workflow's steps), through `retryIdempotent` (writes too). Under it, and
 * only where a local stack sets INJECT_FAULTS (the chaos soak), injected D1 faults (d1-faults.ts).
 */
export function getDb(env: Pick<Env, "DB"> & FaultVars, options: { idempotentWrites?: boolean } = {}) {
	const plan = faultPlanOf(env);
	const faulty = plan?.rates.d1 ? interceptD1(env.DB, injectD1Faults(plan)) : env.DB;
	// No schema handed to drizzle: the relational query API (db.query.*) is not used, and reading the
	// schema's relations each time a request builds its client cost more CPU than a status poll's query.
	return drizzle(interceptD1(faulty, options.idempotentWrites ? retryIdempotent : retryReads));
}

const dialect = new SQLiteAsyncDialect();

/** A drizzle query builder, or a `sql` statement. */
export type Statement = SQL | { toSQL(): { sql: string; params: unknown[] } };

/**
 * Runs the statements as one D1 batch (a transaction), in order, and answers D1's results (with
 * `meta.changes`). drizzle's own `db.batch` cannot take raw `sql` statements, which the guarded
 * writes (`… WHERE (SELECT changes()) = 1`) need.
 */
export function runBatch(db: Db, statements: Statement[]): Promise<D1Result[]> {
	return db.$client.batch(
		statements.map((statement) => {
			const query = is(statement, SQL) ? dialect.sqlToQuery(statement) : statement.toSQL();
			return db.$client.prepare(query.sql).bind(...query.params);
		}),
	);
}

/**
 * The bare names of columns, for an INSERT's column list inside `sql` (SQLite takes no table
 * there): written with the schema's column objects, so renaming a column breaks the build.
 * @example sql`INSERT INTO ${videoEvents} (${names(videoEvents.videoId, videoEvents.status)}) SELECT …`
 */
export const names = (...columns: SQLiteColumn[]) =>
	sql.join(
		columns.map((c) => sql.identifier(c.name)),
		sql`, `,
	);

/** Values as a list for `IN (…)`. */
export const list = (values: readonly (string | number)[]) =>
	sql.join(
		values.map((v) => sql`${v}`),
		sql`, `,
	);

/** The time now as the schema stores it (ISO 8601 UTC with milliseconds). */
export const NOW = sql`strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`;

/** Guards a statement of a batch on the one before it: it acts only when that one changed a row. */
export const AFTER_CHANGE = sql`(SELECT changes()) = 1`;
