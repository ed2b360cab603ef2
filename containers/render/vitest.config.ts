import { randomBytes } from "node:crypto";
import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

// The render tier's tests run in plain Node with real ffmpeg, ffprobe, yt-dlp and pocketsphinx.
export default defineConfig({
	test: {
		root: import.meta.dirname,
		include: ["test/**/*.test.ts"],
		setupFiles: ["test/own-work-dir.ts"],
		testTimeout: 120_000,
		hookTimeout: 120_000,
		// One file per core (vitest's own default is cores − 1: one at a time on a 2-core machine).
		maxWorkers: availableParallelism(),
		// RENDER_SECRET: this run's own, which the tests sign their job requests with (test/signed-post.ts).
		env: {
			ALLOW_PRIVATE_SOURCES: "true",
			RENDER_QUIET: "true",
			RENDER_SECRET: randomBytes(32).toString("base64url"),
			// The fastest encode: these tests read frames, lengths and sounds, never bytes (a third of the
			// suite's CPU was x264 at veryfast). long-clip.test.ts renders at the production default.
			X264_PRESET: "ultrafast",
		},
	},
});
