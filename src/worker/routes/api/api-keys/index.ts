/**
 * /api/api-keys and /api/api-keys/{id}: key management, for signed-in users only. Minting and
 * revoking take the workspace's owner or an admin (a member gets 403 `forbidden`); any member may
 * list them (names and prefixes, never the keys). One file per operation.
 */
import type { Api } from "../../../env";
import { requireSession } from "../../../middleware/auth";
import { registerCreateApiKey } from "./create";
import { registerListApiKeys } from "./list";
import { registerRevokeApiKey } from "./revoke";

export function registerApiKeys(api: Api): void {
	// `/x/*` also matches `/x` itself.
	api.use("/api-keys/*", requireSession);
	for (const register of [registerCreateApiKey, registerListApiKeys, registerRevokeApiKey]) register(api);
}
