/**
 * Workers AI, played locally for the chaos soak (`--faults ai`): the HTTP stand-in of the AI
 * binding that the Worker reaches at AI_URL (src/worker/services/llm/ai-binding.ts), so the production
 * transcriber (TRANSCRIBER=workers-ai: Whisper's input and answer, whisperTranscribe's checks) and
 * the LLM analysis (JSON mode, the ranking and chapters prompts, withRetries) run as they do on
 * Cloudflare.
 *
 * - Whisper: the chunk's audio (base64 MP3) is served on loopback and transcribed by pocketsphinx
 *   in this process (the render tier's own `transcribeLocally`), answered in Whisper's shape. Not
 *   through the soak's tier: Workers AI does not share the tier's fate, and a transcription cut by
 *   the tier's kills, drains and full disk took longer than the Worker's AI deadline (the first
 *   `--faults all` run's 6 of 7 failures). A call the Worker gave up and sent again (the same
 *   audio) joins the transcription already running, as a slow Workers AI call's retry would find
 *   the model warm: the work of a timed-out call is not lost.
 * - The LLMs: answers of the shape each schema asks (moments fitted to the clip bounds the prompt
 *   states, window scores, chapters, the summary), from the numbered sentences they were shown.
 *
 * A share of calls (`faultShare`) fails as Workers AI documents it can
 * (https://developers.cloudflare.com/workers-ai/platform/errors/): 3040 capacity (HTTP 429), 3007
 * timeout (408), a call that does not answer for `hangMs` (the Worker's own deadline gives it up),
 * or an answer in the wrong shape (Whisper's segments garbled; an LLM's text that is not JSON).
 */
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TranscribeResult } from "@clipforge/contract";
import { transcribeLocally } from "../../containers/render/src/audio/pocketsphinx.ts";

export type AiFault = "capacity" | "timeout" | "hang" | "malformed";
export const AI_FAULTS: readonly AiFault[] = ["capacity", "timeout", "hang", "malformed"];
const WHISPER = "@cf/openai/whisper-large-v3-turbo";

export interface AiStandInOptions {
	/** Share of calls that fail, 0..1. */
	faultShare: number;
	random?: () => number;
	/** How long a "hang" holds its call (longer than the Worker's AI_TIMEOUT_SECONDS). */
	hangMs?: number;
}

export interface AiStandInCounts {
	calls: { whisper: number; llm: number };
	faults: Record<AiFault, number>;
}

export interface AiStandIn {
	url: string;
	counts: AiStandInCounts;
	setFaultShare(share: number): void;
	close(): Promise<void>;
}

export async function startAiStandIn(options: AiStandInOptions): Promise<AiStandIn> {
	const random = options.random ?? Math.random;
	// The tier's transcriber, run here, fetches the audio this stand-in serves on loopback, which its
	// egress policy refuses unless private sources are allowed (as the local stack's tier has them).
	process.env.ALLOW_PRIVATE_SOURCES = "true";
	const audioDir = mkdtempSync(join(tmpdir(), "clipforge-ai-stand-in-"));
	const counts: AiStandInCounts = {
		calls: { whisper: 0, llm: 0 },
		faults: { capacity: 0, timeout: 0, hang: 0, malformed: 0 },
	};
	let share = options.faultShare;
	let url = "";
	// Each audio's transcription (by its bytes' hash), running or done: a retried call joins it.
	const heard = new Map<string, Promise<TranscribeResult>>();
	const server = createServer((request, response) => {
		void handle(request, response).catch((error: unknown) =>
			answerError(response, 500, 3001, `Internal server error: ${(error as Error).message.slice(0, 200)}`),
		);
	});
	async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
		const path = new URL(request.url ?? "/", "http://x").pathname;
		if (request.method === "GET" && path.startsWith("/audio/")) {
			response.writeHead(200, { "content-type": "audio/mpeg" });
			response.end(readFileSync(join(audioDir, path.slice("/audio/".length).replace(/[^\w.-]/g, ""))));
			return;
		}
		const model = decodeURIComponent(path.replace(/^\/run\//, ""));
		const input = JSON.parse(await bodyOf(request)) as Record<string, unknown>;
		const whisper = model === WHISPER;
		counts.calls[whisper ? "whisper" : "llm"]++;
		const fault = random() < share ? AI_FAULTS[Math.floor(random() * AI_FAULTS.length)]! : null;
		if (fault) counts.faults[fault]++;
		if (await answeredWithFault(response, fault, whisper, options.hangMs ?? 90_000)) return;
		if (whisper) return answer(response, await transcribe(heard, audioDir, url, input));
		return answer(response, { response: textAnswer(input) });
	}
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	return {
		url,
		counts,
		setFaultShare: (next) => {
			share = next;
		},
		close: () => closeServer(server, audioDir),
	};
}

function closeServer(server: ReturnType<typeof createServer>, audioDir: string): Promise<void> {
	return new Promise<void>((resolve) => {
		server.closeAllConnections();
		server.close(() => resolve());
		rmSync(audioDir, { recursive: true, force: true });
	});
}

/** Answers `fault` as Workers AI does (a hang answers late, as itself): whether the call was answered. */
async function answeredWithFault(
	response: ServerResponse,
	fault: (typeof AI_FAULTS)[number] | null,
	whisper: boolean,
	hangMs: number,
): Promise<boolean> {
	if (fault === "capacity") {
		answerError(response, 429, 3040, "Capacity temporarily exceeded, please try again.");
		return true;
	}
	if (fault === "timeout") {
		answerError(response, 408, 3007, "Request timeout");
		return true;
	}
	if (fault === "hang") await new Promise((resolve) => setTimeout(resolve, hangMs));
	if (fault !== "malformed") return false;
	answer(
		response,
		whisper
			? { text: "…", segments: [{ start: "zero", words: null }] }
			: { response: "Sorry, I cannot produce that right now." },
	);
	return true;
}

/** Whisper's answer to `input`, heard by pocketsphinx from the audio served back at `url`/audio/. */
async function transcribe(
	heard: Map<string, Promise<TranscribeResult>>,
	audioDir: string,
	url: string,
	input: Record<string, unknown>,
): Promise<unknown> {
	const audio = Buffer.from(String(input.audio), "base64");
	const name = `${createHash("sha256").update(audio).digest("hex").slice(0, 32)}.mp3`;
	let result = heard.get(name);
	if (!result) {
		writeFileSync(join(audioDir, name), audio);
		result = transcribeLocally(`${url}/audio/${name}`, (input.language as string) ?? null, () => undefined);
		heard.set(name, result);
		// A failed one is heard again by the next call.
		result.catch(() => heard.delete(name));
	}
	const { language, segments } = await result;
	return {
		transcription_info: { language },
		text: segments.map((s) => s.text).join(" "),
		segments: segments.map((s) => ({ start: s.start, end: s.end, text: s.text, words: s.words })),
	};
}

interface Sentence {
	id: number;
	start: number;
}

/** What an LLM would answer: the schema's own shape, from the numbered sentences it was shown. */
export function textAnswer(input: Record<string, unknown>): unknown {
	const messages = (input.messages ?? []) as { role: string; content: string }[];
	const system = messages[0]?.content ?? "";
	const user = messages.at(-1)?.content ?? "";
	const format = (input.response_format ?? {}) as {
		json_schema?: { properties?: object; schema?: { properties?: object } };
	};
	const keys = Object.keys(format.json_schema?.properties ?? format.json_schema?.schema?.properties ?? {});
	const sentences: Sentence[] = [...user.matchAll(/^S(\d+) \[(\d+(?:\.\d+)?)\]/gm)].map((m) => ({
		id: Number(m[1]),
		start: Number(m[2]),
	}));
	if (keys.includes("ok")) return { ok: true };
	if (keys.includes("summary"))
		return { summary: [{ text: "A talk in a few chapters, summed up by the soak's stand-in." }] };
	if (keys.includes("chapters")) return { chapters: chaptersOf(sentences) };
	if (keys.includes("windows"))
		return {
			windows: [...user.matchAll(/### Window (\d+)/g)].map((m, n) => ({
				window: Number(m[1]),
				hook: 8 - (n % 4),
				completeness: 7,
				payoff: 8 - (n % 3),
				relevance: 0,
			})),
		};
	const bounds = /between (\d+(?:\.\d+)?) and (\d+(?:\.\d+)?) seconds/.exec(system);
	return { clips: momentsOf(sentences, Number(bounds?.[1] ?? 10), Number(bounds?.[2] ?? 60)) };
}

/** Consecutive sentence groups about as long as the middle of the bounds, best first. */
function momentsOf(sentences: Sentence[], min: number, max: number) {
	const target = (min + max) / 2;
	const clips: Record<string, unknown>[] = [];
	for (let k = 0; k < sentences.length;) {
		const first = sentences[k]!;
		let last = k;
		while (last + 1 < sentences.length && sentences[last + 1]!.start - first.start < target) last++;
		const n: number = clips.length;
		clips.push({
			firstSentence: first.id,
			lastSentence: sentences[last]!.id,
			title: `The moment at ${Math.round(first.start)} seconds`,
			hookTitle: `What happens at ${Math.round(first.start)} s`,
			score: Math.max(40, 85 - 7 * n),
			reason: "It states one idea and lands it.",
			hooks: { question: "", statement: "" },
			emotions: ["insight"],
			description: "A moment from the talk. #talk #ideas",
		});
		k = last + 1;
	}
	return clips.slice(0, 8);
}

/** A chapter at the first sentence, then at the first sentence past each quarter of the time shown. */
function chaptersOf(sentences: Sentence[]) {
	if (sentences.length === 0) return [];
	const span = Math.max(12, (sentences.at(-1)!.start - sentences[0]!.start) / 4);
	const chapters = [sentences[0]!];
	for (const s of sentences) if (s.start - chapters.at(-1)!.start >= span) chapters.push(s);
	return chapters.map((s, n) => ({
		firstSentence: s.id,
		title: `Part ${n + 1} of the talk`,
		summary: "What is said there.",
	}));
}

function bodyOf(request: IncomingMessage): Promise<string> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		request.on("data", (chunk: Buffer) => chunks.push(chunk));
		request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
		request.on("error", reject);
	});
}

function answer(response: ServerResponse, result: unknown): void {
	response.writeHead(200, { "content-type": "application/json" });
	response.end(JSON.stringify({ result }));
}

function answerError(response: ServerResponse, status: number, code: number, message: string): void {
	if (response.headersSent) return;
	response.writeHead(status, { "content-type": "application/json" });
	response.end(JSON.stringify({ errors: [{ code, message }] }));
}
