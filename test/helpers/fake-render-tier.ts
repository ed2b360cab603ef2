/**
 * A stand-in for the render tier inside the Workers runtime, where no container can start. It
 * answers from the same job table (@clipforge/contract): every request is validated with its job's
 * request schema, every answer with its result schema, jobs with progress answer NDJSON through the
 * contract's encoder, and outputs are written through the
 * Worker's own signed `/internal/objects` URLs, so signing and storage are exercised for real.
 * Instead of media it stores small JSON descriptors; "transcribing" a chunk returns the words of a
 * known script that fall inside the chunk, with chunk-relative times (as a real engine would).
 */
import { env, exports } from "cloudflare:workers";
import { afterEach, beforeEach, vi } from "vitest";
import {
	encodeJobEvent,
	HEALTH_PATH,
	JOB_NAMES,
	renderJobs,
	verifyRenderRequest,
	WORKSPACE_JOB_LIMITS,
	type JobEvent,
	type JobInput,
	type JobName,
	type JobOutput,
	OUTPUT_SIZE,
	type ProbeResult,
	type RenderError,
	type Segment,
} from "@clipforge/contract";
import { planJumpCuts } from "../../containers/render/src/render/jump-cuts.ts";
import { TALK_SCRIPT } from "../../scripts/talk-script";
import { introspectVideoRuns } from "./video-runs";

export const RENDER_URL = "http://render.test";

/**
 * What a sick render tier does instead of answering: a contract error event, no connection at all,
 * an HTTP 500 page from a proxy, a garbage line, a stream that stops mid-job (process killed), a
 * stream that never says anything again (wedged process), or a connection lost mid-stream (reset).
 */
export type Fault = RenderError | "unreachable" | "http500" | "garbage" | "cut" | "hang" | "lost";
export const WEBHOOK_BASE = "https://hooks.example.com/";
/** The resolver the Worker asks about webhook receivers (wrangler.toml's DNS_RESOLVER_URL). */
export const DOH_URL = "https://cloudflare-dns.com/dns-query";

export interface FakeSource {
	duration: number;
	title?: string;
	channelName?: string;
	thumbnail?: string;
	/** Defaults to true. */
	hasAudio?: boolean;
	/** Transcription finds no words (a silent video). */
	silent?: boolean;
	/** The sentences spoken, in a loop (default: the demo talk script). */
	script?: string[];
	/** Silence after each sentence of the script (default 0.8 s; 0: said without a pause). */
	pauseSeconds?: number;
	/** Its own subtitle tracks (what the probe lists and the `subtitles` job stores), each with its file's text. */
	subtitles?: { lang: string; automatic: boolean; text: string }[];
	/** The probe lists the tracks, but the site refuses them when they are fetched. */
	subtitlesGone?: boolean;
	/** The language the source says it speaks. */
	language?: string;
	/** The probe answers this error instead (e.g. unsupported_source). */
	probeError?: RenderError & { status: number };
	/** How long its probe takes (a slow URL holds a probe job this long). */
	probeMs?: number;
	/**
	 * What the Workers AI stub (test/workers-ai/ai-stub.mjs) does on successive Whisper calls for
	 * each audio chunk of this source, before answering properly; `repeat` keeps the last forever.
	 */
	whisperFaults?: { faults: WhisperFault[]; repeat?: boolean };
	/** How long the Workers AI stub takes over each Whisper call of this source (default: no time). */
	whisperDelayMs?: number;
}

/** A 5xx-style binding error, a timeout error, or an answer in the wrong shape. */
export type WhisperFault = "error" | "timeout" | "malformed" | "hang";

export class FakeRenderTier {
	readonly sources = new Map<string, FakeSource>();
	/** Faults the next calls of a path meet, in order (then it works again). */
	readonly failures = new Map<string, Fault[]>();
	/** Every job asked for, with the container instance it was sent to (X-Clipforge-Instance). */
	readonly calls: { path: string; body: unknown; instance: string | null }[] = [];
	/** Paths of requests refused for a missing or wrong signature (none, when the Worker signs). */
	readonly refused: string[] = [];
	/** Which source URL each video downloaded (so per-source behaviour follows the video). */
	private readonly videoSources = new Map<string, string>();
	/**
	 * The stretch of its source each video's kept file holds (the download's or upload's `frame`;
	 * absent: the whole source). Later jobs read it as the real tier does: at `time - sourceStart`
	 * of the kept file, which is `time - sourceStart + frame.start` of the source, so a wrong
	 * `sourceStart` is heard, and a read outside the kept file fails.
	 */
	readonly keptFrames = new Map<string, { start: number; end: number } | null>();
	/** URLs the import job can decode (pictures and background videos a user may point at). */
	readonly media = new Set<string>();
	/** What the tier's startup self-check reports missing (its /healthz answers 503 with them). */
	healthProblems: string[] = [];
	/** Requests that reached the fake webhook receiver (any URL under WEBHOOK_BASE). */
	readonly webhooks: { url: string; headers: Headers; body: string }[] = [];
	/** Stretches [from, to) in seconds the signals job reports as loud. */
	readonly loudAt: [number, number][] = [];
	/** Statuses the receiver answers, in order; 200 once they run out. */
	readonly webhookAnswers: number[] = [];
	/** How long each render call takes (ms), in call order; then instant. */
	readonly renderDelays: number[] = [];
	/** When each render ran (ms since the epoch), in call order. */
	readonly renderLog: { clipId: string; start: number; end: number }[] = [];
	/** How long every call of a path takes (ms): a slow upload, a slow transcription. */
	readonly jobDelays = new Map<string, number>();
	/** When each job ran (ms since the epoch), in call order: which jobs overlapped. */
	readonly jobLog: { path: string; start: number; end: number }[] = [];
	/** Every probe that ran: its URL, the instance it ran on, when (which probes overlapped). */
	readonly probeLog: { url: string; instance: string | null; start: number; end: number }[] = [];
	/** Jobs one instance runs at once (the real tier's RENDER_MAX_JOBS); past it 503 `busy`. */
	maxJobsPerInstance = 16;
	/** Jobs running now per instance. */
	private readonly instanceJobs = new Map<string, number>();
	/**
	 * What the DNS-over-HTTPS resolver (DNS_RESOLVER_URL, JSON API) answers: A and AAAA records per
	 * name; a name not listed is NXDOMAIN. Only asked where the source policy is the production one.
	 */
	readonly dns = new Map<string, string[]>();
	/** Every DoH question, as `name type`. */
	readonly dnsQueries: string[] = [];
	/** Background keys a render has already fetched (the real tier keeps them on its disk). */
	private readonly backgroundsFetched = new Set<string>();
	/** Run once, before the next call of a path is answered (a user acting while a job runs). */
	readonly before = new Map<string, () => Promise<void>>();
	private spy: ReturnType<typeof vi.spyOn> | null = null;

	/** Registers a source URL the fake will "find". */
	addSource(url: string, source: FakeSource): string {
		this.sources.set(url, source);
		return url;
	}

	failNext(path: string, ...faults: Fault[]): void {
		this.failures.set(path, [...(this.failures.get(path) ?? []), ...faults]);
	}

	/** Makes every call of a path meet `fault` (the client sends a cut job again several times per step attempt). */
	failAlways(path: string, fault: Fault): void {
		this.failures.set(
			path,
			Array.from({ length: 10_000 }, () => fault),
		);
	}

	install(): this {
		const realFetch = globalThis.fetch;
		this.spy = vi
			.spyOn(globalThis, "fetch")
			.mockImplementation(async (input: RequestInfo | URL, init?: RequestInit) => {
				const request = new Request(input, init);
				if (request.url.startsWith(DOH_URL)) return this.answerDns(new URL(request.url));
				if (request.url.startsWith(WEBHOOK_BASE)) {
					this.webhooks.push({ url: request.url, headers: request.headers, body: await request.text() });
					return new Response("ok", { status: this.webhookAnswers.shift() ?? 200 });
				}
				if (!request.url.startsWith(RENDER_URL)) return realFetch(request);
				const url = new URL(request.url);
				const path = url.pathname;
				// As the real tier: its health check answers anyone, with its startup self-check.
				if (path === HEALTH_PATH && request.method === "GET") {
					const problems = this.healthProblems;
					return Response.json(
						{
							ok: problems.length === 0,
							problems,
							versions: { ffmpeg: "5.1.9-fake", ytDlp: "2025.12.08" },
						},
						{ status: problems.length === 0 ? 200 : 503 },
					);
				}
				const text = await request.text();
				// As the real tier: only JSON signed with the Worker's RENDER_SECRET.
				const verdict = await verifyRenderRequest(env.RENDER_SECRET, request.headers.get("authorization"), {
					method: request.method,
					path: path + url.search,
					body: text,
				});
				if (!verdict.ok || request.headers.get("content-type") !== "application/json") {
					this.refused.push(path);
					return Response.json(
						{ error: { code: "unauthorized", message: "not signed by the Worker", retryable: false } },
						{ status: 401 },
					);
				}
				const body: unknown = JSON.parse(text);
				const instance = request.headers.get("x-clipforge-instance");
				this.calls.push({ path, body, instance });
				return this.admit(path, body, instance);
			});
		return this;
	}

	uninstall(): void {
		this.spy?.mockRestore();
		this.spy = null;
	}

	/** As the real tier: an instance runs at most maxJobsPerInstance jobs; past it 503 `busy` (cleanup always runs). */
	private async admit(path: string, body: unknown, instance: string | null): Promise<Response> {
		const at = instance ?? "";
		const running = this.instanceJobs.get(at) ?? 0;
		if (running >= this.maxJobsPerInstance && path !== renderJobs.cleanup.path)
			return Response.json(
				{
					error: {
						code: "busy",
						message: "The render tier is running its maximum of jobs.",
						retryable: true,
					},
				},
				{ status: 503, headers: { "retry-after": "1" } },
			);
		this.instanceJobs.set(at, running + 1);
		try {
			return await this.handle(path, body, instance);
		} finally {
			this.instanceJobs.set(at, (this.instanceJobs.get(at) ?? 1) - 1);
		}
	}

	/** Jobs running now per `<job>:<workspace>`, for WORKSPACE_JOB_LIMITS (as the real tier's server.ts counts them). */
	private readonly workspaceJobs = new Map<string, number>();

	/** As the real tier: a workspace past its share of a job is refused with 429 `workspace_busy`, before anything runs. */
	private async handle(path: string, body: unknown, instance: string | null = null): Promise<Response> {
		const name = JOB_NAMES.find((n) => renderJobs[n].path === path);
		const limit = name ? (WORKSPACE_JOB_LIMITS as Partial<Record<JobName, number>>)[name] : undefined;
		const workspace = (body as { workspaceId?: unknown } | null)?.workspaceId;
		if (!name || limit === undefined || typeof workspace !== "string") return this.answer(path, body, instance);
		const owner = `${name}:${workspace}`;
		const running = this.workspaceJobs.get(owner) ?? 0;
		if (running >= limit)
			return Response.json(
				{
					error: {
						code: "workspace_busy",
						message: `The workspace already runs ${limit} ${name} jobs here.`,
						retryable: true,
					},
				},
				{ status: 429, headers: { "retry-after": "1" } },
			);
		this.workspaceJobs.set(owner, running + 1);
		try {
			return await this.answer(path, body, instance);
		} finally {
			this.workspaceJobs.set(owner, (this.workspaceJobs.get(owner) ?? 1) - 1);
		}
	}

	private async answer(path: string, body: unknown, instance: string | null): Promise<Response> {
		const name = JOB_NAMES.find((n) => renderJobs[n].path === path);
		if (!name)
			return Response.json(
				{ error: { code: "invalid_request", message: `no route ${path}`, retryable: false } },
				{ status: 404 },
			);
		const hook = this.before.get(path);
		if (hook) {
			this.before.delete(path);
			await hook();
		}
		const failure = this.failures.get(path)?.shift();
		if (name === "probe") return this.probe(renderJobs.probe.request.parse(body), instance);
		if (failure === "unreachable") throw new TypeError("fetch failed: connect ECONNREFUSED 127.0.0.1:8788");
		if (failure === "http500")
			return new Response("<html><body>502 Bad Gateway</body></html>", {
				status: 500,
				headers: { "content-type": "text/html" },
			});
		if (name === "cleanup") return Response.json({ ok: true });
		if (failure === "garbage")
			return new Response('{"type":"progress","fraction":0.2}\n<<binary garbage>>\n', {
				headers: { "content-type": "application/x-ndjson" },
			});
		if (failure === "cut")
			return new Response('{"type":"progress","fraction":0.4}\n', {
				headers: { "content-type": "application/x-ndjson" },
			});
		if (failure === "lost") {
			let sent = false;
			const body = new ReadableStream<Uint8Array>({
				pull(controller) {
					if (sent) return controller.error(new TypeError("Network connection lost."));
					sent = true;
					controller.enqueue(new TextEncoder().encode('{"type":"progress","fraction":0.3}\n'));
				},
			});
			return new Response(body, { headers: { "content-type": "application/x-ndjson" } });
		}
		if (failure === "hang")
			return new Response(
				new ReadableStream({
					start: (c) => c.enqueue(new TextEncoder().encode('{"type":"progress","fraction":0.1}\n')),
				}),
				{ headers: { "content-type": "application/x-ndjson" } },
			);
		if (failure)
			return ndjson([
				{ type: "progress", fraction: 0.1 },
				{ type: "error", error: failure },
			]);
		const job = (this.jobs as Record<string, (input: unknown) => Promise<FakeAnswer<JobName>>>)[name]!;
		const ran = { path, start: Date.now(), end: 0 };
		this.jobLog.push(ran);
		await new Promise((resolve) => setTimeout(resolve, this.jobDelays.get(path) ?? 0));
		const answer = await job(renderJobs[name].request.parse(body));
		ran.end = Date.now();
		if ("error" in answer) return ndjson([{ type: "error", error: answer.error }]);
		return ndjson([
			...(answer.progress ?? []).map((fraction) => ({ type: "progress" as const, fraction })),
			{ type: "result", result: renderJobs[name].result.parse(answer.result) },
		]);
	}

	/** What each streamed job of the contract does here (probe and cleanup answer in handle()). */
	private readonly jobs: {
		[N in Exclude<JobName, "probe" | "cleanup">]: (input: JobInput<N>) => Promise<FakeAnswer<N>>;
	} = {
		subtitles: async (req) => {
			const source = this.sources.get(req.url);
			const track = source?.subtitlesGone
				? undefined
				: source?.subtitles?.find((t) => t.lang === req.lang && t.automatic === req.automatic);
			if (!track)
				return {
					error: { code: "unsupported_source", message: `No subtitles in "${req.lang}".`, retryable: false },
				};
			return { result: { bytes: await put(req.putUrl, track.text, "text/vtt"), format: "vtt" } };
		},
		download: async (req) => {
			this.videoSources.set(req.videoId, req.url);
			this.keptFrames.set(req.videoId, req.frame);
			return { progress: [0.5, 1], result: { bytes: 1234 } };
		},
		uploadSource: async (req) => {
			this.keptFrames.set(req.videoId, req.frame);
			if (!req.upload)
				return {
					progress: [1],
					result: {
						bytes: await put(
							req.putUrl,
							JSON.stringify({ source: req.url, frame: req.frame }),
							"video/mp4",
						),
					},
				};
			// An upload's frame copied out of it, read through the Worker's signed URL as the real tier's ffmpeg does.
			const upload = await exports.default.fetch(req.url);
			if (!upload.ok)
				return { error: { code: "source_missing", message: `upload ${upload.status}`, retryable: false } };
			await upload.body?.cancel();
			const duration = req.frame ? req.frame.end - req.frame.start : 0;
			const copy = JSON.stringify({ fakeVideo: { duration }, framedUpload: true, frame: req.frame });
			return { progress: [1], result: { bytes: await put(req.putUrl, copy, "video/mp4") } };
		},
		extractAudio: async (req) => {
			const source = this.sources.get(this.videoSources.get(req.videoId) ?? "");
			const silent = source?.silent ?? [...this.sources.values()].some((s) => s.silent);
			const chunks = [];
			for (const chunk of req.chunks) {
				const start = this.sourceTime(req.videoId, chunk.start, req.sourceStart);
				const outside = this.outsideKeptFile(req.videoId, start, start + 0.01);
				if (outside) return { error: outside };
				// The "audio" is a descriptor: what the local engine and the Whisper stub will hear in it.
				const descriptor = {
					videoId: req.videoId,
					start,
					duration: chunk.duration,
					silent,
					script: source?.script ?? null,
					pauseSeconds: source?.pauseSeconds ?? null,
					whisperFaults: source?.whisperFaults ?? null,
					whisperDelayMs: source?.whisperDelayMs ?? 0,
					whisper: whisperOutput(
						silent
							? []
							: scriptSegments(start, start + chunk.duration, source?.script, source?.pauseSeconds),
					),
				};
				const bytes = await put(chunk.putUrl, JSON.stringify(descriptor), "audio/mpeg");
				chunks.push({ index: chunk.index, start: chunk.start, duration: chunk.duration, bytes });
			}
			return { progress: [1], result: { chunks } };
		},
		transcribe: async (req) => {
			const audio = await exports.default.fetch(req.audioUrl);
			if (!audio.ok)
				return { error: { code: "source_missing", message: `audio ${audio.status}`, retryable: false } };
			const bytes = new Uint8Array(await audio.arrayBuffer());
			// Real audio (the smoke check's WAV tone) has no words of the script.
			if (new TextDecoder().decode(bytes.subarray(0, 4)) === "RIFF")
				return { result: { language: "en", segments: [] } };
			const { start, duration, silent, script, pauseSeconds } = JSON.parse(new TextDecoder().decode(bytes)) as {
				start: number;
				duration: number;
				silent?: boolean;
				script?: string[] | null;
				pauseSeconds?: number | null;
			};
			return {
				result: {
					language: "en",
					segments: silent
						? []
						: scriptSegments(start, start + duration, script ?? undefined, pauseSeconds ?? undefined),
				},
			};
		},
		signals: async (req) => {
			// Speech level through the charged frame (silent before it, as the real tier), with the stretch listed in `loudAt` much louder.
			const outside = this.outsideKeptFile(
				req.videoId,
				this.sourceTime(req.videoId, req.start, req.sourceStart),
				this.sourceTime(req.videoId, req.end, req.sourceStart),
			);
			if (outside) return { error: outside };
			const heard = (slot: number) => this.sourceTime(req.videoId, slot / 2, req.sourceStart);
			const loudness = Array.from({ length: Math.ceil(req.end * 2) }, (_, i) =>
				i / 2 < req.start ? -120 : this.loudAt.some(([a, b]) => heard(i) >= a && heard(i) < b) ? -10 : -28,
			);
			const bytes = await put(req.putUrl, JSON.stringify({ intervalSeconds: 0.5, loudness }), "application/json");
			return { result: { intervals: loudness.length, bytes } };
		},
		renderClip: async (req) => {
			const entry = { clipId: req.clipId, start: Date.now(), end: 0 };
			this.renderLog.push(entry);
			await new Promise((resolve) => setTimeout(resolve, this.renderDelays.shift() ?? 0));
			entry.end = Date.now();
			// As the real tier: the background is fetched (once per key) before drawing; a deleted one fails the render.
			if (req.splitScreen && !this.backgroundsFetched.has(req.splitScreen.backgroundKey)) {
				const response = await exports.default.fetch(req.splitScreen.backgroundUrl);
				await response.body?.cancel();
				if (!response.ok)
					return {
						error: {
							code: "unsupported_source",
							message: "The source could not be fetched.",
							retryable: false,
						},
					};
				this.backgroundsFetched.add(req.splitScreen.backgroundKey);
			}
			// What the clip shows, in the source's seconds (the kept file read at `time - sourceStart`).
			const shows = {
				start: this.sourceTime(req.videoId, req.start, req.sourceStart),
				end: this.sourceTime(req.videoId, req.end, req.sourceStart),
			};
			const outside = this.outsideKeptFile(req.videoId, shows.start, shows.end);
			if (outside) return { error: outside };
			const bytes = await put(
				req.videoPutUrl,
				JSON.stringify({ clip: req.clipId, ...shows, aspectRatio: req.aspectRatio }),
				"video/mp4",
			);
			const thumbnailBytes = await put(req.thumbnailPutUrl, "fake-jpeg", "image/jpeg");
			const { width, height } = OUTPUT_SIZE[req.aspectRatio];
			// Remove silences as the tier plans it (on a 30 fps grid; the fake's sources are silent between words, so every pause is confirmed).
			const cuts = req.jumpCuts
				? planJumpCuts(
						req.jumpCuts.pauses.filter((p) => p.start < req.end - req.start),
						req.end - req.start,
						30,
						null,
					)
				: null;
			const duration = cuts ? cuts.duration : req.end - req.start;
			// The fake's sources have no faces: the real tier draws such a clip centred whatever the layout.
			return {
				progress: [0.5],
				result: {
					bytes,
					thumbnailBytes,
					width,
					height,
					duration,
					framing: "centre",
					removedSeconds: cuts?.removed ?? 0,
					cuts: cuts?.cuts.length ?? 0,
					cutStretches: cuts?.cuts ?? [],
				},
			};
		},
		makeBackground: async (req) => {
			const bytes = await put(req.putUrl, JSON.stringify({ background: req.backgroundId }), "video/mp4");
			return { result: { bytes, width: 540, height: 960, duration: 12 } };
		},
		captionPreview: async (req) => {
			// The "picture" is a descriptor of the look it shows.
			const bytes = await put(req.putUrl, JSON.stringify({ preview: req.look }), "image/png");
			return { result: { bytes, width: req.width, height: Math.round((req.width * 16) / 9 / 2) * 2 } };
		},
		importMedia: async (req) => {
			// A picture stored in R2 is fetched through the Worker's signed URL, as the real tier would.
			if (req.url.startsWith(`${env.INTERNAL_BASE_URL}/internal/objects/`)) {
				const picture = await exports.default.fetch(req.url);
				if (!picture.ok)
					return {
						error: {
							code: "unsupported_source",
							message: "The source could not be fetched.",
							retryable: false,
						},
					};
				const bytes = await put(
					req.putUrl,
					JSON.stringify({
						imported: req.url,
						kind: req.kind,
						bytes: (await picture.arrayBuffer()).byteLength,
					}),
					"image/png",
				);
				return { result: { bytes, width: 16, height: 16, duration: 0 } };
			}
			if (!this.media.has(req.url))
				return {
					error: {
						code: "unsupported_source",
						message: "The URL is not a picture or a video.",
						retryable: false,
					},
				};
			const bytes = await put(
				req.putUrl,
				JSON.stringify({ imported: req.url, kind: req.kind }),
				req.kind === "watermark" ? "image/png" : "video/mp4",
			);
			return { result: { bytes, width: 512, height: 256, duration: req.kind === "watermark" ? 0 : 20 } };
		},
	};

	/** The source's time the real tier would read for `time` of a request that says the kept file begins at `sourceStart`. */
	private sourceTime(videoId: string, time: number, sourceStart: number): number {
		return round3(time - sourceStart + (this.keptFrames.get(videoId)?.start ?? 0));
	}

	/** A read of [from, to) of the source that the kept file does not hold fails, as ffmpeg finds nothing there. */
	private outsideKeptFile(videoId: string, from: number, to: number): RenderError | null {
		const kept = this.keptFrames.get(videoId);
		if (!kept || (from >= kept.start - 0.01 && to <= kept.end + 0.01)) return null;
		return {
			code: "process_failed",
			message: `read ${from}-${to} s of a source kept only for ${kept.start}-${kept.end} s`,
			retryable: false,
		};
	}

	private answerDns(query: URL): Response {
		const name = query.searchParams.get("name") ?? "";
		const type = query.searchParams.get("type") === "AAAA" ? 28 : 1;
		this.dnsQueries.push(`${name} ${type === 28 ? "AAAA" : "A"}`);
		const addresses = this.dns.get(name);
		if (!addresses)
			return Response.json({ Status: 3, Answer: [] }, { headers: { "content-type": "application/dns-json" } });
		const answer = addresses
			.filter((a) => (type === 28) === a.includes(":"))
			.map((data) => ({ name, type, TTL: 60, data }));
		return Response.json({ Status: 0, Answer: answer }, { headers: { "content-type": "application/dns-json" } });
	}

	private async probe(request: JobInput<"probe">, instance: string | null): Promise<Response> {
		const ran = { url: request.url, instance, start: Date.now(), end: 0 };
		this.probeLog.push(ran);
		try {
			await new Promise((resolve) => setTimeout(resolve, this.sources.get(request.url)?.probeMs ?? 0));
			return await this.probeAnswer(request);
		} finally {
			ran.end = Date.now();
		}
	}

	private async probeAnswer({ url, limits }: JobInput<"probe">): Promise<Response> {
		if (url.startsWith(`${env.INTERNAL_BASE_URL}/internal/objects/`)) return this.probeStored(url, limits);
		const source = this.sources.get(url);
		// The real tier's words for any source it could not fetch (no HTTP status: no port-scan oracle).
		if (!source)
			return Response.json(
				{
					error: {
						code: "unsupported_source",
						message: "The source could not be fetched.",
						retryable: false,
					},
				},
				{ status: 422 },
			);
		if (source.probeError) {
			const { status, ...error } = source.probeError;
			return Response.json({ error }, { status });
		}
		const result: ProbeResult = {
			id: url.split("/").pop() ?? "video",
			title: source.title ?? "A test talk",
			duration: source.duration,
			thumbnail: source.thumbnail ?? "",
			channelName: source.channelName ?? "test channel",
			width: 640,
			height: 360,
			hasAudio: source.hasAudio ?? true,
			subtitles: (source.subtitles ?? []).map(({ lang, automatic }) => ({ lang, automatic })),
			language: source.language ?? null,
		};
		return Response.json(result);
	}

	/**
	 * A stored file (an upload), read through the Worker's signed URL as the real tier's ffprobe
	 * reads it: the same refusals (not fetchable, not a video, over the limits) in the same words.
	 */
	private async probeStored(url: string, limits: JobInput<"probe">["limits"]): Promise<Response> {
		const refuse = (message: string) =>
			Response.json({ error: { code: "unsupported_source", message, retryable: false } }, { status: 422 });
		const response = await exports.default.fetch(url, { headers: { range: "bytes=0-4095" } });
		if (!response.ok) {
			await response.body?.cancel();
			return refuse("The source could not be fetched.");
		}
		const size = Number(
			response.headers.get("content-range")?.split("/")[1] ?? response.headers.get("content-length"),
		);
		const firstLine = new TextDecoder().decode(await response.arrayBuffer()).split("\n")[0]!;
		let media: { duration: number; hasAudio?: boolean; width?: number; height?: number } | undefined;
		try {
			media = (JSON.parse(firstLine) as { fakeVideo?: typeof media }).fakeVideo;
		} catch {
			// not one of the fake's videos
		}
		if (!media) return refuse("The URL is not a playable video.");
		const width = media.width ?? 640;
		const height = media.height ?? 360;
		if (width * height > limits.maxPixels || size > limits.maxBytes)
			return refuse("The video is larger than the limits.");
		const result: ProbeResult = {
			id: "source",
			title: "source",
			duration: media.duration,
			thumbnail: "",
			channelName: new URL(url).host,
			width,
			height,
			hasAudio: media.hasAudio ?? true,
			subtitles: [],
			language: null,
		};
		return Response.json(result);
	}
}

/**
 * The first line of a file the fake "decodes" (FakeRenderTier.probeStored): a user's upload in the
 * tests is this line, then any padding. Anything else is not a video, as for the real tier.
 */
export function fakeVideoFile(
	media: { duration: number; hasAudio?: boolean; width?: number; height?: number },
	size: number,
): Uint8Array {
	const header = new TextEncoder().encode(`${JSON.stringify({ fakeVideo: media })}\n`);
	const bytes = new Uint8Array(Math.max(size, header.length));
	bytes.set(header);
	return bytes;
}

/**
 * Installs a fresh fake tier before each test of the file and, after it, lets every workflow the
 * test started finish before the fake goes away (so no run outlives its test and logs noise).
 * Files whose tests wait for workflows themselves (submitAndProcess) pass `introspect: false`:
 * a workflow binding takes one introspection session at a time.
 * @example const tier = useFakeRenderTier(); it("…", () => tier().addSource(…));
 */
export function useFakeRenderTier(options: { introspect?: boolean } = {}): () => FakeRenderTier {
	let tier: FakeRenderTier;
	let introspector: Awaited<ReturnType<typeof introspectVideoRuns>> | null = null;
	beforeEach(async () => {
		tier = new FakeRenderTier().install();
		if (options.introspect === false) return;
		introspector = await introspectVideoRuns();
	});
	afterEach(async () => {
		for (const instance of (await introspector?.get()) ?? []) {
			await instance.waitForStatus("complete").catch(() => undefined); // "errored" ends it too
		}
		await introspector?.dispose();
		introspector = null;
		tier.uninstall();
	});
	return () => tier;
}

async function put(url: string, text: string, contentType: string): Promise<number> {
	const bytes = new TextEncoder().encode(text);
	const response = await exports.default.fetch(url, {
		method: "PUT",
		body: bytes,
		headers: { "content-type": contentType, "content-length": String(bytes.length) },
	});
	if (!response.ok)
		throw new Error(`fake render tier: PUT ${url} answered ${response.status}: ${await response.text()}`);
	return bytes.length;
}

/** A fake job's answer: progress fractions then its result, or an error event. */
type FakeAnswer<N extends JobName> = { progress?: number[]; result: JobOutput<N> } | { error: RenderError };

function ndjson(events: JobEvent[]): Response {
	return new Response(events.map(encodeJobEvent).join(""), { headers: { "content-type": "application/x-ndjson" } });
}

const WORD_SECONDS = 0.33;
const PAUSE_SECONDS = 0.8;

/** The talk script as timed words, looped; returns the sentences whose words lie in [from, to), chunk-relative. */
export function scriptSegments(
	from: number,
	to: number,
	script: string[] = TALK_SCRIPT,
	pauseSeconds = PAUSE_SECONDS,
): Segment[] {
	const segments: Segment[] = [];
	let t = 0;
	for (let i = 0; t < to; i++) {
		const sentence = script[i % script.length]!;
		const words = sentence.split(" ").map((word) => {
			const w = { word, start: t, end: t + WORD_SECONDS - 0.03 };
			t += WORD_SECONDS;
			return w;
		});
		t += pauseSeconds;
		const inside = words
			.filter((w) => w.start >= from && w.end <= to)
			.map((w) => ({ word: w.word, start: round3(w.start - from), end: round3(w.end - from) }));
		if (inside.length > 0)
			segments.push({
				start: inside[0]!.start,
				end: inside[inside.length - 1]!.end,
				text: inside.map((w) => w.word).join(" "),
				words: inside,
			});
	}
	return segments;
}

const round3 = (n: number) => Math.round(n * 1000) / 1000;

/** Segments in the shape Workers AI's Whisper answers with (documented output of @cf/openai/whisper-large-v3-turbo). */
function whisperOutput(segments: Segment[]) {
	return {
		transcription_info: { language: "en", language_probability: 0.98, duration: segments.at(-1)?.end ?? 0 },
		text: segments.map((s) => s.text).join(" "),
		word_count: segments.reduce((n, s) => n + s.words.length, 0),
		segments: segments.map((s) => ({
			...s,
			text: ` ${s.text}`,
			words: s.words.map((w) => ({ ...w, word: ` ${w.word}` })),
		})),
	};
}
