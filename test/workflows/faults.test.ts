/**
 * A sick render tier: the workflow retries with backoff and either completes, or ends failed with
 * a precise errorMessage, every minute refunded, no clip rows and no stored objects left behind.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { renderJobs } from "@clipforge/contract";
import { balanceOf, createWorkspace, ledgerSum } from "../helpers/accounts";
import { call, submitAndProcess } from "../helpers/api";
import { useFakeRenderTier, type Fault } from "../helpers/fake-render-tier";
import { r2Keys } from "../../src/worker/services/r2-keys";

const fake = useFakeRenderTier({ introspect: false });

const url = () => `https://videos.example.com/f/${crypto.randomUUID()}.mp4`;
const config = { clipDurationMin: 10, clipDurationMax: 20 };

async function expectNothingLeft(videoId: string) {
	const clipRows = await env.DB.prepare("SELECT COUNT(*) AS n FROM clips WHERE video_id = ?")
		.bind(videoId)
		.first<number>("n");
	expect(clipRows).toBe(0);
	for (const prefix of r2Keys.videoPrefixes(videoId))
		expect((await env.MEDIA.list({ prefix })).objects, prefix).toHaveLength(0);
	// The video's folder on the tier (its download, audio, signals) is asked to go too.
	expect(
		fake().calls.filter(
			(c) => c.path === renderJobs.cleanup.path && (c.body as { videoId: string }).videoId === videoId,
		),
	).toHaveLength(1);
}

describe("transient render-tier faults are retried and the video completes", () => {
	const transient: [string, string, Fault[]][] = [
		["unreachable during download", renderJobs.download.path, ["unreachable", "unreachable"]],
		["HTTP 500 pages during upload", renderJobs.uploadSource.path, ["http500"]],
		["a garbage line during audio extraction", renderJobs.extractAudio.path, ["garbage"]],
		["killed mid-render (stream cut without a result)", renderJobs.renderClip.path, ["cut"]],
		[
			"connections lost mid-stream, again and again (a reset, as the platform's network does)",
			renderJobs.renderClip.path,
			["lost", "lost", "lost", "lost", "lost", "lost"],
		],
		[
			"connections lost and refused during transcription, more often than the step retries",
			renderJobs.transcribe.path,
			["lost", "unreachable", "lost", "unreachable", "lost"],
		],
		["wedged mid-render (silent past the idle timeout)", renderJobs.renderClip.path, ["hang"]],
		[
			"a crash while transcribing",
			renderJobs.transcribe.path,
			[{ code: "process_failed", message: "pocketsphinx exited with code 139", retryable: true }],
		],
	];
	for (const [name, path, faults] of transient) {
		it(name, async () => {
			const { apiKey, workspaceId } = await createWorkspace({ minutes: 10 });
			const hostedUrl = fake().addSource(url(), { duration: 60 });
			fake().failNext(path, ...faults);
			const videoId = await submitAndProcess(apiKey, hostedUrl, config);
			const { body } = await call("GET", `/api/videos/${videoId}/clips`, { key: apiKey });
			expect(body.status).toBe("completed");
			expect(body.count).toBeGreaterThan(0);
			for (const clip of body.clips)
				expect(await env.MEDIA.head(r2Keys.clipVideo(videoId, clip.id))).not.toBeNull();
			expect(await balanceOf(workspaceId)).toBe(9);
		});
	}
});

describe("persistent faults end in failed with a precise message, a full refund and nothing left", () => {
	const persistent: [string, string, Fault, RegExp][] = [
		[
			"the tier stays unreachable",
			renderJobs.download.path,
			"unreachable",
			/^Downloading the source failed: The render tier could not be reached: .*ECONNREFUSED/,
		],
		[
			"the tier answers 500 pages",
			renderJobs.uploadSource.path,
			"http500",
			/^Storing the source failed: The render tier answered 500: <html>/,
		],
		[
			"renders keep hanging",
			renderJobs.renderClip.path,
			"hang",
			/^Rendering a clip failed: The render tier stopped answering \(\/jobs\/render-clip\)\.$/,
		],
		[
			"renders keep being killed",
			renderJobs.renderClip.path,
			"cut",
			/^Rendering a clip failed: The render tier closed \/jobs\/render-clip without a result\.$/,
		],
		[
			"the tier reports a permanent error",
			renderJobs.extractAudio.path,
			{ code: "invalid_request", message: "The source has no audio track to extract.", retryable: false },
			/^Extracting the audio failed: The source has no audio track to extract\.$/,
		],
	];
	for (const [name, path, fault, message] of persistent) {
		it(name, async () => {
			const { apiKey, workspaceId } = await createWorkspace({ minutes: 10 });
			const hostedUrl = fake().addSource(url(), { duration: 60 });
			fake().failAlways(path, fault);
			const videoId = await submitAndProcess(apiKey, hostedUrl, config, "errored");
			const { body } = await call("GET", `/api/videos/${videoId}/status`, { key: apiKey });
			expect(body.video.status).toBe("failed");
			expect(body.video.errorMessage).toMatch(message);
			expect(await balanceOf(workspaceId)).toBe(10);
			expect(await ledgerSum(workspaceId)).toBe(10);
			await expectNothingLeft(videoId);
		});
	}

	it("a permanent error is not retried; a transient one is retried up to the step's limit", async () => {
		const { apiKey } = await createWorkspace();
		const permanent = fake().addSource(url(), { duration: 60 });
		fake().failAlways(renderJobs.download.path, {
			code: "unsupported_source",
			message: "The source answered HTTP 404.",
			retryable: false,
		});
		await submitAndProcess(apiKey, permanent, config, "errored");
		expect(fake().calls.filter((c) => c.path === renderJobs.download.path)).toHaveLength(1);

		fake().calls.length = 0;
		fake().failures.clear();
		const flaky = fake().addSource(url(), { duration: 60 });
		fake().failAlways(renderJobs.download.path, "http500");
		await submitAndProcess(apiKey, flaky, config, "errored");
		expect(fake().calls.filter((c) => c.path === renderJobs.download.path)).toHaveLength(4); // 1 + 3 retries
	});
});

describe("the tier's files of an ended video", () => {
	it("a cleanup refused for longer than one attempt (an instance draining until its successor is up) is sent again until taken", async () => {
		const { apiKey } = await createWorkspace({ minutes: 10 });
		const hostedUrl = fake().addSource(url(), { duration: 60 });
		// More refusals than one attempt's reconnection window sends (RENDER_RECONNECT_SECONDS 0.4: ~6).
		fake().failNext(renderJobs.cleanup.path, ...Array.from({ length: 20 }, () => "unreachable" as const));
		const videoId = await submitAndProcess(apiKey, hostedUrl, config);
		const { body } = await call("GET", `/api/videos/${videoId}/status`, { key: apiKey });
		expect(body.video.status).toBe("completed");
		expect(fake().failures.get(renderJobs.cleanup.path)).toHaveLength(0);
		const cleanups = fake().calls.filter(
			(c) => c.path === renderJobs.cleanup.path && (c.body as { videoId: string }).videoId === videoId,
		);
		expect(cleanups).toHaveLength(21);
	});
});

describe("sources that cannot give clips", () => {
	it("a video without an audio track is refused at submission (422), nothing charged", async () => {
		const { apiKey, workspaceId } = await createWorkspace({ minutes: 10 });
		const hostedUrl = fake().addSource(url(), { duration: 60, hasAudio: false });
		const result = await call("POST", "/api/videos/hosted", { key: apiKey, body: { hostedUrl, config } });
		expect(result.status).toBe(422);
		expect(result.body.error.message).toMatch(/no audio track/);
		expect(await balanceOf(workspaceId)).toBe(10);
	});

	it("a silent video ends failed with 'No speech was found', refunded, nothing left", async () => {
		const { apiKey, workspaceId } = await createWorkspace({ minutes: 10 });
		const hostedUrl = fake().addSource(url(), { duration: 60, silent: true });
		const videoId = await submitAndProcess(apiKey, hostedUrl, config, "errored");
		const { body } = await call("GET", `/api/videos/${videoId}/status`, { key: apiKey });
		expect(body.video.status).toBe("failed");
		expect(body.video.errorMessage).toMatch(/^No speech was found in the video/);
		expect(await balanceOf(workspaceId)).toBe(10);
		await expectNothingLeft(videoId);
	});
});
