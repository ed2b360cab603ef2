// workerd's `node:async_hooks` (the nodejs_compat flag): the one Node module the Worker imports
// (services/idempotency.ts), typed here because the Worker's tsconfig has no Node types.
declare module "node:async_hooks" {
	export class AsyncLocalStorage<T> {
		run<R>(store: T, callback: () => R): R;
		getStore(): T | undefined;
	}
}
