/**
 * The operator's smoke check of a deployment (`npm run smoke`, routes/admin/smoke/): every
 * binding used for real, once, with what it answered in words. Everything it stores lives under
 * `smoke/<runId>/` in R2 and is deleted by the run itself (the CLI's DELETE, after it fetched the
 * signed download) or, if the CLI never comes back, by the cron an hour later. The workflow
 * instance it creates runs one step and ends `complete`; Workflows keeps its record for its
 * retention period, as for every instance.
 */
import { createLlm } from "../llm/client";
import type { LlmClient } from "@clipforge/moments/llm";
import { createRenderClient, renderHealth, RenderTierError } from "../render-client";
import { renderInstance } from "../render-instances";
import { signInternalObjectUrl, signSmokeDownloadUrl } from "../signing";
import { createTranscriber } from "../transcription/transcriber";
import { settingsOf } from "../../settings";
import { getDb } from "../../db/client";
import { CORE_TABLES, schemaHealth } from "../../db/health";
import { SMALL_PNG, toneWav } from "./fixtures";

export type CheckStatus = "ok" | "failed" | "skipped";

export interface CheckResult {
	name: string;
	status: CheckStatus;
	/** What was done and what came back, or what is wrong and what to do about it. */
	detail: string;
	ms: number;
}

export interface SmokeReport {
	runId: string;
	ok: boolean;
	checks: CheckResult[];
	/** A signed download of a stored object, for the caller to fetch from outside (then DELETE the run). */
	download: { url: string; bytes: number; sha256: string };
}

/** Where a run's objects live. */
export const smokePrefix = (runId: string) => `smoke/${runId}/`;
/** The smoke workflow instance's payload (process-video.ts runs one step for it). */
export const SMOKE_WORKFLOW_TIMEOUT_MS = 90_000;
const DOWNLOAD_BYTES = 64 * 1024;

const messageOf = (error: unknown) =>
	(error instanceof Error ? error.message : String(error)).replace(/\s+/g, " ").slice(0, 300);

async function timed(name: string, run: () => Promise<{ status?: CheckStatus; detail: string }>): Promise<CheckResult> {
	const started = Date.now();
	try {
		const { status = "ok", detail } = await run();
		return { name, status, detail, ms: Date.now() - started };
	} catch (error) {
		return { name, status: "failed", detail: messageOf(error), ms: Date.now() - started };
	}
}

async function sha256(bytes: Uint8Array): Promise<string> {
	return Array.from(new Uint8Array(await crypto.subtle.digest("SHA-256", bytes)), (b) =>
		b.toString(16).padStart(2, "0"),
	).join("");
}

function d1Check(env: Env): Promise<CheckResult> {
	return timed("D1", async () => {
		const health = await schemaHealth(getDb(env));
		if (health.coreTables < CORE_TABLES.length)
			throw new Error(
				"D1 answers, but the schema is missing or partial: apply the migrations (npm run predeploy).",
			);
		return { detail: `read the schema and ${health.workspaces} workspace(s)` };
	});
}

function r2Check(env: Env, runId: string): Promise<CheckResult> {
	return timed("R2", async () => {
		const key = `${smokePrefix(runId)}probe.bin`;
		const bytes = crypto.getRandomValues(new Uint8Array(4096));
		await env.MEDIA.put(key, bytes);
		const back = await env.MEDIA.get(key);
		const read = back ? new Uint8Array(await back.arrayBuffer()) : null;
		await env.MEDIA.delete(key);
		if (!read || (await sha256(read)) !== (await sha256(bytes)))
			throw new Error("R2 stored the object but gave back other bytes.");
		if (await env.MEDIA.head(key)) throw new Error("R2 kept the object after it was deleted.");
		return { detail: "put, got back the same 4,096 bytes, deleted" };
	});
}

function transcriptionCheck(env: Env, runId: string): Promise<CheckResult> {
	const transcriber = settingsOf(env).transcriber;
	return timed(
		transcriber === "workers-ai" ? "Workers AI: Whisper" : "Transcription (local, in the render tier)",
		async () => {
			const key = `${smokePrefix(runId)}tone.wav`;
			await env.MEDIA.put(key, toneWav(2), { httpMetadata: { contentType: "audio/wav" } });
			try {
				const result = await createTranscriber(env).transcribeChunk({ videoId: `smoke-${runId}`, key }, "en");
				return {
					detail: `2 s of audio transcribed (${result.segments.length} segment(s), language ${result.language})`,
				};
			} finally {
				await env.MEDIA.delete(key);
			}
		},
	);
}

const SMOKE_SCHEMA = {
	name: "smoke",
	schema: { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"], additionalProperties: false },
};

function llmChecks(env: Env): Promise<CheckResult>[] {
	const models = [
		{ strength: "fast" as const, variable: "LLM_FAST_MODEL", clipModel: "ClipBasic" },
		{ strength: "strong" as const, variable: "LLM_MODEL", clipModel: "ClipPro" },
	];
	return models.map(({ strength, variable, clipModel }) =>
		timed(`LLM for ${clipModel} (${variable})`, async () => {
			// One retry on capacity, not the analysis's three: the smoke check reports, it does not insist.
			const llm: LlmClient | null = createLlm(env, strength, { delaysMs: [2_000] });
			if (!llm)
				return {
					status: "skipped",
					detail: `no LLM is configured (no AI binding, no LLM_BASE_URL): ${clipModel} ranks with the offline ranker`,
				};
			const answer = await llm.complete(
				[
					{ role: "system", content: "You check that JSON mode works." },
					{ role: "user", content: 'Answer {"ok": true}.' },
				],
				SMOKE_SCHEMA,
				{ maxTokens: 20 },
			);
			const value =
				typeof answer === "string" ? JSON.parse(answer.replace(/^\s*```(?:json)?|```\s*$/g, "")) : answer;
			if ((value as { ok?: unknown } | null)?.ok !== true)
				throw new Error(
					`${llm.name} answered in JSON mode, but not {"ok": true}: ${JSON.stringify(value).slice(0, 120)}`,
				);
			return { detail: `${llm.name} answered {"ok": true} in JSON mode` };
		}),
	);
}

function renderCheck(env: Env, runId: string): Promise<CheckResult> {
	return timed("Render tier (container)", async () => {
		const instance = renderInstance.import("smoke");
		const health = await renderHealth(env, instance);
		const body = health.body as { problems?: string[]; versions?: { ffmpeg?: string; ytDlp?: string } } | string;
		if (health.status !== 200) {
			const problems =
				typeof body === "object" && body.problems?.length
					? body.problems.join(" ")
					: JSON.stringify(body).slice(0, 200);
			throw new Error(`its health check answered ${health.status}: ${problems}`);
		}
		// A signed job both ways through this Worker's signed URLs: RENDER_SECRET, SIGNING_SECRET and INTERNAL_BASE_URL as the tier sees it.
		const source = `${smokePrefix(runId)}mark.png`;
		const output = `${smokePrefix(runId)}mark-imported.png`;
		await env.MEDIA.put(source, SMALL_PNG, { httpMetadata: { contentType: "image/png" } });
		try {
			const [url, putUrl] = await Promise.all([
				signInternalObjectUrl(env, source, "GET"),
				signInternalObjectUrl(env, output, "PUT"),
			]);
			const imported = await createRenderClient(env, instance).run("importMedia", {
				kind: "watermark",
				url,
				putUrl,
			});
			if (!(await env.MEDIA.head(output)))
				throw new Error("the tier answered, but nothing was stored through the signed PUT URL");
			const versions =
				typeof body === "object" && body.versions
					? ` (ffmpeg ${body.versions.ffmpeg ?? "?"}, yt-dlp ${body.versions.ytDlp ?? "?"})`
					: "";
			return {
				detail: `healthy${versions}; fetched a picture from ${env.INTERNAL_BASE_URL} and stored its ${imported.width}x${imported.height} conversion back`,
			};
		} catch (error) {
			if (error instanceof RenderTierError && error.code === "unauthorized")
				throw new Error(
					`the tier refused the Worker's signature: set the same RENDER_SECRET on both (${error.message})`,
				);
			throw error;
		} finally {
			await Promise.all([env.MEDIA.delete(source), env.MEDIA.delete(output)]);
		}
	});
}

function workflowCheck(env: Env, runId: string): Promise<CheckResult> {
	return timed("Workflows", async () => {
		const instance = await env.PROCESS_VIDEO.create({
			id: `smoke-${runId}`,
			params: { kind: "smoke", videoId: `smoke-${runId}` },
		});
		const deadline = Date.now() + SMOKE_WORKFLOW_TIMEOUT_MS;
		for (;;) {
			const { status, error } = await instance.status();
			if (status === "complete") return { detail: `instance ${instance.id} created, ran its step and completed` };
			if (status === "errored" || status === "terminated")
				throw new Error(`instance ${instance.id} ended ${status}: ${error?.message ?? "no error given"}`);
			if (Date.now() > deadline)
				throw new Error(
					`instance ${instance.id} was still ${status} after ${SMOKE_WORKFLOW_TIMEOUT_MS / 1000} s`,
				);
			await new Promise((resolve) => setTimeout(resolve, 500));
		}
	});
}

/** Every check at once (each reports its own failure), plus the object for the signed download. */
export async function runSmokeChecks(env: Env, origin: string, runId: string): Promise<SmokeReport> {
	const checks = await Promise.all([
		d1Check(env),
		r2Check(env, runId),
		transcriptionCheck(env, runId),
		...llmChecks(env),
		renderCheck(env, runId),
		workflowCheck(env, runId),
	]);
	const key = `${smokePrefix(runId)}download.bin`;
	const bytes = crypto.getRandomValues(new Uint8Array(DOWNLOAD_BYTES));
	await env.MEDIA.put(key, bytes, { httpMetadata: { contentType: "application/octet-stream" } });
	const url = await signSmokeDownloadUrl(env, origin, runId, key);
	return {
		runId,
		ok: checks.every((c) => c.status !== "failed"),
		checks,
		download: { url, bytes: bytes.length, sha256: await sha256(bytes) },
	};
}

/** Deletes everything the run stored; answers how many objects were left before (and 0 after). */
export async function removeSmokeObjects(bucket: R2Bucket, prefix: string): Promise<number> {
	let removed = 0;
	for (let cursor: string | undefined; ;) {
		const page = await bucket.list({ prefix, cursor });
		if (page.objects.length > 0) await bucket.delete(page.objects.map((o) => o.key));
		removed += page.objects.length;
		if (!page.truncated) return removed;
		cursor = page.cursor;
	}
}

/** The cron's sweep: smoke runs whose CLI never came back to delete them, an hour on. */
export async function purgeStaleSmokeRuns(bucket: R2Bucket, now = Date.now()): Promise<number> {
	const page = await bucket.list({ prefix: "smoke/", limit: 1000 });
	const stale = page.objects.filter((o) => now - o.uploaded.getTime() > 60 * 60_000).map((o) => o.key);
	if (stale.length > 0) await bucket.delete(stale);
	return stale.length;
}
