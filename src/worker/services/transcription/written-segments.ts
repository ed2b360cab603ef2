/**
 * The local engine's words as a person writes them. It writes every word in lower case ("ten years
 * ago i worked at a bakery in chicago"), which captions, clip transcripts and exports would show as
 * it is. Each word takes the capitals a dictionary is sure of ("I", "Chicago": written-case.ts) and
 * each segment (one utterance between pauses) opens with a capital. A segment with any capital in
 * it (Whisper's) is left as it came.
 */
import type { Segment } from "@clipforge/contract";
import { asWritten } from "@clipforge/moments/text";

export function writtenSegments(segments: Segment[]): Segment[] {
	return segments.map((segment) => {
		if (/\p{Lu}/u.test(segment.text) || segment.words.some((w) => /\p{Lu}/u.test(w.word))) return segment;
		const words = segment.words.map((w, k) => ({ ...w, word: k === 0 ? opening(w.word) : asWritten(w.word) }));
		return { ...segment, text: words.map((w) => w.word).join(" "), words };
	});
}

const opening = (word: string) => {
	const written = asWritten(word);
	return written.charAt(0).toUpperCase() + written.slice(1);
};
