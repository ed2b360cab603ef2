/**
 * The `[vars]` of wrangler.toml as plain strings: the production ones (the top of the file, before
 * any `[env.…]`) or an environment's (`[env.<name>.vars]`). A small reader for the few tools and
 * tests that check the configured sizes; wrangler itself is the authority.
 */
export function wranglerVars(toml: string, environment?: string): Record<string, string> {
	const section = environment
		? new RegExp(`^\\[env\\.${environment}\\.vars\\]\\n([\\s\\S]*?)(?=^\\[)`, "m")
		: /^\[vars\]\n([\s\S]*?)(?=^\[)/m;
	const text = environment ? toml : toml.split(/^\[env\./m)[0]!;
	const body = section.exec(text)?.[1] ?? "";
	return Object.fromEntries([...body.matchAll(/^(\w+)\s*=\s*"([^"]*)"/gm)].map((m) => [m[1]!, m[2]!]));
}

/** `[[containers]]`: how many instances and of which type. */
export function containerConfig(toml: string): { maxInstances: number; instanceType: string } {
	const block = /^\[\[containers\]\]\n([\s\S]*?)(?=^\[)/m.exec(toml)?.[1] ?? "";
	return {
		maxInstances: Number(/^max_instances\s*=\s*(\d+)/m.exec(block)?.[1] ?? 0),
		instanceType: /^instance_type\s*=\s*"([^"]+)"/m.exec(block)?.[1] ?? "",
	};
}
