/**
 * The status poll's read, shared by the polls of one isolate: a video's status row read from D1
 * answers every poll of it (asked with the same workspaces) until `maxAgeMs` after that read
 * began. So an answer is at most `maxAgeMs` old (STATUS_MAX_AGE_MS, 2 s in wrangler.toml; 0 turns
 * the cache off), which the polling advice (every 10-15 s, API.md) does not notice, while a burst
 * of polls of one video (a dashboard in two tabs beside a script, a client that polls every second)
 * costs one D1 read per video per 2 s instead of one per poll.
 *
 * Rows are kept once read, never promises: a promise of one request's I/O awaited by another can
 * hang in workerd, so polls that miss together each read (once per video per 2 s, a few at most).
 * Only rows are kept, never a "not found": a video is found as soon as its submission has answered.
 * Nor a row `keep` refuses: a settled video's (completed or failed) is read each time, since a
 * reprocess or an edit can start it again at any moment, and a waiter that polls at once after
 * asking for one would otherwise see the old "completed" and stop waiting (the end-to-end
 * reprocess tests did). A stale "still processing" only makes a waiter poll once more.
 * The isolate keeps at most MAX_ENTRIES videos (the oldest read go first).
 */
export const MAX_ENTRIES = 5_000;

interface Entry<Row> {
	/** When the read began (ms): the row is at least as fresh as this. */
	readAt: number;
	row: Row;
}

export class StatusCache<Row> {
	private readonly entries = new Map<string, Entry<Row>>();

	/** `keep`: whether a row read may answer later polls (all of them by default). */
	constructor(private readonly keep: (row: Row) => boolean = () => true) {}

	/** The row of `key`, from a read begun at most `maxAgeMs` ago, else from `read()` now. */
	async get(
		key: string,
		maxAgeMs: number,
		read: () => Promise<Row | undefined>,
		now = Date.now(),
	): Promise<Row | undefined> {
		if (!(maxAgeMs > 0)) return read();
		const kept = this.entries.get(key);
		if (kept && now - kept.readAt <= maxAgeMs) return kept.row;
		const row = await read();
		const latest = this.entries.get(key);
		if (row === undefined || !this.keep(row)) {
			if (latest && latest.readAt <= now) this.entries.delete(key);
		} else if (!latest || latest.readAt < now) {
			this.entries.delete(key);
			this.entries.set(key, { readAt: now, row });
			if (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
		}
		return row;
	}

	get size(): number {
		return this.entries.size;
	}
}

/** STATUS_MAX_AGE_MS as milliseconds: unset, empty or unreadable is 0 (no cache); at most 10 s. */
export function statusMaxAgeMs(value: string | undefined): number {
	const ms = Number(value);
	return Number.isFinite(ms) && ms > 0 ? Math.min(ms, 10_000) : 0;
}
