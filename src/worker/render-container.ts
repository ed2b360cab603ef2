import { Container } from "@cloudflare/containers";

/**
 * An instance idle this long stops (a request in flight, streamed answers included, keeps it up).
 * Short, so a burst's instances go back to the pool soon; long enough for a video's upload step to
 * find the download on the same instance's disk (the steps follow each other within seconds, and
 * the upload downloads again if the file is gone).
 */
export const RENDER_SLEEP_AFTER = "2m";

/**
 * The render tier in production: containers/render/Dockerfile run as a Cloudflare Container.
 * Locally (no Docker) the same server runs natively and the Worker reaches it by RENDER_URL.
 */
export class RenderContainer extends Container<Env> {
	defaultPort = 8080;
	// Short: a video's steps reach the same instance back to back; an idle one should not hold a slot.
	sleepAfter = RENDER_SLEEP_AFTER;
	/**
	 * The tier runs only jobs signed with RENDER_SECRET: the Worker's secret, handed over at start
	 * (without it the tier refuses to start, so a misconfigured deployment fails closed).
	 */
	envVars: Record<string, string> = {
		ALLOW_PRIVATE_SOURCES: "false",
		NODE_ENV: "production",
		RENDER_SECRET: this.env.RENDER_SECRET ?? "",
	};
}
