/**
 * `node scripts/e2e-shards.ts N`: deals the end-to-end test files to N shards so that they end
 * together, and prints one line per shard: its file names, space-separated (the shard's E2E_FILES).
 * vitest's own `--shard` splits by file count, which left one shard two minutes longer than the
 * other: the files range from a fraction of a second to nearly three minutes.
 *
 * Longest first, each to the shard with the least work so far (LPT). The seconds are each file's
 * time in a `make test` run on the two-core test machine (two shards at once); a file not listed
 * counts as a minute. Refresh them when a file's time changes a lot: the order is all that matters.
 */
import { readdirSync } from "node:fs";

const USUAL_SECONDS: Record<string, number> = {
	"long-source": 152,
	pipeline: 134,
	sources: 99,
	upload: 83,
	concurrency: 81,
	"sdk-cli": 66,
	reprocess: 60,
	"cli-clips": 56,
	"dashboard-chapters": 55,
	"dashboard-clips": 53,
	"render-crash": 50,
	mcp: 49,
	"dashboard-reprocess": 37,
	"make-up": 32,
	"dashboard-looks": 32,
	"dashboard-layout": 29,
	dashboard: 29,
	smoke: 2,
	"continuous-speech": 15,
	languages: 50,
	"object-parts": 0.8,
	openapi: 0.2,
	secrets: 0.1,
};
const UNKNOWN_SECONDS = 60;
const DIR = "test/e2e";

function dealShards(files: string[], shards: number): string[][] {
	const seconds = (file: string) => USUAL_SECONDS[file.replace(/\.e2e\.test\.ts$/, "")] ?? UNKNOWN_SECONDS;
	const loads = Array.from({ length: shards }, () => ({ seconds: 0, files: [] as string[] }));
	for (const file of [...files].sort((a, b) => seconds(b) - seconds(a) || a.localeCompare(b))) {
		const lightest = loads.reduce((min, shard) => (shard.seconds < min.seconds ? shard : min));
		lightest.seconds += seconds(file);
		lightest.files.push(file);
	}
	return loads.map((shard) => shard.files);
}

const shards = Math.max(1, Number(process.argv[2] ?? 2) || 1);
const files = readdirSync(DIR).filter((f) => f.endsWith(".e2e.test.ts"));
for (const shard of dealShards(files, shards)) {
	if (shard.length > 0) console.log(shard.join(" "));
}
