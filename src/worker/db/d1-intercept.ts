/**
 * A D1 database whose every execution (a statement's `first`/`run`/`all`/`raw`, or a `batch`) goes
 * through one function that sees the SQL it carries. The data layer's one seam (client.ts): the
 * production retries of d1-retry.ts sit here, and, only where a local stack's INJECT_FAULTS says so,
 * the chaos soak's injected faults under them (d1-faults.ts).
 */

/** Runs one execution: `sql` holds its statements (one, or a batch's, in order). */
export type D1Interceptor = <T>(sql: readonly string[], execute: () => Promise<T>) => Promise<T>;

const REAL = Symbol("the statement D1 prepared");
const SQL = Symbol("its SQL");

interface Intercepted {
	[REAL]: D1PreparedStatement;
	[SQL]: string;
}

/**
 * @example drizzle(interceptD1(env.DB, async (sql, execute) => execute()))
 */
export function interceptD1(db: D1Database, around: D1Interceptor): D1Database {
	const wrap = (statement: D1PreparedStatement, sql: string): D1PreparedStatement => {
		const run = <T>(call: () => Promise<T>) => around([sql], call);
		const wrapped: Intercepted & Record<string, unknown> = {
			[REAL]: statement,
			[SQL]: sql,
			bind: (...values: unknown[]) => wrap(statement.bind(...values), sql),
			first: (column?: string) => run(() => (column === undefined ? statement.first() : statement.first(column))),
			run: () => run(() => statement.run()),
			all: () => run(() => statement.all()),
			raw: (options?: { columnNames?: boolean }) =>
				run(() => (options?.columnNames ? statement.raw({ columnNames: true }) : statement.raw())),
		};
		return wrapped as unknown as D1PreparedStatement;
	};
	const batch = (statements: D1PreparedStatement[]) => {
		const own = statements.map((s) => s as unknown as Partial<Intercepted>);
		return around(
			own.map((s) => s[SQL] ?? ""),
			() => db.batch(own.map((s, i) => s[REAL] ?? statements[i]!)),
		);
	};
	return new Proxy(db, {
		get(target, property) {
			if (property === "prepare") return (query: string) => wrap(target.prepare(query), query);
			if (property === "batch") return batch;
			const value: unknown = Reflect.get(target, property);
			return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
		},
	});
}
