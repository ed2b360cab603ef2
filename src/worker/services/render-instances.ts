/**
 * Which RenderContainer instance a job goes to. Every name is drawn from a bounded set per
 * purpose, so however many videos, workspaces or backgrounds there are, the Worker never asks for
 * more instances than `max_instances` in wrangler.toml (the sum of the pools), and no purpose can
 * crowd out another: submissions keep their probe instances while renders run, and renders keep
 * theirs while many videos download. The video and render pools are the operator's
 * (VIDEO_INSTANCES, RENDER_INSTANCES: sized for production in wrangler.toml, small by default for a
 * two-core machine; docs/performance.md explains the sizes); the probe and import pools are fixed.
 * How many videos one workspace runs at once is services/processing-slots.ts's part; how many jobs
 * one instance takes at once is the tier's (one encode per vCPU).
 */
import { settingsOf } from "../settings";

/** The pools that do not grow with the deployment. */
export const FIXED_POOLS = {
	/** Submissions' synchronous probes. */
	probe: 2,
	/**
	 * Background and watermark imports: the jobs that fetch users' URLs, each workspace at most
	 * WORKSPACE_JOB_LIMITS.importMedia at once. Nothing else runs here, so a slow URL delays only imports.
	 */
	import: 1,
} as const;

export type RenderPurpose = keyof typeof FIXED_POOLS | "video" | "render";
export type RenderPools = Record<RenderPurpose, number>;
/** An instance name from the bounded set (only this module makes them). */
export type RenderInstance = string & { readonly __renderInstance: true };

type PoolEnv = Parameters<typeof settingsOf>[0];

/**
 * Instances per purpose under `env`'s settings; their sum is `max_instances` of `[[containers]]`
 * (test/unit/render-instances.test.ts checks it for the production vars).
 * - video: one video's own work (download, upload, audio, signals, local transcription): the
 *   source lives on that instance's disk between steps.
 * - render: clip renders (they read the source from R2, so any instance can take one).
 */
export function renderPoolsOf(env: PoolEnv): RenderPools {
	return { ...FIXED_POOLS, ...settingsOf(env).instances };
}

const named = (pools: RenderPools, purpose: RenderPurpose, index: number) =>
	`${purpose}-${index % pools[purpose]}` as RenderInstance;

/** FNV-1a: a stable spread of ids over a pool. */
function slotOf(text: string): number {
	let hash = 2166136261;
	for (const ch of text) hash = Math.imul(hash ^ ch.charCodeAt(0), 16777619) >>> 0;
	return hash;
}

export const renderInstance = {
	/** A workspace's probes stay on one instance of the pool, so its burst slows itself first. */
	probe: (workspaceId: string) => named(FIXED_POOLS as RenderPools, "probe", slotOf(workspaceId)),
	import: (key = "") => named(FIXED_POOLS as RenderPools, "import", slotOf(key)),
	/** The same instance for every step of one video (its download lives on that disk). */
	video: (env: PoolEnv, videoId: string) => named(renderPoolsOf(env), "video", slotOf(videoId)),
	/** Clip `n` of a video: its clips spread over the render pool, one instance each while there are enough. */
	render: (env: PoolEnv, videoId: string, n: number) => named(renderPoolsOf(env), "render", slotOf(videoId) + n),
	/**
	 * What the service draws from its own data (caption previews, built-in backgrounds): the render
	 * pool, never the import instance a slow user URL may be holding.
	 */
	draw: (env: PoolEnv, key: string) => named(renderPoolsOf(env), "render", slotOf(key)),
};

/** Every name renderInstance can make under `env`'s settings. */
export function allRenderInstances(env: PoolEnv): string[] {
	const pools = renderPoolsOf(env);
	return (Object.keys(pools) as RenderPurpose[]).flatMap((purpose) =>
		Array.from({ length: pools[purpose] }, (_, i) => named(pools, purpose, i)),
	);
}
