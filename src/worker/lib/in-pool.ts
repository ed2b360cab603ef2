/**
 * Runs `work` over `items` with at most `size` in flight, starting the next as soon as one ends (not
 * in lock-step batches). After a failure no new item starts, and the failure is thrown only once
 * the items in flight have ended: a video's failure handling then deletes their files too, where
 * failing at once would let a render still running store its clip after the cleanup (an orphan).
 * @example await inPool(clipIds, 3, (clipId, n) => render(clipId, n));
 */
export async function inPool<T>(
	items: readonly T[],
	size: number,
	work: (item: T, index: number) => Promise<unknown>,
): Promise<void> {
	let next = 0;
	let failure: { error: unknown } | null = null;
	const lane = async () => {
		while (next < items.length && failure === null) {
			const index = next++;
			try {
				await work(items[index]!, index);
			} catch (error) {
				failure ??= { error };
			}
		}
	};
	await Promise.all(Array.from({ length: Math.min(size, items.length) }, lane));
	if (failure !== null) throw (failure as { error: unknown }).error;
}
