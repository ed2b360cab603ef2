/**
 * Non-overlapping selection that maximises the total score, with at most `limit` windows: weighted
 * interval scheduling by dynamic programming over windows sorted by end time (O(n · limit)).
 */
export interface Interval {
	start: number;
	end: number;
	score: number;
}

export function selectNonOverlapping<T extends Interval>(candidates: T[], limit: number): T[] {
	const sorted = [...candidates].sort((a, b) => a.end - b.end || a.start - b.start);
	const n = sorted.length;
	if (n === 0 || limit <= 0) return [];
	// previous[i]: how many windows end at or before window i starts (binary search on ends).
	const ends = sorted.map((c) => c.end);
	const previous = sorted.map((c) => {
		let lo = 0;
		let hi = n;
		while (lo < hi) {
			const mid = (lo + hi) >> 1;
			if (ends[mid]! <= c.start + 1e-9) lo = mid + 1;
			else hi = mid;
		}
		return lo;
	});
	// best[k][i]: best total using at most k windows among the first i.
	const best: Float64Array[] = Array.from({ length: limit + 1 }, () => new Float64Array(n + 1));
	for (let k = 1; k <= limit; k++) {
		const row = best[k]!;
		const below = best[k - 1]!;
		for (let i = 1; i <= n; i++) {
			const take = below[previous[i - 1]!]! + sorted[i - 1]!.score;
			row[i] = Math.max(row[i - 1]!, take);
		}
	}
	const picked: T[] = [];
	for (let k = limit, i = n; k > 0 && i > 0; ) {
		if (best[k]![i] === best[k]![i - 1]) {
			i--;
			continue;
		}
		picked.push(sorted[i - 1]!);
		i = previous[i - 1]!;
		k--;
	}
	return picked.sort((a, b) => b.score - a.score || a.start - b.start);
}
