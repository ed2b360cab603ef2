/**
 * `npm run restore -- --from <backup folder> [--state .stack]`: brings a backup (`npm run backup`)
 * back into an empty stack, before its Worker starts (`npm run stack -- up` then serves it):
 * 1. every file of the backup is checked against the manifest's SHA-256 first, so a damaged backup
 *    is refused before anything is written;
 * 2. the target must be empty (no table of the app in its D1): a restore never merges into data;
 * 3. D1's export is executed into the stack's D1 (schema, rows and the migrations table, so the
 *    stack's start applies none again), then each table's row count is checked against the manifest;
 * 4. each object is put back under its key with its content type and custom metadata, read back,
 *    and its checksum compared.
 * Secrets are not in a backup (production keeps them in Cloudflare): the stack's own are kept.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { sha256Of, type BackupManifest } from "./backup.ts";
import { openLocalStore } from "./local-store.ts";
import { ownTables, rowCount } from "./db/local-store-reads.ts";
import { DEFAULT_STATE_DIR } from "./stack.ts";
import { localD1Execute, QUIET_WRANGLER_ENV, WRANGLER_BIN } from "./wrangler.ts";

export interface RestoreReport {
	rows: Record<string, number>;
	objects: number;
	bytes: number;
}

/** Every way the backup in `from` disagrees with its manifest; empty when it is whole. */
export function verifyBackup(from: string, manifest: BackupManifest): string[] {
	const problems: string[] = [];
	const sql = join(from, manifest.d1.file);
	if (!existsSync(sql)) problems.push(`${manifest.d1.file} is missing`);
	else if (sha256Of(readFileSync(sql)) !== manifest.d1.sha256) problems.push(`${manifest.d1.file}: checksum differs`);
	for (const object of manifest.objects) {
		const file = join(from, "objects", object.sha256);
		if (!existsSync(file)) problems.push(`${object.key}: its file is missing`);
		else if (sha256Of(readFileSync(file)) !== object.sha256) problems.push(`${object.key}: checksum differs`);
	}
	return problems;
}

/** Restores the backup in `from` into the (empty) store under `persistTo`. Throws on any mismatch. */
export async function restoreLocalStore(from: string, persistTo: string): Promise<RestoreReport> {
	const manifest = JSON.parse(readFileSync(join(from, "manifest.json"), "utf8")) as BackupManifest;
	const damaged = verifyBackup(from, manifest);
	if (damaged.length > 0) throw new Error(`the backup is damaged; nothing was restored:\n${damaged.join("\n")}`);
	const store = await openLocalStore(persistTo);
	try {
		const tables = await ownTables(store.db);
		if (tables.length > 0)
			throw new Error(
				`the target stack is not empty (its D1 has ${tables.length} tables); restore into a new state folder`,
			);
	} finally {
		await store.close();
	}
	const executed = spawnSync(
		process.execPath,
		[WRANGLER_BIN, ...localD1Execute(persistTo), "--file", join(from, manifest.d1.file), "--yes"],
		{ env: QUIET_WRANGLER_ENV, encoding: "utf8" },
	);
	if (executed.status !== 0) throw new Error(`D1's restore failed: ${executed.stderr || executed.stdout}`);
	const again = await openLocalStore(persistTo);
	try {
		const rows: Record<string, number> = {};
		for (const table of Object.keys(manifest.d1.rows)) {
			rows[table] = await rowCount(again.db, table);
		}
		const differing = Object.entries(manifest.d1.rows).filter(([table, n]) => rows[table] !== n);
		if (differing.length > 0)
			throw new Error(
				`rows differ after the restore: ${differing.map(([t, n]) => `${t} ${rows[t]}/${n}`).join(", ")}`,
			);
		for (const object of manifest.objects) {
			const bytes = readFileSync(join(from, "objects", object.sha256));
			await again.bucket.put(object.key, bytes, {
				httpMetadata: object.contentType ? { contentType: object.contentType } : undefined,
				customMetadata: object.customMetadata,
			});
			const back = await again.bucket.get(object.key);
			const readBack = back ? sha256Of(new Uint8Array(await back.arrayBuffer())) : null;
			if (readBack !== object.sha256)
				throw new Error(`${object.key}: read back ${readBack ?? "nothing"} after the restore`);
		}
		return { rows, objects: manifest.objects.length, bytes: manifest.totals.bytes };
	} finally {
		await again.close();
	}
}

if (import.meta.url === `file://${process.argv[1]}`) {
	const { values } = parseArgs({
		options: { from: { type: "string" }, state: { type: "string", default: DEFAULT_STATE_DIR } },
	});
	if (!values.from) {
		console.error("usage: npm run restore -- --from <backup folder> [--state <empty stack folder>]");
		process.exit(2);
	}
	const report = await restoreLocalStore(resolve(values.from), join(resolve(values.state), "wrangler-state"));
	const rows = Object.values(report.rows).reduce((a, b) => a + b, 0);
	console.error(
		`restored ${rows} rows and ${report.objects} objects (${Math.round(report.bytes / 1e6)} MB), every checksum equal`,
	);
}
