/**
 * Ranking inside a Worker's memory: `rank-long.ts` bundled as wrangler bundles the Worker (one
 * esbuild script, no TypeScript loader: tsx on Node 22 keeps over 10 MB of module sources and
 * source maps alive, which made the old measurement die about one run in eight), run under a 64 MB
 * heap: 56 MB of old space plus two 4 MB semi-spaces, half a Worker's 128 MB.
 */
import { buildSync } from "esbuild";
import { join } from "node:path";

export const HEAP_CAP_64MB = ["--max-old-space-size=56", "--max-semi-space-size=4"];

/** Bundles rank-long.ts into `dir`; returns the script's path, to run as `node ...HEAP_CAP_64MB <script> <transcript> <min> <max> [prompt]`. */
export function bundleRankLong(dir: string): string {
	const outfile = join(dir, "rank-long.mjs");
	buildSync({
		entryPoints: [join(import.meta.dirname, "rank-long.ts")],
		bundle: true,
		platform: "node",
		format: "esm",
		outfile,
		logLevel: "warning",
	});
	return outfile;
}
