import { is, SQL } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { SQLiteAsyncDialect } from "drizzle-orm/sqlite-core";
import * as schema from "./schema";

export type Db = ReturnType<typeof getDb>;

export function getDb(env: Pick<Env, "DB">) {
	return drizzle(env.DB, { schema });
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
