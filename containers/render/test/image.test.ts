/**
 * The Container image, read against the code (no Docker engine builds it here): the Dockerfile
 * installs the tier the tests run (the same Node, and the Debian packages at the versions this
 * machine's tests used), every font a caption look may name, the npm packages at the lockfile's
 * versions; it runs as a non-root user with a health check. The tier's startup self-check covers
 * every ffmpeg filter and encoder the code uses, every font, yt-dlp, and passes on this machine.
 */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { HEALTH_PATH } from "@clipforge/contract";
import { CAPTION_FONTS, EMOJI_FONT } from "@clipforge/contract/words";
import { describe, expect, it } from "vitest";
import { createRenderApp } from "../src/server.ts";
import {
	FALLBACK_FONT_FILES,
	REQUIRED_ENCODERS,
	REQUIRED_FILTERS,
	REQUIRED_FONT_FILES,
	selfCheck,
	type SelfCheck,
} from "../src/self-check.ts";

const ROOT = join(import.meta.dirname, "..", "..", "..");
const dockerfile = readFileSync(join(import.meta.dirname, "..", "Dockerfile"), "utf8");
const dockerignore = readFileSync(join(ROOT, ".dockerignore"), "utf8");
/** The Dockerfile's instructions, continuation lines joined, comments dropped. */
const instructions = dockerfile
	.replace(/\\\n/g, " ")
	.split("\n")
	.map((line) => line.trim())
	.filter((line) => line && !line.startsWith("#"));
const aptInstall = instructions.find((line) => line.startsWith("RUN apt-get update"))!;
const pins = new Map([...aptInstall.matchAll(/\s([a-z0-9][a-z0-9.+-]+)=(\S+)/g)].map((m) => [m[1]!, m[2]!]));
const installed = [
	...aptInstall
		.replace(/.*--no-install-recommends/, "")
		.split("&&")[0]!
		.matchAll(/\s([a-z0-9][a-z0-9.+-]+)(?==|\s|$)/g),
].map((m) => m[1]!);
const sources = readdirSync(join(import.meta.dirname, "..", "src")).filter((f) => f.endsWith(".ts"));
const source = (file: string) => readFileSync(join(import.meta.dirname, "..", "src", file), "utf8");
const dpkgVersion = (pkg: string): string | null => {
	try {
		return (
			execFileSync("dpkg-query", ["-W", "-f", "${Version}", pkg], {
				encoding: "utf8",
				stdio: ["ignore", "pipe", "ignore"],
			}).trim() || null
		);
	} catch {
		return null;
	}
};

describe("the Dockerfile builds the tier the tests run", () => {
	it("on the Node the tests run on, from the lockfile, as a non-root user with a health check", () => {
		const rootPackage = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
			devDependencies: Record<string, string>;
		};
		expect(instructions[0]).toBe(`FROM node:${rootPackage.devDependencies.node}-bookworm-slim`);
		expect(instructions).toContain("COPY package.json package-lock.json ./");
		expect(instructions.some((l) => l.startsWith("RUN npm ci --omit=dev --workspace containers/render"))).toBe(
			true,
		);
		expect(instructions.some((l) => /npm install/.test(l))).toBe(false);
		// Every COPY source is let in by .dockerignore (it ignores everything else).
		for (const line of instructions.filter((l) => l.startsWith("COPY "))) {
			for (const path of line.split(/\s+/).slice(1, -1)) expect(dockerignore, path).toContain(`!${path}`);
		}
		const user = instructions.findIndex((l) => l.startsWith("USER "));
		expect(instructions[user]).toBe("USER node");
		expect(instructions.slice(user).some((l) => l.startsWith("RUN "))).toBe(false);
		const health = instructions.find((l) => l.startsWith("HEALTHCHECK "));
		expect(health).toContain(HEALTH_PATH);
		expect(instructions.at(-1)).toBe('CMD ["node", "src/server.ts"]');
		expect(dockerfile).toMatch(/ENV .*YT_DLP_BIN=\/usr\/local\/bin\/yt-dlp/);
		expect(dockerfile).toMatch(/ARG YT_DLP_SHA256=[0-9a-f]{64}\n/);
	});

	it("pins every Debian package, at the version this machine's tests ran with", () => {
		expect(installed.length).toBeGreaterThan(5);
		for (const pkg of installed) expect(pins.has(pkg), `${pkg} is not pinned (pkg=version)`).toBe(true);
		for (const [pkg, pinned] of pins) {
			const here = dpkgVersion(pkg);
			// A package this machine does not have is not part of what the tests ran.
			if (here !== null)
				expect(
					pinned,
					`${pkg}: the image would install ${pinned}, the tests ran ${here} (update the pin)`,
				).toBe(here);
		}
		expect(dpkgVersion("ffmpeg"), "the tests must run on Debian's ffmpeg (make install-test-deps)").not.toBeNull();
	});

	it("installs every font a caption look may name, from the package looks.ts names", () => {
		const fontPackages = new Set([
			...CAPTION_FONTS.map((f) => f.debianPackage),
			EMOJI_FONT.debianPackage,
			"fonts-noto-core",
			"fonts-noto-cjk",
		]);
		for (const pkg of fontPackages) expect(installed, pkg).toContain(pkg);
		// Each file really belongs to the package named for it.
		for (const font of [...CAPTION_FONTS, EMOJI_FONT]) {
			const owner = execFileSync("dpkg", ["-S", font.file], { encoding: "utf8" }).split(":")[0];
			expect(owner, font.file).toBe(font.debianPackage);
		}
		for (const file of FALLBACK_FONT_FILES)
			expect(fontPackages).toContain(execFileSync("dpkg", ["-S", file], { encoding: "utf8" }).split(":")[0]);
		for (const font of CAPTION_FONTS) expect(REQUIRED_FONT_FILES).toContain(font.file);
		expect(REQUIRED_FONT_FILES).toContain(EMOJI_FONT.file);
	});
});

describe("the startup self-check covers what the code uses", () => {
	it("every ffmpeg filter named in the tier's code is one it checks", () => {
		const all = execFileSync("ffmpeg", ["-hide_banner", "-filters"], { encoding: "utf8" })
			.split("\n")
			.slice(1)
			.map((l) => l.trim().split(/\s+/)[1])
			.filter((n): n is string => /^[a-z0-9_]+$/.test(n ?? ""));
		const literal = /"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`/gs;
		const used = new Set<string>();
		for (const file of sources.filter((f) => f !== "self-check.ts")) {
			for (const [text] of source(file).matchAll(literal)) {
				for (const filter of all) {
					if (
						new RegExp(
							`(^|[\\[\\];,"'\`\\s])${filter.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(=|,|;|\\[|"|'|\`|$)`,
						).test(text)
					)
						used.add(filter);
				}
			}
		}
		expect(used.size).toBeGreaterThan(20);
		// Words that are also ffmpeg filter names but name something else in the code.
		const notFilters = new Set([
			"asr", // the scratch folder prefix of local transcription (workdir.ts jobScratchDir), not ffmpeg's asr filter
			"copy", // `-c copy`, the stream copy that keeps a source's time frame (ffmpeg-args.ts frameCopyArgs), not ffmpeg's copy filter
		]);
		const unchecked = [...used].filter(
			(f) => !notFilters.has(f) && !(REQUIRED_FILTERS as readonly string[]).includes(f),
		);
		expect(unchecked).toEqual([]);
	});

	it("every encoder the tier names is one it checks", () => {
		const named = new Set<string>();
		for (const file of sources)
			for (const m of source(file).matchAll(/"-c:[va]",\s*"([a-z0-9_]+)"/g)) named.add(m[1]!);
		expect(named.size).toBeGreaterThan(2);
		expect([...named].filter((e) => !(REQUIRED_ENCODERS as readonly string[]).includes(e))).toEqual([]);
	});

	it("passes on this machine, the tier the tests run", async () => {
		const check = await selfCheck();
		expect(check.problems).toEqual([]);
		expect(check.versions.ffmpeg).toBe(dpkgVersion("ffmpeg")!.replace(/^\d+:/, ""));
		expect(check.versions.ytDlp).toMatch(/^\d{4}\.\d{2}\.\d{2}/);
	});

	it("/healthz answers 503 naming what is missing when the self-check failed", async () => {
		const failed: SelfCheck = {
			ok: false,
			problems: ["ffmpeg lacks the filters ass."],
			versions: { ffmpeg: "5.1", ytDlp: null },
		};
		const sick = await createRenderApp({ secret: "x".repeat(43), selfCheck: Promise.resolve(failed) }).request(
			HEALTH_PATH,
		);
		expect(sick.status).toBe(503);
		expect(await sick.json()).toMatchObject({ ok: false, problems: ["ffmpeg lacks the filters ass."] });
		const well = await createRenderApp({
			secret: "x".repeat(43),
			selfCheck: Promise.resolve({ ...failed, ok: true, problems: [] }),
		}).request(HEALTH_PATH);
		expect(well.status).toBe(200);
	});
});
