/**
 * The structure rules `check-structure.ts` adds to the import cycles and the layers between
 * top-level folders (run by `npm run lint`, so `make lint` fails on a finding):
 *
 * - files: no file is longer than MAX_FILE_LINES lines, but those in LONG_FILES (each with why);
 * - sql: SQL is written only in a `db/` folder: no string or template outside one holds a
 *   statement (SELECT … FROM, INSERT INTO, UPDATE … SET, DELETE FROM, CREATE/ALTER/DROP TABLE), and
 *   no drizzle `sql` template is written outside one;
 * - runtime-layers: inside each runtime (RUNTIME_LAYERS: the render tier, the Worker with its
 *   workflows), no import runs back up its order of parts.
 */
import { dirname, join, relative } from "node:path";
import ts from "typescript";

export type Check = "functions" | "files" | "lines" | "duplicates" | "layers" | "runtime-layers" | "cycles" | "sql";

export interface Finding {
	check: Check;
	where: string;
	what: string;
}

export const MAX_FILE_LINES = 400;

/** The files allowed past MAX_FILE_LINES, and why each may be. */
export const LONG_FILES: Readonly<Record<string, string>> = {
	"src/worker/db/schema.ts":
		"the D1 schema drizzle-kit diffs into migrations: one file, so a table and its indexes read together",
	// Waiting to be split; each is here so the rule fails the build on any other long file today.
	"packages/contract/src/jobs.ts": "the job table and every job's schemas; to split by job family",
	"src/worker/db/videos.ts": "the videos table's statements; to split by stage (issue 49 item 4 moves progress)",
	"scripts/stack.ts": "the local stack's start-up; to split",
	"tools/soak/soak.ts": "the soak's one script; to split",
	"tools/bench-cost.ts": "issue 50's cost bench, merged at the end of its stop; to split by stage",
	"tools/plan/load.ts": "issue 50's day simulation, merged at the end of its stop; to split by resource",
};

export function longFile(file: string, text: string, max = MAX_FILE_LINES): Finding[] {
	const lines = text.endsWith("\n") ? text.split("\n").length - 1 : text.split("\n").length;
	if (lines <= max || file in LONG_FILES) return [];
	return [{ check: "files", where: file, what: `${lines} lines (at most ${max})` }];
}

/** A SQL statement's shape, in capitals as the code base writes SQL (prose says "select" in lower case). */
const SQL_STATEMENT =
	/\b(SELECT\b[\s\S]*\bFROM|INSERT\s+(OR\s+\w+\s+)?INTO|UPDATE\s+\S+\s+SET|DELETE\s+FROM|(CREATE|ALTER|DROP)\s+(TABLE|INDEX|VIEW))\b/;

const inDbFolder = (file: string) => /(^|\/)db\//.test(file);

/** SQL written outside a `db/` folder: statements in strings or templates, and drizzle `sql` templates. */
export function sqlOutsideDb(file: string, text: string): Finding[] {
	if (inDbFolder(file)) return [];
	const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
	const found: Finding[] = [];
	const at = (node: ts.Node) => `${file}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}`;
	const visit = (node: ts.Node) => {
		if (ts.isTaggedTemplateExpression(node) && node.tag.getText(source) === "sql") {
			found.push({ check: "sql", where: at(node), what: "a drizzle sql template outside db/" });
			return;
		}
		if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateExpression(node)) {
			const written = ts.isTemplateExpression(node)
				? [node.head.text, ...node.templateSpans.map((s) => s.literal.text)].join("?")
				: node.text;
			if (SQL_STATEMENT.test(written)) {
				found.push({ check: "sql", where: at(node), what: `SQL outside db/: ${written.slice(0, 60)}` });
				return;
			}
		}
		ts.forEachChild(node, visit);
	};
	visit(source);
	return found;
}

/**
 * A runtime's parts from the bottom up, each a list of folders or files under `root`: a file
 * belongs to the part with the longest matching entry, and imports only its own part or those
 * below it. Files under `root` that no entry names are left out.
 */
export interface RuntimeLayers {
	root: string;
	parts: readonly (readonly string[])[];
}

export const RUNTIME_LAYERS: readonly RuntimeLayers[] = [
	{
		// ARCHITECTURE.md "containers/render": job families over shared floors.
		root: "containers/render/src",
		parts: [
			["egress"],
			["ffmpeg"],
			["runtime"],
			["source"],
			["framing"],
			["captions"],
			["audio"],
			["media"],
			["render"],
			["jobs"],
			["server.ts"],
		],
	},
	{
		// ARCHITECTURE.md "Inside the Worker": routes → services → db → domain, the workflows beside
		// the routes over services, and the app on top.
		root: "src",
		parts: [
			["worker/domain"],
			["worker/lib"],
			["worker/settings.ts", "worker/env.ts", "worker/errors.ts", "worker/request-log.ts"],
			["worker/db"],
			["worker/services"],
			["workflows"],
			["worker/middleware"],
			["worker/routes"],
			["worker/app.ts"],
			["worker/index.ts", "worker/render-container.ts"],
		],
	},
];

function partOf(file: string, runtime: RuntimeLayers): number {
	if (!file.startsWith(`${runtime.root}/`)) return -1;
	const path = relative(runtime.root, file);
	let best = -1;
	let bestLength = -1;
	runtime.parts.forEach((entries, index) => {
		for (const entry of entries)
			if ((path === entry || path.startsWith(`${entry}/`)) && entry.length > bestLength) {
				best = index;
				bestLength = entry.length;
			}
	});
	return best;
}

/** Imports that run from a runtime's part to one above it (from the import graph). */
export function upwardInRuntime(
	graph: Map<string, string[]>,
	runtimes: readonly RuntimeLayers[] = RUNTIME_LAYERS,
): Finding[] {
	const found: Finding[] = [];
	for (const runtime of runtimes)
		for (const [file, targets] of graph) {
			const from = partOf(file, runtime);
			if (from < 0) continue;
			for (const target of targets) {
				const to = partOf(target, runtime);
				if (to > from)
					found.push({
						check: "runtime-layers",
						where: file,
						what: `imports ${relative(dirname(file), target)} (${runtime.parts[to]!.join("|")} is above ${runtime.parts[from]!.join("|")} in ${runtime.root})`,
					});
			}
		}
	return found;
}

/** The paths RUNTIME_LAYERS names that do not exist, so a renamed folder cannot silently leave the rule. */
export function missingParts(exists: (path: string) => boolean, runtimes = RUNTIME_LAYERS): string[] {
	return runtimes.flatMap((r) => r.parts.flat().map((p) => join(r.root, p))).filter((p) => !exists(p));
}
