/** `clipforge workspaces`: the workspaces of the key, with their minutes and plan. */
import type { Command } from "commander";
import type { Cli } from "../context.ts";

export function registerWorkspaces(program: Command, cli: Cli): void {
	program
		.command("workspaces")
		.description("List your workspaces and minutes")
		.action(async () => {
			const workspaces = await cli.client().workspaces();
			const plan = (w: (typeof workspaces)[number]) =>
				w.plan ? `${w.plan.name}${w.plan.active ? "" : " (inactive)"}` : "no plan";
			cli.output(workspaces, () =>
				workspaces.map((w) => `${w.id}  ${w.name}  ${w.minutesBalance} min  ${plan(w)}`).join("\n"),
			);
		});
}
