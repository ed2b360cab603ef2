/**
 * containers/render holds the tier's source, its tests and their fixtures, and its config: nothing
 * else. A scratch file left behind (as `sc.tmp.ts` was, importing a path on one developer's
 * machine) fails here, committed or not yet (untracked files that .gitignore does not hide count).
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const TIER = join(import.meta.dirname, "..");
const files = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "--deduplicate", "."], {
	cwd: TIER,
	encoding: "utf8",
})
	.split("\n")
	.filter(Boolean);

/** What may be in the folder; a new kind of file is added here, on purpose. */
const EXPECTED = [
	/^(Dockerfile|package\.json|tsconfig\.json|vitest\.config\.ts|yt-dlp\.requirements\.txt)$/,
	// The server, and the old paths importers outside the tier still read (each says so).
	/^src\/[a-z0-9-]+\.ts$/,
	// The tier's folders, one level deep (ARCHITECTURE.md, test/tier-layers.test.ts).
	/^src\/(audio|captions|egress|ffmpeg|framing|jobs|media|render|runtime|source)\/[a-z0-9-]+\.ts$/,
	/^test\/[a-z0-9-]+(\.test)?\.ts$/,
	/^test\/image-build\/[a-z0-9-]+\.ts$/,
	/^test\/fixtures\/([a-z0-9-]+\.png|README\.md)$/,
	/^test\/golden\/[a-z0-9-]+\.png$/,
];

describe("containers/render", () => {
	it("holds only source, tests, fixtures and config", () => {
		expect(files.length).toBeGreaterThan(50);
		expect(files.filter((file) => !EXPECTED.some((pattern) => pattern.test(file)))).toEqual([]);
	});

	it("imports nothing by an absolute path (a path on someone's machine)", () => {
		const absolute = files
			.filter((file) => file.endsWith(".ts"))
			.filter((file) =>
				/(?:\bfrom\s+|\bimport\s*\(\s*)["'`](?:\/|file:)/.test(readFileSync(join(TIER, file), "utf8")),
			);
		expect(absolute).toEqual([]);
	});
});
