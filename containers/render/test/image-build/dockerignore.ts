/**
 * `.dockerignore` as Docker applies it to a build context (moby's patternmatcher, which BuildKit
 * uses): patterns are cleaned paths relative to the context (a leading `/` dropped); `*` and `?`
 * never cross a `/`, `**` crosses any number of folders; a pattern that matches a file's parent
 * folder matches the file; `!` lets back in what an earlier pattern left out; the last matching
 * pattern decides.
 */
import { posix } from "node:path";

export interface IgnorePattern {
	/** As written, without the `!`. */
	text: string;
	exclusion: boolean;
	regex: RegExp;
}

export function readDockerignore(text: string): IgnorePattern[] {
	const patterns: IgnorePattern[] = [];
	for (const line of text.split("\n")) {
		let pattern = line.trim();
		if (!pattern || pattern.startsWith("#")) continue;
		const exclusion = pattern.startsWith("!");
		if (exclusion) pattern = pattern.slice(1).trim();
		if (!pattern) continue;
		pattern = posix.normalize(pattern).replace(/\/$/, "");
		if (pattern.length > 1 && pattern.startsWith("/")) pattern = pattern.slice(1);
		patterns.push({ text: pattern, exclusion, regex: patternRegex(pattern) });
	}
	return patterns;
}

/** moby patternmatcher's translation of one pattern into a regular expression. */
function patternRegex(pattern: string): RegExp {
	let source = "^";
	for (let i = 0; i < pattern.length; i++) {
		const ch = pattern[i]!;
		if (ch === "*" && pattern[i + 1] === "*") {
			i++;
			if (pattern[i + 1] === "/") i++;
			source += i + 1 >= pattern.length ? ".*" : "(.*/)?";
		} else if (ch === "*") source += "[^/]*";
		else if (ch === "?") source += "[^/]";
		else if (ch === "\\" && i + 1 < pattern.length) source += `\\${pattern[++i]}`;
		else if (".+()|{}$".includes(ch)) source += `\\${ch}`;
		else source += ch;
	}
	return new RegExp(`${source}$`);
}

/** The pattern matches the path or one of its parent folders. */
export const matchesOrParent = (pattern: IgnorePattern, path: string): boolean => {
	if (pattern.regex.test(path)) return true;
	const parts = path.split("/");
	for (let i = 1; i < parts.length; i++) if (pattern.regex.test(parts.slice(0, i).join("/"))) return true;
	return false;
};

/** True when the file at `path` (relative to the context, `/`-separated) is left out of the build context. */
export function isIgnored(patterns: readonly IgnorePattern[], path: string): boolean {
	let ignored = false;
	for (const pattern of patterns) {
		// As moby: an exclusion only matters for what is ignored so far, an inclusion for what is not.
		if (pattern.exclusion !== ignored) continue;
		if (matchesOrParent(pattern, path)) ignored = !pattern.exclusion;
	}
	return ignored;
}
