/** How the CLI reads the values of its flags; a value it cannot read is a usage error (exit code 2). */
import { InvalidArgumentError } from "commander";

/** A parser whose errors commander reports as a usage error. */
export const cliParser =
	<T>(parse: (value: string) => T) =>
	(value: string): T => {
		try {
			return parse(value);
		} catch (error) {
			throw new InvalidArgumentError((error as Error).message);
		}
	};

export const number = (name: string) => (value: string) => {
	const n = Number(value);
	if (!Number.isFinite(n)) throw new InvalidArgumentError(`${name} must be a number.`);
	return n;
};

/** Seconds, or m:ss(.s), or h:mm:ss(.s). */
export const time = (name: string) => (value: string) => {
	const parts = value.split(":").map(Number);
	if (parts.length > 3 || parts.some((p) => !Number.isFinite(p) || p < 0))
		throw new InvalidArgumentError(`${name} must be seconds or m:ss.`);
	return parts.reduce((total, p) => total * 60 + p, 0);
};

/** `--word 3=Chicago`, repeatable: the corrections so far plus this one. */
export const wordFix = (value: string, previous: { index: number; word: string }[] = []) => {
	const match = /^(\d+)=(.+)$/.exec(value);
	if (!match) throw new InvalidArgumentError("--word takes INDEX=WORD (see clipforge clip <id> --words).");
	return [...previous, { index: Number(match[1]), word: match[2]! }];
};
