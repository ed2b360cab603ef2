/** list_workspaces: the key's workspace, with its minutes left and plan. */
import * as z from "zod";
import { defineTool, READ_ONLY } from "../tool.ts";

const workspace = z.object({
	id: z.string(),
	name: z.string(),
	minutesBalance: z.number().describe("Minutes left to spend on videos."),
	plan: z
		.object({
			name: z.string(),
			active: z.boolean(),
			maxVideoSeconds: z.number(),
			expiresAt: z.string().nullable(),
		})
		.nullable(),
});

export const listWorkspaces = defineTool({
	name: "list_workspaces",
	title: "List workspaces",
	description: "The workspace this API key belongs to, with its minutes left and plan.",
	input: {},
	output: { workspaces: z.array(workspace) },
	annotations: READ_ONLY,
	run: async (client) => ({
		workspaces: (await client.workspaces()).map(({ id, name, minutesBalance, plan }) => ({
			id,
			name,
			minutesBalance,
			plan,
		})),
	}),
});
