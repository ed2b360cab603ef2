/**
 * The Worker's `Env` as the tools see it: the simulator (tools/plan) runs the Worker's settings
 * and instance naming in plain Node, where the generated Workers types (worker-configuration.d.ts)
 * would clash with Node's. Only the var names it reads matter here, as strings.
 */
interface Env {
	[name: string]: string | undefined;
}
