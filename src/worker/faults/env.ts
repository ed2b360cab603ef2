/**
 * R2's seam: the Worker's bindings as its entry points hand them on (the fetch and scheduled
 * handlers, each workflow run). With no INJECT_FAULTS (production), `env` itself; in the chaos
 * soak's stack, `env` with MEDIA failing as faults/r2.ts says. (D1's seam is db/client.ts.)
 */
import { faultPlanOf } from "./plan";
import { withR2Faults } from "./r2";

const wrapped = new WeakMap<object, Env>();

export function withInjectedFaults<E extends Env>(env: E): E {
	const plan = faultPlanOf(env);
	if (!plan?.rates.r2) return env;
	let faulty = wrapped.get(env);
	if (!faulty) {
		faulty = { ...env, MEDIA: withR2Faults(env.MEDIA, plan) };
		wrapped.set(env, faulty);
	}
	return faulty as E;
}
