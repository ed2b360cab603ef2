/**
 * The Container image, read against the code (image-build.test.ts builds what it can of it): the
 * Dockerfile installs the tier the tests run (the same Node; Debian's packages from one snapshot of
 * the archive; the one pinned yt-dlp the local stack installs too), every font a caption look may
 * name, the npm packages at the lockfile's versions; it runs as a non-root user with a health
 * check. The tier's startup self-check covers every ffmpeg filter and encoder the code uses, every
 * font, yt-dlp, and passes on this machine within the image's tolerance (same ffmpeg major release,
 * the pinned yt-dlp), not at Debian's exact versions of the day.
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
	FFMPEG_MAJOR,
	pinnedYtDlp,
	REQUIRED_ENCODERS,
	REQUIRED_FILTERS,
	REQUIRED_FONT_FILES,
	selfCheck,
	versionWarnings,
	YT_DLP_OLDEST_SAFE,
	type SelfCheck,
} from "../src/self-check.ts";
import { PROJECT_YT_DLP } from "../src/tool-paths.ts";
import { parseDockerfile } from "./image-build/dockerfile.ts";

const ROOT = join(import.meta.dirname, "..", "..", "..");
const dockerfile = readFileSync(join(import.meta.dirname, "..", "Dockerfile"), "utf8");
const installScript = readFileSync(join(ROOT, "scripts", "install-deps.sh"), "utf8");
const REQUIREMENTS = "containers/render/yt-dlp.requirements.txt";
/** The Dockerfile's instructions as "KEYWORD args", continuation lines joined, comments dropped. */
const instructions = parseDockerfile(dockerfile).map((i) => `${i.keyword} ${i.args}`);
const aptInstall = instructions.find((line) => line.includes("apt-get install"))!;
const installed = [
	...aptInstall
		.replace(/.*--no-install-recommends/, "")
		.split("&&")[0]!
		.matchAll(/\s([a-z0-9][a-z0-9.+-]+)(?==|\s|$)/g),
].map((m) => m[1]!);
const sources = readdirSync(join(import.meta.dirname, "..", "src")).filter((f) => f.endsWith(".ts"));
const source = (file: string) => readFileSync(join(import.meta.dirname, "..", "src", file), "utf8");
const dpkgInstalled = (pkg: string): boolean => {
	try {
		return execFileSync("dpkg-query", ["-W", "-f", "${Status}", pkg], {
			encoding: "utf8",
			stdio: ["ignore", "pipe", "ignore"],
		}).includes("install ok installed");
	} catch {
		return false;
	}
};

describe("the Dockerfile builds the tier the tests run", () => {
	it("on the Node the tests run on, from the lockfile, as a non-root user with a health check", () => {
		const rootPackage = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
			devDependencies: { node: string };
		};
		// By tag, or by tag and digest once someone with Docker Hub at hand looked it up (see the Dockerfile).
		expect(instructions[0]).toMatch(
			new RegExp(
				`^FROM node:${rootPackage.devDependencies.node.replace(/\./g, "\\.")}-bookworm-slim(@sha256:[0-9a-f]{64})?$`,
			),
		);
		expect(instructions).toContain("COPY package.json package-lock.json ./");
		expect(instructions.some((l) => l.startsWith("RUN npm ci --omit=dev --workspace containers/render"))).toBe(
			true,
		);
		expect(instructions.some((l) => /npm install/.test(l))).toBe(false);
		const user = instructions.findIndex((l) => l.startsWith("USER "));
		expect(instructions[user]).toBe("USER node");
		expect(instructions.slice(user).some((l) => l.startsWith("RUN "))).toBe(false);
		const health = instructions.find((l) => l.startsWith("HEALTHCHECK "));
		expect(health).toContain(HEALTH_PATH);
		expect(instructions.at(-1)).toBe('CMD ["node", "src/server.ts"]');
	});

	it("installs Debian's packages from one fixed snapshot of the archive, not at versions Debian later withdraws", () => {
		expect(dockerfile).toMatch(/^ARG DEBIAN_SNAPSHOT=\d{8}T\d{6}Z$/m);
		expect(dockerfile).toMatch(
			/^ARG DEBIAN_ARCHIVE=http:\/\/snapshot\.debian\.org\/archive\/debian\/\$\{DEBIAN_SNAPSHOT\}$/m,
		);
		expect(dockerfile).toMatch(
			/^ARG DEBIAN_SECURITY_ARCHIVE=http:\/\/snapshot\.debian\.org\/archive\/debian-security\/\$\{DEBIAN_SNAPSHOT\}$/m,
		);
		// The base image's own sources go, and the snapshot's Release files are past their Valid-Until.
		expect(aptInstall).toContain("rm -f /etc/apt/sources.list.d/debian.sources");
		expect(aptInstall).toContain("deb [check-valid-until=no] %s %s main");
		for (const suite of ["bookworm", "bookworm-updates", "bookworm-security"])
			expect(aptInstall).toContain(` ${suite} `);
		expect(installed.length).toBeGreaterThan(5);
		expect(aptInstall, "the snapshot fixes the versions: no pkg=version pins").not.toMatch(/\s[a-z0-9.+-]+=\S/);
		// The tests run on the same packages (versions within the self-check's tolerance, below).
		for (const pkg of installed) expect(dpkgInstalled(pkg), `${pkg} is not installed on this machine`).toBe(true);
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

	it("installs the one pinned yt-dlp the local stack installs, by wheel hash, and the tests run it", async () => {
		const requirements = readFileSync(join(ROOT, REQUIREMENTS), "utf8");
		const pins = requirements.split("\n").filter((l) => l.trim() && !l.startsWith("#"));
		expect(pins).toEqual([expect.stringMatching(/^yt-dlp==\d{4}\.\d{2}\.\d{2} --hash=sha256:[0-9a-f]{64}$/)]);
		const pin = await pinnedYtDlp();
		expect(pins[0]).toContain(`yt-dlp==${pin} `);
		// The image: the file copied beside src/ (the self-check reads it there), installed with its hash.
		expect(instructions).toContain(`COPY ${REQUIREMENTS} /app/containers/render/`);
		expect(dockerfile).toMatch(
			/\/opt\/yt-dlp\/bin\/pip install [^\n]*--no-deps --require-hashes \\\n\s+-r \/app\/containers\/render\/yt-dlp\.requirements\.txt/,
		);
		expect(dockerfile).toMatch(/ENV .*YT_DLP_BIN=\/opt\/yt-dlp\/bin\/yt-dlp/);
		// The local stack and the tests: the same file into .venv/yt-dlp.
		expect(installScript).toMatch(/--no-deps --require-hashes -r "\$requirements"/);
		expect(installScript).toContain(`requirements=${REQUIREMENTS}`);
		const check = await selfCheck();
		expect(check.ytDlpPath, "make install-test-deps installs the pinned yt-dlp into .venv/yt-dlp").toBe(
			process.env.YT_DLP_BIN ?? PROJECT_YT_DLP,
		);
		expect(check.versions.ytDlp).toBe(pin);
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
			"subtitles", // yt-dlp's output name and info field for a source's subtitle tracks (subtitles.ts, probe.ts), not ffmpeg's subtitles filter
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

	it("passes on this machine within the image's tolerance: nothing missing, ffmpeg's major release, the pinned yt-dlp", async () => {
		const check = await selfCheck();
		expect(check.problems).toEqual([]);
		expect(check.warnings).toEqual([]);
		expect(check.versions.ffmpeg).toMatch(new RegExp(`^${FFMPEG_MAJOR}\\.`));
	});

	it("warns, without failing, about Debian's 2023 yt-dlp, another yt-dlp than the pin, another ffmpeg major release", () => {
		const pin = "2026.08.19";
		expect(versionWarnings({ ffmpeg: "5.1.9-0+deb12u1", ytDlp: pin }, pin)).toEqual([]);
		const [debian] = versionWarnings({ ffmpeg: "5.1.9-0+deb12u1", ytDlp: "2023.03.04" }, pin);
		expect(debian).toMatch(
			new RegExp(`yt-dlp 2023\\.03\\.04 .* predates ${YT_DLP_OLDEST_SAFE}, the fix of CVE-2024-38519`),
		);
		expect(debian).toContain("scripts/install-deps.sh");
		expect(versionWarnings({ ffmpeg: "5.1.9", ytDlp: "2025.12.08" }, pin)).toEqual([
			expect.stringContaining(`yt-dlp 2025.12.08 (`),
		]);
		expect(versionWarnings({ ffmpeg: "5.1.9", ytDlp: "2025.12.08" }, pin)[0]).toContain(`is not the pinned ${pin}`);
		expect(versionWarnings({ ffmpeg: "7.1.1-1", ytDlp: pin }, pin)).toEqual([
			`ffmpeg 7.1.1-1 is not 5.x, the release the image runs and the goldens were drawn with.`,
		]);
	});

	it("/healthz answers 503 naming what is missing when the self-check failed", async () => {
		const failed: SelfCheck = {
			ok: false,
			problems: ["ffmpeg lacks the filters ass."],
			warnings: [],
			versions: { ffmpeg: "5.1", ytDlp: null },
			ytDlpPath: "yt-dlp",
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
