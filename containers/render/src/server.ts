/**
 * The render tier's HTTP server: one Hono route per row of the contract's job table, each running
 * that row's handler (jobs/). Same file in the Container image and natively in dev (`npm run
 * render`). Every body is validated with the job's request schema; jobs with progress answer NDJSON
 * through the contract's job protocol.
 */
import { mkdir } from "node:fs/promises";
import type { Server } from "node:http";
import { createAdaptorServer } from "@hono/node-server";
import {
	HEALTH_PATH,
	JOB_NAMES,
	jobEventStream,
	NDJSON_HEADERS,
	renderJobs,
	type JobName,
	type OnProgress,
	type RenderError,
	WORKSPACE_JOB_LIMITS,
} from "@clipforge/contract";
import { Hono, type Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { egressProxy } from "./egress/proxy.ts";
import { x264Preset } from "./ffmpeg/encode-preset.ts";
import { jobHandlers } from "./jobs/index.ts";
import { cpuSlots } from "./runtime/encode-slots.ts";
import { runningJob } from "./runtime/job-context.ts";
import { jobKey } from "./runtime/job-key.ts";
import { JobRegistry, type JobWork } from "./runtime/job-registry.ts";
import { jobCpuMs } from "./runtime/job-usage.ts";
import { refuseBrowsers, renderSecretFromEnv, requireWorkerSignature, type GuardEnv } from "./runtime/request-guard.ts";
import { selfCheck, type SelfCheck } from "./runtime/self-check.ts";
import { serialSweeper } from "./runtime/serial-sweeper.ts";
import type { SweepReport } from "./runtime/sweep.ts";
import { log } from "./runtime/tier-log.ts";
import { toTierError } from "./runtime/tier-error.ts";
import { workRoot } from "./runtime/tool-paths.ts";

const MAX_BODY_BYTES = 1_000_000;
/**
 * Jobs one instance runs at once (RENDER_MAX_JOBS). Past it a job is refused with 503 `busy`
 * (retryable), so a flood waits in the Workflows' step retries, not in this process's memory,
 * file descriptors and disk. Renders also queue for an encode slot per core (encode-slots.ts).
 * A request for a job already running (the same key) joins it and never counts twice.
 */
export const DEFAULT_MAX_JOBS = 16;
/** Jobs that are never refused: cheap, and they free resources. */
const ALWAYS_ACCEPTED: readonly JobName[] = ["cleanup"];
/** Jobs run again for every request: their answer may change (a source probed again, files removed again). */
const NOT_KEPT: readonly JobName[] = ["cleanup", "probe"];
/**
 * Jobs stopped as soon as their last caller leaves, instead of DEFAULT_ABANDON_MS later: a probe
 * answers one request that waits on it (the Worker's submission), nothing comes back for it, and a
 * slow URL would otherwise hold one of the probe instance's jobs 30 s more for nobody.
 */
const DROPPED_WHEN_LEFT: readonly JobName[] = ["probe"];
/**
 * A job whose caller left (a lost connection) keeps running this long for the Worker's retry to
 * join it (RENDER_ABANDON_SECONDS); then it is aborted and its files swept.
 */
export const DEFAULT_ABANDON_MS = 30_000;
/** A finished job's result answers the same request for this long (RENDER_KEEP_RESULTS_SECONDS). */
export const DEFAULT_KEEP_RESULTS_MS = 10 * 60_000;
/** A video's folder unchanged this long is swept whole (RENDER_SWEEP_IDLE_SECONDS): longer than a result is kept. */
export const DEFAULT_SWEEP_IDLE_MS = 15 * 60_000;
/** How often the work root is swept (RENDER_SWEEP_INTERVAL_SECONDS). */
export const DEFAULT_SWEEP_INTERVAL_MS = 5 * 60_000;

const refuse = (c: Context, status: ContentfulStatusCode, message: string) =>
	c.json({ error: { code: "invalid_request", message, retryable: false } satisfies RenderError }, status);

export interface RenderAppOptions {
	/** The secret the Worker signs job requests with; defaults to RENDER_SECRET (required). */
	secret?: string;
	/** Jobs run at once; defaults to RENDER_MAX_JOBS, else DEFAULT_MAX_JOBS. */
	maxJobs?: number;
	/** The startup self-check (self-check.ts) `/healthz` reports; none in tests that build the app themselves. */
	selfCheck?: Promise<SelfCheck>;
	/** Defaults to RENDER_ABANDON_SECONDS, else DEFAULT_ABANDON_MS. */
	abandonAfterMs?: number;
	/** Defaults to RENDER_KEEP_RESULTS_SECONDS, else DEFAULT_KEEP_RESULTS_MS. */
	keepResultsMs?: number;
	/** Defaults to RENDER_SWEEP_IDLE_SECONDS, else DEFAULT_SWEEP_IDLE_MS. */
	sweepIdleMs?: number;
}

/** The tier: its HTTP app, the jobs it runs, and the sweep of its work folder. */
export interface RenderTier {
	app: Hono<GuardEnv>;
	registry: JobRegistry;
	/** Removes what no running job holds (sweep.ts); one sweep at a time, a request during one runs after it. */
	sweep(): Promise<SweepReport>;
	/** From now on a new job is refused (503 busy, retryable); running and joined ones go on (a SIGTERM's drain). */
	drain(): void;
}

/**
 * The tier as a Hono app (tests and the Node server both serve it). Job routes run only for
 * requests signed by the Worker (request-guard.ts); `/healthz` answers anyone but a browser.
 */
export function createRenderApp(options: RenderAppOptions = {}): Hono<GuardEnv> {
	return createRenderTier(options).app;
}

export function createRenderTier(options: RenderAppOptions = {}): RenderTier {
	const secret = renderSecretFromEnv(options.secret === undefined ? process.env : { RENDER_SECRET: options.secret });
	// A misconfigured preset stops the tier here, named, instead of failing every render later.
	x264Preset();
	const app = new Hono<GuardEnv>();
	app.use("*", refuseBrowsers());
	app.get(HEALTH_PATH, healthRoute(options.selfCheck));
	const signedByWorker = requireWorkerSignature(secret);
	let draining = false;
	const maxJobs = options.maxJobs ?? (Number(process.env.RENDER_MAX_JOBS) || DEFAULT_MAX_JOBS);
	const idleMs = options.sweepIdleMs ?? secondsFromEnv("RENDER_SWEEP_IDLE_SECONDS", DEFAULT_SWEEP_IDLE_MS);
	const sweep = serialSweeper(() => registry.heldPaths(), idleMs);
	const registry = new JobRegistry({
		abandonAfterMs: options.abandonAfterMs ?? secondsFromEnv("RENDER_ABANDON_SECONDS", DEFAULT_ABANDON_MS),
		keepResultsMs: options.keepResultsMs ?? secondsFromEnv("RENDER_KEEP_RESULTS_SECONDS", DEFAULT_KEEP_RESULTS_MS),
		maxKeptResults: 200,
		// A job aborted before its end (every caller gone) may leave files its own cleanup did not reach.
		onEnded: ({ aborted }) => {
			if (aborted) void sweep();
		},
	});
	for (const name of JOB_NAMES) {
		const job = renderJobs[name];
		const bodyLimited = bodyLimit({ maxSize: MAX_BODY_BYTES, onError: (c) => refuse(c, 413, "Body too large.") });
		app.post(
			job.path,
			bodyLimited,
			signedByWorker,
			jobRoute(name, registry, maxJobs, () => draining),
		);
		app.all(job.path, (c) => refuse(c, 405, "Use POST."));
	}
	app.notFound((c) => refuse(c, 404, `No route ${c.req.method} ${c.req.path}`));
	app.onError((error, c) => {
		log("unhandled", { error: toTierError(error).message });
		return c.json(
			{ error: { code: "internal_error", message: "internal error", retryable: true } satisfies RenderError },
			500,
		);
	});
	return {
		app,
		registry,
		sweep,
		drain: () => {
			draining = true;
		},
	};
}

/** `/healthz`: ok, or 503 naming what the startup self-check found missing. */
function healthRoute(selfCheck: RenderAppOptions["selfCheck"]) {
	return async (c: Context<GuardEnv>) => {
		const check = await selfCheck;
		if (!check) return c.json({ ok: true });
		const { ok, problems, warnings, versions } = check;
		return c.json({ ok, problems, warnings, versions }, ok ? 200 : 503);
	};
}

/** The route of one job: validates the body, then answers from a kept result, a running job or a new one. */
function jobRoute(name: JobName, registry: JobRegistry, maxJobs: number, draining: () => boolean) {
	const job = renderJobs[name];
	// What this job of the contract does here (jobs/: one handler per row of the table).
	const handler = jobHandlers[name] as (
		input: unknown,
		onProgress: OnProgress,
		signal: AbortSignal,
	) => Promise<unknown>;
	return async (c: Context<GuardEnv>) => {
		const body: unknown = parseJson(c.var.rawBody);
		if (body === undefined) return refuse(c, 400, "The body is not JSON.");
		const parsed = job.request.safeParse(body);
		if (!parsed.success) return refuse(c, 400, parsed.error.message);
		const key = jobKey(name, parsed.data);
		const about = videoOf(parsed.data);
		const keep = !NOT_KEPT.includes(name);
		const kept = keep ? registry.keptResult(key) : undefined;
		const full = registry.runningCount >= maxJobs && !ALWAYS_ACCEPTED.includes(name);
		const fresh = !kept && !registry.isRunning(key);
		if (fresh && draining()) return drainingBusy(c);
		if (fresh && full) return busy(c, maxJobs);
		// A workspace's share of this job (WORKSPACE_JOB_LIMITS): its excess is its own 429, never a 503 for others.
		const share = workspaceShare(name, parsed.data);
		if (fresh && share && registry.runningFor(share.owner) >= share.limit)
			return workspaceBusy(c, name, share.limit);
		const work = loggedWork(job.path, about, (onProgress, signal) => handler(parsed.data, onProgress, signal));
		// A caller's connection closing (a lost connection, a step timeout) makes it leave the job;
		// the job stops when every caller has left and none came back (job-registry.ts).
		const connection = c.req.raw.signal;
		const outcome = (onProgress: OnProgress): Promise<unknown> => {
			if (kept) {
				log("job answered from its result", { ...about, path: job.path });
				return Promise.resolve(kept.result);
			}
			const abandonAfterMs = DROPPED_WHEN_LEFT.includes(name) ? 0 : undefined;
			const options = { keep, owner: share?.owner, abandonAfterMs };
			const attached = registry.attach(key, name, work, onProgress, connection, options);
			if (attached.joined) log("job joined", { ...about, path: job.path });
			return attached.promise;
		};
		return "progress" in job ? progressStream(outcome, about) : plainAnswer(c, outcome);
	};
}

/** The job's work, with its log line at the end: its time, the CPU its processes spent, whether it was cut. */
function loggedWork(path: string, about: { videoId?: string }, run: JobWork): JobWork {
	return async (onProgress, signal) => {
		const started = Date.now();
		try {
			return await run(onProgress, signal);
		} finally {
			const cpuMs = jobCpuMs(runningJob());
			log(path, { ...about, ms: Date.now() - started, cpuMs, aborted: signal.aborted || undefined });
		}
	};
}

/** Most jobs are a video's: its id in every line of the job finds them in the Containers logs. */
function videoOf(request: unknown): { videoId?: string } {
	const { videoId } = request as { videoId?: unknown };
	return typeof videoId === "string" ? { videoId } : {};
}

/** The share of the instance a job of a workspace counts against, for the jobs that have one. */
function workspaceShare(name: JobName, request: unknown): { owner: string; limit: number } | null {
	const limit = (WORKSPACE_JOB_LIMITS as Partial<Record<JobName, number>>)[name];
	const workspace = (request as { workspaceId?: unknown }).workspaceId;
	return limit !== undefined && typeof workspace === "string" ? { owner: `${name}:${workspace}`, limit } : null;
}

/** 429 `workspace_busy`: this workspace runs its share of this job here; the others are not refused for it. */
function workspaceBusy(c: Context, name: JobName, limit: number) {
	// A probe lasts seconds: the Worker asks again soon (a burst is taken a few at a time).
	c.header("Retry-After", "1");
	const message = `This workspace already runs ${limit} ${name} jobs on this instance, its share; retry when one has finished.`;
	return c.json({ error: { code: "workspace_busy", message, retryable: true } satisfies RenderError }, 429);
}

/** 503 `busy` (retryable): the tier runs its maximum of jobs. */
function busy(c: Context, maxJobs: number) {
	c.header("Retry-After", "5");
	const message = `The render tier is running its maximum of ${maxJobs} jobs; retry shortly.`;
	return c.json({ error: { code: "busy", message, retryable: true } satisfies RenderError }, 503);
}

/** 503 `busy` (retryable) while the instance drains: the Worker sends the job again on a new connection, to its successor. */
function drainingBusy(c: Context) {
	c.header("Retry-After", "2");
	c.header("Connection", "close");
	const message = "This render instance is shutting down (draining its jobs); retry on its successor.";
	return c.json({ error: { code: "busy", message, retryable: true } satisfies RenderError }, 503);
}

/**
 * SIGTERM, as a container platform sends it before SIGKILL (Cloudflare Containers: 15 minutes
 * later): stop listening, refuse new jobs on open connections, let the running ones end and answer
 * (their callers stay connected), then exit. A job still running at SIGKILL is cut as by any kill:
 * the Worker sends it again to the successor, and its files go with the instance's disk (or the
 * successor's startup sweep, locally).
 */
async function drainThenExit(server: Server, tier: RenderTier): Promise<void> {
	log("draining", { running: tier.registry.runningCount });
	tier.drain();
	server.close();
	server.closeIdleConnections();
	while (tier.registry.runningCount > 0) await new Promise((resolve) => setTimeout(resolve, 250));
	log("drained", {});
	process.exit(0);
}

/** A job without progress answers its result (or its error) as one JSON body. */
async function plainAnswer(c: Context, outcome: (onProgress: OnProgress) => Promise<unknown>) {
	try {
		return c.json(await outcome(() => {}));
	} catch (error) {
		const { status, ...tierError } = asRenderError(error);
		return c.json({ error: tierError }, status);
	}
}

/** A job with progress answers NDJSON through the contract's job protocol. */
function progressStream(outcome: (onProgress: OnProgress) => Promise<unknown>, about: { videoId?: string }): Response {
	return new Response(
		jobEventStream(outcome, (error) => {
			const { status: _status, ...tierError } = asRenderError(error);
			log("job failed", { ...about, code: tierError.code, message: tierError.message });
			return tierError;
		}),
		{ headers: NDJSON_HEADERS },
	);
}

/** A duration var in seconds (RENDER_…_SECONDS), in ms; unset or unreadable gives the default. */
function secondsFromEnv(name: string, fallbackMs: number): number {
	const seconds = Number(process.env[name]);
	return Number.isFinite(seconds) && seconds >= 0 && process.env[name] !== "" && process.env[name] !== undefined
		? seconds * 1000
		: fallbackMs;
}

/**
 * Idle keep-alive connections are kept this long. Longer than a client's own idle timeout (it reads
 * the `Keep-Alive: timeout` hint and lets go a little earlier), so the server never closes a
 * connection just as the client sends the next job on it (an ECONNRESET). Node's default is 5 s.
 */
const KEEP_ALIVE_MS = 65_000;

/** A Node HTTP server around the app, not yet listening. */
export function createRenderServer(options: RenderAppOptions = {}) {
	return serverFor(createRenderTier(options));
}

function serverFor(tier: RenderTier): Server {
	const server = createAdaptorServer({ fetch: tier.app.fetch }) as Server;
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
	return {
		code: tierError.code,
		message: tierError.message,
		retryable: tierError.retryable,
		status: tierError.status as ContentfulStatusCode,
	};
}

// Started directly (`node src/server.ts`): listen. Imported by tests: they call createRenderServer().
if (import.meta.url === `file://${process.argv[1]}`) {
	let tier: RenderTier;
	// Started at once, answered by /healthz when done (a second or so): tools, filters, fonts.
	const check = selfCheck();
	try {
		tier = createRenderTier({ selfCheck: check });
	} catch (error) {
		console.error((error as Error).message);
		process.exit(1);
	}
	void check.then((result) =>
		log(result.ok ? "self-check passed" : "self-check FAILED", {
			problems: result.problems,
			warnings: result.warnings,
			versions: result.versions,
			ytDlp: result.ytDlpPath,
		}),
	);
	const server = serverFor(tier);
	process.once("SIGTERM", () => void drainThenExit(server, tier));
	// A job paused for another workspace's (encode-slots.ts) says so in the log, and when it goes on.
	cpuSlots.observe = (event, hold) =>
		log(`cpu job ${event}`, { workspace: hold.workspace, video: hold.video, pausedMs: hold.pausedMs() });
	await mkdir(workRoot, { recursive: true });
	// What a killed predecessor left (no job runs yet), then again every interval.
	await tier.sweep();
	setInterval(
		() => void tier.sweep(),
		secondsFromEnv("RENDER_SWEEP_INTERVAL_SECONDS", DEFAULT_SWEEP_INTERVAL_MS),
	).unref();
	// Every tool reaches the network through this proxy (run-process.ts); it is up before any job.
	const egress = await egressProxy();
	const port = Number(process.env.PORT ?? 8788);
	// Loopback unless the operator says otherwise (the Container image sets RENDER_HOST=0.0.0.0).
	const host = process.env.RENDER_HOST || "127.0.0.1";
	server.listen(port, host, () => {
		const address = server.address();
		log("listening", {
			url:
				typeof address === "object" && address
					? `http://${address.address}:${address.port}`
					: `http://${host}:${port}`,
			workRoot,
			egressProxy: egress.url,
		});
	});
}
