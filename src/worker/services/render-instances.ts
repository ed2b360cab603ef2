/**
 * Which RenderContainer instance a job goes to. Every name is drawn from a bounded set per
 * purpose, so however many videos, workspaces or backgrounds there are, the Worker never asks for
 * more instances than `max_instances` in wrangler.toml (the sum of RENDER_POOLS), and no purpose
 * can crowd out another: submissions keep their probe instances while renders run, and renders
 * keep theirs while many videos download. How many videos one workspace runs at once is
 * services/processing-slots.ts's part; how many jobs one instance takes at once is the tier's.
 */

/** Instances per purpose; their sum is `max_instances` of `[[containers]]` (test/unit/render-instances.test.ts checks it). */
export const RENDER_POOLS = {
	/** Submissions' synchronous probes. */
	probe: 2,
	/** Background and watermark imports, built-in backgrounds drawn on first use, caption previews. */
	import: 1,
	/** One video's own work: download, upload (the source on the instance's disk), audio, signals, local transcription. */
	video: 4,
	/** Clip renders (they read the source from R2, so any instance can take one). */
	render: 3,
} as const;

export type RenderPurpose = keyof typeof RENDER_POOLS;
/** An instance name from the bounded set (only this module makes them). */
export type RenderInstance = string & { readonly __renderInstance: true };

const named = (purpose: RenderPurpose, index: number) => `${purpose}-${index % RENDER_POOLS[purpose]}` as RenderInstance;

/** FNV-1a: a stable spread of ids over a pool. */
function slotOf(text: string): number {
	let hash = 2166136261;
	for (const ch of text) hash = Math.imul(hash ^ ch.charCodeAt(0), 16777619) >>> 0;
	return hash;
}

export const renderInstance = {
	/** A workspace's probes stay on one instance of the pool, so its burst slows itself first. */
	probe: (workspaceId: string) => named("probe", slotOf(workspaceId)),
	import: (key = "") => named("import", slotOf(key)),
	/** The same instance for every step of one video (its download lives on that disk). */
	video: (videoId: string) => named("video", slotOf(videoId)),
	/** Clip `n` of a video: its clips spread over the render pool. */
	render: (videoId: string, n: number) => named("render", slotOf(videoId) + n),
};

/** Every name renderInstance can make. */
export function allRenderInstances(): string[] {
	return (Object.keys(RENDER_POOLS) as RenderPurpose[]).flatMap((purpose) => Array.from({ length: RENDER_POOLS[purpose] }, (_, i) => named(purpose, i)));
}
