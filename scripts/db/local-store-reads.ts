/**
 * The few reads the backup tools make of a local stack's D1 (opened by local-store.ts): whether it
 * has tables of its own yet, how many rows a table holds, and the minutes ledger in order.
 */
/** The part of a local D1 (miniflare's, as local-store.ts opens it) these reads use. */
interface LocalD1 {
	prepare(query: string): {
		all<T>(): Promise<{ results: T[] }>;
		first<T>(): Promise<T | null>;
		raw(): Promise<unknown[][]>;
	};
}

/** The tables D1 holds beside its own (`_cf_…`) ones: none in a store never migrated. */
export async function ownTables(db: LocalD1): Promise<string[]> {
	const tables = await db
		.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_cf\\_%' ESCAPE '\\'")
		.all<{ name: string }>();
	return tables.results.map((t: { name: string }) => t.name);
}

/** How many rows `table` holds (a name from the backup's own manifest, quoted as an identifier). */
export async function rowCount(db: LocalD1, table: string): Promise<number> {
	const counted = await db.prepare(`SELECT count(*) AS n FROM "${table.replace(/"/g, '""')}"`).first<{ n: number }>();
	return counted?.n ?? 0;
}

/** Every ledger row, in id order, as raw value lists. */
export async function ledgerInOrder(db: LocalD1): Promise<unknown[][]> {
	return db.prepare("SELECT id, workspace_id, video_id, kind, minutes FROM minutes_ledger ORDER BY id").raw();
}
