/**
 * The leak check: no committed file outside the held-out corpus folders may hold a sequence of
 * `N` words (lower case, punctuation and hesitations dropped) from a held-out item. Held-out
 * items are read only into hashes of their word sequences; a finding names the file, the line
 * the sequence starts on and the item's id, never the words.
 *
 * `npm run check:leaks` prints the findings; tools/held-out-leaks.test.ts runs it in `make test`.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { HELD_OUT_FOLDERS, heldOutCorpora, type HeldOutCorpus } from "./held-out.ts";

/** Words in a sequence that counts as a quote. */
export const N = 8;
const HESITATIONS = new Set(["um", "umm", "uh", "uhh", "uhm", "er", "erm", "hmm", "mm", "mhm", "ah", "eh"]);
const ROOT = join(import.meta.dirname, "..", "..");
/**
 * Counting words: a sequence made only of them ("one two three four five six seven eight", as a
 * list of number words in code or digits read out in a meeting) is a count, not a quote.
 */
const COUNTING =
	/^(\d+|zero|oh|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|million|billion)$/;
const isCount = (words: string[], from: number) => words.slice(from, from + N).every((w) => COUNTING.test(w));

/** Lower case, apostrophes dropped, other punctuation a space, hesitations left out. */
export function normalWords(text: string): string[] {
	return text
		.toLowerCase()
		.replace(/['’‘`]/g, "")
		.replace(/[^\p{L}\p{N}]+/gu, " ")
		.split(" ")
		.filter((w) => w && !HESITATIONS.has(w));
}

/** A 53-bit hash of a word sequence (two FNV-1a hashes). */
function hashOf(words: string[], from: number): number {
	let a = 2166136261;
	let b = 0x9747b28c;
	for (let k = from; k < from + N; k++) {
		const w = words[k]!;
		for (let i = 0; i < w.length; i++) {
			const c = w.charCodeAt(i);
			a = Math.imul(a ^ c, 16777619);
			b = Math.imul(b ^ c, 0x01000193) ^ (b >>> 15);
		}
		a = Math.imul(a ^ 32, 16777619);
		b = Math.imul(b ^ 32, 0x01000193);
	}
	return (a >>> 0) * 2 ** 21 + ((b >>> 0) & 0x1fffff);
}

export interface LeakIndex {
	/** Hash → index into `ids`. */
	hashes: Map<number, number>;
	ids: string[];
	corpora: HeldOutCorpus[];
}

/** Hashes of every N-word sequence of every held-out item this machine holds. */
export function buildIndex(corpora = heldOutCorpora()): LeakIndex {
	const hashes = new Map<number, number>();
	const ids: string[] = [];
	for (const corpus of corpora) {
		for (const item of corpus.items ?? []) {
			const at = ids.push(`${item.id}`) - 1;
			for (const text of item.texts) {
				const words = normalWords(text);
				for (let k = 0; k + N <= words.length; k++) {
					if (isCount(words, k)) continue;
					const h = hashOf(words, k);
					if (!hashes.has(h)) hashes.set(h, at);
				}
			}
		}
	}
	// The items' texts are not kept.
	return { hashes, ids, corpora: corpora.map((c) => ({ ...c, items: c.items ? [] : null })) };
}

/** The held-out item each N-word sequence of `words` starting at k matches (undefined where none does). */
export function matchAt(index: LeakIndex, words: string[], k: number): string | undefined {
	const at = index.hashes.get(hashOf(words, k));
	return at === undefined ? undefined : index.ids[at];
}

export interface Leak {
	file: string;
	line: number;
	item: string;
	/** How many overlapping N-word sequences of the item follow from this line (a longer quote has more). */
	sequences: number;
}

/** Files git tracks (or would commit: untracked but not ignored), outside the held-out folders, that are text. */
export function filesToCheck(root = ROOT): string[] {
	const listed = execFileSync("git", ["-C", root, "ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
		encoding: "utf8",
		maxBuffer: 64 << 20,
	})
		.split("\0")
		.filter(Boolean);
	return [...new Set(listed)]
		.filter((f) => !HELD_OUT_FOLDERS.some((d) => f.startsWith(d)))
		.filter((f) => !/\.(png|jpe?g|gif|webp|ico|wav|mp3|mp4|webm|woff2?|ttf|otf|pdf|gz|zip|tgz|wasm)$/i.test(f))
		.filter((f) => f !== "package-lock.json")
		.filter((f) => {
			const path = join(root, f);
			return existsSync(path) && statSync(path).isFile();
		});
}

/** The leaks in the given files: one finding per file, item and run of consecutive matching sequences. */
export function scanFiles(index: LeakIndex, files: string[], root = ROOT): Leak[] {
	const leaks: Leak[] = [];
	for (const file of files) {
		const buffer = readFileSync(join(root, file));
		if (buffer.includes(0)) continue;
		const words: string[] = [];
		const lines: number[] = [];
		buffer
			.toString("utf8")
			.split("\n")
			.forEach((text, k) => {
				for (const w of normalWords(text)) {
					words.push(w);
					lines.push(k + 1);
				}
			});
		let open: Leak | null = null;
		let last = -2;
		for (let k = 0; k + N <= words.length; k++) {
			const item = matchAt(index, words, k);
			if (item === undefined) continue;
			if (open && open.item === item && k <= last + N) open.sequences++;
			else {
				open = { file, line: lines[k]!, item, sequences: 1 };
				leaks.push(open);
			}
			last = k;
		}
	}
	return leaks;
}

export const formatLeak = (l: Leak) =>
	`${l.file}:${l.line}  ${l.item}  (${l.sequences} ${N}-word sequence${l.sequences === 1 ? "" : "s"})`;

/** The corpora read and the ones skipped (with why), and every leak. */
export function findLeaks(root = ROOT): { leaks: Leak[]; read: string[]; skipped: string[] } {
	const index = buildIndex();
	return {
		leaks: scanFiles(index, filesToCheck(root), root),
		read: index.corpora.filter((c) => c.items).map((c) => c.corpus),
		skipped: index.corpora.filter((c) => !c.items).map((c) => `${c.corpus}: ${c.skipped}`),
	};
}

if (import.meta.url === `file://${process.argv[1]}`) {
	const { leaks, read, skipped } = findLeaks();
	console.log(`held-out corpora read: ${read.join(", ")}`);
	for (const s of skipped) console.log(`skipped ${s}`);
	for (const l of leaks) console.log(formatLeak(l));
	console.log(leaks.length ? `${leaks.length} leak(s)` : "no leaks");
	process.exitCode = leaks.length ? 1 : 0;
}
