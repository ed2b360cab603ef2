/**
 * Wraps a progress callback so D1 sees at most one write per `intervalMs` (plus the last value):
 * a render job can report many times a second.
 */
export function throttled(write: (value: number) => Promise<void>, intervalMs = 1000): (value: number) => Promise<void> {
	let lastAt = 0;
	let lastValue = -1;
	return async (value) => {
		const now = Date.now();
		if (value <= lastValue || (now - lastAt < intervalMs && value < 100)) return;
		lastAt = now;
		lastValue = value;
		await write(value);
	};
}
