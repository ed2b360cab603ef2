/**
 * A local stack's D1 and R2 as the platform's own tools see them, read and written straight from
 * the folder `wrangler dev --persist-to` keeps them in (miniflare, the simulator wrangler runs),
 * with or without the Worker running: what `npm run backup` and `npm run restore` use locally,
 * where production uses `wrangler d1 export --remote` and R2's S3 API (docs/reliability.md).
 *
 * Not `wrangler d1 export --local`: wrangler 4 ignores --persist-to there and would export the
 * default `.wrangler/state` database instead of the stack's.
 */
import { convertV4MiniflareOptions, Miniflare } from "miniflare";
import { join } from "node:path";

/** The local environment's database id and bucket (wrangler.toml `[env.local]`). */
export const LOCAL_D1_ID = "00000000-0000-4000-8000-00000000f10c";
export const LOCAL_BUCKET = "clipforge-media-local";

/** The simulator's D1 and R2: the Workers API, with Node's own stream and buffer types. */
export type LocalD1 = Awaited<ReturnType<Miniflare["getD1Database"]>>;
/** What the scripts use of R2 (miniflare's own type of it does not resolve without the Workers types). */
export interface LocalR2 {
	list(options?: { cursor?: string; include?: ("httpMetadata" | "customMetadata")[] }): Promise<{
		objects: { key: string }[];
		truncated: boolean;
		cursor?: string;
	}>;
	get(key: string): Promise<LocalR2Object | null>;
	put(
		key: string,
		bytes: Uint8Array,
		options?: { httpMetadata?: { contentType?: string }; customMetadata?: Record<string, string> },
	): Promise<unknown>;
}

export interface LocalR2Object {
	arrayBuffer(): Promise<ArrayBuffer>;
	checksums: { md5?: ArrayBuffer };
	httpMetadata?: { contentType?: string };
	customMetadata?: Record<string, string>;
}

export interface LocalStore {
	db: LocalD1;
	bucket: LocalR2;
	close(): Promise<void>;
}

/** The D1 and R2 kept under `persistTo` (a stack's `<state>/wrangler-state`). */
export async function openLocalStore(persistTo: string): Promise<LocalStore> {
	// The options wrangler's own `d1 export --local` passes, with the stack's folder.
	const mf = new Miniflare(
		convertV4MiniflareOptions({
			modules: true,
			script: "export default {}",
			resourcePersistencePath: join(persistTo, "v3"),
			d1Databases: { DB: LOCAL_D1_ID },
			r2Buckets: { MEDIA: LOCAL_BUCKET },
		}),
	);
	return {
		db: await mf.getD1Database("DB"),
		bucket: (await mf.getR2Bucket("MEDIA")) as unknown as LocalR2,
		close: () => mf.dispose(),
	};
}

/** The database as SQL statements, schema and rows, in D1's own export format. */
export async function exportSql(db: LocalD1): Promise<string> {
	const dump = await db.prepare("PRAGMA miniflare_d1_export(?,?,?);").bind(0, 0).raw();
	return (dump[0] as string[]).join("\n");
}
