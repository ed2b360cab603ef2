/**
 * Clips of talk in any language (issue 48): words joined as their script writes them (no space
 * between Japanese, Chinese or Thai words, however the recognizer cut them), titles and hooks from
 * the clip's own words, no English reason, feelings or "Part" on a Hindi clip, and an LLM asked to
 * write in the transcript's language.
 */
import { describe, expect, it } from "vitest";
import { findChapters, rankMoments } from "@clipforge/moments";
import type { ChatMessage, JsonSchema, LlmClient } from "@clipforge/moments/llm";
import { hasUnspaced, type Transcript } from "@clipforge/moments/text";
import { defaultConfig } from "../../src/worker/domain/video-config";

const JAPANESE = [
	"去年の春、姉に説得されて市のハーフマラソンに出ることになった。",
	"それまで五キロ以上走ったことは一度もなかった。",
	"最初の週は毎朝六時に起きて、川沿いを少しずつ走った。",
	"三週間目に膝を痛めて、もうやめようと思った。",
	"でも姉が毎晩電話をくれて、歩いてもいいからゴールしようと言った。",
	"当日は雨で、十キロ地点で足が止まりそうになった。",
	"そのとき沿道のおばあさんが飴をくれて、がんばれと叫んだ！",
	"結局二時間四十分かかったけれど、最後まで走り切った。",
	"ゴールで姉が泣いていて、私も泣いた。",
	"今年は姉と一緒に走る約束をしている。",
];
const THAI = [
	"เมื่อปีที่แล้วพี่สาวชวนฉันไปวิ่งฮาล์ฟมาราธอนของเมือง",
	"ก่อนหน้านั้นฉันไม่เคยวิ่งเกินห้ากิโลเมตรเลย",
	"สัปดาห์แรกฉันตื่นตีห้าทุกวันเพื่อวิ่งริมแม่น้ำ",
	"สัปดาห์ที่สามฉันเจ็บเข่าและอยากเลิก",
	"แต่พี่สาวโทรมาทุกคืนและบอกว่าเดินก็ได้ขอแค่ให้ถึงเส้นชัย",
	"วันแข่งฝนตกหนักและฉันเกือบหยุดที่กิโลเมตรที่สิบ",
	"ตอนนั้นคุณยายข้างทางยื่นลูกอมให้และตะโกนว่าสู้ๆ",
	"สุดท้ายฉันใช้เวลาสองชั่วโมงสี่สิบนาทีแต่ก็วิ่งจนจบ",
	"ที่เส้นชัยพี่สาวร้องไห้และฉันก็ร้องไห้ด้วย",
	"ปีนี้เราสัญญากันว่าจะวิ่งด้วยกัน",
];
const HINDI = [
	"पिछली सर्दियों में मैं देर रात काम से घर लौटा।",
	"मुझे पता चला कि मेरी चाबियाँ दफ़्तर की मेज़ पर रह गई थीं।",
	"फ़ोन में सिर्फ़ दो प्रतिशत बैटरी बची थी।",
	"मकान मालिक दूसरे शहर में रहते हैं इसलिए मैंने ताला खोलने वाले को बुलाया।",
	"बाहर बहुत ठंड थी और मैं सीढ़ियों पर इंतज़ार करता रहा।",
	"तभी एक पड़ोसन ने मुझे चाय के लिए अंदर बुला लिया।",
	"हमने दो घंटे तक उनकी नर्स की नौकरी के बारे में बात की।",
	"जब ताला खोलने वाला आया तो उसने चार सेकंड में दरवाज़ा खोल दिया!",
	"सच कहूँ तो मैं फिर से पैसे दे दूँगा।",
	"उस रात मुझे एक दोस्त मिल गई और अब हम हर रविवार साथ खाना खाते हैं।",
];

/**
 * Sentences as Whisper hands them back: words with a leading space, and scripts without spaces in
 * tokens of one to three characters (a sentence a segment, five seconds each).
 */
function asWhisper(lines: string[], language: string): Transcript {
	const segments = lines.map((line, k) => {
		const tokens = /\s/.test(line) ? line.split(/\s+/) : (line.match(/.{1,3}/gu) ?? []);
		const start = k * 5;
		const each = 4.8 / tokens.length;
		const words = tokens.map((t, n) => ({ word: ` ${t}`, start: start + n * each, end: start + (n + 1) * each }));
		return { start, end: start + 4.8, text: ` ${line}`, words };
	});
	return {
		language,
		duration: lines.length * 5 + 2,
		text: lines.join(" "),
		segments,
		words: segments.flatMap((s) => s.words),
	};
}

/** Whether a space stands between two characters of a script written without spaces. */
const spaceInsideUnspaced = (text: string) =>
	/[^\s\p{Script=Latin}\d][ ][^\s\p{Script=Latin}\d]/u.test(text) && hasUnspaced(text);

const config = { ...defaultConfig(), clipDurationMin: 15, clipDurationMax: 40 };

describe("clips of talk in any language", () => {
	for (const [name, lines, language] of [
		["Japanese", JAPANESE, "ja"],
		["Thai", THAI, "th"],
	] as const) {
		it(`joins ${name} words without spaces in every text of a clip, however the recognizer cut them`, async () => {
			const { clips } = await rankMoments(asWhisper([...lines], language), config);
			expect(clips.length).toBeGreaterThan(0);
			for (const clip of clips) {
				for (const text of [clip.title, clip.hookTitle ?? "", clip.transcript, clip.description])
					expect(spaceInsideUnspaced(text), text).toBe(false);
				expect(lines.some((l) => l.includes(clip.title.replace(/…$/, "").slice(0, 8)))).toBe(true);
			}
		});
	}

	it("titles a Hindi clip with its own words and writes no English reason, feelings or part label", async () => {
		for (const clipType of ["viral-clips", "split-clips"] as const) {
			const { clips } = await rankMoments(asWhisper(HINDI, "hi"), { ...config, clipType, clipDurationMin: 10 });
			expect(clips.length).toBeGreaterThan(0);
			for (const clip of clips) {
				expect(clip.title).toMatch(/\p{Script=Devanagari}/u);
				expect(clip.title).not.toMatch(/\bPart\b/);
				expect(clip.viralityReason).toBe("");
				expect(clip.emotions).toEqual([]);
				expect(clip.description).not.toMatch(/[A-Za-z]{4,}/);
				expect(clip.hookTitle).toMatch(/\p{Script=Devanagari}/u);
			}
		}
	});

	it("writes an English clip's words as before (reason, feelings)", async () => {
		const english = asWhisper(
			[
				"Last winter I came home late and my keys were still on my desk at the office.",
				"My phone was at two percent, so I called a locksmith who said an hour.",
				"A neighbour I had never met invited me in for tea while I waited.",
				"We talked for two hours about her years as a nurse in the war.",
				"When the locksmith came he opened the door in four seconds and charged me ninety dollars.",
				"Honestly I would pay it again, because I made a friend that night.",
			],
			"en",
		);
		const { clips } = await rankMoments(english, config);
		expect(clips[0]!.viralityReason.length).toBeGreaterThan(20);
	});

	it("asks an LLM for titles, hooks and reasons in the transcript's language, and chapters too", async () => {
		const seen: string[] = [];
		const llm: LlmClient = {
			name: "test:recording",
			async complete(messages: ChatMessage[], schema: JsonSchema) {
				seen.push(messages.map((m) => m.content).join("\n"));
				if (schema.name === "clip_moments") return { clips: [] };
				return { chapters: [] };
			},
		};
		await rankMoments(asWhisper(HINDI, "hi"), config, null, llm);
		await findChapters(asWhisper([...HINDI, ...HINDI, ...HINDI], "hi"), llm);
		expect(seen.some((m) => /The transcript is in Hindi: write title, hookTitle, reason/.test(m))).toBe(true);
		expect(seen.some((m) => /The transcript is in Hindi: write every title and summary in Hindi/.test(m))).toBe(
			true,
		);
	});

	it("titles offline chapters of Hindi talk with their own sentences, and its summary is no English template", async () => {
		const long = asWhisper([...HINDI, ...HINDI, ...HINDI, ...HINDI], "hi");
		const chapters = await findChapters(long, null);
		expect(chapters.summary).not.toMatch(/This video covers/);
		for (const c of chapters.chapters) expect(c.title).toMatch(/\p{Script=Devanagari}/u);
	});
});
