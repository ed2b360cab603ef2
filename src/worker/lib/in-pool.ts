/**
 * Runs `work` over `items` with at most `size` in flight, starting the next as soon as one ends
 * (not in lock-step batches).
 * @example await inPool(clipIds, 3, (clipId, n) => render(clipId, n));
 */
export async function inPool<T>(items: readonly T[], size: number, work: (item: T, index: number) => Promise<unknown>): Promise<void> {
	let next = 0;
	const lane = async () => {
		while (next < items.length) {
			const index = next++;
			await work(items[index]!, index);
		}
	};
	await Promise.all(Array.from({ length: Math.min(size, items.length) }, lane));
}
