/** `GET /internal/audit`: rows, objects and the ledger checked against each other (services/audit.ts). */
import type { Hono } from "hono";
import type { AppEnv } from "../../../env";
import { auditStore } from "../../../services/audit";
import { signedByOperator } from "./signed";

export function registerAudit(routes: Hono<AppEnv>) {
	routes.get("/audit", signedByOperator, async (c) => c.json(await auditStore(c.env)));
}
