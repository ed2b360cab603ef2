/**
 * One talk per script family on the real stack (issue 48): Hindi (Devanagari), Arabic (right to
 * left), Japanese (no spaces between words) and Spanish (Latin with accents), each spoken by
 * espeak-ng and submitted with its own captions file, since the local transcriber hears only
 * English. Each completes in its language with clips whose titles, transcripts and caption files
 * are the talk's own words as its script writes them (nothing inserted between Japanese words,
 * nothing lost), and whose rendered captions are drawn in that script (tesseract reads them back in
 * the language's own pack; tofu boxes or an English fallback font read as nothing).
 */
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, inject, it } from "vitest";
import { api, stackUrl, useServedMedia, waitForStatus } from "./client.ts";
import { makeSpokenVideo } from "./spoken-lines.ts";

interface Talk {
	language: string;
	voice: string;
	ocr: string;
	/** The script's letters: what tesseract must read back from a caption. */
	letters: RegExp;
	/** How the script joins two words, and so two cues. */
	joiner: string;
	lines: string[];
}

const TALKS: Talk[] = [
	{
		language: "hi",
		voice: "hi",
		ocr: "hin",
		letters: /[\u0900-\u097F]/gu,
		joiner: " ",
		lines: [
			"मेरी दादी हर सुबह पाँच बजे उठकर बगीचे में जाती थीं।",
			"वह कहती थीं कि पौधे भी बातें सुनते हैं।",
			"एक साल गर्मी बहुत ज़्यादा थी और सारे फूल सूख गए।",
			"दादी ने हार नहीं मानी और रोज़ कुएँ से पानी लाती रहीं।",
			"पड़ोस के बच्चे उनकी मदद करने लगे।",
			"बरसात आई तो पूरा बगीचा फिर से हरा हो गया।",
			"उस दिन मैंने सीखा कि धीरज सबसे बड़ी ताक़त है।",
			"आज मैं भी अपने बच्चों के साथ वही बगीचा सँभालता हूँ।",
		],
	},
	{
		language: "ar",
		voice: "ar",
		ocr: "ara",
		letters: /[\u0600-\u06FF]/gu,
		joiner: " ",
		lines: [
			"في الصيف الماضي سافرت مع أخي إلى قرية جدي.",
			"كانت الطريق طويلة والشمس حارة جدا.",
			"تعطلت السيارة في منتصف الصحراء.",
			"انتظرنا ساعتين ولم يمر أحد.",
			"ثم جاء راع مع قطيع من الغنم.",
			"أعطانا الماء والخبز وساعدنا في إصلاح المحرك.",
			"وصلنا إلى القرية عند غروب الشمس.",
			"ومنذ ذلك اليوم أزور ذلك الراعي كل عام.",
		],
	},
	{
		language: "ja",
		voice: "ja",
		ocr: "jpn",
		letters: /[\u3040-\u30FF\u4E00-\u9FFF]/gu,
		joiner: "",
		lines: [
			"きのうのあさ、わたしはでんしゃでうみへいきました。",
			"えきのまえで、ちいさなねこにあいました。",
			"ねこはわたしのあとを、ずっとついてきました。",
			"うみについても、ねこはそばにすわっていました。",
			"わたしはパンをすこしあげました。",
			"かえるとき、ねこはえきまでおくってくれました。",
			"こんどのやすみも、あのねこにあいにいきます。",
		],
	},
	{
		language: "es",
		voice: "es",
		ocr: "spa",
		letters: /[\p{Script=Latin}]/gu,
		joiner: " ",
		lines: [
			"Mi abuelo abrió una panadería en un pueblo pequeño.",
			"Cada mañana horneaba pan antes de que saliera el sol.",
			"Un invierno el horno se rompió y no había dinero para arreglarlo.",
			"Los vecinos trajeron leña, herramientas y café caliente.",
			"En dos días construyeron juntos un horno nuevo de ladrillo.",
			"Mi abuelo regaló pan durante una semana entera.",
			"Desde entonces la panadería nunca cerró un solo día.",
			"Esa historia me enseñó qué significa una comunidad.",
		],
	},
];

const captionsOf: Record<string, string> = {};
const media = useServedMedia("clipforge-e2e-languages-", (dir) => {
	for (const talk of TALKS)
		captionsOf[talk.language] = makeSpokenVideo(join(dir, `${talk.language}.mp4`), talk.voice, talk.lines);
});

/** `text` with the script's line breaks as it joins words, and the ellipsis of a cut title gone. */
const asOneLine = (text: string, joiner: string) =>
	text
		.replace(/\s*\n\s*/g, joiner)
		.replace(/…$/u, "")
		.trim();

/** The pairs of neighbouring letters of the script in `text` (spaces and other characters dropped). */
function lettersPairs(text: string, letters: RegExp): Set<string> {
	const only = text.match(letters) ?? [];
	return new Set(only.slice(1).map((ch, k) => only[k]! + ch));
}

/** A route's body as text (a caption file), with the stack's key. */
async function textOf(path: string): Promise<string> {
	const response = await fetch(stackUrl() + path, {
		headers: { authorization: `Bearer ${inject("clipforgeApiKey")}` },
	});
	expect(response.status, path).toBe(200);
	return response.text();
}

/** The text of each cue of an SRT file. */
const cueTexts = (srt: string) =>
	srt
		.trim()
		.split(/\n\s*\n/)
		.map((block) => block.split("\n").slice(2).join("\n"))
		.filter(Boolean);

/** What tesseract reads in the captions' band of `file`'s frame at `seconds` (55-85% of its height: not the watermark), in the language pack `ocr`. */
function captionReadAt(file: string, seconds: number, ocr: string): string {
	const frame = `${file}.${seconds}.png`;
	execFileSync("ffmpeg", [
		...["-hide_banner", "-loglevel", "error", "-ss", String(seconds), "-i", file, "-frames:v", "1"],
		...["-vf", "crop=iw:ih*0.3:0:ih*0.55,format=gray,negate", "-y", frame],
	]);
	return execFileSync("tesseract", [frame, "-", "-l", ocr, "--psm", "6"], {
		encoding: "utf8",
		stdio: ["ignore", "pipe", "ignore"],
	});
}

describe("a talk in every script family, with its own captions", () => {
	it("completes in its language, and its clips' titles, transcripts, caption files and burnt captions are in its script", async () => {
		// All four at once: they share the stack's slots, as four users' talks would.
		const submitted = await Promise.all(
			TALKS.map(async (talk) => {
				const { status, body } = await api("POST", "/api/videos/hosted", {
					hostedUrl: `${media.url()}/${talk.language}.mp4`,
					config: { clipDurationMin: 10, clipDurationMax: 25, maxClips: 1, enableCaptions: true },
					captions: { text: captionsOf[talk.language] },
				});
				expect(status, JSON.stringify(body)).toBe(201);
				return { talk, id: body.video.id as string };
			}),
		);
		for (const { talk, id } of submitted) {
			const done = await waitForStatus(id);
			expect(done.video.status, `${talk.language}: ${done.video.errorMessage}`).toBe("completed");
			const video = (await api("GET", `/api/videos/${id}`)).body;
			expect(video).toMatchObject({ language: talk.language, transcriptSource: "captions" });
			expect(video.clipsCount, `${talk.language}: ${video.rankingNote}`).toBeGreaterThan(0);

			const said = talk.lines.join(talk.joiner);
			const { body } = await api("GET", `/api/videos/${id}/clips`);
			const clip = body.clips[0];
			// The talk's own words, as written: a run of them, nothing inserted, nothing lost.
			expect(said, talk.language).toContain(asOneLine(clip.transcript, talk.joiner));
			expect(said, talk.language).toContain(asOneLine(clip.title, talk.joiner));
			expect(clip.title.match(talk.letters)?.length ?? 0, clip.title).toBeGreaterThan(5);
			// The clip's caption file: every cue a run of the talk's words.
			const cues = cueTexts(await textOf(`/api/clips/${clip.id}/captions?format=srt`));
			expect(cues.length).toBeGreaterThan(1);
			for (const cue of cues) expect(said, `${talk.language} cue`).toContain(asOneLine(cue, talk.joiner));

			// The rendered captions, read back a second into the clip's speech.
			const file = join(media.dir(), `${talk.language}-clip.mp4`);
			writeFileSync(file, new Uint8Array(await (await fetch(clip.downloadUrl)).arrayBuffer()));
			const read = [1.5, clip.duration / 2].map((t) => captionReadAt(file, t, talk.ocr)).join("\n");
			const pairs = lettersPairs(read, talk.letters);
			const spoken = lettersPairs(clip.transcript, talk.letters);
			const found = [...pairs].filter((pair) => spoken.has(pair));
			expect(found.length, `${talk.language} read: ${read}`).toBeGreaterThanOrEqual(6);
		}
	});
});
