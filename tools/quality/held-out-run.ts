/**
 * What the bench enforces of the held-out protocol (docs/ranking.md, "Held-out data: the protocol"):
 *
 * - a held-out run measures a commit: it refuses to start on a working tree with changes (tracked
 *   or untracked, ignored files aside), and records `{ commit, date, command }`;
 * - every held-out run is counted: a line in `bench-results/quality-history.jsonl` is written when
 *   it starts (so a run stopped half way counts too) and completed when it ends;
 * - one run per commit: a second held-out run on a commit that already has one is refused unless
 *   `--again "<reason>"` is given, and the reason is recorded;
 * - nothing per item reaches the terminal: the console is silenced for the run (the ranker, a
 *   corpus loader or a dependency could print an item), only aggregate lines are written, and an
 *   error is reported by its name and stack frames, never its message (which may quote an item).
 */
import { execFileSync } from "node:child_process";
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

const ROOT = join(import.meta.dirname, "..", "..");
export const HISTORY = "bench-results/quality-history.jsonl";

export interface RunRecord {
	commit: string;
	date: string;
	command: string;
	/** Which held-out run: the bench's, or the across-commits script's. */
	kind: string;
	again?: string;
	completed: boolean;
}

const git = (...args: string[]) => execFileSync("git", ["-C", ROOT, ...args], { encoding: "utf8" });

/** HEAD's commit and whether the working tree has changes (ignored files aside). */
export function treeState(): { commit: string; dirty: string[] } {
	return {
		commit: git("rev-parse", "HEAD").trim(),
		dirty: git("status", "--porcelain", "--untracked-files=all")
			.split("\n")
			.filter(Boolean)
			.map((l) => l.slice(3)),
	};
}

export function readHistory(path = join(ROOT, HISTORY)): RunRecord[] {
	if (!existsSync(path)) return [];
	return readFileSync(path, "utf8")
		.split("\n")
		.filter((l) => l.trim())
		.map((l) => JSON.parse(l) as RunRecord);
}

/** Why a held-out run may not start now, or null when it may. */
export function refusal(
	state: { commit: string; dirty: string[] },
	history: RunRecord[],
	kind: string,
	again: string | undefined,
): string | null {
	if (state.dirty.length > 0)
		return `the working tree has changes (${state.dirty.slice(0, 5).join(", ")}${state.dirty.length > 5 ? ", …" : ""}): a held-out number must belong to a commit; commit or stash first`;
	const before = history.filter((r) => r.commit === state.commit && r.kind === kind);
	if (before.length > 0 && !again?.trim())
		return `commit ${state.commit.slice(0, 10)} already has ${before.length} held-out run(s) of ${kind} (${HISTORY}); one per commit: give --again "<reason>" to run it once more, with the reason recorded`;
	return null;
}

/**
 * Starts a held-out run: checks the tree and the history (exits with 2 and why when refused),
 * records the run as started, silences the console and reports errors without their messages.
 * Returns the record and `finish`, which marks the run completed.
 */
export function startHeldOutRun(kind: string, again: string | undefined): { record: RunRecord; finish: () => void } {
	const state = treeState();
	const path = join(ROOT, HISTORY);
	const why = refusal(state, readHistory(path), kind, again);
	if (why) {
		process.stderr.write(`held-out run refused: ${why}\n`);
		process.exit(2);
	}
	const record: RunRecord = {
		commit: state.commit,
		date: new Date().toISOString(),
		command: ["npm run", process.env.npm_lifecycle_event ?? "", "--", ...process.argv.slice(2)]
			.filter(Boolean)
			.join(" "),
		kind,
		...(again?.trim() ? { again: again.trim() } : {}),
		completed: false,
	};
	mkdirSync(dirname(path), { recursive: true });
	appendFileSync(path, `${JSON.stringify(record)}\n`);
	silenceConsole();
	return {
		record,
		finish: () => {
			const lines = readFileSync(path, "utf8").split("\n").filter(Boolean);
			const started = JSON.stringify(record);
			const at = lines.lastIndexOf(started);
			record.completed = true;
			if (at >= 0) lines[at] = JSON.stringify(record);
			else lines.push(JSON.stringify(record));
			writeFileSync(path, `${lines.join("\n")}\n`);
		},
	};
}

/** Aggregate lines of a held-out run (the console is silenced). */
export const aggregate = (line: string) => process.stderr.write(`${line}\n`);

/** An error as its name and stack frames, without its message. */
export function withoutMessage(error: unknown): string {
	if (!(error instanceof Error)) return `a thrown ${typeof error} (not shown)`;
	const frames = (error.stack ?? "").split("\n").filter((l) => /^\s+at /.test(l));
	return `${error.name} (message not shown: it may quote a held-out item)\n${frames.join("\n")}`;
}

function silenceConsole() {
	const quiet = () => undefined;
	for (const method of ["log", "info", "warn", "error", "debug", "trace", "dir", "table"] as const)
		(console as unknown as Record<string, () => void>)[method] = quiet;
	const fail = (error: unknown) => {
		process.stderr.write(`held-out run failed: ${withoutMessage(error)}\n`);
		process.exit(1);
	};
	process.on("uncaughtException", fail);
	process.on("unhandledRejection", fail);
}
