/**
 * Where a public corpus that is never committed is read from: a folder named by an environment
 * variable, the folder `npm run fetch:corpora` clones into (`.corpora/<name>`, gitignored), or the
 * mirror the search tool fetches (`/work/.mirror/<owner>+<name>/repo`, a bare git snapshot read
 * with `git show`, as qmsum.ts reads QMSum). Files are listed and read the same way in each case.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

export interface CorpusSource {
	/** Where it was found (a path), for messages. */
	where: string;
	/** File names (not paths) directly inside `folder`, sorted. */
	list(folder: string): string[];
	read(path: string): string;
}

const ROOT = join(import.meta.dirname, "..", "..");

/** The first of: `$ENV_VAR`, `.corpora/<clone>`, the fetched mirror; null when none is on this machine. */
export function corpusSource(envVar: string, clone: string, mirror: string): CorpusSource | null {
	const dirs = [process.env[envVar], join(ROOT, ".corpora", clone)].filter((d): d is string => !!d);
	for (const dir of dirs) {
		if (!existsSync(dir) || !statSync(dir).isDirectory()) continue;
		return {
			where: dir,
			list: (folder) =>
				existsSync(join(dir, folder))
					? readdirSync(join(dir, folder))
							.filter((f) => statSync(join(dir, folder, f)).isFile())
							.sort()
					: [],
			read: (path) => readFileSync(join(dir, path), "utf8"),
		};
	}
	if (!existsSync(mirror)) return null;
	return {
		where: mirror,
		list: (folder) =>
			execFileSync("git", ["-C", mirror, "ls-tree", "--name-only", "HEAD", `${folder.replace(/\/$/, "")}/`], {
				encoding: "utf8",
				maxBuffer: 64 << 20,
			})
				.split("\n")
				.filter(Boolean)
				.map((p) => p.replace(/^.*\//, ""))
				.sort(),
		read: (path) =>
			execFileSync("git", ["-C", mirror, "show", `HEAD:${path}`], { encoding: "utf8", maxBuffer: 256 << 20 }),
	};
}
