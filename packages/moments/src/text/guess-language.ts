/**
 * The language of a text that does not say (an SRT file has no header), good enough to store and
 * show, never to refuse anything on: the script most of its letters are in names the language for
 * most scripts (Devanagari → Hindi, Hangul → Korean; Han with kana → Japanese); Latin and
 * Cyrillic texts are told apart by their most frequent short words. Null when unsure.
 */

const BY_SCRIPT: [RegExp, string][] = [
	[/\p{Script=Hiragana}|\p{Script=Katakana}/u, "ja"],
	[/\p{Script=Hangul}/u, "ko"],
	[/\p{Script=Han}/u, "zh"],
	[/\p{Script=Devanagari}/u, "hi"],
	[/\p{Script=Bengali}/u, "bn"],
	[/\p{Script=Gurmukhi}/u, "pa"],
	[/\p{Script=Gujarati}/u, "gu"],
	[/\p{Script=Tamil}/u, "ta"],
	[/\p{Script=Telugu}/u, "te"],
	[/\p{Script=Kannada}/u, "kn"],
	[/\p{Script=Malayalam}/u, "ml"],
	[/\p{Script=Sinhala}/u, "si"],
	[/\p{Script=Thai}/u, "th"],
	[/\p{Script=Lao}/u, "lo"],
	[/\p{Script=Khmer}/u, "km"],
	[/\p{Script=Myanmar}/u, "my"],
	[/\p{Script=Georgian}/u, "ka"],
	[/\p{Script=Armenian}/u, "hy"],
	[/\p{Script=Ethiopic}/u, "am"],
	[/\p{Script=Hebrew}/u, "he"],
	[/\p{Script=Greek}/u, "el"],
	[/\p{Script=Arabic}/u, "ar"],
	[/\p{Script=Cyrillic}/u, "ru"],
	[/\p{Script=Latin}/u, "latin"],
];

/** Short words frequent in one language and rare in the others of its script. */
const FUNCTION_WORDS: Record<string, string[]> = {
	en: ["the", "and", "is", "you", "that", "it", "was", "of", "to", "with"],
	es: ["el", "la", "que", "y", "los", "es", "una", "por", "pero", "con"],
	fr: ["le", "la", "les", "et", "est", "une", "que", "pas", "je", "vous"],
	de: ["der", "die", "und", "ist", "das", "nicht", "ich", "ein", "zu", "mit"],
	pt: ["o", "a", "que", "e", "não", "uma", "os", "é", "com", "para"],
	it: ["il", "che", "e", "di", "la", "non", "è", "un", "per", "sono"],
	nl: ["de", "het", "een", "en", "is", "niet", "ik", "dat", "van", "je"],
	id: ["yang", "dan", "ini", "itu", "tidak", "saya", "dengan", "untuk", "ada", "di"],
	tr: ["bir", "ve", "bu", "da", "ne", "için", "çok", "ben", "ama", "de"],
	pl: ["nie", "się", "to", "że", "jest", "na", "jak", "ale", "co", "tak"],
	uk: ["і", "що", "не", "це", "як", "але", "ти", "мене", "від", "є"],
	ru: ["и", "что", "не", "это", "как", "но", "ты", "меня", "от", "есть"],
};

export function guessLanguage(text: string): string | null {
	const letters = [...text].filter((c) => /\p{L}/u.test(c));
	if (letters.length === 0) return null;
	let best: string | null = null;
	let most = 0;
	for (const [script, language] of BY_SCRIPT) {
		const count = letters.filter((c) => script.test(c)).length;
		// Japanese writes kana beside Han: a tenth of kana is enough.
		const enough = language === "ja" ? count >= 0.1 * letters.length && count > 0 : count > most;
		if (language === "ja" && enough) return "ja";
		if (language !== "ja" && enough) {
			most = count;
			best = language;
		}
	}
	if (most < 0.5 * letters.length) return null;
	if (best === "latin") return byFunctionWords(text, ["en", "es", "fr", "de", "pt", "it", "nl", "id", "tr", "pl"]);
	if (best === "ru") return byFunctionWords(text, ["ru", "uk"]) ?? "ru";
	return best;
}

function byFunctionWords(text: string, candidates: string[]): string | null {
	const words = text.toLowerCase().split(/[^\p{L}]+/u);
	let best: string | null = null;
	let most = 0;
	for (const language of candidates) {
		const list = new Set(FUNCTION_WORDS[language]);
		const count = words.filter((w) => list.has(w)).length;
		if (count > most) {
			most = count;
			best = language;
		}
	}
	// Fewer than three hits, or under 5% of the words: unsure.
	return most >= 3 && most >= 0.05 * words.length ? best : null;
}
