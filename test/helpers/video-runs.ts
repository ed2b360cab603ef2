/**
 * The video workflow's introspector with its sleeps and retry delays off, so every instance the
 * test starts runs straight through (a step that fails is retried at once). Dispose it when done
 * (`await using`): a workflow binding takes one introspection session at a time.
 * @example await using runs = await introspectVideoRuns(); … (await runs.get())[0]!.waitForStatus("complete");
 */
import { introspectWorkflow } from "cloudflare:test";
import { env } from "cloudflare:workers";

export async function introspectVideoRuns() {
	const introspector = await introspectWorkflow(env.PROCESS_VIDEO);
	await introspector.modifyAll(async (m) => {
		await m.disableSleeps();
		await m.disableRetryDelays();
	});
	return introspector;
}
