import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { ensureLocalSecrets, secretsFileFor, type StackInfo, startStack, stopStack } from "../../scripts/stack.ts";

declare module "vitest" {
	export interface ProvidedContext {
		clipforgeUrl: string;
		clipforgeApiKey: string;
		clipforgeEmail: string;
		clipforgePassword: string;
		/** The stack's render tier (loopback), for tests that attack it directly. */
		clipforgeRenderUrl: string;
		/** The stack's state folder (pids, logs), for tests that crash a part of it. */
		clipforgeStateDir: string;
		/** The stack's OPERATOR_SECRET, the key of `npm run smoke`. */
		clipforgeOperatorSecret: string;
	}
}

/**
 * A stack on free ports in a new state folder. Once more in another folder if it does not come up:
 * two shards and the soak start three stacks at once on two cores, and a port picked free can be
 * taken by another process before ours binds it. The first failure is printed, not lost.
 */
async function startFreshStack(): Promise<{ stateDir: string; stack: StackInfo }> {
	for (let attempt = 1; ; attempt++) {
		const stateDir = mkdtempSync(join(tmpdir(), "clipforge-e2e-"));
		try {
			// x264's fastest preset: these tests read what a viewer sees (lengths, frames, captions), never
			// bytes, and encoding at veryfast was most of the suite's CPU (docs/testing.md).
			const stack = await startStack({ stateDir, minutes: 600, renderEnv: { X264_PRESET: "ultrafast" } });
			return { stateDir, stack };
		} catch (error) {
			stopStack(stateDir);
			rmSync(stateDir, { recursive: true, force: true });
			if (attempt >= 2) throw error;
			console.error(`The end-to-end stack did not start; starting it once more. ${(error as Error).message}`);
		}
	}
}

export default async function setup(project: TestProject) {
	const { stateDir, stack } = await startFreshStack();
	project.provide("clipforgeUrl", stack.url);
	project.provide("clipforgeRenderUrl", stack.renderUrl);
	project.provide("clipforgeApiKey", stack.apiKey);
	project.provide("clipforgeStateDir", stateDir);
	project.provide("clipforgeEmail", stack.email);
	project.provide("clipforgePassword", stack.password);
	project.provide("clipforgeOperatorSecret", ensureLocalSecrets(secretsFileFor(stateDir)).OPERATOR_SECRET);
	return () => {
		stopStack(stateDir);
		rmSync(stateDir, { recursive: true, force: true });
	};
}
