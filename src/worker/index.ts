import { createApp } from "./app";
import { reconcileStaleVideos } from "./services/reconcile";

const app = createApp();

// biome-ignore lint/style/noDefaultExport: Wrangler needs the default export.
export default {
	fetch: app.fetch,
	/** Cron trigger: fail and refund videos whose workflow died without saying so. */
	scheduled(_controller, env, ctx) {
		ctx.waitUntil(reconcileStaleVideos(env));
	},
} satisfies ExportedHandler<Env>;
export { ProcessVideoWorkflow } from "../workflows/process-video";
export { RenderContainer } from "./render-container";
