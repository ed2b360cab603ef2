/**
 * The workspace packages as a bundler sees them. wrangler bundles the Worker with esbuild; the rank
 * and chapters steps load @clipforge/moments lazily (`await import(…)`), which makes esbuild wrap
 * the package's modules in lazy initialisers, and a package marked `"sideEffects": false` then had
 * the initialiser of its `export *` barrel dropped for the Worker's static imports
 * (evanw/esbuild#1490): `asWritten` ran with its word list undefined, and every local transcription
 * failed ("Cannot read properties of undefined (reading 'split')"). Bundled here as the Worker
 * imports it: statically, with the lazy import beside it.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";

describe("the moments package in an esbuild bundle", () => {
	it("initialises what the Worker imports statically beside its lazy import", async () => {
		const dir = mkdtempSync(join(tmpdir(), "clipforge-bundle-"));
		try {
			const entry = join(dir, "entry.ts");
			writeFileSync(
				entry,
				[
					'import { asWritten } from "@clipforge/moments/text";',
					'export const written = () => asWritten("i moved to chicago");',
					'export const ranker = () => import("@clipforge/moments/rank-moments");',
				].join("\n"),
			);
			const out = join(dir, "bundle.mjs");
			await build({
				entryPoints: [entry],
				bundle: true,
				format: "esm",
				platform: "neutral",
				mainFields: ["module", "main"],
				outfile: out,
				nodePaths: [join(process.cwd(), "node_modules")],
				logLevel: "silent",
			});
			const bundle = (await import(pathToFileURL(out).href)) as { written: () => string };
			expect(bundle.written()).toBe("I moved to Chicago");
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	}, 60_000);
});
