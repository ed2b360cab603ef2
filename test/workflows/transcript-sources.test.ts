/**
 * Where a video's words come from (issue 48): captions the user supplies (SRT or WebVTT, inline or
 * by URL) and the source's own subtitles replace transcription, in any language; a language the
 * transcriber cannot hear, with neither, is refused at submission (422, nothing charged). The suite
 * runs the local transcriber, which hears only English.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { renderJobs } from "@clipforge/contract";
import { balanceOf, createWorkspace } from "../helpers/accounts";
import { call, submitBodyAndProcess } from "../helpers/api";
import { useFakeRenderTier } from "../helpers/fake-render-tier";

const fake = useFakeRenderTier({ introspect: false });
const url = (name: string) => `https://videos.example.com/${name}-${crypto.randomUUID()}.mp4`;

/** A Hindi talk's SRT: a story of about 60 s in twelve cues. */
const HINDI_LINES = [
	"पिछली सर्दियों में मैं देर रात काम से घर लौटा",
	"और मुझे पता चला कि मेरी चाबियाँ दफ़्तर की मेज़ पर रह गई थीं",
	"फ़ोन में सिर्फ़ दो प्रतिशत बैटरी बची थी",
	"मकान मालिक दूसरे शहर में रहते हैं इसलिए मैंने ताला खोलने वाले को बुलाया",
	"उसने कहा कि वह एक घंटे में आएगा",
	"बाहर बहुत ठंड थी और मैं सीढ़ियों पर इंतज़ार करता रहा",
	"तभी एक पड़ोसन ने मुझे चाय के लिए अंदर बुला लिया",
	"हमने दो घंटे तक उनकी नर्स की नौकरी के बारे में बात की",
	"जब ताला खोलने वाला आया तो उसने चार सेकंड में दरवाज़ा खोल दिया",
	"और नब्बे रुपये ले लिए",
	"लेकिन सच कहूँ तो मैं फिर से पैसे दे दूँगा",
	"क्योंकि उस रात मुझे एक दोस्त मिल गई और अब हम हर रविवार साथ खाना खाते हैं",
];
const srt = (lines: string[], seconds = 5) =>
	lines
		.map((line, k) => `${k + 1}\n${stamp(k * seconds)} --> ${stamp(k * seconds + seconds - 0.2)}\n${line}\n`)
		.join("\n");
const stamp = (t: number) => {
	const ms = Math.round(t * 1000);
	const pad = (n: number, w = 2) => String(n).padStart(w, "0");
	return `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)},${pad(ms % 1000, 3)}`;
};
const vtt = (lines: string[]) =>
	`WEBVTT\n\n${srt(lines)
		.replace(/(\d),(\d{3})/g, "$1.$2")
		.replace(/^\d+\n/gm, "")}`;

async function videoOf(apiKey: string, id: string) {
	return (await call("GET", `/api/videos/${id}`, { key: apiKey })).body as {
		status: string;
		language: string | null;
		transcriptSource: string;
		subtitleTrack: { lang: string; automatic: boolean } | null;
		clipsCount: number;
		errorMessage: string | null;
	};
}

const transcribeCalls = () => fake().calls.filter((c) => c.path === renderJobs.transcribe.path).length;

describe("where a video's words come from", () => {
	it("captions supplied inline replace transcription, in a language the local transcriber cannot hear", async () => {
		const { apiKey } = await createWorkspace({ minutes: 10 });
		const before = transcribeCalls();
		const id = await submitBodyAndProcess(apiKey, {
			hostedUrl: fake().addSource(url("hindi"), { duration: 62 }),
			config: { clipDurationMin: 15, clipDurationMax: 40 },
			captions: { text: srt(HINDI_LINES) },
		});
		const video = await videoOf(apiKey, id);
		expect(video).toMatchObject({ status: "completed", language: "hi", transcriptSource: "captions" });
		expect(video.clipsCount).toBeGreaterThan(0);
		expect(transcribeCalls()).toBe(before);
		const transcript = (await call("GET", `/api/videos/${id}/transcript`, { key: apiKey })).body as {
			language: string;
			words: { word: string; start: number; end: number }[];
		};
		expect(transcript.language).toBe("hi");
		expect(transcript.words[0]).toMatchObject({ word: "पिछली", start: 0 });
		expect(transcript.words.at(-1)!.end).toBeCloseTo(59.8, 1);
	});

	it("captions by URL are fetched at submission; a file that is not captions is a 400 naming the line, nothing charged", async () => {
		const { apiKey, workspaceId } = await createWorkspace({ minutes: 10 });
		// A captions host, beside the fake render tier's own answers (its fetch mock, kept and put back).
		const fetchSpy = vi.mocked(globalThis.fetch);
		const previous = fetchSpy.getMockImplementation()!;
		fetchSpy.mockImplementation(async (input, init) => {
			const target = String(input instanceof Request ? input.url : input);
			if (!target.startsWith("https://subs.example.com/")) return previous(input, init);
			if (target === "https://subs.example.com/talk.vtt") return new Response(vtt(HINDI_LINES));
			if (target === "https://subs.example.com/broken.srt") return new Response("1\n00:00:01 --> soon\nhi\n");
			return new Response("not found", { status: 404 });
		});
		try {
			const broken = await call("POST", "/api/videos/hosted", {
				key: apiKey,
				body: {
					hostedUrl: fake().addSource(url("broken"), { duration: 62 }),
					config: {},
					captions: { url: "https://subs.example.com/broken.srt" },
				},
			});
			expect(broken.status).toBe(400);
			expect(broken.body.error.details[0]).toMatchObject({
				path: "captions",
				message: expect.stringMatching(/^line 1/),
			});
			const missing = await call("POST", "/api/videos/hosted", {
				key: apiKey,
				body: {
					hostedUrl: fake().addSource(url("missing"), { duration: 62 }),
					config: {},
					captions: { url: "https://subs.example.com/gone.vtt" },
				},
			});
			expect(missing.status).toBe(400);
			expect(missing.body.error.message).toMatch(/could not be read: it answered 404/);
			expect(await balanceOf(workspaceId)).toBe(10);
			const id = await submitBodyAndProcess(apiKey, {
				hostedUrl: fake().addSource(url("by-url"), { duration: 62 }),
				config: {},
				captions: { url: "https://subs.example.com/talk.vtt" },
			});
			expect(await videoOf(apiKey, id)).toMatchObject({
				status: "completed",
				language: "hi",
				transcriptSource: "captions",
			});
		} finally {
			fetchSpy.mockImplementation(previous);
		}
	});

	it("a source's own subtitles made by people are read instead of transcribing, and the video says so", async () => {
		const { apiKey } = await createWorkspace({ minutes: 10 });
		const before = transcribeCalls();
		const hostedUrl = fake().addSource(url("with-subs"), {
			duration: 62,
			language: "hi",
			subtitles: [
				{ lang: "hi", automatic: false, text: vtt(HINDI_LINES) },
				{ lang: "en", automatic: true, text: "WEBVTT\n\n00:00.000 --> 00:05.000\nmachine words\n" },
			],
		});
		const id = await submitBodyAndProcess(apiKey, { hostedUrl, config: {} });
		const video = await videoOf(apiKey, id);
		expect(video).toMatchObject({
			status: "completed",
			language: "hi",
			transcriptSource: "subtitles",
			subtitleTrack: { lang: "hi", automatic: false },
		});
		expect(video.clipsCount).toBeGreaterThan(0);
		expect(transcribeCalls()).toBe(before);
	});

	it("automatic subtitles are used only when asked (sourceSubtitles: any), and never with sourceSubtitles: off", async () => {
		const { apiKey } = await createWorkspace({ minutes: 20 });
		const source = () =>
			fake().addSource(url("auto-subs"), {
				duration: 62,
				subtitles: [
					{ lang: "en-orig", automatic: true, text: vtt(["so last winter I lost my keys at the office"]) },
				],
			});
		const plain = await submitBodyAndProcess(apiKey, { hostedUrl: source(), config: {} });
		expect((await videoOf(apiKey, plain)).transcriptSource).toBe("transcription");
		const any = await submitBodyAndProcess(apiKey, { hostedUrl: source(), config: { sourceSubtitles: "any" } });
		expect(await videoOf(apiKey, any)).toMatchObject({
			transcriptSource: "subtitles",
			subtitleTrack: { lang: "en-orig", automatic: true },
			language: "en",
		});
		const off = await submitBodyAndProcess(apiKey, { hostedUrl: source(), config: { sourceSubtitles: "off" } });
		expect((await videoOf(apiKey, off)).transcriptSource).toBe("transcription");
	});

	it("a source whose subtitles are gone by the time they are fetched is transcribed instead", async () => {
		const { apiKey } = await createWorkspace({ minutes: 10 });
		const before = transcribeCalls();
		// Listed by the probe, refused by the site when fetched.
		const hostedUrl = fake().addSource(url("subs-gone"), {
			duration: 62,
			subtitles: [{ lang: "en", automatic: false, text: vtt(["so last winter I lost my keys"]) }],
			subtitlesGone: true,
		});
		const id = await submitBodyAndProcess(apiKey, { hostedUrl, config: {} });
		const video = await videoOf(apiKey, id);
		expect(video).toMatchObject({ status: "completed", language: "en", transcriptSource: "transcription" });
		expect(fake().calls.some((c) => c.path === renderJobs.subtitles.path)).toBe(true);
		expect(transcribeCalls()).toBeGreaterThan(before);
	});

	it("a language the local transcriber cannot hear, with no captions or subtitles, is refused at submission: 422, nothing charged", async () => {
		const { apiKey, workspaceId } = await createWorkspace({ minutes: 10 });
		const refused = await call("POST", "/api/videos/hosted", {
			key: apiKey,
			body: { hostedUrl: fake().addSource(url("spanish"), { duration: 62 }), config: { language: "es" } },
		});
		expect(refused.status).toBe(422);
		expect(refused.body.error).toMatchObject({
			code: "unsupported_language",
			details: { language: "es", hears: ["en"] },
			message: expect.stringMatching(/only hears English, not Spanish: supply the video's captions/),
		});
		expect(await balanceOf(workspaceId)).toBe(10);
		// A code Whisper does not know is a 400 of the config, not a failure later.
		const unknown = await call("POST", "/api/videos/hosted", {
			key: apiKey,
			body: { hostedUrl: fake().addSource(url("klingon"), { duration: 62 }), config: { language: "tlh" } },
		});
		expect(unknown.status).toBe(400);
		expect(unknown.body.error.details[0].path).toBe("config.language");
		// PUT …/config of a video submitted without one is checked the same way.
		const pending = await call("POST", "/api/videos/hosted", {
			key: apiKey,
			body: { hostedUrl: fake().addSource(url("later"), { duration: 62 }) },
		});
		const put = await call("PUT", `/api/videos/${pending.body.video.id}/config`, {
			key: apiKey,
			body: { language: "es" },
		});
		expect(put.status).toBe(422);
		expect(put.body.error.code).toBe("unsupported_language");
		expect((await videoOf(apiKey, pending.body.video.id)).status).toBe("pending_config");
		expect(env.DB).toBeDefined();
	});
});
