/**
 * Reads ffmpeg's `-progress pipe:1` key=value lines and turns `out_time_us` into a 0..1 fraction of
 * the expected output duration.
 * @example
 * const onLine = ffmpegProgressReader(20, (f) => console.log(f));
 * onLine("out_time_us=5000000"); // logs 0.25
 */
export function ffmpegProgressReader(
	expectedSeconds: number,
	onFraction: (fraction: number) => void,
): (line: string) => void {
	return (line) => {
		const [key, value] = line.split("=", 2);
		if (key === "progress" && value === "end") {
			onFraction(1);
			return;
		}
		if (key !== "out_time_us" && key !== "out_time_ms") return; // out_time_ms is microseconds too (ffmpeg quirk)
		const micros = Number(value);
		if (!Number.isFinite(micros) || micros < 0 || expectedSeconds <= 0) return;
		onFraction(Math.min(1, micros / 1e6 / expectedSeconds));
	};
}
