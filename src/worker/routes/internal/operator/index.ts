/**
 * The operator's routes, never the API's (no workspace may see another's keys): each request must
 * be signed with the deployment's SIGNING_SECRET in the render protocol's HMAC scheme (method, path
 * and query, a timestamp within 5 minutes; packages/contract request-auth.ts). `npm run admin`
 * and the soak sign them (`signed.ts`). One file per route:
 * - `GET /internal/orphans?minAgeMinutes=10`: the orphan report (services/orphans.ts, `orphans.ts`);
 * - `GET /internal/audit`: rows, objects and the ledger checked against each other (services/audit.ts, `audit.ts`);
 * - `GET /internal/object-list?cursor=`: one page of the bucket's objects with their size, ETag,
 *   metadata: a deployed store's listing for a backup's manifest (a local backup, scripts/backup.ts,
 *   reads the simulator's store directly; `object-list.ts`).
 */
import { Hono } from "hono";
import type { AppEnv } from "../../../env";
import { registerAudit } from "./audit";
import { registerObjectList } from "./object-list";
import { registerOrphans } from "./orphans";

export const ORPHANS_PATH = "/internal/orphans";

export const internalOperatorRoutes = new Hono<AppEnv>();
registerOrphans(internalOperatorRoutes);
registerAudit(internalOperatorRoutes);
registerObjectList(internalOperatorRoutes);
