import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { startStack, stopStack } from "../../scripts/stack.ts";

declare module "vitest" {
	export interface ProvidedContext {
		clipforgeUrl: string;
		clipforgeApiKey: string;
	}
}

export default async function setup(project: TestProject) {
	const stateDir = mkdtempSync(join(tmpdir(), "clipforge-e2e-"));
	const stack = await startStack({ stateDir, minutes: 600 });
	project.provide("clipforgeUrl", stack.url);
	project.provide("clipforgeApiKey", stack.apiKey);
	return () => {
		stopStack(stateDir);
		rmSync(stateDir, { recursive: true, force: true });
	};
}
