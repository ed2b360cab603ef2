/**
 * Ctrl-C (or SIGTERM) stops the CLI's own waiting or downloading, never the video: the signal
 * aborts the work (progress bars come down, the cursor comes back, a half-written clip is
 * removed) and the user is told how to pick up again; exit code 130 as for any interrupted command.
 */
import { ClipforgeError } from "../errors.ts";

export async function untilInterrupted<T>(
	work: (signal: AbortSignal) => Promise<T>,
	interruptedMessage: () => string,
): Promise<T> {
	const interrupt = new AbortController();
	const onSignal = () => interrupt.abort();
	process.once("SIGINT", onSignal);
	process.once("SIGTERM", onSignal);
	try {
		return await work(interrupt.signal);
	} catch (error) {
		if (interrupt.signal.aborted) throw new ClipforgeError("aborted", interruptedMessage(), { status: 0 });
		throw error;
	} finally {
		process.off("SIGINT", onSignal);
		process.off("SIGTERM", onSignal);
	}
}
