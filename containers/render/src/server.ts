/**
 * The render tier's HTTP server: one Hono route per row of the contract's job table. Same file in
 * the Container image and natively in dev (`npm run render`). Every body is validated with the
 * job's request schema; jobs with progress answer NDJSON through the contract's job protocol.
 */
import { mkdir } from "node:fs/promises";
import type { Server } from "node:http";
import { createAdaptorServer } from "@hono/node-server";
import {
	HEALTH_PATH, JOB_NAMES, jobEventStream, NDJSON_HEADERS, renderJobs, type JobInput, type JobName, type JobOutput, type OnProgress, type RenderError,
} from "@clipforge/contract";
import { Hono, type Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { importMedia, makeBackground } from "./backgrounds.ts";
import { captionPreview } from "./caption-preview.ts";
import { downloadSource } from "./download.ts";
import { egressProxy } from "./egress-proxy.ts";
import { runAsJob } from "./job-context.ts";
import { extractAudio, uploadSource } from "./jobs.ts";
import { transcribeLocally } from "./pocketsphinx.ts";
import { probeSource } from "./probe.ts";
import { renderClip } from "./render-clip.ts";
import { selfCheck, type SelfCheck } from "./self-check.ts";
import { computeSignals } from "./signals.ts";
import { toTierError } from "./tier-error.ts";
import { workRoot } from "./tool-paths.ts";
import { refuseBrowsers, renderSecretFromEnv, requireWorkerSignature, type GuardEnv } from "./request-guard.ts";
import { removeVideoDir } from "./workdir.ts";

const MAX_BODY_BYTES = 1_000_000;
/**
 * Jobs one instance runs at once (RENDER_MAX_JOBS). Past it a job is refused with 503 `busy`
 * (retryable), so a flood waits in the Workflows' step retries, not in this process's memory,
 * file descriptors and disk. Renders also queue for an encode slot per core (encode-slots.ts).
 */
export const DEFAULT_MAX_JOBS = 16;
/** Jobs that are never refused: cheap, and they free resources. */
const ALWAYS_ACCEPTED: readonly JobName[] = ["cleanup"];

type JobHandlers = { [N in JobName]: (input: JobInput<N>, onProgress: OnProgress, signal: AbortSignal) => Promise<JobOutput<N>> };

/** What each job of the contract does here. */
const handlers: JobHandlers = {
	probe: (req, _p, signal) => probeSource(req.url, req.limits, signal),
	download: (req, p, signal) => downloadSource(req, p, signal),
	uploadSource,
	extractAudio,
	transcribe: (req, p, signal) => transcribeLocally(req.audioUrl, req.language, p, signal),
	renderClip,
	signals: computeSignals,
	makeBackground,
	importMedia,
	cleanup: async (req) => {
		await removeVideoDir(req.videoId);
		return { ok: true };
	},
	captionPreview,
};

const refuse = (c: Context, status: ContentfulStatusCode, message: string) =>
	c.json({ error: { code: "invalid_request", message, retryable: false } satisfies RenderError }, status);

export interface RenderAppOptions {
	/** The secret the Worker signs job requests with; defaults to RENDER_SECRET (required). */
	secret?: string;
	/** Jobs run at once; defaults to RENDER_MAX_JOBS, else DEFAULT_MAX_JOBS. */
	maxJobs?: number;
	/** The startup self-check (self-check.ts) `/healthz` reports; none in tests that build the app themselves. */
	selfCheck?: Promise<SelfCheck>;
}

/**
 * The tier as a Hono app (tests and the Node server both serve it). Job routes run only for
 * requests signed by the Worker (request-guard.ts); `/healthz` answers anyone but a browser.
 */
export function createRenderApp(options: RenderAppOptions = {}): Hono<GuardEnv> {
	const secret = renderSecretFromEnv(options.secret === undefined ? process.env : { RENDER_SECRET: options.secret });
	const app = new Hono<GuardEnv>();
	app.use("*", refuseBrowsers());
	app.get(HEALTH_PATH, async (c) => {
		const check = await options.selfCheck;
		if (!check) return c.json({ ok: true });
		return c.json({ ok: check.ok, problems: check.problems, versions: check.versions }, check.ok ? 200 : 503);
	});
	const signedByWorker = requireWorkerSignature(secret);
	const maxJobs = options.maxJobs ?? (Number(process.env.RENDER_MAX_JOBS) || DEFAULT_MAX_JOBS);
	let running = 0;
	for (const name of JOB_NAMES) {
		const job = renderJobs[name];
		const handler = handlers[name] as (input: unknown, onProgress: OnProgress, signal: AbortSignal) => Promise<unknown>;
		app.post(job.path, bodyLimit({ maxSize: MAX_BODY_BYTES, onError: (c) => refuse(c, 413, "Body too large.") }), signedByWorker, async (c) => {
			const body: unknown = parseJson(c.var.rawBody);
			if (body === undefined) return refuse(c, 400, "The body is not JSON.");
			const parsed = job.request.safeParse(body);
			if (!parsed.success) return refuse(c, 400, parsed.error.message);
			if (running >= maxJobs && !ALWAYS_ACCEPTED.includes(name)) {
				c.header("Retry-After", "5");
				return c.json({ error: { code: "busy", message: `The render tier is running its maximum of ${maxJobs} jobs; retry shortly.`, retryable: true } satisfies RenderError }, 503);
			}
			running++;
			// The Worker closing the request (step timeout, cancellation) aborts this signal and stops the job's processes.
			const signal = c.req.raw.signal;
			const started = Date.now();
			let finished = false;
			const done = () => {
				if (finished) return;
				finished = true;
				running--;
				log(job.path, { ms: Date.now() - started });
			};
			if (!("progress" in job)) {
				try {
					return c.json(await runAsJob(name, () => handler(parsed.data, () => {}, signal)));
				} catch (error) {
					const { status, ...tierError } = asRenderError(error);
					return c.json({ error: tierError }, status);
				} finally {
					done();
				}
			}
			const run = (onProgress: OnProgress) => runAsJob(name, () => handler(parsed.data, onProgress, signal)).finally(done);
			return new Response(jobEventStream(run, (error) => {
				const { status: _status, ...tierError } = asRenderError(error);
				log("job failed", { code: tierError.code, message: tierError.message });
				return tierError;
			}), { headers: NDJSON_HEADERS });
		});
		app.all(job.path, (c) => refuse(c, 405, "Use POST."));
	}
	app.notFound((c) => refuse(c, 404, `No route ${c.req.method} ${c.req.path}`));
	app.onError((error, c) => {
		log("unhandled", { error: toTierError(error).message });
		return c.json({ error: { code: "internal_error", message: "internal error", retryable: true } satisfies RenderError }, 500);
	});
	return app;
}

/**
 * Idle keep-alive connections are kept this long. Longer than a client's own idle timeout (it reads
 * the `Keep-Alive: timeout` hint and lets go a little earlier), so the server never closes a
 * connection just as the client sends the next job on it (an ECONNRESET). Node's default is 5 s.
 */
const KEEP_ALIVE_MS = 65_000;

/** A Node HTTP server around the app, not yet listening. */
export function createRenderServer(options: RenderAppOptions = {}) {
	const server = createAdaptorServer({ fetch: createRenderApp(options).fetch }) as Server;
	server.keepAliveTimeout = KEEP_ALIVE_MS;
	return server;
}

function parseJson(text: string): unknown {
	try {
		return JSON.parse(text) as unknown;
	} catch {
		return undefined;
	}
}

function asRenderError(error: unknown): RenderError & { status: ContentfulStatusCode } {
	const tierError = toTierError(error);
	return { code: tierError.code, message: tierError.message, retryable: tierError.retryable, status: tierError.status as ContentfulStatusCode };
}

function log(event: string, fields: Record<string, unknown>): void {
	if (process.env.RENDER_QUIET === "true") return;
	console.log(JSON.stringify({ at: new Date().toISOString(), event, ...fields }));
}

// Started directly (`node src/server.ts`): listen. Imported by tests: they call createRenderServer().
if (import.meta.url === `file://${process.argv[1]}`) {
	let server: Server;
	// Started at once, answered by /healthz when done (a second or so): tools, filters, fonts.
	const check = selfCheck();
	try {
		server = createRenderServer({ selfCheck: check });
	} catch (error) {
		console.error((error as Error).message);
		process.exit(1);
	}
	void check.then((result) => log(result.ok ? "self-check passed" : "self-check FAILED", { problems: result.problems, versions: result.versions }));
	await mkdir(workRoot, { recursive: true });
	// Every tool reaches the network through this proxy (run-process.ts); it is up before any job.
	const egress = await egressProxy();
	const port = Number(process.env.PORT ?? 8788);
	// Loopback unless the operator says otherwise (the Container image sets RENDER_HOST=0.0.0.0).
	const host = process.env.RENDER_HOST || "127.0.0.1";
	server.listen(port, host, () => {
		const address = server.address();
		log("listening", { url: typeof address === "object" && address ? `http://${address.address}:${address.port}` : `http://${host}:${port}`, workRoot, egressProxy: egress.url });
	});
}
