/**
 * The Container image, built as far as a machine without a Docker engine can (make test runs this;
 * 5-20 s on a shared two-core machine, most of it npm ci): the Dockerfile's COPY steps are carried out into a scratch folder standing for the
 * image's `/` (every source must exist in the build context and pass /.dockerignore), its `npm ci`
 * runs there as written, with the npm the image's Node ships; the tier then starts from that folder
 * as the image's CMD and must answer /healthz 200, and every module it loads (the face detector's,
 * read only at the first frame, included) must come from inside the folder. The apt-get and pip
 * steps are not run: this machine's ffmpeg, fonts, pocketsphinx and .venv/yt-dlp stand in for them
 * (what this cannot see: docs/deploy.md, "The image in the tests"; `sudo npm run image:build`
 * builds the real image).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tools } from "../src/runtime/tool-paths.ts";
import { copyArgs, parseDockerfile } from "./image-build/dockerfile.ts";
import { isIgnored, matchesOrParent, readDockerignore } from "./image-build/dockerignore.ts";
import { firstHealth, loadedFiles, loadEverything, startTier } from "./image-build/run-in-scratch.ts";
import {
	buildInScratch,
	copySourceFiles,
	npmExec,
	npmOfThisNode,
	renderBuildContext,
	type ScratchImage,
} from "./image-build/scratch-image.ts";

const ROOT = join(import.meta.dirname, "..", "..", "..");
const context = renderBuildContext(ROOT);
const patterns = readDockerignore(context.dockerignore);
const copies = parseDockerfile(context.dockerfile).filter((i) => i.keyword === "COPY" || i.keyword === "ADD");

describe("the .dockerignore reader", () => {
	const ignored = (dockerignore: string, path: string) => isIgnored(readDockerignore(dockerignore), path);

	it("follows Docker's documented examples", () => {
		expect(ignored("*/temp*", "somedir/temporary.txt")).toBe(true);
		expect(ignored("*/temp*", "somedir/temp")).toBe(true);
		expect(ignored("*/temp*", "temp.txt")).toBe(false);
		expect(ignored("*/*/temp*", "somedir/subdir/temporary.txt")).toBe(true);
		expect(ignored("temp?", "tempa")).toBe(true);
		expect(ignored("temp?", "dir/tempa")).toBe(false);
		expect(ignored("**/*.go", "main.go")).toBe(true);
		expect(ignored("**/*.go", "a/b/c.go")).toBe(true);
		expect(ignored("*.md\n!README.md", "README.md")).toBe(false);
		expect(ignored("*.md\n!README.md", "CHANGES.md")).toBe(true);
		expect(ignored("*.md\n!README*.md\nREADME-secret.md", "README-secret.md")).toBe(true);
		expect(ignored("*.md\n!README*.md\nREADME-secret.md", "README-public.md")).toBe(false);
	});

	it("matches a file through its parent folders, and reads /x as x", () => {
		const file = "# comment\n*\n!containers/render/src/\n";
		expect(ignored(file, "containers/render/src/server.ts")).toBe(false);
		expect(ignored(file, "containers/render/src/nested/file.ts")).toBe(false);
		expect(ignored(file, "containers/render/package.json")).toBe(true);
		expect(ignored(file, "containers/render/srcx/a.ts")).toBe(true);
		expect(ignored("/secrets", "secrets/key")).toBe(true);
	});
});

describe("the render image's build context", () => {
	it("holds every COPY source, past .dockerignore, and .dockerignore lets in nothing the Dockerfile does not copy", () => {
		const problems: string[] = [];
		const sent: string[] = [];
		for (const ins of copies)
			for (const source of copyArgs(ins.args).sources) {
				try {
					sent.push(...copySourceFiles(context, patterns, source));
				} catch (error) {
					problems.push(`Dockerfile line ${ins.line}: ${(error as Error).message}`);
				}
			}
		expect(problems).toEqual([]);
		// An allowance no COPY uses is a leftover (as `!sdk/package.json` was once the SDK moved).
		const unused = patterns.filter((p) => p.exclusion && !sent.some((file) => matchesOrParent(p, file)));
		expect(unused.map((p) => `!${p.text}`)).toEqual([]);
	});
});

describe("the render image, built in a scratch folder", () => {
	const root = mkdtempSync(join(tmpdir(), "clipforge-image-"));
	// Beside the image, not in it: the check compares the image's files with what was copied.
	const logDir = mkdtempSync(join(tmpdir(), "clipforge-image-logs-"));
	const logs = { tier: join(logDir, "tier.log"), loader: join(logDir, "loader.log") };
	let built: Promise<ScratchImage>;
	const timings: Record<string, number> = {};

	beforeAll(() => {
		const started = Date.now();
		built = buildInScratch(
			context,
			root,
			npmExec(npmOfThisNode(ROOT), () => {}),
		).finally(() => (timings.build = Date.now() - started));
		built.catch(() => {});
	});
	afterAll(() => {
		for (const dir of [root, logDir]) rmSync(dir, { recursive: true, force: true });
		console.log(`image check: ${JSON.stringify(timings)} ms`);
	});

	it("runs the Dockerfile's npm ci on the image's Node and npm, in a folder holding exactly what it copies", async () => {
		const rootPackage = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
			devDependencies: Record<string, string>;
		};
		expect(parseDockerfile(context.dockerfile)[0]!.args).toMatch(
			new RegExp(`^node:${process.versions.node.replace(/\./g, "\\.")}-`),
		);
		expect(process.versions.node).toBe(rootPackage.devDependencies.node);
		const image = await built;
		expect(image.cmd).toEqual(["node", "src/server.ts"]);
		// What the build copied is all that is there, besides what npm ci wrote.
		const listed = execFileSync("find", [".", "-path", "*/node_modules", "-prune", "-o", "-type", "f", "-print"], {
			cwd: root,
			encoding: "utf8",
		})
			.split("\n")
			.filter(Boolean)
			.map((f) => f.slice(2))
			.sort();
		expect(listed).toEqual(image.copied.map((c) => c.to).sort());
	});

	it("starts the tier as the image's CMD, and its self-check passes (/healthz 200)", async () => {
		const image = await built;
		const started = Date.now();
		const tier = await startTier(image, logs.tier, tools.ytDlp);
		try {
			const health = await firstHealth(tier.url, tier);
			expect(health, tier.output()).toMatchObject({ status: 200, body: { ok: true, problems: [] } });
		} finally {
			tier.child.kill("SIGTERM");
			await tier.exited;
			timings.tier = Date.now() - started;
		}
	});

	it("loads every module the tier runs, the face detector's included, from inside the image", async () => {
		const image = await built;
		const started = Date.now();
		const loaded = await loadEverything(image, logs.loader);
		timings.loader = Date.now() - started;
		expect(loaded.modules).toBeGreaterThan(40);
		expect(loaded.faces).toBe(0);
		const files = loadedFiles(image, [logs.tier, logs.loader]);
		expect(files.filter((f) => f.startsWith("..") || f.startsWith("/"))).toEqual([]);
		// The workspace package the tier imports, and the packages read only at the first frame.
		for (const expected of [
			"app/packages/contract/src/index.ts",
			"app/node_modules/@vladmandic/human/dist/human.node-wasm.js",
			"app/node_modules/@tensorflow/tfjs-backend-wasm/",
		])
			expect(
				files.some((f) => f.startsWith(expected)),
				expected,
			).toBe(true);
	});
});
