/**
 * A deploy of a running local stack to another build (a second checkout of the repository), in the
 * order a production deploy takes: `npm run predeploy` applies the new build's migrations while the
 * old code still serves; the Worker is replaced (`wrangler deploy`: running Workflow instances go on
 * with the new code); the render tier is rolled (SIGTERM, a grace, SIGKILL, as a container rollout
 * drains it) and started from the new build. The state (D1, R2, the Workflows engine's instances)
 * stays in the stack's folder. Used by the mid-run deploy drill (tools/soak/deploy-drill.ts).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { drainRenderTier, launchOf, restartWorker } from "./stack.ts";
import { runWrangler } from "./wrangler.ts";

export interface DeployTimes {
	migrateMs: number;
	workerMs: number;
	tierMs: number;
	/** Whether the old tier finished its jobs and exited within the grace (else SIGKILL ended it). */
	tierExitedWithinGrace: boolean;
}

/** Switches the stack in `stateDir` to the build checked out at `codeRoot`; how long each part took. */
export async function deployBuild(stateDir: string, codeRoot: string, graceMs: number): Promise<DeployTimes> {
	const started = Date.now();
	const persist = join(resolve(stateDir), "wrangler-state");
	runWrangler(["d1", "migrations", "apply", "DB", "--local", "--env", "local", "--persist-to", persist], codeRoot);
	const migrated = Date.now();
	const launchFile = join(stateDir, "launch.json");
	writeFileSync(launchFile, JSON.stringify({ ...launchOf(stateDir), codeRoot: resolve(codeRoot) }));
	await restartWorker(stateDir, 0);
	const workerUp = Date.now();
	const drained = await drainRenderTier(stateDir, graceMs);
	return {
		migrateMs: migrated - started,
		workerMs: workerUp - migrated,
		tierMs: Date.now() - workerUp,
		tierExitedWithinGrace: drained.exited,
	};
}

/** The checkout a stack's processes run from now. */
export const codeRootOf = (stateDir: string): string | undefined =>
	(JSON.parse(readFileSync(join(stateDir, "launch.json"), "utf8")) as { codeRoot?: string }).codeRoot;
