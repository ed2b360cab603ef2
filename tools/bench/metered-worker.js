/**
 * The Worker as bench:pipeline runs it (`wrangler dev tools/bench/metered-worker.js --env local`):
 * the real one (src/worker/index.ts), unchanged, with every billed use counted as it happens, so a
 * run can say what one video used of each (bench:cost prices it):
 *
 * - requests: each fetch the Worker answers, by route family (the API, the render tier's signed
 *   /internal/objects calls, the rest), and each cron run;
 * - D1: queries, and the rows read and written as D1 itself reports them (each answer's
 *   `meta.rows_read` / `meta.rows_written`, which the local D1 computes as the service does);
 * - R2: each operation by its price class (A: writes and lists; B: reads; free: deletes and aborts);
 * - Workflows: instances run (invocations) and steps by name.
 *
 * D1 and R2 are also counted per stage (`byStage`): the workflow step they ran in (numbers in a
 * step's name folded: "render clip # of #"), "api" for requests to the API, and "internal <prefix>"
 * for the render tier's signed object reads and writes (by the key's first segment: sources, audio,
 * clips…), whose own requests are counted there too.
 *
 * `GET /__meter` answers the counts so far; `GET /__meter?reset=1` answers them and starts again;
 * `GET /__meter/stored` lists the bucket's objects by key prefix with their bytes. JavaScript, not
 * TypeScript: it runs in workerd, which the tools' Node-typed project does not describe.
 */
/* global URL, Response */
import { AsyncLocalStorage } from "node:async_hooks";
import { env } from "cloudflare:workers";
import worker, { ProcessVideoWorkflow, RenderContainer } from "../../src/worker/index";
import { STATUS_POLLS } from "./stage-names.ts";

export { ProcessVideoWorkflow, RenderContainer };

const fresh = () => ({
	since: new Date().toISOString(),
	requests: { api: 0, internal: 0, other: 0, cron: 0 },
	d1: { queries: 0, batches: 0, rowsRead: 0, rowsWritten: 0 },
	r2: { classA: 0, classB: 0, free: 0, byMethod: {} },
	workflows: { runs: 0, steps: 0, byStep: {} },
	byStage: {},
});
let meter = fresh();
/** The stage the running code counts against (a step, "api", "internal <prefix>", "cron"). */
const stage = new AsyncLocalStorage();

function stageCounts() {
	const name = stage.getStore() ?? "other";
	return (meter.byStage[name] ??= { requests: 0, d1Queries: 0, rowsRead: 0, rowsWritten: 0, r2A: 0, r2B: 0 });
}

/** Sums the rows of one D1 answer (an array for a batch). */
function seeD1(results) {
	for (const result of Array.isArray(results) ? results : [results]) {
		const meta = result?.meta;
		if (!meta) continue;
		const read = Number(meta.rows_read ?? 0);
		const written = Number(meta.rows_written ?? 0);
		meter.d1.rowsRead += read;
		meter.d1.rowsWritten += written;
		const counts = stageCounts();
		counts.rowsRead += read;
		counts.rowsWritten += written;
	}
}

/** Every statement, batch and session goes through the session's two senders (workerd's d1-api). */
function meterD1() {
	const session = Object.getPrototypeOf(env.DB.withSession());
	for (const method of ["_send", "_queryOrThrow"]) {
		const original = session[method];
		if (typeof original !== "function") continue;
		session[method] = async function (...args) {
			const statements = Array.isArray(args[1]) ? args[1].length : (args[0]?.queries?.length ?? 1);
			meter.d1.queries += statements;
			stageCounts().d1Queries += statements;
			if (statements > 1) meter.d1.batches++;
			const results = await original.apply(this, args);
			seeD1(results);
			return results;
		};
	}
}

const R2_CLASS = {
	head: "classB",
	get: "classB",
	put: "classA",
	list: "classA",
	createMultipartUpload: "classA",
	uploadPart: "classA",
	complete: "classA",
	delete: "free",
	abort: "free",
};

function countR2(method) {
	meter.r2[R2_CLASS[method]]++;
	const counts = stageCounts();
	if (R2_CLASS[method] === "classA") counts.r2A++;
	if (R2_CLASS[method] === "classB") counts.r2B++;
	meter.r2.byMethod[method] = (meter.r2.byMethod[method] ?? 0) + 1;
}

function meterR2() {
	const wrap = (proto, methods) => {
		for (const method of methods) {
			const original = proto[method];
			if (typeof original !== "function") continue;
			proto[method] = function (...args) {
				countR2(method);
				return original.apply(this, args);
			};
		}
	};
	wrap(Object.getPrototypeOf(env.MEDIA), ["head", "get", "put", "list", "delete", "createMultipartUpload"]);
	// A multipart upload's own calls (resuming one makes no request).
	wrap(Object.getPrototypeOf(env.MEDIA.resumeMultipartUpload("meter-probe", "meter-probe")), [
		"uploadPart",
		"complete",
		"abort",
	]);
}

function meterWorkflows() {
	const run = ProcessVideoWorkflow.prototype.run;
	ProcessVideoWorkflow.prototype.run = function (event, step) {
		meter.workflows.runs++;
		const counted = new Proxy(step, {
			get(target, key, receiver) {
				const value = Reflect.get(target, key, receiver);
				if (typeof value !== "function") return value;
				if (key === "do" || key === "sleep" || key === "sleepUntil" || key === "waitForEvent") {
					return (name, ...rest) => {
						meter.workflows.steps++;
						const kind = String(name).replace(/\d+/g, "#");
						meter.workflows.byStep[kind] = (meter.workflows.byStep[kind] ?? 0) + 1;
						const callback = rest.at(-1);
						if (key === "do" && typeof callback === "function")
							rest[rest.length - 1] = (...a) => stage.run(kind, () => callback(...a));
						// The step is an RPC stub: called through Reflect, never looked up.
						return Reflect.apply(value, target, [name, ...rest]);
					};
				}
				return (...args) => Reflect.apply(value, target, args);
			},
		});
		return run.call(this, event, counted);
	};
}

meterD1();
meterR2();
meterWorkflows();

/** The bucket's objects by the first segment of their key, with their bytes. */
async function stored() {
	const byPrefix = {};
	let cursor;
	do {
		const page = await env.MEDIA.list({ cursor, limit: 1000 });
		for (const object of page.objects) {
			const prefix = object.key.split("/")[0];
			const entry = (byPrefix[prefix] ??= { objects: 0, bytes: 0 });
			entry.objects++;
			entry.bytes += object.size;
		}
		cursor = page.truncated ? page.cursor : undefined;
	} while (cursor);
	return byPrefix;
}

export default {
	async fetch(request, environment, context) {
		const url = new URL(request.url);
		if (url.pathname === "/__meter") {
			const now = meter;
			if (url.searchParams.get("reset") === "1") meter = fresh();
			return Response.json({ ...now, until: new Date().toISOString() });
		}
		if (url.pathname === "/__meter/stored") return Response.json(await stored());
		const family = url.pathname.startsWith("/api/")
			? "api"
			: url.pathname.startsWith("/internal/")
				? "internal"
				: "other";
		meter.requests[family]++;
		// The bench's own status polls apart from the rest of the API: how many of them the status
		// cache answered depends on the bench's polling pace, not on what the video costs.
		const name =
			family === "internal"
				? `internal ${decodeURIComponent(url.pathname.replace(/^\/internal\/objects\//, "")).split("/")[0]}`
				: request.method === "GET" && /^\/api\/videos\/[^/]+\/status$/.test(url.pathname)
					? STATUS_POLLS
					: family;
		return stage.run(name, () => {
			stageCounts().requests++;
			return worker.fetch(request, environment, context);
		});
	},
	scheduled(controller, environment, context) {
		meter.requests.cron++;
		return stage.run("cron", () => worker.scheduled(controller, environment, context));
	},
};
