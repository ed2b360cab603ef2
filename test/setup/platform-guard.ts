/**
 * The limits Miniflare does not enforce, enforced on every Workers-runtime test (setup file of
 * vitest.config.ts and vitest.ai.config.ts):
 * - D1: more than 100 bound parameters, a statement over 100 KB or a value over 2 MB fails the
 *   query, as D1 would;
 *   more than 1,000 queries in one invocation (a request, a cron run, one workflow step) fails it;
 * - R2: more than 1,000 operations in one invocation (the platform's bound on calls to storage
 *   services from one invocation) fails it;
 * - Workflows: a step's result or an instance's params over 1 MiB fails that step or creation.
 * A violation also fails the test it happened in (afterEach), even when the code under test
 * swallowed the error. After each file, the largest values seen go to the console as one
 * `[platform-limits]` line, which the reporter (platform-limits-reporter.ts) sums up for the run.
 *
 * Invocations are told apart with AsyncLocalStorage: the Worker's fetch and scheduled handlers
 * and each workflow step's callback run inside their own context (wrapped here, in the same
 * module instances the test pool runs).
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { env } from "cloudflare:workers";
import { afterAll, afterEach, expect } from "vitest";
import worker, { ProcessVideoWorkflow } from "../../src/worker/index";
import { D1_LIMITS, R2_OPS_PER_INVOCATION, WORKFLOW_LIMITS } from "../helpers/platform-limits";

interface Invocation {
	label: string;
	queries: number;
	storageOps: number;
}

interface Largest {
	value: number;
	where: string;
}

type Measure =
	| "boundParameters"
	| "statementBytes"
	| "valueBytes"
	| "queriesPerInvocation"
	| "r2OpsPerInvocation"
	| "stepResultBytes"
	| "stepsPerInstance"
	| "paramsBytes";

/** One guard per isolate, whichever module instance of this file asks (prototypes are patched once). */
export interface PlatformGuard {
	largest: Record<Measure, Largest>;
	violations: string[];
	/** Runs `work` as one invocation of the Worker named `label` (for the guard's own tests). */
	within<T>(label: string, work: () => T): T;
}

const KEY = Symbol.for("clipforge.platformGuard");
const fresh = (): Record<Measure, Largest> => ({
	boundParameters: { value: 0, where: "" },
	statementBytes: { value: 0, where: "" },
	valueBytes: { value: 0, where: "" },
	queriesPerInvocation: { value: 0, where: "" },
	r2OpsPerInvocation: { value: 0, where: "" },
	stepResultBytes: { value: 0, where: "" },
	stepsPerInstance: { value: 0, where: "" },
	paramsBytes: { value: 0, where: "" },
});
const current = new AsyncLocalStorage<Invocation>();
const installed = (globalThis as Record<symbol, PlatformGuard | undefined>)[KEY];
export const guard: PlatformGuard = installed ?? {
	largest: fresh(),
	violations: [],
	within: (label, work) => current.run({ label, queries: 0, storageOps: 0 }, work),
};
const { violations } = guard;
const stepsOf = new Map<string, Set<string>>();
const encoder = new TextEncoder();

function see(key: Measure, value: number, where: string): void {
	if (value > guard.largest[key].value) guard.largest[key] = { value, where };
}

/** Records the violation and throws it where the platform would. */
function refuse(message: string): never {
	violations.push(message);
	throw new Error(message);
}

const shortSql = (sql: string) => sql.replace(/\s+/g, " ").slice(0, 120);

function checkStatement(sql: string, params: unknown[]): void {
	const bytes = encoder.encode(sql).length;
	see("boundParameters", params.length, shortSql(sql));
	see("statementBytes", bytes, shortSql(sql));
	const largestValue = Math.max(
		0,
		...params.map((p) =>
			typeof p === "string"
				? encoder.encode(p).length
				: p instanceof ArrayBuffer || ArrayBuffer.isView(p)
					? p.byteLength
					: 8,
		),
	);
	see("valueBytes", largestValue, shortSql(sql));
	if (largestValue > D1_LIMITS.valueBytes)
		refuse(
			`D1_ERROR: a value of ${largestValue} bytes (D1 stores at most ${D1_LIMITS.valueBytes} per row or value) in ${shortSql(sql)}`,
		);
	if (params.length > D1_LIMITS.boundParameters)
		refuse(
			`D1_ERROR: too many SQL variables: ${params.length} bound parameters (D1 takes ${D1_LIMITS.boundParameters}) in ${shortSql(sql)}`,
		);
	if (bytes > D1_LIMITS.statementBytes)
		refuse(
			`D1_ERROR: statement too long: ${bytes} bytes (D1 takes ${D1_LIMITS.statementBytes}) in ${shortSql(sql)}`,
		);
}

function countQueries(n: number): void {
	const invocation = current.getStore();
	if (!invocation) return; // the test's own setup and assertions: not an invocation of the Worker
	invocation.queries += n;
	see("queriesPerInvocation", invocation.queries, invocation.label);
	if (invocation.queries > D1_LIMITS.queriesPerInvocation)
		refuse(`D1: more than ${D1_LIMITS.queriesPerInvocation} queries in one invocation (${invocation.label})`);
}

function countStorageOp(operation: string): void {
	const invocation = current.getStore();
	if (!invocation) return;
	invocation.storageOps++;
	see("r2OpsPerInvocation", invocation.storageOps, invocation.label);
	if (invocation.storageOps > R2_OPS_PER_INVOCATION)
		refuse(
			`R2: more than ${R2_OPS_PER_INVOCATION} operations in one invocation (${invocation.label}, at ${operation})`,
		);
}

/** Every R2 call the Worker makes goes through the bucket binding's methods. */
function guardR2(): void {
	const bucketProto = Object.getPrototypeOf(env.MEDIA) as Record<string, (...args: unknown[]) => unknown>;
	for (const method of ["head", "get", "put", "delete", "list", "createMultipartUpload"]) {
		const original = bucketProto[method];
		if (typeof original !== "function") continue;
		bucketProto[method] = function (this: unknown, ...args: unknown[]) {
			countStorageOp(method);
			return original.apply(this, args);
		};
	}
}

type Statement = { statement: string; params: unknown[] };

function guardD1(): void {
	const statementProto = Object.getPrototypeOf(env.DB.prepare("SELECT 1")) as Record<
		string,
		(...args: unknown[]) => unknown
	>;
	for (const method of ["first", "run", "all", "raw"]) {
		const original = statementProto[method]!;
		statementProto[method] = function (this: Statement, ...args: unknown[]) {
			checkStatement(this.statement, this.params);
			countQueries(1);
			return original.apply(this, args);
		};
	}
	// A batch is one round trip but each of its statements is a query. The database's batch runs
	// through a session's, so only the session's is counted (both when called directly).
	const sessionProto = Object.getPrototypeOf(env.DB.withSession()) as {
		batch: (statements: Statement[]) => Promise<unknown>;
	};
	const batch = sessionProto.batch;
	sessionProto.batch = function (this: unknown, statements: Statement[]) {
		for (const s of statements) checkStatement(s.statement, s.params);
		countQueries(statements.length);
		return batch.call(this, statements);
	};
}

const within = <T>(label: string, work: () => T): T => guard.within(label, work);

function guardInvocations(): void {
	const handlers = worker as unknown as Record<string, (...args: unknown[]) => unknown>;
	const fetch = handlers.fetch!;
	handlers.fetch = (request, ...rest) => {
		const { method, url } = request as Request;
		return within(`${method} ${new URL(url).pathname}`, () => fetch(request, ...rest));
	};
	const scheduled = handlers.scheduled!;
	handlers.scheduled = (...args) => within("cron", () => scheduled(...args));

	const run = ProcessVideoWorkflow.prototype.run;
	ProcessVideoWorkflow.prototype.run = function (this: ProcessVideoWorkflow, event, step) {
		const instance = (event as { instanceId?: string }).instanceId ?? "instance";
		see("paramsBytes", encoder.encode(JSON.stringify(event.payload)).length, instance);
		const steps = stepsOf.get(instance) ?? new Set<string>();
		stepsOf.set(instance, steps);
		const counted = (name: string) => {
			steps.add(name);
			see("stepsPerInstance", steps.size, instance);
		};
		const guarded = new Proxy(step, {
			get(target, key, receiver) {
				const value = Reflect.get(target, key, receiver) as unknown;
				if (typeof value !== "function") return value;
				if (key === "do") {
					return (name: string, ...rest: unknown[]) => {
						counted(name);
						const callback = rest.pop() as (...a: unknown[]) => Promise<unknown>;
						const measured = (...a: unknown[]) =>
							within(`step "${name}" of ${instance}`, async () => {
								const result = await callback(...a);
								const bytes = result === undefined ? 0 : encoder.encode(JSON.stringify(result)).length;
								see("stepResultBytes", bytes, `step "${name}"`);
								if (bytes > WORKFLOW_LIMITS.stepResultBytes)
									refuse(
										`Workflows: step "${name}" returned ${bytes} bytes (a step's result may be ${WORKFLOW_LIMITS.stepResultBytes})`,
									);
								return result;
							});
						// The step is an RPC stub: its methods are called through Reflect, never looked up (`.call` would be an RPC property).
						return Reflect.apply(value, target, [name, ...rest, measured]);
					};
				}
				if (key === "sleep" || key === "sleepUntil" || key === "waitForEvent") {
					return (name: string, ...rest: unknown[]) => {
						counted(name);
						return Reflect.apply(value, target, [name, ...rest]);
					};
				}
				return (...args: unknown[]) => Reflect.apply(value, target, args);
			},
		});
		return run.call(this, event, guarded);
	};

	const workflowProto = Object.getPrototypeOf(env.PROCESS_VIDEO) as {
		create: (options?: { id?: string; params?: unknown }) => Promise<unknown>;
	};
	const create = workflowProto.create;
	workflowProto.create = function (this: unknown, options) {
		const bytes = options?.params === undefined ? 0 : encoder.encode(JSON.stringify(options.params)).length;
		see("paramsBytes", bytes, options?.id ?? "instance");
		if (bytes > WORKFLOW_LIMITS.stepResultBytes)
			refuse(`Workflows: instance params of ${bytes} bytes (at most ${WORKFLOW_LIMITS.stepResultBytes})`);
		return create.call(this, options);
	};
}

if (!installed) {
	(globalThis as Record<symbol, PlatformGuard>)[KEY] = guard;
	guardD1();
	guardR2();
	guardInvocations();
}

afterEach(() => {
	const seen = violations.splice(0);
	expect(seen, "Cloudflare platform limits exceeded (test/setup/platform-guard.ts)").toEqual([]);
});

afterAll(() => {
	console.log(`[platform-limits] ${JSON.stringify(guard.largest)}`);
	guard.largest = fresh();
});
