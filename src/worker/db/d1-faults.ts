/**
 * D1's documented transient errors (https://developers.cloudflare.com/d1/observability/debug-d1/),
 * injected under the data layer's retries (db/client.ts) when INJECT_FAULTS names d1. Most fail
 * before the statement runs; a lost connection may also come after it ran (the write committed,
 * its answer lost), the case that makes blind retries of writes unsafe.
 */
import type { D1Interceptor } from "./d1-intercept";
import { anyOf, drawFault, type FaultPlan } from "../faults/plan";

const D1_FAULTS = [
	{ message: "Network connection lost.", ran: false },
	{ message: "Network connection lost.", ran: true },
	{ message: "D1 DB is overloaded. Requests queued for too long.", ran: false },
	{ message: "D1 DB storage operation exceeded timeout which caused object to be reset.", ran: false },
	{ message: "Internal error in D1 DB storage caused object to be reset.", ran: false },
	{ message: "Cannot resolve D1 DB due to transient issue on remote node.", ran: false },
] as const;

export function injectD1Faults(plan: FaultPlan): D1Interceptor {
	return async (sql, execute) => {
		const fault = anyOf(D1_FAULTS);
		if (!drawFault(plan, "d1", `${fault.message}${fault.ran ? " (after it ran)" : ""}`, sql.length))
			return execute();
		if (fault.ran) await execute();
		throw new Error(`D1_ERROR: ${fault.message}`);
	};
}
