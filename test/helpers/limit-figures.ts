/**
 * A figure a Workers-runtime test measured (inside workerd, where no file can be written): printed
 * as one `[limits-figure]` line, which the run's reporter (test/setup/platform-limits-reporter.ts)
 * collects and, when `npm run limits:report` runs the test (LIMITS_RECORD set), writes into
 * bench-results/limits-runtime.json, where docs/limits.md takes it from.
 */
export const FIGURE_PREFIX = "[limits-figure] ";

export function recordFigure(name: string, value: unknown): void {
	console.log(`${FIGURE_PREFIX}${JSON.stringify({ name, value })}`);
}
