import { getDb } from "../db/client";
import { deleteClips } from "../db/clips";
import { r2Keys } from "./r2-keys";

/** Deletes every R2 object under the given prefixes (R2 lists at most 1000 keys a page). */
export async function deletePrefixes(bucket: R2Bucket, prefixes: string[]): Promise<number> {
	let deleted = 0;
	for (const prefix of prefixes) {
		let cursor: string | undefined;
		do {
			const page = await bucket.list({ prefix, cursor });
			if (page.objects.length > 0) {
				await bucket.delete(page.objects.map((o) => o.key));
				deleted += page.objects.length;
			}
			cursor = page.truncated ? page.cursor : undefined;
		} while (cursor);
	}
	return deleted;
}

/** After a failure: no clip rows pointing at missing files, no orphan objects. */
export async function deleteVideoArtifacts(env: Pick<Env, "DB" | "MEDIA">, videoId: string): Promise<void> {
	await deletePrefixes(env.MEDIA, r2Keys.videoPrefixes(videoId));
	await deleteClips(getDb(env), videoId);
}
