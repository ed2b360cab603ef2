/**
 * The import graph of the repository's TypeScript, for `check-structure.ts`'s cycles check: which
 * file imports which (relative specifiers, and workspace packages through their package.json
 * `exports`), the folders' graph it implies, and its tangles (strongly connected components).
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** A workspace package: its folder and its package.json `exports` (subpath or pattern → file). */
export interface WorkspacePackage {
	folder: string;
	exports: Record<string, string>;
}

/** The root package.json's workspaces by package name. */
export function workspacePackages(root = ROOT): Map<string, WorkspacePackage> {
	const packages = new Map<string, WorkspacePackage>();
	const top = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { workspaces?: string[] };
	for (const folder of top.workspaces ?? []) {
		const pkg = JSON.parse(readFileSync(join(root, folder, "package.json"), "utf8")) as {
			name: string;
			exports?: Record<string, string> | string;
		};
		const exports = typeof pkg.exports === "string" ? { ".": pkg.exports } : (pkg.exports ?? {});
		packages.set(pkg.name, { folder, exports });
	}
	return packages;
}

const IMPORT_SPEC = /(?:from|import)\s*\(?\s*["']([^"']+)["']/g;

/** The file a workspace package's subpath names (`@clipforge/moments/text/units`), by its `exports`, or null. */
export function packageTarget(spec: string, packages: Map<string, WorkspacePackage>): string | null {
	const name = [...packages.keys()].find((p) => spec === p || spec.startsWith(`${p}/`));
	if (!name) return null;
	const { folder, exports } = packages.get(name)!;
	const subpath = `.${spec.slice(name.length)}`;
	let target = exports[subpath];
	for (const [key, value] of Object.entries(exports)) {
		if (target !== undefined) break;
		const [before, after] = key.split("*");
		if (after === undefined || !subpath.startsWith(before!) || !subpath.endsWith(after)) continue;
		if (subpath.length < before!.length + after.length) continue;
		target = value.replace("*", subpath.slice(before!.length, subpath.length - after.length));
	}
	return target === undefined ? null : join(folder, target);
}

/**
 * Each file's imports among `files` (paths from the root): relative specifiers (with or without
 * `.ts`, or a folder's index.ts) and workspace packages, resolved to the files they name.
 */
export function importGraph(files: Map<string, string>, packages = workspacePackages()): Map<string, string[]> {
	const graph = new Map<string, string[]>();
	for (const [file, text] of files) {
		const targets = new Set<string>();
		for (const match of text.matchAll(IMPORT_SPEC)) {
			const spec = match[1]!;
			const base = spec.startsWith(".") ? join(dirname(file), spec) : packageTarget(spec, packages);
			if (base === null) continue;
			const found = [base, `${base}.ts`, join(base, "index.ts")].find((f) => files.has(f));
			if (found) targets.add(found);
		}
		graph.set(file, [...targets].sort());
	}
	return graph;
}

/** The folders' graph: a folder imports another when one of its files imports one of the other's. */
export function folderGraph(files: Map<string, string[]>): Map<string, string[]> {
	const folders = new Map<string, Set<string>>();
	for (const [file, targets] of files) {
		const from = dirname(file);
		const into = folders.get(from) ?? new Set<string>();
		for (const target of targets) if (dirname(target) !== from) into.add(dirname(target));
		folders.set(from, into);
	}
	return new Map([...folders].map(([folder, targets]) => [folder, [...targets].sort()]));
}

/** A tangle of files or folders that import each other: its members, and one loop through them. */
export interface Tangle {
	members: string[];
	/** A shortest path from the first member back to it through the tangle. */
	loop: string[];
}

/** Every tangle of a graph: its strongly connected components of two or more (Tarjan), or one importing itself. */
export function tanglesOf(graph: Map<string, string[]>): Tangle[] {
	const index = new Map<string, number>();
	const low = new Map<string, number>();
	const stack: string[] = [];
	const tangles: Tangle[] = [];
	const visit = (node: string) => {
		index.set(node, index.size);
		low.set(node, index.get(node)!);
		stack.push(node);
		for (const next of graph.get(node) ?? []) {
			if (!index.has(next)) {
				visit(next);
				low.set(node, Math.min(low.get(node)!, low.get(next)!));
			} else if (stack.includes(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
		}
		if (low.get(node) !== index.get(node)) return;
		const members: string[] = [];
		let member: string;
		do {
			member = stack.pop()!;
			members.push(member);
		} while (member !== node);
		if (members.length > 1 || (graph.get(node) ?? []).includes(node)) {
			members.sort();
			tangles.push({ members, loop: loopThrough(graph, members) });
		}
	};
	for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
	return tangles.sort((x, y) => x.members[0]!.localeCompare(y.members[0]!));
}

/** A shortest path from the first member back to it, through the members only (breadth first). */
function loopThrough(graph: Map<string, string[]>, members: string[]): string[] {
	const start = members[0]!;
	const inside = new Set(members);
	const cameFrom = new Map<string, string>();
	const queue = [start];
	while (queue.length > 0) {
		const node = queue.shift()!;
		for (const next of graph.get(node) ?? []) {
			if (!inside.has(next)) continue;
			if (next === start) {
				const path = [node];
				while (path[0] !== start) path.unshift(cameFrom.get(path[0]!)!);
				return [...path, start];
			}
			if (!cameFrom.has(next)) {
				cameFrom.set(next, node);
				queue.push(next);
			}
		}
	}
	return [start, start];
}
