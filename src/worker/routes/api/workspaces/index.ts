/**
 * /api/workspaces: one file per operation. Exported here one `register…` per place in the
 * document's order, which interleaves them with other resources' (routes/api/index.ts).
 */
import type { Api } from "../../../env";
import { registerGetWatermark } from "./watermark";
import { registerRotateWebhookSecret } from "./webhook-secret";
import { registerSetWatermark } from "./set-watermark";
import { registerSetWebhook } from "./webhook";

export { registerWorkspaceList } from "./list";

/** PUT …/webhook, then POST …/webhook/secret. */
export function registerWorkspaceWebhook(api: Api) {
	registerSetWebhook(api);
	registerRotateWebhookSecret(api);
}

/** GET, then PUT …/watermark. */
export function registerWatermark(api: Api) {
	registerGetWatermark(api);
	registerSetWatermark(api);
}
