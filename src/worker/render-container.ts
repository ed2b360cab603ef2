import { Container } from "@cloudflare/containers";

/**
 * The render tier in production: containers/render/Dockerfile run as a Cloudflare Container.
 * Locally (no Docker) the same server runs natively and the Worker reaches it by RENDER_URL.
 */
export class RenderContainer extends Container<Env> {
	defaultPort = 8080;
	// Keep a warm instance between the steps of one video (its disk holds the downloaded source).
	sleepAfter = "15m";
	/**
	 * The tier runs only jobs signed with RENDER_SECRET: the Worker's secret, handed over at start
	 * (without it the tier refuses to start, so a misconfigured deployment fails closed).
	 */
	envVars: Record<string, string> = { ALLOW_PRIVATE_SOURCES: "false", NODE_ENV: "production", RENDER_SECRET: this.env.RENDER_SECRET ?? "" };
}
