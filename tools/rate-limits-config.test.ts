/**
 * The read limit the Worker knows (READ_LIMIT, paid for in batches of READ_BATCH reads a call:
 * middleware/read-allowances.ts) is the limit wrangler.toml gives READ_LIMITER times the batch, in
 * every environment: else one isolate would answer more or fewer reads than API.md promises.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { READ_BATCH, READ_LIMIT } from "../src/worker/middleware/read-allowances";

const toml = readFileSync(join(import.meta.dirname, "..", "wrangler.toml"), "utf8");

/** Each `[[…ratelimits]]` block naming READ_LIMITER: its table header and its simple limit. */
function readLimiters(text: string): { table: string; limit: number; period: number }[] {
	const blocks = text.split(/^(?=\[\[)/m).filter((block) => /^name = "READ_LIMITER"$/m.test(block));
	return blocks.map((block) => {
		const simple = /^simple = \{ limit = (\d+), period = (\d+) \}$/m.exec(block);
		return { table: block.split("\n")[0]!, limit: Number(simple?.[1]), period: Number(simple?.[2]) };
	});
}

const BATCHES = READ_LIMIT.reads / READ_BATCH;

it("READ_LIMITER allows READ_LIMIT's reads a minute, in batches, in every environment of wrangler.toml", () => {
	expect(Number.isInteger(BATCHES)).toBe(true);
	const limiters = readLimiters(toml);
	expect(limiters.map((l) => l.table)).toEqual(["[[ratelimits]]", "[[env.local.ratelimits]]"]);
	for (const limiter of limiters)
		expect(limiter, limiter.table).toMatchObject({ limit: BATCHES, period: READ_LIMIT.periodSeconds });
});

it("a limit changed in one environment only is caught", () => {
	const changed = toml.replace(
		/(\[\[env\.local\.ratelimits\]\]\nname = "READ_LIMITER"\nnamespace_id = "\d+"\nsimple = \{ limit = )\d+/,
		"$11200",
	);
	expect(changed).not.toBe(toml);
	expect(readLimiters(changed).map((l) => l.limit)).toEqual([BATCHES, 1200]);
});
