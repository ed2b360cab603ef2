/**
 * Ranks one transcript file in a process of its own and prints what it cost: CPU seconds, wall
 * seconds and the V8 heap. `bench:quality` and the tools tests bundle it and run it under a 64 MB
 * heap (heap-cap.ts), so a run that finishes has ranked inside it, as a Worker must within its 128 MB.
 *
 * `node --import tsx tools/quality/rank-long.ts <transcript.json> <min> <max> [prompt]`
 */
import { readFileSync } from "node:fs";
import { getHeapStatistics } from "node:v8";
import { defaultConfig } from "../../src/worker/domain/video-config.ts";
import { rankOffline } from "@clipforge/moments/ranking/offline/rank-offline";
import type { Transcript } from "@clipforge/moments/text";

const [file, min, max, prompt] = process.argv.slice(2);
const transcript = JSON.parse(readFileSync(file!, "utf8")) as Transcript;
const config = {
	...defaultConfig(),
	clipDurationMin: Number(min),
	clipDurationMax: Number(max),
	customPrompt: prompt ?? null,
};
const cpu = process.cpuUsage();
const started = performance.now();
let clips = 0;
let note: string | null = null;
let error: string | null = null;
try {
	const ranked = rankOffline(transcript, config);
	clips = ranked.clips.length;
	note = ranked.note;
} catch (e) {
	error = `${(e as Error).name}: ${(e as Error).message}`;
}
const used = process.cpuUsage(cpu);
const heap = getHeapStatistics();
console.log(
	JSON.stringify({
		cpuSeconds: Math.round((used.user + used.system) / 1e4) / 100,
		wallSeconds: Math.round(performance.now() - started) / 1000,
		committedHeapMB: Math.round(heap.total_heap_size / 2 ** 20),
		usedHeapMB: Math.round(heap.used_heap_size / 2 ** 20),
		clips,
		note,
		error,
	}),
);
