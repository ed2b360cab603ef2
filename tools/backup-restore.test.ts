// `npm run backup` and `npm run restore` on a small store of their own (the local simulator's D1 and
// R2, as a stack keeps them): what comes back, and what a restore refuses.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { backupLocalStore } from "../scripts/backup.ts";
import { openLocalStore } from "../scripts/local-store.ts";
import { restoreLocalStore } from "../scripts/restore.ts";

const root = mkdtempSync(join(tmpdir(), "clipforge-backup-test-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/**
 * A store whose child table was made before its parent (as `clips` is before `workspaces` in the
 * app's own migrations): D1's export then writes the child's rows before the parent's table exists.
 */
async function storeWithRows(persist: string): Promise<void> {
	const store = await openLocalStore(persist);
	try {
		await store.db.batch([
			store.db.prepare(
				"CREATE TABLE clips (id TEXT PRIMARY KEY, workspace_id TEXT NOT NULL REFERENCES workspaces(id), r2_key TEXT)",
			),
			store.db.prepare("CREATE TABLE workspaces (id TEXT PRIMARY KEY, name TEXT)"),
			store.db.prepare("INSERT INTO workspaces VALUES ('wsp_1', 'one')"),
			store.db.prepare("INSERT INTO clips VALUES ('clp_1', 'wsp_1', 'clips/clp_1.mp4')"),
		]);
		await store.bucket.put("clips/clp_1.mp4", new Uint8Array([1, 2, 3, 4]), {
			httpMetadata: { contentType: "video/mp4" },
			customMetadata: { videoId: "vid_1" },
		});
	} finally {
		await store.close();
	}
}

describe("a backup restored into an empty stack", () => {
	const source = join(root, "source");
	const backup = join(root, "backup");

	it("brings back every row, and every object with its bytes, type and metadata", async () => {
		await storeWithRows(source);
		const manifest = await backupLocalStore(source, backup);
		expect(manifest.d1.rows).toMatchObject({ workspaces: 1, clips: 1 });
		expect(manifest.objects).toEqual([expect.objectContaining({ key: "clips/clp_1.mp4", size: 4 })]);

		const target = join(root, "target");
		const report = await restoreLocalStore(backup, target);
		expect(report).toMatchObject({ objects: 1, rows: { workspaces: 1, clips: 1 } });
		const store = await openLocalStore(target);
		try {
			const clip = await store.db.prepare("SELECT * FROM clips").first();
			expect(clip).toEqual({ id: "clp_1", workspace_id: "wsp_1", r2_key: "clips/clp_1.mp4" });
			const object = await store.bucket.get("clips/clp_1.mp4");
			expect([...new Uint8Array(await object!.arrayBuffer())]).toEqual([1, 2, 3, 4]);
			expect(object!.httpMetadata?.contentType).toBe("video/mp4");
			expect(object!.customMetadata).toEqual({ videoId: "vid_1" });
		} finally {
			await store.close();
		}
	}, 60_000);

	it("refuses a stack that already holds data, and writes nothing", async () => {
		await expect(restoreLocalStore(backup, join(root, "target"))).rejects.toThrow(/target stack is not empty/);
	}, 30_000);

	it("refuses a damaged backup before writing anything", async () => {
		const manifest = (await import(join(backup, "manifest.json"), { with: { type: "json" } })).default as {
			objects: { sha256: string }[];
		};
		writeFileSync(join(backup, "objects", manifest.objects[0]!.sha256), "not the clip");
		const target = join(root, "untouched");
		await expect(restoreLocalStore(backup, target)).rejects.toThrow(
			/the backup is damaged; nothing was restored:\nclips\/clp_1.mp4: checksum differs/,
		);
		const store = await openLocalStore(target);
		try {
			const tables = await store.db.prepare("SELECT name FROM sqlite_master WHERE name = 'clips'").all();
			expect(tables.results).toEqual([]);
		} finally {
			await store.close();
		}
	}, 30_000);
});
