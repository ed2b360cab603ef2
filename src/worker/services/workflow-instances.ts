/**
 * Starting a ProcessVideoWorkflow instance: a video's run, a reprocess, a clip edit. The instance
 * id is the work's own id, so a retried request that finds the instance already created has the
 * outcome it wanted; any other failure settles what the request charged or started, then throws.
 */

/** Workflows answer a create with an id that is taken with an error saying so (its wording has varied). */
const INSTANCE_EXISTS = /already exists|instance.*exists/i;

export type ProcessVideoParams = NonNullable<Parameters<Env["PROCESS_VIDEO"]["create"]>[0]>["params"];

export async function startInstance(
	env: Pick<Env, "PROCESS_VIDEO">,
	id: string,
	params: ProcessVideoParams,
	settle: () => Promise<unknown>,
): Promise<void> {
	try {
		await env.PROCESS_VIDEO.create({ id, params });
	} catch (error) {
		if (INSTANCE_EXISTS.test((error as Error).message)) return;
		await settle();
		throw error;
	}
}
