/**
 * Sign-in backoff, per client IP and per email, in D1 (exact and global, unlike the per-location
 * rate-limit bindings, which also cannot back off). Every attempt is counted before the password
 * is hashed, in one atomic statement per key, so a burst of parallel guesses cannot slip past the
 * count. After the free attempts each further one doubles the wait (1 s, 2 s, 4 s … 15 min); an
 * attempt made while waiting is refused with 429 and `Retry-After`, and is not counted (so a
 * stranger can keep an email waiting at most 15 min per attempt of theirs, never longer). A
 * successful sign-in clears its email and takes its own attempt off the IP.
 */
import type { Db } from "../db/client";
import { countAttempt, forgetKey, uncountAttempt, type BackoffRule } from "../db/login-throttle";
import { ApiError } from "../errors";
import { sha256Hex } from "./crypto";

const QUIET_MS = 60 * 60_000;
export const LOGIN_BACKOFF = {
	/** One account: a person mistyping gets five tries back to back. */
	email: { free: 5, baseMs: 1000, maxMs: 15 * 60_000, quietMs: QUIET_MS },
	/** One address (an IPv6 /64): room for a few people behind one NAT. */
	ip: { free: 30, baseMs: 1000, maxMs: 15 * 60_000, quietMs: QUIET_MS },
} as const satisfies Record<string, BackoffRule>;
export const LOGIN_QUIET_MS = QUIET_MS;

export interface LoginKeys {
	ip: string;
	email: string;
}

export async function loginKeys(request: Request, email: string): Promise<LoginKeys> {
	return {
		ip: `ip:${clientNetwork(request.headers.get("cf-connecting-ip"))}`,
		email: `email:${await sha256Hex(email.toLowerCase())}`,
	};
}

/**
 * Counts this attempt for the IP, then the email; throws 429 `rate_limited` (with Retry-After set
 * through `setRetryAfter`) when either must still wait. Attempts refused for the email still count
 * for the IP, so spraying locked accounts burns the sprayer's own budget.
 */
export async function admitAttempt(
	db: Db,
	keys: LoginKeys,
	setRetryAfter: (seconds: number) => void,
	now = Date.now(),
): Promise<void> {
	for (const [which, key] of [
		["ip", keys.ip],
		["email", keys.email],
	] as const) {
		const verdict = await countAttempt(db, key, LOGIN_BACKOFF[which], now);
		if (!verdict.accepted) {
			const seconds = Math.max(1, Math.ceil((verdict.retryAt - now) / 1000));
			setRetryAfter(seconds);
			const whose = which === "ip" ? "from this network" : "for this account";
			throw new ApiError("rate_limited", `Too many sign-in attempts ${whose}; try again in ${seconds} s.`, {
				retryAfter: seconds,
			});
		}
	}
}

export async function attemptSucceeded(db: Db, keys: LoginKeys): Promise<void> {
	await Promise.all([forgetKey(db, keys.email), uncountAttempt(db, keys.ip)]);
}

/** The client's IPv4 address, or the /64 of an IPv6 one (one host owns a whole /64). */
export function clientNetwork(ip: string | null): string {
	if (!ip) return "unknown";
	if (!ip.includes(":")) return ip.trim();
	const [head = "", tail = ""] = ip.toLowerCase().split("::");
	const left = head ? head.split(":") : [];
	const right = tail ? tail.split(":") : [];
	const groups = ip.includes("::")
		? [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill("0"), ...right]
		: left;
	return `${groups
		.slice(0, 4)
		.map((g) => g.replace(/^0+(?=.)/, ""))
		.join(":")}::/64`;
}
