/**
 * The tier's folders, from the bottom up, and the one way their imports run (ARCHITECTURE.md): a
 * folder imports only from folders below it, so nothing of the runtime, the argument builders or the
 * egress reaches back up into a job family, and no family reaches into another's. Files at src/'s
 * top (the server, and the old paths kept for importers outside the tier) may import any folder;
 * nothing in a folder imports them. Read from the same import graph as `check-structure.ts --only
 * cycles` (type imports and re-exports count).
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { importGraph, workspacePackages } from "../../../scripts/import-graph.ts";

const ROOT = join(import.meta.dirname, "..", "..", "..");
const SRC = "containers/render/src";

/** Bottom first: each folder may import the folders before it. */
const FOLDERS = ["egress", "ffmpeg", "runtime", "source", "framing", "captions", "audio", "media", "render", "jobs"];

const files = new Map(
	execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "*.ts"], {
		cwd: join(ROOT, SRC),
		encoding: "utf8",
	})
		.split("\n")
		.filter(Boolean)
		.map((file) => [join(SRC, file), readFileSync(join(ROOT, SRC, file), "utf8")]),
);
const graph = importGraph(files, workspacePackages(ROOT));
const folderOf = (file: string) => relative(SRC, dirname(file)) || ".";

describe("the render tier's folders", () => {
	it("are the families and layers ARCHITECTURE.md names, and nothing else", () => {
		const folders = new Set([...files.keys()].map(folderOf));
		expect([...folders].filter((f) => f !== "." && !FOLDERS.includes(f))).toEqual([]);
	});

	it("import only folders below them", () => {
		const upward: string[] = [];
		for (const [file, targets] of graph) {
			const from = folderOf(file);
			if (from === ".") continue;
			for (const target of targets) {
				const to = folderOf(target);
				if (!target.startsWith(SRC) || to === from) continue;
				if (to === "." || FOLDERS.indexOf(to) > FOLDERS.indexOf(from))
					upward.push(`${relative(SRC, file)} imports ${relative(SRC, target)}`);
			}
		}
		expect(upward).toEqual([]);
	});
});
