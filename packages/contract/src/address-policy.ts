/**
 * Which hosts the service may fetch. Used by the Worker on the literal host of a submitted URL and by
 * the render tier again after DNS resolution, so a public name that resolves to a private address is
 * refused too. Pure code: no DNS here, no Node or Workers APIs.
 */

/** True for loopback, private, link-local (cloud metadata), CGNAT, unspecified, multicast and IPv6 ULA/link-local. */
export function isPrivateAddress(address: string): boolean {
	const ip = address.replace(/^\[|\]$/g, "").toLowerCase();
	const mapped = ip.match(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/);
	if (mapped?.[1]) return isPrivateIPv4(mapped[1]);
	if (/^\d+\.\d+\.\d+\.\d+$/.test(ip)) return isPrivateIPv4(ip);
	if (ip.includes(":")) return isPrivateIPv6(ip);
	return false;
}

function isPrivateIPv4(ip: string): boolean {
	const [a = 0, b = 0] = ip.split(".").map(Number);
	return (
		a === 0 || a === 10 || a === 127 || a >= 224 ||
		(a === 100 && b >= 64 && b <= 127) || // CGNAT
		(a === 169 && b === 254) || // link-local, incl. 169.254.169.254 metadata
		(a === 172 && b >= 16 && b <= 31) ||
		(a === 192 && b === 168) ||
		(a === 192 && b === 0) ||
		(a === 198 && (b === 18 || b === 19))
	);
}

function isPrivateIPv6(ip: string): boolean {
	return (
		ip === "::" || ip === "::1" ||
		/^f[cd]/.test(ip) || // unique-local fc00::/7
		/^fe[89ab]/.test(ip) || // link-local fe80::/10
		/^ff/.test(ip) // multicast
	);
}

/** Host names that always mean this machine or its metadata service, whatever DNS says. */
export function isLocalHostname(hostname: string): boolean {
	const host = hostname.toLowerCase().replace(/\.$/, "");
	return host === "localhost" || host.endsWith(".localhost") || host === "metadata.google.internal" || host.endsWith(".internal");
}
