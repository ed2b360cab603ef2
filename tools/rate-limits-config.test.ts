/**
 * The read limit the Worker knows (READ_LIMIT: which reads may be answered before the
 * limiter's verdict, middleware/read-verdicts.ts) is the limit wrangler.toml gives READ_LIMITER, in
 * every environment: a larger one would answer early reads the binding refuses.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { READ_LIMIT } from "../src/worker/middleware/read-verdicts";

const toml = readFileSync(join(import.meta.dirname, "..", "wrangler.toml"), "utf8");

/** Each `[[…ratelimits]]` block naming READ_LIMITER: its table header and its simple limit. */
function readLimiters(text: string): { table: string; limit: number; period: number }[] {
	const blocks = text.split(/^(?=\[\[)/m).filter((block) => /^name = "READ_LIMITER"$/m.test(block));
	return blocks.map((block) => {
		const simple = /^simple = \{ limit = (\d+), period = (\d+) \}$/m.exec(block);
		return { table: block.split("\n")[0]!, limit: Number(simple?.[1]), period: Number(simple?.[2]) };
	});
}

it("READ_LIMITER allows READ_LIMIT's reads a minute in every environment of wrangler.toml", () => {
	const limiters = readLimiters(toml);
	expect(limiters.map((l) => l.table)).toEqual(["[[ratelimits]]", "[[env.local.ratelimits]]"]);
	for (const limiter of limiters)
		expect(limiter, limiter.table).toMatchObject({ limit: READ_LIMIT.reads, period: READ_LIMIT.periodSeconds });
});

it("a limit changed in one environment only is caught", () => {
	const changed = toml.replace(
		/(\[\[env\.local\.ratelimits\]\]\nname = "READ_LIMITER"\nnamespace_id = "\d+"\nsimple = \{ limit = )\d+/,
		"$11200",
	);
	expect(changed).not.toBe(toml);
	expect(readLimiters(changed).map((l) => l.limit)).toEqual([READ_LIMIT.reads, 1200]);
});
