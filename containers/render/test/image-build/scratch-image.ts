/**
 * The Dockerfile carried out as far as a machine without Docker can: a scratch folder stands for
 * the image's `/`; each COPY/ADD copies from the build context what /.dockerignore lets through;
 * WORKDIR and ENV are followed; the `npm ci` RUN step runs as written, with the npm the image's Node
 * ships. The other RUN steps (apt-get, pip) need root, Debian's archive and PyPI: they are listed
 * as not run, and this machine's tools stand in for what they install.
 */
import { spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, posix } from "node:path";
import { copyArgs, envPairs, execForm, expandVariables, parseDockerfile, type Instruction } from "./dockerfile.ts";
import { isIgnored, readDockerignore, type IgnorePattern } from "./dockerignore.ts";

export interface BuildContext {
	/** The build context's folder (the repository root). */
	dir: string;
	dockerfile: string;
	dockerignore: string;
}

export interface ScratchImage {
	/** The folder standing for the image's `/`. */
	root: string;
	/** The last WORKDIR, as a folder under root. */
	workdir: string;
	env: Map<string, string>;
	cmd: string[];
	/** Each file the COPY steps copied: its path in the context, and in the image (relative to `/`). */
	copied: { from: string; to: string }[];
	/** The RUN steps not run here, by line. */
	notRun: Instruction[];
}

/** Lists every file under a context folder, `/`-separated and relative to the context. */
function filesUnder(contextDir: string, relative: string): string[] {
	const full = join(contextDir, relative);
	if (!statSync(full).isDirectory()) return [relative];
	return readdirSync(full).flatMap((name) => filesUnder(contextDir, posix.join(relative, name)));
}

/** A COPY/ADD source as a path relative to the context (the builder reads `/x` and `./x` as `x`). */
const contextPath = (source: string) => posix.normalize(source).replace(/^(\.\/|\/)+/, "");

/**
 * What one COPY/ADD source sends from the context: its files that /.dockerignore lets in. An
 * error names a source that does not exist, leaves the context, or is ignored whole (the builder
 * fails on each with `"/<source>": not found`).
 */
export function copySourceFiles(context: BuildContext, patterns: IgnorePattern[], source: string): string[] {
	if (/^[a-z]+:\/\//i.test(source)) throw new Error(`${source}: a URL source is not checked here.`);
	if (/[*?[]/.test(source)) throw new Error(`${source}: wildcards are not checked here.`);
	const path = contextPath(source);
	if (path.startsWith("..")) throw new Error(`${source} is outside the build context.`);
	if (!existsSync(join(context.dir, path))) throw new Error(`${source} does not exist in the build context.`);
	const files = filesUnder(context.dir, path).filter((file) => !isIgnored(patterns, file));
	if (files.length === 0) throw new Error(`${source} is left out of the build context by .dockerignore.`);
	return files;
}

interface BuildState {
	root: string;
	workdir: string;
	vars: Map<string, string>;
	env: Map<string, string>;
}

/** Copies one COPY/ADD step's sources into the scratch image; returns the files copied. */
function copyStep(
	context: BuildContext,
	patterns: IgnorePattern[],
	state: BuildState,
	ins: Instruction,
): ScratchImage["copied"] {
	const { flags, sources, destination } = copyArgs(expandVariables(ins.args, state.vars));
	if (flags.has("from")) throw new Error(`Line ${ins.line}: COPY --from (another stage) is not carried out here.`);
	const target = posix.resolve(state.workdir, destination);
	const intoFolder = destination.endsWith("/") || sources.length > 1;
	const copied: ScratchImage["copied"] = [];
	for (const source of sources) {
		const path = contextPath(source);
		const isFolder = statSync(join(context.dir, path), { throwIfNoEntry: false })?.isDirectory() ?? false;
		for (const file of copySourceFiles(context, patterns, source)) {
			// A folder's contents go into the destination; a file goes to it, or into it when it is a folder.
			const inImage = isFolder
				? posix.join(target, posix.relative(path, file))
				: intoFolder
					? posix.join(target, posix.basename(file))
					: target;
			mkdirSync(join(state.root, posix.dirname(inImage)), { recursive: true });
			cpSync(join(context.dir, file), join(state.root, inImage));
			copied.push({ from: file, to: inImage.slice(1) });
		}
	}
	return copied;
}

/** Runs an npm command as a RUN step would, in the image's working folder. */
export type NpmRunner = (args: string[], cwd: string) => Promise<void>;

/**
 * A RUN step: its `npm ci` is run as written; `npm cache clean --force` is not (it would empty this
 * machine's npm cache, and the image's cache is not what is checked). Any other npm command, or npm
 * beside other commands, is refused: the check would not be running what the image runs.
 */
async function runStep(state: BuildState, ins: Instruction, npm: NpmRunner): Promise<boolean> {
	const commands = expandVariables(ins.args, state.vars)
		.split("&&")
		.map((c) => c.trim());
	if (!commands.some((c) => /^npm\s/.test(c))) return false;
	for (const command of commands) {
		if (/^npm cache clean\b/.test(command)) continue;
		if (!/^npm ci\s/.test(command) || /["'$;|<>`]/.test(command))
			throw new Error(`Line ${ins.line}: the check does not know how to run "${command}" as the image does.`);
		await npm(command.split(/\s+/).slice(1), join(state.root, state.workdir));
	}
	return true;
}

/** Carries out the Dockerfile into `root` (an empty folder); throws at the first step that would fail the build. */
export async function buildInScratch(context: BuildContext, root: string, npm: NpmRunner): Promise<ScratchImage> {
	const patterns = readDockerignore(context.dockerignore);
	const state: BuildState = { root, workdir: "/", vars: new Map(), env: new Map() };
	const image: ScratchImage = { root, workdir: root, env: state.env, cmd: [], copied: [], notRun: [] };
	let stages = 0;
	for (const ins of parseDockerfile(context.dockerfile)) {
		const args = expandVariables(ins.args, state.vars);
		if (ins.keyword === "FROM" && ++stages > 1) throw new Error("Multi-stage builds are not carried out here.");
		if (ins.keyword === "ARG")
			for (const [name, value] of envPairs(args)) if (!state.vars.has(name)) state.vars.set(name, value);
		if (ins.keyword === "ENV")
			for (const [name, value] of envPairs(args)) {
				state.env.set(name, value);
				state.vars.set(name, value);
			}
		if (ins.keyword === "WORKDIR") {
			state.workdir = posix.resolve(state.workdir, args);
			mkdirSync(join(root, state.workdir), { recursive: true });
		}
		if (ins.keyword === "COPY" || ins.keyword === "ADD")
			image.copied.push(...copyStep(context, patterns, state, ins));
		if (ins.keyword === "RUN" && !(await runStep(state, ins, npm))) image.notRun.push(ins);
		if (ins.keyword === "CMD") image.cmd = execForm(ins.args);
	}
	image.workdir = join(root, state.workdir);
	return image;
}

/** The build context of the render image: the repository root with its /.dockerignore. */
export function renderBuildContext(repoRoot: string): BuildContext {
	return {
		dir: repoRoot,
		dockerfile: readFileSync(join(repoRoot, "containers/render/Dockerfile"), "utf8"),
		dockerignore: readFileSync(join(repoRoot, ".dockerignore"), "utf8"),
	};
}

/**
 * The npm version the running Node ships with (the image's `node:<version>` has the same), read
 * from the Node package's changelog in node_modules: the latest "upgrade npm to X" at or below this
 * release's heading.
 */
export function npmOfThisNode(repoRoot: string): string {
	const platformPackage = `node-${process.platform}-${process.arch}`;
	const changelog = readFileSync(
		join(repoRoot, "node_modules/node/node_modules", platformPackage, "CHANGELOG.md"),
		"utf8",
	);
	const from = changelog.indexOf(`<a id="${process.versions.node}"></a>`);
	const npm = from < 0 ? null : changelog.slice(from).match(/upgrade npm to (\d+\.\d+\.\d+)/);
	if (!npm) throw new Error(`Node ${process.versions.node}'s changelog does not say which npm it ships.`);
	return npm[1]!;
}

/** The environment of the processes run in the scratch image: this machine's PATH and HOME, none of npm's run-script variables. */
export function cleanEnv(extra: Record<string, string> = {}): Record<string, string> {
	const kept = Object.entries(process.env).filter(
		([name]) => /^(PATH|HOME|LANG|TMPDIR)$/.test(name) || /^(https?|no)_proxy$/i.test(name),
	);
	return { ...Object.fromEntries(kept as [string, string][]), ...extra };
}

/**
 * An NpmRunner with npm `version` (through `npm exec`, from the npm cache when it has it) on the
 * running Node, offline-first: npm ci takes every tarball from the cache the repository's own
 * `npm ci` filled, by the lockfile's integrity.
 */
export function npmExec(version: string, log: (line: string) => void): NpmRunner {
	const nodeDir = posix.dirname(process.execPath);
	const env = cleanEnv({
		PATH: `${nodeDir}:${process.env.PATH ?? ""}`,
		npm_config_prefer_offline: "true",
		npm_config_update_notifier: "false",
	});
	return (args, cwd) =>
		new Promise((resolve, reject) => {
			// This machine's npm only fetches and starts npm `version`, which then runs on this Node (first on PATH).
			const argv = ["exec", "--yes", `--package=npm@${version}`, "--", "npm", ...args];
			const child = spawn("npm", argv, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
			let output = "";
			child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
			child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
			child.on("error", reject);
			child.on("close", (code) => {
				log(output.trim());
				if (code === 0) resolve();
				else
					reject(new Error(`npm ${args.join(" ")} (npm ${version}) exited ${code}:\n${output.slice(-3000)}`));
			});
		});
}
