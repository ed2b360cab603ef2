/**
 * `npm run backup [-- --state .stack] [--out backups/<time>]`: a local stack's whole store in one
 * folder: `d1.sql` (D1's export: schema, rows and the applied migrations), `objects/<sha256>`
 * (every R2 object's bytes, named by their checksum) and `manifest.json` (each object's key, size,
 * SHA-256, MD5, content type and custom metadata; the SQL's checksum and each table's row count),
 * so `npm run restore` can prove what it brings back. Runs with the stack up or down.
 * Production backs up with the platform's tools instead (docs/reliability.md).
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { tablesBeforeRows } from "./d1-dump-order.ts";
import { exportSql, openLocalStore } from "./local-store.ts";
import { DEFAULT_STATE_DIR, ROOT } from "./stack.ts";

export interface BackupManifest {
	format: 1;
	createdAt: string;
	d1: { file: "d1.sql"; bytes: number; sha256: string; rows: Record<string, number> };
	objects: BackupObject[];
	totals: { objects: number; bytes: number };
}

export interface BackupObject {
	key: string;
	size: number;
	sha256: string;
	md5: string | null;
	contentType: string | null;
	customMetadata: Record<string, string>;
}

export const sha256Of = (bytes: Uint8Array | string): string => createHash("sha256").update(bytes).digest("hex");

/** Rows per table in an export: its `INSERT INTO "table"` lines (one statement a line). */
export function rowsPerTable(sql: string): Record<string, number> {
	const rows: Record<string, number> = {};
	for (const match of sql.matchAll(/^INSERT INTO "?([^"\s(]+)"?/gm)) rows[match[1]!] = (rows[match[1]!] ?? 0) + 1;
	return rows;
}

/** Backs up the stack whose store is under `persistTo` into `out`; answers the manifest. */
export async function backupLocalStore(persistTo: string, out: string): Promise<BackupManifest> {
	// Miniflare would make an empty store where none is, and the backup would be an empty one.
	if (!existsSync(persistTo)) throw new Error(`no stack's store at ${persistTo}`);
	mkdirSync(join(out, "objects"), { recursive: true });
	const store = await openLocalStore(persistTo);
	try {
		// The rows first, then the objects: an object a row names was stored before its row, so it is listed.
		const sql = tablesBeforeRows(await exportSql(store.db));
		writeFileSync(join(out, "d1.sql"), sql);
		const objects: BackupObject[] = [];
		let cursor: string | undefined;
		do {
			const page = await store.bucket.list({ cursor, include: ["httpMetadata", "customMetadata"] });
			for (const listed of page.objects) {
				const object = await store.bucket.get(listed.key);
				if (!object) continue; // Deleted since it was listed.
				const bytes = new Uint8Array(await object.arrayBuffer());
				const sha256 = sha256Of(bytes);
				writeFileSync(join(out, "objects", sha256), bytes);
				objects.push({
					key: listed.key,
					size: bytes.byteLength,
					sha256,
					md5: object.checksums.md5 ? Buffer.from(object.checksums.md5).toString("hex") : null,
					contentType: object.httpMetadata?.contentType ?? null,
					customMetadata: object.customMetadata ?? {},
				});
			}
			cursor = page.truncated ? page.cursor : undefined;
		} while (cursor);
		const manifest: BackupManifest = {
			format: 1,
			createdAt: new Date().toISOString(),
			d1: { file: "d1.sql", bytes: Buffer.byteLength(sql), sha256: sha256Of(sql), rows: rowsPerTable(sql) },
			objects,
			totals: { objects: objects.length, bytes: objects.reduce((sum, o) => sum + o.size, 0) },
		};
		writeFileSync(join(out, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
		return manifest;
	} finally {
		await store.close();
	}
}

if (import.meta.url === `file://${process.argv[1]}`) {
	const { values } = parseArgs({
		options: { state: { type: "string", default: DEFAULT_STATE_DIR }, out: { type: "string" } },
	});
	const out = resolve(values.out ?? join(ROOT, "backups", new Date().toISOString().replace(/[:.]/g, "-")));
	const manifest = await backupLocalStore(join(resolve(values.state), "wrangler-state"), out);
	const rows = Object.values(manifest.d1.rows).reduce((a, b) => a + b, 0);
	console.error(
		`backed up ${rows} rows in ${Object.keys(manifest.d1.rows).length} tables and ${manifest.totals.objects} objects (${Math.round(manifest.totals.bytes / 1e6)} MB)`,
	);
	console.log(out);
}
