/**
 * Node's own fetches in the tier (the source guard, transfers to and from the Worker's signed URLs)
 * go through one undici Agent whose connector resolves the host with the egress policy and connects
 * to a checked address: the name is never resolved a second time, so DNS cannot change its answer
 * between the check and the connection, and every redirect hop (when followed) is a new, checked
 * connection. undici's own `fetch` is used with it, so the agent and the fetch are one version.
 */
import { Agent, buildConnector, fetch as undiciFetch, type RequestInit as UndiciRequestInit } from "undici";
import { checkedAddresses } from "./policy.ts";

const CONNECT_TIMEOUT_MS = 10_000;

const connectDirect = buildConnector({ timeout: CONNECT_TIMEOUT_MS });

/**
 * undici's connector contract: `options.hostname` is where to connect, `options.host` the origin
 * (TLS takes the server name and the certificate check from it, so https still verifies the name).
 */
const connectChecked: buildConnector.connector = (options, callback) => {
	checkedAddresses(options.hostname).then(
		(addresses) => {
			const attempt = (index: number) =>
				connectDirect({ ...options, hostname: addresses[index]! }, (error, socket) => {
					if (error && index + 1 < addresses.length) return attempt(index + 1);
					if (error) return callback(error, null);
					callback(null, socket!);
				});
			attempt(0);
		},
		(error: Error) => callback(error, null),
	);
};

/** The agent every Node fetch of the tier uses. */
export const egressAgent = new Agent({ connect: connectChecked });

/**
 * `fetch` through the egress policy. Same shape as the global fetch.
 * @example const response = await egressFetch(url, { redirect: "manual" });
 */
export function egressFetch(url: string, init: UndiciRequestInit = {}) {
	return undiciFetch(url, { ...init, dispatcher: egressAgent });
}
