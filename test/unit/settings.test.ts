import { describe, expect, it } from "vitest";
import { settingsOf, sourceLimitsFor } from "../../src/worker/settings";

describe("operator settings", () => {
	it("fall back to their defaults when missing, empty, zero or unreadable", () => {
		expect(settingsOf({})).toEqual({
			transcriber: "local",
			allowPrivateSources: false,
			audioChunkSeconds: 600,
			renderIdleTimeoutSeconds: 60,
			reconcileStaleMinutes: 10,
			dnsResolverUrl: "https://cloudflare-dns.com/dns-query",
			maxConcurrentVideos: 2,
			maxQueuedVideos: 50,
			sourceRetentionDays: 7,
			// A small deployment's fan-out (a two-core machine's); production's is in wrangler.toml.
			fanOut: { transcriptions: 2, renders: 3 },
			instances: { video: 4, render: 3 },
			sourceLimits: { maxPixels: 4096 * 2160, maxBytes: 4 * 1024 ** 3 },
			imageLimits: { maxPixels: 4096 * 4096, maxBytes: 20 * 1024 ** 2 },
			backgroundLimits: { maxPixels: 4096 * 2160, maxBytes: 512 * 1024 ** 2 },
		});
		expect(settingsOf({ MAX_CONCURRENT_VIDEOS: "-3", MAX_QUEUED_VIDEOS: "lots" })).toMatchObject({
			maxConcurrentVideos: 1,
			maxQueuedVideos: 50,
		});
		expect(
			settingsOf({ RENDER_PARALLELISM: "0.5", TRANSCRIBE_PARALLELISM: "-1", RENDER_INSTANCES: "many" }),
		).toMatchObject({ fanOut: { renders: 1, transcriptions: 1 }, instances: { render: 3 } });
		expect(
			settingsOf({
				AUDIO_CHUNK_SECONDS: "",
				RENDER_IDLE_TIMEOUT_SECONDS: "0",
				RECONCILE_STALE_MINUTES: "soon",
				DNS_RESOLVER_URL: "file:///etc/hosts",
			}),
		).toMatchObject({
			audioChunkSeconds: 600,
			renderIdleTimeoutSeconds: 60,
			reconcileStaleMinutes: 10,
			dnsResolverUrl: "https://cloudflare-dns.com/dns-query",
		});
	});

	it("read what the operator set", () => {
		const env = {
			TRANSCRIBER: "workers-ai",
			ALLOW_PRIVATE_SOURCES: "true",
			AUDIO_CHUNK_SECONDS: "300",
			RENDER_IDLE_TIMEOUT_SECONDS: "1",
			RECONCILE_STALE_MINUTES: "5",
			DNS_RESOLVER_URL: "https://dns.google/resolve",
			MAX_CONCURRENT_VIDEOS: "4",
			MAX_QUEUED_VIDEOS: "10",
			SOURCE_RETENTION_DAYS: "30",
			TRANSCRIBE_PARALLELISM: "16",
			RENDER_PARALLELISM: "32",
			VIDEO_INSTANCES: "8",
			RENDER_INSTANCES: "32",
		};
		expect(settingsOf(env)).toMatchObject({
			transcriber: "workers-ai",
			allowPrivateSources: true,
			audioChunkSeconds: 300,
			renderIdleTimeoutSeconds: 1,
			reconcileStaleMinutes: 5,
			dnsResolverUrl: "https://dns.google/resolve",
			maxConcurrentVideos: 4,
			maxQueuedVideos: 10,
			sourceRetentionDays: 30,
			fanOut: { transcriptions: 16, renders: 32 },
			instances: { video: 8, render: 32 },
		});
		expect(settingsOf(env)).toBe(settingsOf(env)); // parsed once per env
	});

	it("input limits: the operator's vars, and a plan's own limits over them", () => {
		const env = {
			MAX_SOURCE_PIXELS: "921600",
			MAX_SOURCE_BYTES: "1000000",
			MAX_IMAGE_PIXELS: "1000",
			MAX_IMAGE_BYTES: "2000",
			MAX_BACKGROUND_BYTES: "3000",
		};
		expect(settingsOf(env)).toMatchObject({
			sourceLimits: { maxPixels: 921600, maxBytes: 1000000 },
			imageLimits: { maxPixels: 1000, maxBytes: 2000 },
			backgroundLimits: { maxPixels: 921600, maxBytes: 3000 },
		});
		expect(sourceLimitsFor(env, null)).toEqual({ maxPixels: 921600, maxBytes: 1000000 });
		expect(sourceLimitsFor(env, { maxSourcePixels: 100, maxSourceBytes: null })).toEqual({
			maxPixels: 100,
			maxBytes: 1000000,
		});
		expect(sourceLimitsFor({}, { maxSourcePixels: null, maxSourceBytes: 5 })).toEqual({
			maxPixels: 4096 * 2160,
			maxBytes: 5,
		});
	});
});
