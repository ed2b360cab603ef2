/**
 * A video's chapters as YouTube reads them, and the show notes made from them. YouTube shows
 * chapters only when the first starts at 0:00, there are at least three and each lasts at least
 * ten seconds; these rules turn any list of topic starts into chapters that keep them, or into
 * none with a note saying why.
 */

export interface Chapter {
	start: number;
	end: number;
	title: string;
	summary: string;
}

export type ChaptersMadeBy = "llm" | "offline";

/** What is stored beside the transcript (`chapters/{videoId}.json`) and served by GET …/chapters. */
export interface VideoChapters {
	chapters: Chapter[];
	/** A few sentences on the whole video. */
	summary: string;
	madeBy: ChaptersMadeBy;
	/** Why there are no chapters (a video too short for YouTube's rules), else null. */
	note: string | null;
}

export const MIN_CHAPTERS = 3;
export const MIN_CHAPTER_SECONDS = 10;
/** Why a video has no chapters, as a sentence: YouTube's rule, and what this video lacks. */
export const TOO_SHORT_NOTE = `No chapters: YouTube shows chapters only when a video has at least ${MIN_CHAPTERS} of them, each at least ${MIN_CHAPTER_SECONDS} seconds long, and this video is too short (or stays on one topic too long) for that.`;
export const NO_SPEECH_NOTE =
	"No chapters: chapters are made from what is said, and no speech was heard in this video.";

/**
 * Chapter spans from candidate starts (seconds, any order) over a video of `duration`: the first
 * moved to 0:00, starts closer than 10 s to the previous one (or to the end) dropped. Returns null
 * when fewer than three chapters remain.
 */
export function chapterSpans(starts: number[], duration: number): { start: number; end: number }[] | null {
	if (duration < MIN_CHAPTERS * MIN_CHAPTER_SECONDS) return null;
	const kept = [0];
	for (const start of [...starts].sort((a, b) => a - b)) {
		if (start - kept[kept.length - 1]! >= MIN_CHAPTER_SECONDS && duration - start >= MIN_CHAPTER_SECONDS)
			kept.push(start);
	}
	if (kept.length < MIN_CHAPTERS) return null;
	return kept.map((start, i) => ({ start: round2(start), end: round2(kept[i + 1] ?? duration) }));
}

/** True when the list keeps YouTube's rules (what every stored list must satisfy). */
export function keepsYouTubeRules(chapters: { start: number; end: number }[]): boolean {
	return (
		chapters.length >= MIN_CHAPTERS &&
		chapters[0]!.start === 0 &&
		chapters.every(
			(c, i) => c.end - c.start >= MIN_CHAPTER_SECONDS && (i === 0 || c.start === chapters[i - 1]!.end),
		)
	);
}

/** "4:05", "12:30", and "1:02:03" when the video is an hour or longer (every line then has hours). */
export function timestampOf(seconds: number, withHours: boolean): string {
	const s = Math.max(0, Math.floor(seconds));
	const hh = Math.floor(s / 3600);
	const mm = Math.floor((s % 3600) / 60);
	const ss = String(s % 60).padStart(2, "0");
	return withHours ? `${hh}:${String(mm).padStart(2, "0")}:${ss}` : `${String(mm).padStart(2, "0")}:${ss}`;
}

/** Ready-to-paste show notes: the summary, a blank line, then one `MM:SS Title` line per chapter. */
export function showNotesOf(value: Pick<VideoChapters, "chapters" | "summary">): string {
	const withHours = value.chapters.some((c) => c.end >= 3600 || c.start >= 3600);
	const lines = value.chapters.map((c) => `${timestampOf(c.start, withHours)} ${c.title}`);
	return [value.summary.trim(), lines.join("\n")].filter(Boolean).join("\n\n");
}

const round2 = (n: number) => Math.round(n * 100) / 100;
