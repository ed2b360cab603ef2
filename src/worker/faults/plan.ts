/**
 * Injected faults: the chaos soak's (tools/soak) way of making D1 and R2 fail as the platform
 * documents they can, inside a local stack only. Switched on by the var INJECT_FAULTS, which only
 * the soak's stack sets (`wrangler dev --var`); wrangler.toml never has it, and
 * `npm run deploy:check` refuses a production config that does. Its form:
 * `d1=0.02,r2=0.02,until=<ms since the epoch>`: the share of D1 statements and R2 operations that
 * fail, until the soak's fault window ends (so its drain and its checks see a sound stack).
 */

export type FaultedDependency = "d1" | "r2";

export interface FaultPlan {
	rates: Partial<Record<FaultedDependency, number>>;
	/** Faults stop at this time (ms since the epoch); none set: never. */
	until: number | null;
}

export interface FaultVars {
	INJECT_FAULTS?: string;
}

const parsed = new Map<string, FaultPlan | null>();

/** The plan INJECT_FAULTS describes, or null (production: no var, nothing injected). */
export function faultPlanOf(env: FaultVars | object): FaultPlan | null {
	const text = (env as FaultVars).INJECT_FAULTS;
	if (!text) return null;
	let plan = parsed.get(text);
	if (plan === undefined) {
		plan = parseFaultPlan(text);
		parsed.set(text, plan);
	}
	return plan;
}

/** @example parseFaultPlan("d1=0.02,r2=0.02,until=1767225600000") */
export function parseFaultPlan(text: string): FaultPlan | null {
	const plan: FaultPlan = { rates: {}, until: null };
	for (const part of text.split(",")) {
		const [name, value] = part.split("=").map((s) => s.trim());
		const number = Number(value);
		if (!name || !Number.isFinite(number) || number < 0) continue;
		if (name === "until") plan.until = number;
		else if (name === "d1" || name === "r2") plan.rates[name] = Math.min(1, number);
	}
	return Object.keys(plan.rates).length > 0 ? plan : null;
}

/** Counts per dependency in this isolate, logged with each fault so the soak can report the rate seen. */
const counts: Record<FaultedDependency, { seen: number; injected: number }> = {
	d1: { seen: 0, injected: 0 },
	r2: { seen: 0, injected: 0 },
};

/**
 * Whether this operation (`operations` statements or calls) fails: each fails with the plan's rate,
 * while the plan runs. Logs the fault (`{"event":"fault injected",…}`) when it does.
 */
export function drawFault(plan: FaultPlan, dependency: FaultedDependency, fault: string, operations = 1): boolean {
	const rate = plan.rates[dependency] ?? 0;
	const count = counts[dependency];
	count.seen += operations;
	if (rate <= 0 || (plan.until !== null && Date.now() >= plan.until)) return false;
	if (Math.random() >= 1 - (1 - rate) ** operations) return false;
	count.injected++;
	console.log(JSON.stringify({ event: "fault injected", dependency, fault, ...count }));
	return true;
}

/** One of `choices`, at random. */
export const anyOf = <T>(choices: readonly T[]): T => choices[Math.floor(Math.random() * choices.length)]!;
