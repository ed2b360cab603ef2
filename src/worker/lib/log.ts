/**
 * The Worker's logs: one JSON object per line, which Workers Logs stores field by field, so a
 * failed video is found in the dashboard with a query on `videoId` (docs/deploy.md, "When a video
 * fails"). Every line says what happened (`event`, snake_case) and carries what finds it again:
 * `videoId` and `workspaceId` of the video, `requestId` of an API request (also its X-Request-Id
 * header and every error body), `step` of a workflow step (`instanceId` its workflow instance).
 *
 * @example logger({ videoId, workspaceId }).error("video_failed", { error })
 */

export interface LogContext {
	requestId?: string;
	videoId?: string;
	workspaceId?: string;
	instanceId?: string;
	step?: string;
}

/** What else the line says: any object (an interface, a report) whose fields become the line's. */
type Fields = object;
export type LogLevel = "info" | "warn" | "error";

export interface Logger {
	readonly context: LogContext;
	info(event: string, fields?: Fields): void;
	warn(event: string, fields?: Fields): void;
	error(event: string, fields?: Fields): void;
	/** The same logger with more context (later fields win). */
	with(context: LogContext): Logger;
}

/** What a thrown value says, as a log field: an Error's message (and its stack, for errors), else its text. */
function describe(value: unknown, level: LogLevel): unknown {
	if (!(value instanceof Error)) return typeof value === "object" || value === undefined ? value : String(value);
	return level === "error" && value.stack ? { message: value.message, stack: value.stack } : value.message;
}

export function logger(context: LogContext = {}): Logger {
	const write = (level: LogLevel, event: string, fields: Fields = {}) => {
		const line: Record<string, unknown> = { level, event, ...context, ...fields };
		if ("error" in fields) line.error = describe(fields.error, level);
		// An object, not a string: Workers Logs indexes its fields (wrangler tail prints it as JSON too).
		console[level](line);
	};
	return {
		context,
		info: (event, fields) => write("info", event, fields),
		warn: (event, fields) => write("warn", event, fields),
		error: (event, fields) => write("error", event, fields),
		with: (more) => logger({ ...context, ...more }),
	};
}
