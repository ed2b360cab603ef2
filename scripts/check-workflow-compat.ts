/**
 * `npm run check:workflows [-- --update]`: fails a change that would break Workflow instances
 * running while it deploys (docs/reliability.md, "Deploys while workflows run"). On Cloudflare a
 * running instance continues on the new code, replaying each `step.do` name it finished from its
 * stored result; so:
 * - every step name of the deployed build (src/workflows/deployed-steps.json) must still be made
 *   by the code: a renamed or removed step would run again in an instance that had finished it
 *   (a render done twice, a charge checked twice). New names are fine; `--update` records them;
 *   a name leaves the file only when no instance that may have finished it can still run;
 * - no migration may drop or rename a table or column (`npm run predeploy` applies it while old
 *   instances still run the old code against it), unless it says why that is safe on a line
 *   `-- deploy-safe: <why>` (the column's last reader was deployed before).
 * - no deployed step's result may lose or retype a field, or gain a required one (the new code reads
 *   the result the old code stored): each step's result type, field by field, is recorded beside the
 *   names (`results`, step-shapes.ts) and compared (step-shape-compat.ts).
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./stack.ts";
import { shapeProblems, unreadResults } from "./step-shape-compat.ts";
import { projectProgram, stepShapesIn, type Shape } from "./step-shapes.ts";

// process-video.ts runs the steps; video-plan.ts names the video's own (VIDEO_STEP_NAMES), which
// the plan simulator reads too.
const WORKFLOW_FILES = ["src/workflows/process-video.ts", "src/workflows/video-plan.ts"];
const SNAPSHOT = join(ROOT, "src/workflows/deployed-steps.json");

const QUOTED = String.raw`(["'\x60])((?:\\.|(?!\1)[^\\])*)\1`;

/**
 * The step names a workflow's source makes, `${…}` parts of template names shown as `{}`: the
 * names written in `step.do(…)`, and the values of a `…_STEP_NAMES = { … } as const` table (a
 * string, or an arrow function returning a template).
 */
export function stepNamesIn(source: string): string[] {
	const names = new Set<string>();
	const add = (name: string) => names.add(name.replace(/\$\{[^}]*\}/g, "{}"));
	for (const match of source.matchAll(new RegExp(String.raw`\.do\(\s*` + QUOTED, "g"))) add(match[2]!);
	for (const table of source.matchAll(/_STEP_NAMES\s*=\s*\{([\s\S]*?)\}\s*as const/g))
		for (const entry of table[1]!.matchAll(
			new RegExp(String.raw`^\s*\w+:\s*(?:\([^)]*\)\s*=>\s*)?` + QUOTED, "gm"),
		))
			add(entry[2]!);
	return [...names].sort();
}

/** Why a migration would break instances running the old code, or null. */
export function unsafeMigration(sql: string): string | null {
	if (/^\s*--\s*deploy-safe:\s*\S/m.test(sql)) return null;
	const statement = /\b(DROP\s+(TABLE|COLUMN|INDEX)|RENAME\s+(TO|COLUMN))\b[^;]*/i.exec(sql.replace(/--.*$/gm, ""));
	return statement ? statement[0].trim().slice(0, 120) : null;
}

export interface CompatInput {
	deployedSteps: string[];
	sources: string[];
	/** Each step's result shape, as deployed and as the code now makes it (step-shapes.ts). */
	deployedResults?: Record<string, Shape>;
	results?: Record<string, Shape>;
	migrations: { name: string; sql: string }[];
}

/** Every way the change breaks an instance running through its deploy; empty when it does not. */
export function compatProblems(input: CompatInput): string[] {
	const made = new Set(input.sources.flatMap(stepNamesIn));
	const problems = input.deployedSteps
		.filter((name) => !made.has(name))
		.map(
			(name) =>
				`step "${name}" is gone: an instance that finished it before the deploy would run it again (keep the name, or wait until no such instance runs, then npm run check:workflows -- --update)`,
		);
	problems.push(...shapeProblems(input.deployedResults ?? {}, input.results ?? {}));
	problems.push(...unreadResults(input.deployedResults ?? {}, input.results ?? {}, made));
	for (const migration of input.migrations) {
		const unsafe = unsafeMigration(migration.sql);
		if (unsafe)
			problems.push(
				`migration ${migration.name} would break the old code still running during the deploy: ${unsafe} (add first, drop in a later deploy, and say so with "-- deploy-safe: <why>")`,
			);
	}
	return problems;
}

/** The steps' result shapes as the code makes them: process-video.ts calls every step.do. */
export function currentResults(root = ROOT): Record<string, Shape> {
	const runner = WORKFLOW_FILES[0]!;
	return stepShapesIn(projectProgram(root, [runner]), join(root, runner));
}

function readInput(): CompatInput {
	const dir = join(ROOT, "migrations");
	const deployed = existsSync(SNAPSHOT)
		? (JSON.parse(readFileSync(SNAPSHOT, "utf8")) as { steps: string[]; results?: Record<string, Shape> })
		: { steps: [] };
	return {
		deployedSteps: deployed.steps,
		deployedResults: deployed.results ?? {},
		results: currentResults(),
		sources: WORKFLOW_FILES.map((f) => readFileSync(join(ROOT, f), "utf8")),
		migrations: readdirSync(dir)
			.filter((f) => f.endsWith(".sql"))
			.map((name) => ({ name, sql: readFileSync(join(dir, name), "utf8") })),
	};
}

if (import.meta.url === `file://${process.argv[1]}`) {
	const input = readInput();
	if (process.argv.includes("--update")) {
		const steps = [...new Set(input.sources.flatMap(stepNamesIn))].sort();
		const results = input.results;
		// Two spaces: the project formats JSON so (.prettierrc), and the file stays as recorded.
		writeFileSync(SNAPSHOT, `${JSON.stringify({ steps, results }, null, 2)}\n`);
		console.error(`recorded ${steps.length} step names and their results' shapes in ${SNAPSHOT}`);
	} else {
		const problems = compatProblems(input);
		for (const problem of problems) console.error(`check:workflows: ${problem}`);
		if (problems.length > 0) process.exit(1);
	}
}
