/**
 * The cycles check of `npm run check:structure` (run by `npm run lint`): planted file and folder
 * cycles are found, through type imports, lazy imports and workspace packages' exports, and the
 * script exits 1 on one; the repository itself has none beyond the known tangles.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { importCycles, sourceFiles } from "../scripts/check-structure.ts";
import { importGraph, packageTarget, tanglesOf, type WorkspacePackage } from "../scripts/import-graph.ts";

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

	it("the script exits 1 on a cycle planted in a repository", () => {
		const repo = mkdtempSync(join(tmpdir(), "check-structure-"));
		try {
			const write = (path: string, text: string) => {
				mkdirSync(dirname(join(repo, path)), { recursive: true });
				writeFileSync(join(repo, path), text);
			};
			for (const script of ["check-structure.ts", "import-graph.ts"]) {
				mkdirSync(join(repo, "scripts"), { recursive: true });
				copyFileSync(join(ROOT, "scripts", script), join(repo, "scripts", script));
			}
			symlinkSync(join(ROOT, "node_modules"), join(repo, "node_modules"));
			write("package.json", JSON.stringify({ name: "planted", workspaces: [] }));
			write(".gitignore", "node_modules\n");
			write("src/a.ts", 'import { b } from "./b";\nexport const a = () => b;\n');
			write("src/b.ts", 'import { a } from "./a";\nexport const b = () => a;\n');
			spawnSync("git", ["init", "-q"], { cwd: repo });
			const run = spawnSync(process.execPath, ["scripts/check-structure.ts", "--only", "cycles"], {
				cwd: repo,
				encoding: "utf8",
			});
			expect(run.stdout).toContain("files import each other: src/a.ts → src/b.ts → src/a.ts");
			expect(run.status).toBe(1);
		} finally {
			rmSync(repo, { recursive: true, force: true });
		}
	});
});
