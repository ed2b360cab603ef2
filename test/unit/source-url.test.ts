import { describe, expect, it } from "vitest";
import { isPrivateAddress } from "@clipforge/contract";
import { ApiError } from "../../src/worker/errors";
import { minutesFor } from "../../src/worker/domain/minutes";
import { parseSourceUrl } from "../../src/worker/services/source-url";
import { defaultConfig } from "../../src/worker/domain/video-config";

describe("parseSourceUrl in production (ALLOW_PRIVATE_SOURCES=false)", () => {
	const prod = { ALLOW_PRIVATE_SOURCES: "false" };
	for (const url of [
		"http://127.0.0.1/a.mp4",
		"http://localhost:8080/a",
		"http://10.0.0.5/a",
		"http://169.254.169.254/latest/meta-data",
		"http://[::1]/a",
		"http://[fd00::1]/a",
		"http://100.64.1.1/a",
		"http://192.168.1.1/a",
		"http://metadata.google.internal/x",
	]) {
		it(`refuses ${url}`, () => {
			expect(() => parseSourceUrl(url, prod)).toThrow(ApiError);
		});
	}
	it("accepts a public https URL", () => {
		expect(parseSourceUrl("https://videos.example.com/watch?v=1", prod).hostname).toBe("videos.example.com");
	});
	it("allows loopback only when ALLOW_PRIVATE_SOURCES=true", () => {
		expect(parseSourceUrl("http://127.0.0.1:8000/a.mp4", { ALLOW_PRIVATE_SOURCES: "true" }).port).toBe("8000");
	});
	it("classifies IPv4-mapped IPv6 by its IPv4 address", () => {
		expect(isPrivateAddress("::ffff:127.0.0.1")).toBe(true);
		expect(isPrivateAddress("::ffff:8.8.8.8")).toBe(false);
	});
});

describe("minutesFor", () => {
	it("is ceil(frame seconds / 60), at least 1", () => {
		expect(minutesFor(1800, null)).toBe(30);
		expect(minutesFor(1801, null)).toBe(31);
		expect(minutesFor(5, null)).toBe(1);
		expect(minutesFor(3600, { ...defaultConfig(), timeframeStart: 600, timeframeEnd: 1230 })).toBe(11);
		expect(minutesFor(700, { ...defaultConfig(), timeframeStart: 600, timeframeEnd: 5000 })).toBe(2);
	});
});
