/**
 * Every held-out item this machine holds, as the strings it is made of, for the leak check
 * (leak-check.ts). Nothing here prints or returns a held-out string to a caller that reports:
 * the leak check keeps only hashes of word sequences and reports item ids.
 *
 * - the talk corpus's test split and the written meetings' test split (committed, always present);
 * - QMSum: the train split's held-out series, and its val and test splits (reserved for
 *   independent evaluation), when a local copy exists;
 * - TinyRec's test sessions and VT-SSum's held-out lectures, when local copies exist.
 *
 * A corpus with no local copy is skipped, with the reason (as on CI).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { corpusSource } from "./corpus-source.ts";
import { cleanTurn, halfOf, qmsumSource } from "./qmsum.ts";
import { readVtssum } from "./vtssum.ts";

export interface HeldOutItem {
	/** An id to report: the corpus, the split and the item, never its text. */
	id: string;
	texts: string[];
}

export interface HeldOutCorpus {
	corpus: string;
	items: HeldOutItem[] | null;
	/** Why the corpus was not read, when it was not. */
	skipped?: string;
}

/** The committed folders that hold held-out items (the leak check does not read them as "other files"). */
export const HELD_OUT_FOLDERS = ["tools/quality/corpus/talk/test/", "tools/quality/corpus/meetings/test/"];

const CORPUS = join(import.meta.dirname, "corpus");

/** All string values of a JSON value, depth first. */
export function stringsOf(value: unknown, out: string[] = []): string[] {
	if (typeof value === "string") out.push(value);
	else if (Array.isArray(value)) for (const v of value) stringsOf(v, out);
	else if (value && typeof value === "object") for (const v of Object.values(value)) stringsOf(v, out);
	return out;
}

function committedSplit(folder: string): HeldOutItem[] {
	const dir = join(CORPUS, folder);
	if (!existsSync(dir)) return [];
	return readdirSync(dir)
		.filter((f) => f.endsWith(".json"))
		.sort()
		.flatMap((f) => {
			const json = JSON.parse(readFileSync(join(dir, f), "utf8")) as unknown;
			// A file of many items (highlights.json) is reported item by item.
			if (Array.isArray(json))
				return json.map((item, k) => ({
					id: `${folder}/${f}#${(item as { id?: string }).id ?? k}`,
					texts: stringsOf(item),
				}));
			return [{ id: `${folder}/${f.replace(/\.json$/, "")}`, texts: stringsOf(json) }];
		});
}

function qmsumHeldOut(): HeldOutCorpus {
	const source = qmsumSource();
	if (!source)
		return { corpus: "qmsum", items: null, skipped: "no local copy of QMSum (see tools/quality/qmsum.ts)" };
	const items: HeldOutItem[] = [];
	for (const split of ["train", "val", "test"]) {
		for (const name of source.list(`data/ALL/${split}`).filter((f) => f.endsWith(".json"))) {
			const id = name.replace(/\.json$/, "");
			if (split === "train" && halfOf(id) !== "heldout") continue;
			const json = JSON.parse(source.read(`data/ALL/${split}/${name}`)) as unknown;
			items.push({ id: `qmsum/${split}/${id}`, texts: stringsOf(json).map(cleanTurn) });
		}
	}
	return { corpus: "qmsum", items };
}

function tinyrecHeldOut(): HeldOutCorpus {
	const source = corpusSource("TINYREC_DIR", "treeseg", "/work/.mirror/AugmendTech+treeseg/repo");
	const folder = "datasets/augmend/test";
	const names = source?.list(folder).filter((f) => f.endsWith(".json")) ?? [];
	if (!source || names.length === 0)
		return { corpus: "tinyrec", items: null, skipped: "no local copy of TinyRec (see tools/quality/tinyrec.ts)" };
	const byId = new Map<string, string[]>();
	for (const name of names) {
		const id = `tinyrec/test/${name.replace(/(_anno)?\.json$/, "")}`;
		byId.set(id, [...(byId.get(id) ?? []), ...stringsOf(JSON.parse(source.read(`${folder}/${name}`)))]);
	}
	return { corpus: "tinyrec", items: [...byId].map(([id, texts]) => ({ id, texts })) };
}

function vtssumHeldOut(): HeldOutCorpus {
	const lectures = readVtssum("test");
	if (!lectures)
		return { corpus: "vtssum", items: null, skipped: "no local copy of VT-SSum (see tools/quality/vtssum.ts)" };
	return { corpus: "vtssum", items: lectures.map((l) => ({ id: l.id, texts: l.segments.flat() })) };
}

/** Every held-out corpus, read or skipped. */
export function heldOutCorpora(): HeldOutCorpus[] {
	return [
		{ corpus: "talk-test", items: committedSplit("talk/test") },
		{ corpus: "meetings-test", items: committedSplit("meetings/test") },
		qmsumHeldOut(),
		tinyrecHeldOut(),
		vtssumHeldOut(),
	];
}
