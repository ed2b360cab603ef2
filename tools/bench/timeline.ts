/**
 * A video's timeline from the workflow's step rows (video_steps): each step as a named stage with
 * its start and end in seconds from submission, and the stretches where nothing ran at all (the
 * waits between stages).
 */
export interface StepRow {
	step: string;
	started_at: string;
	ended_at: string;
	ok: number;
}

export interface TimelineEntry {
	/** queue, download, upload, audio, asr, merge, signals, rank, look, render, finish, … */
	stage: string;
	step: string;
	from: number;
	to: number;
	seconds: number;
	ok: boolean;
}

const STAGES: [RegExp, string][] = [
	[/^(load video|claim a processing slot)/, "queue"],
	[/^download source$/, "download"],
	[/^upload source$/, "upload"],
	[/^extract audio$/, "audio"],
	[/^transcribe chunk/, "asr"],
	[/^merge transcript$/, "merge"],
	[/^compute signals$/, "signals"],
	[/^rank moments$/, "rank"],
	[/^prepare /, "look"],
	[/^render clip/, "render"],
	[/^finish$/, "finish"],
];

export const stageOf = (step: string): string => STAGES.find(([pattern]) => pattern.test(step))?.[1] ?? step;

const round1 = (n: number) => Math.round(n * 10) / 10;

/** Steps in order of start, in seconds from `submittedAt`; the queue is submission → the download's start. */
export function timelineOf(rows: StepRow[], submittedAt: string): TimelineEntry[] {
	const t0 = Date.parse(submittedAt);
	const at = (iso: string) => round1((Date.parse(iso) - t0) / 1000);
	const steps = rows
		.map((r) => ({
			stage: stageOf(r.step),
			step: r.step,
			from: at(r.started_at),
			to: at(r.ended_at),
			seconds: round1((Date.parse(r.ended_at) - Date.parse(r.started_at)) / 1000),
			ok: r.ok === 1,
		}))
		.sort((a, b) => a.from - b.from);
	const firstWork = steps.find((s) => s.stage !== "queue");
	const queue = {
		stage: "queue",
		step: "submitted → download starts",
		from: 0,
		to: firstWork?.from ?? 0,
		seconds: firstWork?.from ?? 0,
		ok: true,
	};
	return [queue, ...steps.filter((s) => s.stage !== "queue")];
}

/** Stretches between `from` and `to` where no step ran (each longer than `minSeconds`). */
export function idleGaps(
	timeline: TimelineEntry[],
	end: number,
	minSeconds = 0.5,
): { from: number; to: number; seconds: number }[] {
	const work = timeline.filter((t) => t.stage !== "queue").sort((a, b) => a.from - b.from);
	const gaps = [];
	let covered = timeline.find((t) => t.stage === "queue")?.to ?? 0;
	for (const t of work) {
		if (t.from - covered > minSeconds) gaps.push({ from: covered, to: t.from, seconds: round1(t.from - covered) });
		covered = Math.max(covered, t.to);
	}
	if (end - covered > minSeconds) gaps.push({ from: covered, to: end, seconds: round1(end - covered) });
	return gaps;
}

/** Seconds per stage from its first start to its last end (stages overlap when they run in parallel). */
export function stageSpans(
	timeline: TimelineEntry[],
): Record<string, { from: number; to: number; seconds: number; steps: number }> {
	const spans: Record<string, { from: number; to: number; seconds: number; steps: number }> = {};
	for (const t of timeline) {
		const span = spans[t.stage];
		if (!span) spans[t.stage] = { from: t.from, to: t.to, seconds: t.seconds, steps: 1 };
		else {
			span.from = Math.min(span.from, t.from);
			span.to = Math.max(span.to, t.to);
			span.seconds = round1(span.to - span.from);
			span.steps++;
		}
	}
	return spans;
}
