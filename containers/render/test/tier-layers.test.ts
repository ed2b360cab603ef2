/**
 * The tier's folders are the families and floors ARCHITECTURE.md names, in the order
 * `check-structure.ts`'s runtime-layers rule reads (RUNTIME_LAYERS; `npm run lint` fails on an
 * import back up it), and nothing else: a new folder must take its place in that order first.
 */
import { execFileSync } from "node:child_process";
import { dirname, join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { RUNTIME_LAYERS } from "../../../scripts/structure-rules.ts";

const ROOT = join(import.meta.dirname, "..", "..", "..");
const SRC = "containers/render/src";

describe("the render tier's folders", () => {
	it("are the families and layers ARCHITECTURE.md names, and nothing else", () => {
		const tier = RUNTIME_LAYERS.find((r) => r.root === SRC)!;
		const named = tier.parts.flat();
		const files = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "*.ts"], {
			cwd: join(ROOT, SRC),
			encoding: "utf8",
		})
			.split("\n")
			.filter(Boolean);
		const outside = files.filter((f) => !named.some((part) => f === part || f.startsWith(`${part}/`)));
		expect(outside).toEqual([]);
		expect(named.filter((part) => !files.some((f) => f === part || relative(part, dirname(f)) === ""))).toEqual([]);
	});
});
