/**
 * Keywords → emoji for the `emoji-accents` look. Each emoji is in Symbola (the monochrome emoji
 * font installed with the tier) and drawn in the look's highlight colour; test/looks.test.ts checks
 * every one has a real glyph. Matching is on the lower-cased word without punctuation, with a plain
 * -s/-es/-ed/-ing ending removed when the bare form is listed.
 */
const GROUPS: [string, string[]][] = [
	[
		"\u{1F4B0}",
		["money", "cash", "dollar", "rich", "profit", "price", "paid", "pay", "salary", "revenue", "budget", "cost"],
	],
	["\u{1F4A1}", ["idea", "insight", "tip", "trick", "secret", "realize", "realise"]],
	["\u{1F914}", ["think", "thought", "wonder", "why", "question", "maybe"]],
	["\u{2764}", ["love", "heart", "loved", "family", "friend", "kind"]],
	["\u{1F525}", ["fire", "hot", "amazing", "insane", "crazy", "incredible", "best"]],
	["\u{1F602}", ["laugh", "funny", "joke", "hilarious", "lol"]],
	["\u{1F680}", ["rocket", "grow", "growth", "fast", "launch", "faster", "scale", "boost"]],
	["\u{23F0}", ["time", "minute", "hour", "clock", "late", "early", "deadline", "today", "morning"]],
	["\u{1F4BC}", ["work", "job", "business", "office", "career", "company", "boss", "meeting"]],
	["\u{1F3C6}", ["win", "won", "winner", "champion", "victory", "success", "successful"]],
	["\u{1F440}", ["see", "look", "watch", "eye", "saw", "notice"]],
	["\u{1F60A}", ["happy", "smile", "glad", "joy", "fun"]],
	["\u{1F622}", ["sad", "cry", "tears", "lonely"]],
	["\u{1F3AF}", ["goal", "target", "focus", "aim", "habit", "plan"]],
	["\u{1F9E0}", ["brain", "smart", "mind", "learn", "study", "memory", "clever"]],
	["\u{1F4AA}", ["strong", "strength", "gym", "muscle", "power", "hard"]],
	["\u{1F4C8}", ["more", "increase", "double", "doubled", "data", "number", "percent"]],
	["\u{1F389}", ["party", "celebrate", "birthday", "congratulations", "finally"]],
	["\u{1F3B5}", ["music", "song", "sing", "dance"]],
	["\u{1F30D}", ["world", "global", "earth", "travel", "country"]],
	["\u{1F4F1}", ["phone", "app", "call", "text", "online", "internet"]],
	["\u{1F4DA}", ["book", "read", "school", "teacher", "lesson"]],
	["\u{26A0}", ["warning", "danger", "careful", "mistake", "wrong", "never", "stop"]],
	["\u{1F354}", ["food", "eat", "hungry", "dinner", "lunch", "breakfast"]],
	["\u{1F634}", ["sleep", "tired", "bed", "rest"]],
];

const BY_WORD = new Map<string, string>(
	GROUPS.flatMap(([emoji, words]) => words.map((w) => [w, emoji] as [string, string])),
);

/** Every emoji the look may draw (for tests). */
export const ACCENT_EMOJI: readonly string[] = GROUPS.map(([emoji]) => emoji);

/**
 * The emoji for a spoken word, or null.
 * @example emojiFor("Money!") // "💰"
 */
export function emojiFor(word: string): string | null {
	const bare = word
		.toLocaleLowerCase("en")
		.replace(/[^\p{L}\p{N}']/gu, "")
		.replace(/'s$/, "");
	if (bare.length < 2) return null;
	for (const form of [bare, bare.replace(/(ing|ed|es|s)$/, ""), bare.replace(/(ing|ed)$/, "e")]) {
		const emoji = BY_WORD.get(form);
		if (emoji) return emoji;
	}
	return null;
}
