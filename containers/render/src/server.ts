/**
 * The render tier's HTTP server. Same file in the Container image and natively in dev
 * (`npm run render`). Every body is validated with the shared contract; long jobs answer NDJSON.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { mkdir } from "node:fs/promises";
import type { z } from "zod";
import {
	CleanupRequest, DownloadRequest, ExtractAudioRequest, ImportMediaRequest, MakeBackgroundRequest, type JobEvent, ProbeRequest, RENDER_PATHS, RenderClipRequest,
	SignalsRequest, TranscribeRequest, UploadSourceRequest,
} from "./contract.ts";
import { downloadSource, type OnProgress } from "./download.ts";
import { importMedia, makeBackground } from "./backgrounds.ts";
import { extractAudio, uploadSource } from "./jobs.ts";
import { renderClip } from "./render-clip.ts";
import { transcribeLocally } from "./pocketsphinx.ts";
import { probeSource } from "./probe.ts";
import { computeSignals } from "./signals.ts";
import { TierError, toTierError } from "./tier-error.ts";
import { workRoot } from "./tool-paths.ts";
import { removeVideoDir } from "./workdir.ts";

const MAX_BODY_BYTES = 1_000_000;

type Handler<S extends z.ZodType> = (input: z.infer<S>, onProgress: OnProgress, signal: AbortSignal) => Promise<unknown>;
interface Route<S extends z.ZodType = z.ZodType> {
	schema: S;
	handler: Handler<S>;
	/** `json`: one answer; `job`: NDJSON progress then result. */
	kind: "json" | "job";
}
const route = <S extends z.ZodType>(schema: S, kind: Route["kind"], handler: Handler<S>): Route => ({ schema, kind, handler } as unknown as Route);

const routes: Record<string, Route> = {
	[RENDER_PATHS.probe]: route(ProbeRequest, "json", (req, _p, signal) => probeSource(req.url, signal)),
	[RENDER_PATHS.download]: route(DownloadRequest, "job", (req, p, signal) => downloadSource(req.videoId, req.url, p, signal)),
	[RENDER_PATHS.uploadSource]: route(UploadSourceRequest, "job", uploadSource),
	[RENDER_PATHS.extractAudio]: route(ExtractAudioRequest, "job", extractAudio),
	[RENDER_PATHS.transcribe]: route(TranscribeRequest, "job", (req, onProgress, signal) => transcribeLocally(req.audioUrl, req.language, onProgress, signal)),
	[RENDER_PATHS.renderClip]: route(RenderClipRequest, "job", renderClip),
	[RENDER_PATHS.signals]: route(SignalsRequest, "job", computeSignals),
	[RENDER_PATHS.makeBackground]: route(MakeBackgroundRequest, "job", makeBackground),
	[RENDER_PATHS.importMedia]: route(ImportMediaRequest, "job", importMedia),
	[RENDER_PATHS.cleanup]: route(CleanupRequest, "json", async (req) => {
		await removeVideoDir(req.videoId);
		return { ok: true };
	}),
};

export function createRenderServer() {
	return createServer((req, res) => {
		handle(req, res).catch((error: unknown) => {
			const tierError = toTierError(error);
			log("unhandled", { error: tierError.message });
			if (!res.headersSent) sendJson(res, 500, { error: { code: "internal_error", message: "internal error", retryable: true } });
			else res.end();
		});
	});
}

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
	const path = new URL(req.url ?? "/", "http://render").pathname;
	if (req.method === "GET" && path === RENDER_PATHS.health) return sendJson(res, 200, { ok: true });
	const target = routes[path];
	if (!target) return sendJson(res, 404, { error: { code: "invalid_request", message: `No route ${req.method} ${path}`, retryable: false } });
	if (req.method !== "POST") return sendJson(res, 405, { error: { code: "invalid_request", message: "Use POST.", retryable: false } });

	let body: unknown;
	try {
		body = JSON.parse(await readBody(req));
	} catch {
		return sendJson(res, 400, { error: { code: "invalid_request", message: "The body is not JSON.", retryable: false } });
	}
	const parsed = target.schema.safeParse(body);
	if (!parsed.success) {
		return sendJson(res, 400, { error: { code: "invalid_request", message: parsed.error.message, retryable: false } });
	}

	// The Worker closing the request (step timeout, cancellation) stops the job's processes.
	const abort = new AbortController();
	res.on("close", () => {
		if (!res.writableFinished) abort.abort();
	});
	const started = Date.now();
	if (target.kind === "json") {
		try {
			const result = await target.handler(parsed.data, () => {}, abort.signal);
			sendJson(res, 200, result);
		} catch (error) {
			const tierError = toTierError(error);
			sendJson(res, tierError.status, { error: { code: tierError.code, message: tierError.message, retryable: tierError.retryable } });
		}
		log(path, { ms: Date.now() - started });
		return;
	}
	await runJob(res, target, parsed.data, abort.signal);
	log(path, { ms: Date.now() - started });
}

async function runJob(res: ServerResponse, target: Route, input: unknown, signal: AbortSignal): Promise<void> {
	res.writeHead(200, { "content-type": "application/x-ndjson", "cache-control": "no-store" });
	const write = (event: JobEvent) => res.write(`${JSON.stringify(event)}\n`);
	let lastSent = -1;
	let lastAt = 0;
	const onProgress: OnProgress = (fraction, message) => {
		const now = Date.now();
		// Throttle: at most ~4 events a second, always forward completion.
		if (fraction < 1 && (fraction - lastSent < 0.01 || now - lastAt < 250)) return;
		lastSent = fraction;
		lastAt = now;
		write({ type: "progress", fraction: Math.max(0, Math.min(1, fraction)), message });
	};
	// Keeps idle connections alive through proxies while a long step has nothing new to say.
	const heartbeat = setInterval(() => write({ type: "progress", fraction: Math.max(0, lastSent), message: "working" }), 15_000);
	try {
		const result = await target.handler(input, onProgress, signal);
		write({ type: "result", result });
	} catch (error) {
		const tierError = toTierError(error);
		log("job failed", { code: tierError.code, message: tierError.message });
		write({ type: "error", error: { code: tierError.code, message: tierError.message, retryable: tierError.retryable } });
	} finally {
		clearInterval(heartbeat);
		res.end();
	}
}

function readBody(req: IncomingMessage): Promise<string> {
	return new Promise((resolve, reject) => {
		let size = 0;
		const chunks: Buffer[] = [];
		req.on("data", (chunk: Buffer) => {
			size += chunk.length;
			if (size > MAX_BODY_BYTES) {
				reject(new TierError("invalid_request", "Body too large.", false, 413));
				req.destroy();
				return;
			}
			chunks.push(chunk);
		});
		req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
		req.on("error", reject);
	});
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
	res.writeHead(status, { "content-type": "application/json" });
	res.end(JSON.stringify(body));
}

function log(event: string, fields: Record<string, unknown>): void {
	if (process.env.RENDER_QUIET === "true") return;
	console.log(JSON.stringify({ at: new Date().toISOString(), event, ...fields }));
}

// Started directly (`node src/server.ts`): listen. Imported by tests: they call createRenderServer().
if (import.meta.url === `file://${process.argv[1]}`) {
	await mkdir(workRoot, { recursive: true });
	const port = Number(process.env.PORT ?? 8788);
	const host = process.env.HOST ?? (process.env.NODE_ENV === "production" ? "0.0.0.0" : "127.0.0.1");
	createRenderServer().listen(port, host, () => log("listening", { url: `http://${host}:${port}`, workRoot }));
}
