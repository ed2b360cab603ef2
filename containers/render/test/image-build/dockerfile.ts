/**
 * A Dockerfile read the way the builder reads it, for the checks of the image: instructions with
 * their continuation lines joined and comment lines dropped, `COPY`/`ADD` split into flags, sources
 * and destination, `ENV` into pairs, exec-form `CMD` into its argument array, `${VAR}` expanded from
 * the `ARG`s and `ENV`s above. What this file does not understand (heredocs, quoted ENV values,
 * wildcards in COPY sources, parser directives) it refuses by name rather than misreads.
 */

export interface Instruction {
	/** Upper case: FROM, RUN, COPY … */
	keyword: string;
	/** Everything after the keyword, continuation lines joined by a space. */
	args: string;
	/** 1-based line of the keyword in the file. */
	line: number;
}

export function parseDockerfile(text: string): Instruction[] {
	const instructions: Instruction[] = [];
	let pending: { parts: string[]; line: number } | null = null;
	text.split("\n").forEach((raw, index) => {
		const trimmed = raw.trim();
		// `# escape=` before the first instruction would change what a line's end means.
		if (instructions.length === 0 && !pending && /^#\s*escape\s*=/i.test(trimmed))
			throw new Error(`Parser directives are not read: ${raw}`);
		// The builder drops comment lines, even inside a continued instruction, and blank lines.
		if (trimmed.startsWith("#") || trimmed === "") return;
		const continued = trimmed.endsWith("\\");
		const part = continued ? trimmed.slice(0, -1).trim() : trimmed;
		pending ??= { parts: [], line: index + 1 };
		pending.parts.push(part);
		if (continued) return;
		const joined = pending.parts.filter(Boolean).join(" ");
		const [keyword = "", ...rest] = joined.split(/\s+/);
		if (/<<[-~]?["']?[A-Z]/.test(joined)) throw new Error(`Line ${pending.line}: heredocs are not read.`);
		instructions.push({ keyword: keyword.toUpperCase(), args: rest.join(" "), line: pending.line });
		pending = null;
	});
	if (pending) throw new Error("The Dockerfile ends inside a continued instruction.");
	return instructions;
}

/** `${NAME}`, `${NAME:-default}` and `$NAME`, as the builder expands them in COPY, ADD, ENV, WORKDIR and ARG. */
export function expandVariables(text: string, vars: ReadonlyMap<string, string>): string {
	return text.replace(
		/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g,
		(_, braced?: string, fallback?: string, bare?: string) => {
			const name = (braced ?? bare)!;
			const value = vars.get(name);
			return value === undefined || value === "" ? (fallback ?? "") : value;
		},
	);
}

/** `K=V K2=V2` (or the legacy `K V`); quoted values are refused, none are used. */
export function envPairs(args: string): [string, string][] {
	if (/["']/.test(args)) throw new Error(`Quoted ENV/ARG values are not read: ${args}`);
	if (!args.includes("=")) {
		const [name = "", ...value] = args.split(/\s+/);
		return [[name, value.join(" ")]];
	}
	return args.split(/\s+/).map((pair) => {
		const at = pair.indexOf("=");
		return at < 0 ? [pair, ""] : [pair.slice(0, at), pair.slice(at + 1)];
	});
}

export interface CopyArgs {
	/** `--chown`, `--chmod`, `--from`, `--link` … with their values ("" for a bare flag). */
	flags: Map<string, string>;
	sources: string[];
	destination: string;
}

/** COPY's and ADD's arguments, shell form (`COPY a b dest/`) or exec form (`COPY ["a", "dest/"]`). */
export function copyArgs(args: string): CopyArgs {
	const flags = new Map<string, string>();
	let rest = args.trim();
	for (let flag = rest.match(/^--([a-z-]+)(?:=(\S*))?\s+/); flag; flag = rest.match(/^--([a-z-]+)(?:=(\S*))?\s+/)) {
		flags.set(flag[1]!, flag[2] ?? "");
		rest = rest.slice(flag[0].length);
	}
	const paths = rest.startsWith("[") ? (JSON.parse(rest) as string[]) : rest.split(/\s+/);
	if (paths.length < 2) throw new Error(`COPY/ADD needs a source and a destination: ${args}`);
	return { flags, sources: paths.slice(0, -1), destination: paths.at(-1)! };
}

/** An exec-form CMD/ENTRYPOINT (`["node", "src/server.ts"]`); the shell form is refused. */
export function execForm(args: string): string[] {
	if (!args.trim().startsWith("[")) throw new Error(`Only the exec form is read: ${args}`);
	return JSON.parse(args) as string[];
}
