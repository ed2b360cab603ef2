/**
 * Two things every clipforge client should do on the wire, kept under openapi-fetch so no call
 * site changes: send back the D1 bookmark of the last answer (`X-Clipforge-Bookmark`: the next
 * read, served by the nearest replica, is at least as fresh as what this client last saw or
 * wrote), and revalidate status polls with the last ETag (`If-None-Match`): an unchanged status
 * comes back as a body-less 304, which this layer turns back into the 200 it stands for.
 */
const BOOKMARK = "x-clipforge-bookmark";
const CONDITIONAL = /\/api\/videos\/[^/]+\/status$/;

type Send = (input: string, init: RequestInit) => Promise<Response>;

const withHeader = (init: RequestInit, name: string, value: string): RequestInit => {
	const headers = new Headers(init.headers);
	headers.set(name, value);
	return { ...init, headers };
};

export function withBookmarks(doFetch: Send): Send {
	let bookmark: string | null = null;
	return async (input, init) => {
		const response = await doFetch(input, bookmark ? withHeader(init, BOOKMARK, bookmark) : init);
		bookmark = response.headers.get(BOOKMARK) ?? bookmark;
		return response;
	};
}

export function withConditionalGets(doFetch: Send): Send {
	const seen = new Map<string, { etag: string; body: string; headers: Headers }>();
	return async (input, init) => {
		const path = new URL(input).pathname;
		if ((init.method ?? "GET") !== "GET" || !CONDITIONAL.test(path)) return doFetch(input, init);
		const last = seen.get(input);
		const response = await doFetch(input, last ? withHeader(init, "if-none-match", last.etag) : init);
		if (response.status === 304 && last) return new Response(last.body, { status: 200, headers: last.headers });
		const etag = response.headers.get("etag");
		if (!response.ok || !etag) return response;
		const body = await response.text();
		seen.set(input, { etag, body, headers: new Headers(response.headers) });
		return new Response(body, { status: response.status, headers: response.headers });
	};
}
