/**
 * Vocal energy from the render tier's loudness measurements (LUFS per 0.5 s): how much louder than
 * the video's own median a stretch is, with its peaks (laughter, shouting, applause-like bursts).
 */
export interface AudioSignals {
	intervalSeconds: number;
	loudness: number[];
}

export type EnergyOf = (start: number, end: number) => number;

/** A reader of energy 0..1 per stretch (0.5 = the video's usual level), or null without signals. */
export function energyReader(signals: AudioSignals | null): EnergyOf | null {
	if (!signals || signals.loudness.length === 0) return null;
	const loud = signals.loudness.filter((v) => Number.isFinite(v) && v > -70).sort((a, b) => a - b);
	if (loud.length === 0) return null;
	const median = loud[Math.floor(loud.length / 2)]!;
	const spread = Math.max(1, (loud[Math.floor(loud.length * 0.84)]! - loud[Math.floor(loud.length * 0.16)]!) / 2);
	return (start, end) => {
		const from = Math.max(0, Math.floor(start / signals.intervalSeconds));
		const to = Math.min(signals.loudness.length, Math.ceil(end / signals.intervalSeconds));
		const slice = signals.loudness.slice(from, to).filter((v) => Number.isFinite(v));
		if (slice.length === 0) return 0;
		const mean = slice.reduce((a, b) => a + b, 0) / slice.length;
		const peaks = slice.filter((v) => v > median + 1.5 * spread).length / slice.length;
		const lift = Math.max(0, Math.min(1, 0.5 + (mean - median) / (4 * spread)));
		return Math.min(1, 0.6 * lift + 0.4 * Math.min(1, peaks * 5));
	};
}
