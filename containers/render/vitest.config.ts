import { defineConfig } from "vitest/config";

// The render tier's tests run in plain Node with real ffmpeg, ffprobe, yt-dlp and pocketsphinx.
export default defineConfig({
	test: {
		root: import.meta.dirname,
		include: ["test/**/*.test.ts"],
		testTimeout: 120_000,
		hookTimeout: 120_000,
		env: { ALLOW_PRIVATE_SOURCES: "true", RENDER_QUIET: "true" },
	},
});
