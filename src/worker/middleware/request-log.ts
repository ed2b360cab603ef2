/**
 * The logger of one API request (lib/log.ts): its `requestId` (the X-Request-Id header, and every
 * error body's), and its workspace when the caller has only one (an API key always does).
 */
import type { Context } from "hono";
import type { AppEnv } from "../env";
import { logger, type LogContext, type Logger } from "../lib/log";

export function requestLog(c: Context<AppEnv>, context: LogContext = {}): Logger {
	const principal = c.get("principal") as AppEnv["Variables"]["principal"] | undefined;
	const only = principal?.workspaceIds.length === 1 ? principal.workspaceIds[0] : undefined;
	return logger({ requestId: c.get("requestId"), ...(only ? { workspaceId: only } : {}), ...context });
}
