/**
 * `npm run chapters -- <transcript.json>`
 *
 * Chapters of a transcript (the JSON of GET /api/videos/:id/transcript, the shape `npm run rank`
 * reads) with the same code the workflow runs offline, printed as JSON: the chapters with their
 * titles and summaries, the whole video's summary and the ready-to-paste show notes. The time it
 * took is printed on stderr.
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { z } from "zod";
import { Segment } from "@clipforge/contract";
import { showNotesOf } from "@clipforge/domain";
import { chaptersOffline } from "@clipforge/moments/chapters/offline/chapters-offline";

const USAGE = "usage: npm run chapters -- <transcript.json>";
const TranscriptFile = z.object({
	language: z.string().default("en"),
	duration: z.number().positive(),
	segments: z.array(Segment),
});

const { positionals } = parseArgs({ allowPositionals: true, options: {} });
if (positionals.length !== 1) fail(USAGE);
let raw: unknown;
try {
	raw = JSON.parse(readFileSync(positionals[0]!, "utf8"));
} catch (error) {
	fail(`cannot read ${positionals[0]}: ${(error as Error).message}`);
}
const parsed = TranscriptFile.safeParse(raw);
if (!parsed.success) fail(`${positionals[0]} is not a transcript: ${parsed.error.message}`);

const started = performance.now();
const result = chaptersOffline(parsed.data);
const ms = performance.now() - started;
console.log(
	JSON.stringify(
		{
			chapters: result.chapters,
			summary: result.summary,
			description: result.chapters.length ? showNotesOf(result) : result.summary,
			note: result.note,
		},
		null,
		2,
	),
);
console.error(
	`${result.chapters.length} chapters in ${ms.toFixed(0)} ms for ${(parsed.data.duration / 60).toFixed(1)} min of video`,
);

function fail(message: string): never {
	console.error(message);
	process.exit(2);
}
