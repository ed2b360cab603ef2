/**
 * The structure rules `npm run lint` runs (`check-structure.ts`, so `make lint` fails on a finding):
 * planted file and folder cycles are found, through type imports, lazy imports and workspace
 * packages' exports; a 51-line function, a 401-line file, a SQL string outside `db/` and an import
 * back up inside a runtime are found; the script exits 1 on each, planted in a repository of its
 * own; the repository itself has none beyond the known tangles and the allow-lists.
 */
import { spawnSync } from "node:child_process";
import {
	copyFileSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	readFileSync,
	rmSync,
	symlinkSync,
	writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { findings, importCycles, longFunctions, sourceFiles } from "../scripts/check-structure.ts";
import { importGraph, packageTarget, tanglesOf, type WorkspacePackage } from "../scripts/import-graph.ts";
import { longFile, missingParts, sqlOutsideDb, upwardInRuntime, type Check } from "../scripts/structure-rules.ts";

const ROOT = join(import.meta.dirname, "..");
const none = new Map<string, WorkspacePackage>();
const files = (entries: Record<string, string>) => new Map(Object.entries(entries));

describe("the cycles check", () => {
	it("finds two files that import each other, with or without .ts, type-only or lazily", () => {
		const planted = files({
			"src/a.ts": 'import type { B } from "./b";\nexport type A = B;',
			"src/b.ts": 'export type B = number;\nexport const load = () => import("./a.ts");',
			"src/c.ts": 'import type { A } from "./a";',
		});
		const found = importCycles(planted, none, []);
		expect(found.map((f) => f.what)).toEqual(["files import each other: src/a.ts → src/b.ts → src/a.ts"]);
	});

	it("finds folders that import each other when no file does", () => {
		const planted = files({
			"src/x/a.ts": 'import { b } from "../y/b.ts";\nexport const a = b;',
			"src/x/c.ts": "export const c = 1;",
			"src/y/b.ts": 'import { c } from "../x/c.ts";\nexport const b = c;',
		});
		expect(importCycles(planted, none, []).map((f) => f.what)).toEqual([
			"folders import each other: src/x → src/y → src/x",
		]);
	});

	it("follows a workspace package's exports, patterns included", () => {
		const packages = new Map([
			["@p/m", { folder: "packages/m", exports: { ".": "./src/index.ts", "./*": "./src/*.ts" } }],
		]);
		expect(packageTarget("@p/m", packages)).toBe("packages/m/src/index.ts");
		expect(packageTarget("@p/m/text/units", packages)).toBe("packages/m/src/text/units.ts");
		expect(packageTarget("@p/other", packages)).toBeNull();
		const planted = files({
			"packages/m/src/index.ts": 'export * from "./a.ts";',
			"packages/m/src/a.ts": 'import { b } from "@p/m/b";\nexport const a = b;',
			"packages/m/src/b.ts": 'import { a } from "@p/m";\nexport const b = () => a;',
		});
		const graph = importGraph(planted, packages);
		expect(graph.get("packages/m/src/b.ts")).toEqual(["packages/m/src/index.ts"]);
		expect(tanglesOf(graph).map((t) => t.members)).toEqual([
			["packages/m/src/a.ts", "packages/m/src/b.ts", "packages/m/src/index.ts"],
		]);
	});

	it("lets a known tangle pass, and fails it once it grows", () => {
		const planted = files({ "src/a.ts": 'import "./b.ts";', "src/b.ts": 'import "./a.ts";' });
		const known = [{ kind: "files" as const, members: ["src/a.ts", "src/b.ts"] }];
		expect(importCycles(planted, none, known)).toEqual([]);
		planted.set("src/b.ts", 'import "./c.ts";');
		planted.set("src/c.ts", 'import "./a.ts";');
		expect(importCycles(planted, none, known)).toHaveLength(1);
	});

	it("the repository has no tangle beyond the known ones", () => {
		const repo = new Map(sourceFiles().map((f) => [f, readFileSync(join(ROOT, f), "utf8")]));
		expect(importCycles(repo).map((f) => `${f.where}  ${f.what}`)).toEqual([]);
	});

	it("the repository has no finding of the rules lint runs", () => {
		const repo = new Map(sourceFiles().map((f) => [f, readFileSync(join(ROOT, f), "utf8")]));
		const lint = new Set<Check>(["functions", "files", "layers", "runtime-layers", "cycles", "sql"]);
		expect(findings(repo, (c) => lint.has(c)).map((f) => `${f.check} ${f.where}  ${f.what}`)).toEqual([]);
		// A renamed folder cannot leave the runtime rule silently.
		expect(missingParts((path) => existsSync(join(ROOT, path)))).toEqual([]);
	});
});

/** A function of `lines` lines. */
const fn = (lines: number) => `export function long(): number {\n${"\tlet x = 1;\n".repeat(lines - 3)}\treturn 1;\n}\n`;

describe("the size and SQL rules", () => {
	it("finds a 51-line function and lets a 50-line one pass", () => {
		expect(longFunctions("src/a.ts", fn(51)).map((f) => f.what)).toEqual(["long is 51 lines"]);
		expect(longFunctions("src/a.ts", fn(50))).toEqual([]);
	});

	it("finds a 401-line file and lets a 400-line one pass", () => {
		expect(longFile("src/a.ts", "x;\n".repeat(401)).map((f) => f.what)).toEqual(["401 lines (at most 400)"]);
		expect(longFile("src/a.ts", "x;\n".repeat(400))).toEqual([]);
	});

	it("finds SQL in strings, templates and drizzle's sql tag outside db/, and none inside it or in prose", () => {
		const text = [
			'const a = "SELECT id FROM videos";',
			"const b = `UPDATE videos SET status = ${s}`;",
			"const c = sql`${videos}`;",
			'const d = "Select a video from the list, then delete from it what you like.";',
		].join("\n");
		expect(sqlOutsideDb("src/worker/services/x.ts", text).map((f) => f.where)).toEqual([
			"src/worker/services/x.ts:1",
			"src/worker/services/x.ts:2",
			"src/worker/services/x.ts:3",
		]);
		expect(sqlOutsideDb("src/worker/db/x.ts", text)).toEqual([]);
		expect(sqlOutsideDb("tools/db/x.ts", text)).toEqual([]);
	});

	it("finds an import back up inside a runtime, and lets imports down pass", () => {
		const graph = new Map([
			["src/worker/db/a.ts", ["src/worker/services/b.ts", "src/worker/domain/c.ts"]],
			["containers/render/src/ffmpeg/x.ts", ["containers/render/src/framing/y.ts"]],
			["containers/render/src/jobs/z.ts", ["containers/render/src/render/w.ts"]],
		]);
		expect(upwardInRuntime(graph).map((f) => f.where)).toEqual([
			"containers/render/src/ffmpeg/x.ts",
			"src/worker/db/a.ts",
		]);
	});
});

/** Runs check-structure.ts in a repository of its own holding `planted`; its output and exit code. */
function runPlanted(planted: Record<string, string>, only: string) {
	const repo = mkdtempSync(join(tmpdir(), "check-structure-"));
	try {
		const write = (path: string, text: string) => {
			mkdirSync(dirname(join(repo, path)), { recursive: true });
			writeFileSync(join(repo, path), text);
		};
		for (const script of ["check-structure.ts", "import-graph.ts", "structure-rules.ts"]) {
			mkdirSync(join(repo, "scripts"), { recursive: true });
			copyFileSync(join(ROOT, "scripts", script), join(repo, "scripts", script));
		}
		symlinkSync(join(ROOT, "node_modules"), join(repo, "node_modules"));
		write("package.json", JSON.stringify({ name: "planted", workspaces: [] }));
		write(".gitignore", "node_modules\n");
		for (const [path, text] of Object.entries(planted)) write(path, text);
		spawnSync("git", ["init", "-q"], { cwd: repo });
		return spawnSync(process.execPath, ["scripts/check-structure.ts", "--only", only], {
			cwd: repo,
			encoding: "utf8",
		});
	} finally {
		rmSync(repo, { recursive: true, force: true });
	}
}

describe("the script, as npm run lint runs it, exits 1 on a violation planted in a repository", () => {
	const lint = "functions,files,layers,runtime-layers,cycles,sql";

	it("a cycle", () => {
		const run = runPlanted(
			{
				"src/a.ts": 'import { b } from "./b";\nexport const a = () => b;\n',
				"src/b.ts": 'import { a } from "./a";\nexport const b = () => a;\n',
			},
			lint,
		);
		expect(run.stdout).toContain("files import each other: src/a.ts → src/b.ts → src/a.ts");
		expect(run.status).toBe(1);
	});

	it("a 51-line function", () => {
		const run = runPlanted({ "src/a.ts": fn(51) }, lint);
		expect(run.stdout).toContain("src/a.ts:1  long is 51 lines");
		expect(run.status).toBe(1);
	});

	it("a SQL string outside db/", () => {
		const run = runPlanted({ "src/worker/services/a.ts": 'export const q = "DELETE FROM videos";\n' }, lint);
		expect(run.stdout).toContain("sql            src/worker/services/a.ts:1");
		expect(run.status).toBe(1);
	});

	it("a file over 400 lines", () => {
		const run = runPlanted({ "src/a.ts": "export const x = 1;\n".repeat(401) }, lint);
		expect(run.stdout).toContain("src/a.ts  401 lines");
		expect(run.status).toBe(1);
	});

	it("an import back up inside a runtime", () => {
		const run = runPlanted(
			{
				"containers/render/src/egress/a.ts": 'import { b } from "../jobs/b.ts";\nexport const a = b;\n',
				"containers/render/src/jobs/b.ts": "export const b = 1;\n",
			},
			lint,
		);
		expect(run.stdout).toContain("runtime-layers containers/render/src/egress/a.ts");
		expect(run.status).toBe(1);
	});

	it("and passes a clean one", () => {
		const run = runPlanted(
			{ "src/a.ts": fn(50), "src/worker/db/q.ts": 'export const q = "SELECT 1 FROM t";\n' },
			lint,
		);
		expect(run.stdout).toContain("findings: functions 0, files 0, layers 0, runtime-layers 0, cycles 0, sql 0");
		expect(run.status).toBe(0);
	});
});
