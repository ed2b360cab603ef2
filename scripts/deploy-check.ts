/**
 * `npm run deploy:check` (part of `make test`): `wrangler deploy --dry-run` of the production
 * configuration, as far as it runs without a Cloudflare account: the config parses, every binding
 * resolves, the Worker bundles; then the bundle is held to a size budget and its startup is
 * measured (`wrangler check startup`, a CPU profile of the Worker's start in local workerd).
 *
 * A dry run builds the container image when `image` is a Dockerfile, which needs a Docker engine;
 * so the check runs on a copy of wrangler.toml whose only change is the image: a registry URI
 * (which a dry run does not pull). The copy sits beside wrangler.toml (its relative paths hold)
 * under a dot name, and is removed afterwards.
 *
 * Limits (https://developers.cloudflare.com/workers/platform/limits/): 10 MB compressed on Workers
 * Paid, 3 MB on Free; a Worker must start within 1 s. The budget is Free's 3 MB, so size never
 * decides which plan can run it.
 *
 * First, before wrangler runs: every environment's LLM_MODEL and LLM_FAST_MODEL must be JSON-mode
 * models of the generated Workers AI catalogue that the client calls (configured-models.ts).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readAiCatalogue } from "./ai-catalogue.ts";
import { configuredModelProblems } from "./configured-models.ts";
import { ROOT } from "./stack.ts";
import { QUIET_WRANGLER_ENV, WRANGLER_BIN } from "./wrangler.ts";

export const BUNDLE_BUDGET = {
	/** Compressed (gzip) bytes: Workers Free's limit. */
	gzipBytes: 3_000_000,
	/** Startup: the platform's limit, reported beside the local measure (not asserted: a loaded machine is slower). */
	startupMs: 1_000,
} as const;

const DRY_RUN_IMAGE = "registry.cloudflare.com/clipforge-deploy-check/render:dry-run";

export interface DeployCheck {
	totalBytes: number;
	gzipBytes: number;
	/** CPU time of the start in local workerd (garbage collection included), or null when it could not be profiled. */
	startupActiveMs: number | null;
	bindings: string[];
}

/** wrangler.toml with the render container's Dockerfile replaced by a registry URI. */
export function dryRunConfig(toml: string): string {
	const replaced = toml
		.replace(/^image\s*=\s*"\.\/containers\/render\/Dockerfile"\s*$/m, `image = "${DRY_RUN_IMAGE}"`)
		.replace(/^image_build_context\s*=.*$/m, "");
	if (!replaced.includes(DRY_RUN_IMAGE))
		throw new Error(
			"deploy-check: wrangler.toml's [[containers]] image is no longer ./containers/render/Dockerfile; update scripts/deploy-check.ts",
		);
	return replaced;
}

function wrangler(args: string[]): string {
	const result = spawnSync(process.execPath, [WRANGLER_BIN, ...args], {
		cwd: ROOT,
		encoding: "utf8",
		env: QUIET_WRANGLER_ENV,
		maxBuffer: 16 << 20,
	});
	const output = `${result.stdout}\n${result.stderr}`;
	if (result.status !== 0) throw new Error(`wrangler ${args[0]} failed:\n${output.slice(-4000)}`);
	return output;
}

const KiB = 1024;

export function runDeployCheck(): DeployCheck {
	const config = join(ROOT, ".wrangler.deploy-check.toml");
	const out = mkdtempSync(join(tmpdir(), "clipforge-deploy-check-"));
	writeFileSync(config, dryRunConfig(readFileSync(join(ROOT, "wrangler.toml"), "utf8")));
	try {
		const bundle = join(out, "worker.bundle");
		const deployed = wrangler(["deploy", "--dry-run", "--config", config, "--env=", "--outfile", bundle]);
		const size = /Total Upload: ([\d.]+) KiB \/ gzip: ([\d.]+) KiB/.exec(deployed);
		if (!size)
			throw new Error(`deploy-check: no "Total Upload" line in wrangler's output:\n${deployed.slice(-2000)}`);
		const bindings = [...deployed.matchAll(/^env\.(\w+)/gm)].map((m) => m[1]!);
		let startupActiveMs: number | null = null;
		try {
			const profiled = wrangler([
				"check",
				"startup",
				"--config",
				config,
				"--env=",
				"--worker",
				bundle,
				"--outfile",
				join(out, "startup.cpuprofile"),
			]);
			const active = /Active: ([\d.]+) ms/.exec(profiled);
			startupActiveMs = active ? Number(active[1]) : null;
		} catch (error) {
			console.error(
				`deploy-check: the startup could not be profiled: ${(error as Error).message.split("\n")[0]}`,
			);
		}
		return {
			totalBytes: Math.round(Number(size[1]) * KiB),
			gzipBytes: Math.round(Number(size[2]) * KiB),
			startupActiveMs,
			bindings,
		};
	} finally {
		rmSync(config, { force: true });
		rmSync(out, { recursive: true, force: true });
	}
}

if (import.meta.url === `file://${process.argv[1]}`) {
	const models = configuredModelProblems(readFileSync(join(ROOT, "wrangler.toml"), "utf8"), readAiCatalogue());
	if (models.length > 0) {
		console.error(`deploy-check: wrangler.toml names models Workers AI would refuse:\n  ${models.join("\n  ")}`);
		process.exit(1);
	}
	console.log("models: every environment's LLM_MODEL and LLM_FAST_MODEL are JSON-mode models of the catalogue");
	const check = runDeployCheck();
	const mb = (bytes: number) => `${(bytes / 1e6).toFixed(2)} MB`;
	console.log(
		`wrangler deploy --dry-run: the production config bundles with ${check.bindings.length} bindings (${check.bindings.join(", ")})`,
	);
	console.log(
		`bundle: ${mb(check.totalBytes)}, ${mb(check.gzipBytes)} compressed of a ${mb(BUNDLE_BUDGET.gzipBytes)} budget (Workers Free's limit; Paid's is 10 MB)`,
	);
	console.log(
		`startup: ${check.startupActiveMs ?? "?"} ms of CPU in local workerd (the platform's limit is ${BUNDLE_BUDGET.startupMs} ms; measured on this machine, whatever else it is doing)`,
	);
	const expected = ["DB", "MEDIA", "AI", "PROCESS_VIDEO", "RENDER_CONTAINER", "WRITE_LIMITER", "READ_LIMITER"];
	const missing = expected.filter((name) => !check.bindings.includes(name));
	if (missing.length > 0) {
		console.error(`deploy-check: the production config lacks ${missing.join(", ")}`);
		process.exit(1);
	}
	if (check.gzipBytes > BUNDLE_BUDGET.gzipBytes) {
		console.error(
			`deploy-check: the bundle is over budget by ${mb(check.gzipBytes - BUNDLE_BUDGET.gzipBytes)} compressed`,
		);
		process.exit(1);
	}
}
