import { describe, expect, it } from "vitest";
import { settingsOf } from "../../src/worker/settings";

describe("operator settings", () => {
	it("fall back to their defaults when missing, empty, zero or unreadable", () => {
		expect(settingsOf({})).toEqual({
			transcriber: "local", allowPrivateSources: false, audioChunkSeconds: 600, renderIdleTimeoutSeconds: 60, reconcileStaleMinutes: 10, maxConcurrentVideos: 2, maxQueuedVideos: 50,
		});
		expect(settingsOf({ MAX_CONCURRENT_VIDEOS: "-3", MAX_QUEUED_VIDEOS: "lots" })).toMatchObject({ maxConcurrentVideos: 1, maxQueuedVideos: 50 });
		expect(settingsOf({ AUDIO_CHUNK_SECONDS: "", RENDER_IDLE_TIMEOUT_SECONDS: "0", RECONCILE_STALE_MINUTES: "soon" })).toMatchObject({ audioChunkSeconds: 600, renderIdleTimeoutSeconds: 60, reconcileStaleMinutes: 10 });
	});

	it("read what the operator set", () => {
		const env = { TRANSCRIBER: "workers-ai", ALLOW_PRIVATE_SOURCES: "true", AUDIO_CHUNK_SECONDS: "300", RENDER_IDLE_TIMEOUT_SECONDS: "1", RECONCILE_STALE_MINUTES: "5", MAX_CONCURRENT_VIDEOS: "4", MAX_QUEUED_VIDEOS: "10" };
		expect(settingsOf(env)).toEqual({ transcriber: "workers-ai", allowPrivateSources: true, audioChunkSeconds: 300, renderIdleTimeoutSeconds: 1, reconcileStaleMinutes: 5, maxConcurrentVideos: 4, maxQueuedVideos: 10 });
		expect(settingsOf(env)).toBe(settingsOf(env)); // parsed once per env
	});
});
