/**
 * `/admin/smoke`: the operator's check of a live deployment (`npm run smoke -- --url … --key …`).
 * Not a tenant route: it is outside `/api` (no API key, no session, not in the OpenAPI document)
 * and answers only a bearer token equal to the OPERATOR_SECRET secret, compared in constant time.
 * Without that secret (or with one under 32 characters) the route does not exist: 404 for anyone.
 * Every attempt, right or wrong, counts against the write limiter per client address first.
 *
 * - `POST /admin/smoke` → every binding checked (services/smoke/checks.ts) and a signed download to fetch (`start.ts`);
 * - `GET /admin/smoke/:runId/download?token=…` → that object (the token is the signature,
 *   as for clip downloads; `download.ts`);
 * - `DELETE /admin/smoke/:runId` → removes what the run stored (`{ removed, left: 0 }`; `remove.ts`).
 */
import { Hono } from "hono";
import type { AppEnv } from "../../../env";
import { registerSmokeDownload } from "./download";
import { registerRemoveSmoke } from "./remove";
import { registerStartSmoke } from "./start";

export { MIN_OPERATOR_SECRET_LENGTH } from "./operator";

export const smokeRoutes = new Hono<AppEnv>();
registerStartSmoke(smokeRoutes);
registerSmokeDownload(smokeRoutes);
registerRemoveSmoke(smokeRoutes);
