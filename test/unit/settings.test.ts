import { describe, expect, it } from "vitest";
import { settingsOf } from "../../src/worker/settings";

describe("operator settings", () => {
	it("fall back to their defaults when missing, empty, zero or unreadable", () => {
		expect(settingsOf({})).toEqual({
			transcriber: "local", allowPrivateSources: false, audioChunkSeconds: 600, renderIdleTimeoutSeconds: 60, reconcileStaleMinutes: 10, dnsResolverUrl: "https://cloudflare-dns.com/dns-query",
		});
		expect(settingsOf({ AUDIO_CHUNK_SECONDS: "", RENDER_IDLE_TIMEOUT_SECONDS: "0", RECONCILE_STALE_MINUTES: "soon", DNS_RESOLVER_URL: "file:///etc/hosts" })).toMatchObject({
			audioChunkSeconds: 600, renderIdleTimeoutSeconds: 60, reconcileStaleMinutes: 10, dnsResolverUrl: "https://cloudflare-dns.com/dns-query",
		});
	});

	it("read what the operator set", () => {
		const env = { TRANSCRIBER: "workers-ai", ALLOW_PRIVATE_SOURCES: "true", AUDIO_CHUNK_SECONDS: "300", RENDER_IDLE_TIMEOUT_SECONDS: "1", RECONCILE_STALE_MINUTES: "5", DNS_RESOLVER_URL: "https://dns.google/resolve" };
		expect(settingsOf(env)).toEqual({
			transcriber: "workers-ai", allowPrivateSources: true, audioChunkSeconds: 300, renderIdleTimeoutSeconds: 1, reconcileStaleMinutes: 5, dnsResolverUrl: "https://dns.google/resolve",
		});
		expect(settingsOf(env)).toBe(settingsOf(env)); // parsed once per env
	});
});
