/** Starts the durable ProcessVideoWorkflow for a video (instance id = video id, so never twice). */
export async function startProcessing(env: Pick<Env, "PROCESS_VIDEO">, videoId: string): Promise<void> {
	try {
		await env.PROCESS_VIDEO.create({ id: videoId, params: { videoId } });
	} catch (error) {
		// A retried request may find the instance already created: that is the outcome we wanted.
		if (/already exists|instance.*exists/i.test((error as Error).message)) return;
		throw error;
	}
}
