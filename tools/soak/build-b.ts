/**
 * The deploy drill's second build: a copy of this checkout (its tracked and unignored files, the
 * dependencies linked) changed as a deploy while instances run may change it (docs/reliability.md,
 * "Deploys while workflows run"): one step added to the first run's step list, right after "load
 * video" (so every instance in flight runs it when it goes on with the new code), and one additive
 * migration. Its `check:workflows` must pass against the deployed snapshot.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { ROOT } from "../../scripts/stack.ts";
import { BUILD_B_MIGRATION } from "../db/deploy-drill.ts";

/** The step build B adds; video_steps records it for each video that ran it. */
export const BUILD_B_STEP = "deploy drill: build B";
const LOAD_VIDEO = 'const video = await step.do("load video", DB_STEP, () => loadVideo(run));';
// Files the Worker and the tier never read: not copied.
const SKIPPED = /^(bench-results|docs|test)\//;

/** Writes build B into `dir`; the name of its new migration. */
export function makeBuildB(dir: string): string {
	const listed = spawnSync("git", ["ls-files", "-z", "-co", "--exclude-standard"], { cwd: ROOT, encoding: "utf8" });
	if (listed.status !== 0) throw new Error(`git ls-files failed: ${listed.stderr}`);
	for (const file of listed.stdout.split("\0").filter((f) => f && !SKIPPED.test(f) && existsSync(join(ROOT, f)))) {
		mkdirSync(dirname(join(dir, file)), { recursive: true });
		copyFileSync(join(ROOT, file), join(dir, file));
	}
	for (const modules of ["node_modules", "packages/contract/node_modules", "tools/node_modules"])
		if (existsSync(join(ROOT, modules))) symlinkSync(join(ROOT, modules), join(dir, modules));
	const runner = join(dir, "src/workflows/process-video.ts");
	const source = readFileSync(runner, "utf8");
	if (!source.includes(LOAD_VIDEO)) throw new Error(`build B: process-video.ts no longer has: ${LOAD_VIDEO}`);
	const added = `${LOAD_VIDEO}\n\tawait step.do("${BUILD_B_STEP}", DB_STEP, async () => ({ build: "B" }));`;
	writeFileSync(runner, source.replace(LOAD_VIDEO, added));
	const numbers = readdirSync(join(dir, "migrations"))
		.map((f) => /^(\d{4})_.*\.sql$/.exec(f)?.[1])
		.filter((n): n is string => n !== undefined)
		.map(Number);
	const migration = `${String(Math.max(...numbers) + 1).padStart(4, "0")}_deploy_drill.sql`;
	writeFileSync(join(dir, "migrations", migration), BUILD_B_MIGRATION);
	return migration;
}

/** Build B's own `check:workflows` against the snapshot it carries (this build's): its findings, empty when safe. */
export function checkBuildB(dir: string): string[] {
	const result = spawnSync(process.execPath, [join(dir, "scripts/check-workflow-compat.ts")], {
		cwd: dir,
		encoding: "utf8",
	});
	return result.status === 0 ? [] : result.stderr.trim().split("\n");
}
