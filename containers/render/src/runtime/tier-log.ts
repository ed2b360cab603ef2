/** The tier's log: one JSON line per event on stdout (what the Container's logs collect), none when RENDER_QUIET. */
export function log(event: string, fields: Record<string, unknown>): void {
	if (process.env.RENDER_QUIET === "true") return;
	console.log(JSON.stringify({ at: new Date().toISOString(), event, ...fields }));
}
