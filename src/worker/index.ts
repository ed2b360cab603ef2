import { createApp } from "./app";
import { withInjectedFaults } from "./faults/env";
import { purgeExpired } from "./services/purge";
import { reconcileStaleVideos } from "./services/reconcile";
import { purgeStaleSmokeRuns } from "./services/smoke/checks";
import { purgeExpiredSources } from "./services/source-retention";
import { purgeOldPreviews } from "./services/caption-templates";
import { purgeAbandonedUploads } from "./services/uploads";

const app = createApp();

// biome-ignore lint/style/noDefaultExport: Wrangler needs the default export.
export default {
	// The bindings pass through faults/env.ts (R2's seam: nothing changes unless a local stack sets INJECT_FAULTS).
	fetch: (request: Request, env: Env, ctx: ExecutionContext) => app.fetch(request, withInjectedFaults(env), ctx),
	/** Cron trigger: fail and refund videos whose workflow died without saying so; drop expired sessions, idempotency keys and sign-in backoff keys; abort uploads past their expiry; delete stored sources past their retention and caption previews not drawn for 30 days; drop smoke checks' objects left over an hour. */
	scheduled(_controller, bindings, ctx) {
		const env = withInjectedFaults(bindings);
		ctx.waitUntil(reconcileStaleVideos(env));
		ctx.waitUntil(purgeExpired(env));
		ctx.waitUntil(purgeAbandonedUploads(env));
		ctx.waitUntil(purgeExpiredSources(env));
		ctx.waitUntil(purgeOldPreviews(env));
		ctx.waitUntil(purgeStaleSmokeRuns(env.MEDIA));
	},
} satisfies ExportedHandler<Env>;
export { ProcessVideoWorkflow } from "../workflows/process-video";
export { RenderContainer } from "./render-container";
