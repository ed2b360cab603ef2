/**
 * `npm run bench:across-commits -- [--split dev|test] [--again "<reason>"] [--keep] <commit> …`:
 * the ranker of each commit, measured with this tree's bench on the corpora no one here tuned on
 * (issue 47, "which rules generalize"). Each commit is checked out in a temporary git worktree
 * (`/tmp/clipforge-at-<commit>`, node_modules linked to this tree's), its own `rankOffline`,
 * `defaultConfig` and (when it has them) `chaptersOffline` are imported from its own files, and
 * this tree's loaders and metrics read them: one aggregate row per commit.
 *
 * Rows: on TinyRec (recorded sessions, coarse human topics) and VT-SSum (lectures, slide segments),
 * no prompt, clips 15-90 s: clips opening on a word that leans on what came before, and clips
 * crossing a human topic boundary, each beside windows of the same lengths; TinyRec's fine topic
 * titles as prompts, hit@1 / hit@3; chapters' Pk against the human topics.
 *
 * `--split dev` (the default) reads the corpora's dev sides. `--split test` is a held-out run and
 * follows the protocol of docs/ranking.md as `bench:quality --test` does: a clean tree, one run per
 * commit of this tree unless `--again "<reason>"`, a line in bench-results/quality-history.jsonl,
 * only aggregates printed; its rows are written to bench-results/across-commits.json.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readlinkSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import type { Transcript } from "@clipforge/moments/text";
import { labelsOf, pk, windowOf, type ChapterItem } from "./chapters-eval.ts";
import { scorePrompts, type PromptItem, type Ranker } from "./evaluate.ts";
import { aggregate, startHeldOutRun } from "./held-out-run.ts";
import { round3, type Span } from "./metrics.ts";
import { chapterItemOf, scoreStructure } from "./talk-structure.ts";
import { loadTinyrec, type TopicTalk } from "./tinyrec.ts";
import { loadVtssum } from "./vtssum.ts";

const ROOT = join(import.meta.dirname, "..", "..");

const { values, positionals } = parseArgs({
	allowPositionals: true,
	options: { split: { type: "string", default: "dev" }, again: { type: "string" }, keep: { type: "boolean" } },
});
const split = values.split as "dev" | "test";
if (!["dev", "test"].includes(split) || positionals.length === 0) {
	console.error('usage: across-commits.ts [--split dev|test] [--again "<reason>"] [--keep] <commit> …');
	process.exit(2);
}
const heldOut = split === "test" ? startHeldOutRun("across-commits --split test", values.again) : null;
const say = (line: string) => (heldOut ? aggregate(line) : console.error(line));

const git = (...args: string[]) =>
	execFileSync("git", ["-C", ROOT, ...args], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();

/**
 * A commit's tree in a temporary worktree with this tree's third-party node_modules, but its own
 * workspace packages: `@clipforge/*` (imported by name across packages) would otherwise resolve,
 * through this tree's links, to this tree's packages, and a commit would be measured with today's
 * domain or text model.
 */
function checkout(commit: string): string {
	const full = git("rev-parse", "--verify", `${commit}^{commit}`);
	const dir = `/tmp/clipforge-at-${full.slice(0, 10)}`;
	if (!existsSync(dir)) git("worktree", "add", "--detach", "--force", dir, full);
	const modules = join(dir, "node_modules");
	if (!existsSync(modules)) {
		mkdirSync(modules);
		for (const entry of readdirSync(join(ROOT, "node_modules"))) {
			if (entry !== "@clipforge") symlinkSync(join(ROOT, "node_modules", entry), join(modules, entry));
		}
		mkdirSync(join(modules, "@clipforge"));
		for (const name of readdirSync(join(ROOT, "node_modules", "@clipforge"))) {
			// The link's own target (../../packages/<name>), read in the commit's tree when it has it.
			const own = join(modules, "@clipforge", readlinkSync(join(ROOT, "node_modules", "@clipforge", name)));
			symlinkSync(
				existsSync(own) ? own : join(ROOT, "node_modules", "@clipforge", name),
				join(modules, "@clipforge", name),
			);
		}
	}
	return dir;
}

/** The file of a tree that exports `name` (the first under src/ or packages/), or null. */
function fileExporting(dir: string, name: string): string | null {
	try {
		const found = execFileSync(
			"git",
			["-C", dir, "grep", "-l", "-E", `export ((async )?function|const) ${name}\\b`, "--", "src", "packages"],
			{ encoding: "utf8" },
		)
			.split("\n")
			.filter((f) => f.endsWith(".ts") && !/\.test\.ts$/.test(f));
		return found[0] ? join(dir, found[0]) : null;
	} catch {
		return null;
	}
}

interface TreeRanker {
	rank: Ranker;
	chapterStarts: ((transcript: Transcript) => number[]) | null;
}

async function rankerOf(dir: string): Promise<TreeRanker> {
	const rankFile = fileExporting(dir, "rankOffline");
	const configFile = fileExporting(dir, "defaultConfig");
	if (!rankFile || !configFile) throw new Error(`no rankOffline or defaultConfig in ${dir}`);
	const { rankOffline } = (await import(pathToFileURL(rankFile).href)) as {
		rankOffline: (t: Transcript, c: unknown) => { clips: Span[] } | Span[];
	};
	const { defaultConfig } = (await import(pathToFileURL(configFile).href)) as { defaultConfig: () => object };
	const chaptersFile = fileExporting(dir, "chaptersOffline");
	const chapters = chaptersFile
		? ((await import(pathToFileURL(chaptersFile).href)) as {
				chaptersOffline: (t: Transcript) => { chapters: { start: number }[] };
			})
		: null;
	return {
		rank: (transcript, o) => {
			const out = rankOffline(transcript, {
				...defaultConfig(),
				clipDurationMin: o.min,
				clipDurationMax: o.max,
				customPrompt: o.prompt,
			});
			return (Array.isArray(out) ? out : out.clips).map((c) => ({ start: c.start, end: c.end }));
		},
		chapterStarts: chapters
			? (t) => {
					const found = chapters.chaptersOffline(t).chapters.map((c) => c.start);
					return found.length ? found : [0];
				}
			: null,
	};
}

const meanPk = (items: ChapterItem[], starts: (t: Transcript) => number[]) =>
	items.length
		? round3(
				items.reduce(
					(sum, i) => sum + pk(i.truth, labelsOf(i.wordTimes, starts(i.transcript)), windowOf(i.truth)),
					0,
				) / items.length,
			)
		: null;

const titlesAsPrompts = (talk: TopicTalk): PromptItem => ({
	id: talk.id,
	transcript: talk.transcript,
	queries: talk.topics
		.filter((t) => t.title.trim())
		.map((t) => ({ query: t.title, kind: "topic title", answers: [t.span] })),
});

const tinyrec = loadTinyrec(split);
const tinyrecFine = loadTinyrec(split, "fine");
const vtssum = loadVtssum(split);
if (!tinyrec && !vtssum) {
	say("no local copy of TinyRec or VT-SSum (npm run fetch:corpora): nothing to measure");
	process.exit(2);
}
const chapterItems = (talks: TopicTalk[] | null) => talks?.map(chapterItemOf).filter((i) => i.topicCount >= 2) ?? [];
const tinyrecChapters = chapterItems(tinyrec);
const vtssumChapters = chapterItems(vtssum);

const f = (x: number | null | undefined) => (x === null || x === undefined ? "  -  " : x.toFixed(3));
say(
	`across commits, ${split} side: TinyRec ${tinyrec?.length ?? 0} sessions, VT-SSum ${vtssum?.length ?? 0} lectures; no prompt, clips 15-90 s`,
);
say("commit      | TinyRec lean (rand)  cross (rand)  titles hit@1/@3  Pk    | VT-SSum lean (rand)  cross (rand)  Pk");
const rows: Record<string, unknown>[] = [];
const worktrees: string[] = [];
try {
	for (const commit of positionals) {
		const dir = checkout(commit);
		worktrees.push(dir);
		rows.push(await measure(commit, dir));
	}
} finally {
	if (!values.keep) for (const dir of worktrees) git("worktree", "remove", "--force", dir);
}

/** One commit's row, said as it is measured. */
async function measure(commit: string, dir: string) {
	const { rank, chapterStarts } = await rankerOf(dir);
	const t = tinyrec ? await scoreStructure(tinyrec, rank) : null;
	const v = vtssum ? await scoreStructure(vtssum, rank) : null;
	const p = tinyrecFine ? await scorePrompts(tinyrecFine.map(titlesAsPrompts), rank) : null;
	const row = {
		commit: git("rev-parse", "--short=10", commit),
		tinyrec: t,
		tinyrecTitlesAsPrompts: p && { hitAt1: p.hitAt1, hitAt3: p.hitAt3, queries: p.queries, empty: p.empty },
		tinyrecPk: chapterStarts ? meanPk(tinyrecChapters, chapterStarts) : null,
		vtssum: v,
		vtssumPk: chapterStarts ? meanPk(vtssumChapters, chapterStarts) : null,
	};
	say(
		`${row.commit.padEnd(11)} | ${f(t?.leaningOpenings)} (${f(t?.leaningOpeningsRandom)})  ${f(t?.topicCrossings)} (${f(t?.topicCrossingsRandom)})  ${f(p?.hitAt1)}/${f(p?.hitAt3)}      ${f(row.tinyrecPk)} | ${f(v?.leaningOpenings)} (${f(v?.leaningOpeningsRandom)})  ${f(v?.topicCrossings)} (${f(v?.topicCrossingsRandom)})  ${f(row.vtssumPk)}`,
	);
	return row;
}

const out = heldOut ? "bench-results/across-commits.json" : "bench-results/across-commits-dev.json";
mkdirSync(join(ROOT, "bench-results"), { recursive: true });
heldOut?.finish();
writeFileSync(
	join(ROOT, out),
	`${JSON.stringify({ measuredAt: new Date().toISOString(), split, ...(heldOut ? { run: heldOut.record } : {}), rows }, null, 2)}\n`,
);
say(`written to ${out}`);
