/**
 * POST /api/auth/login, /api/auth/logout (public) and /api/auth/password (a signed-in user): the
 * dashboard's session cookie. Sign-in attempts back off per IP and per email (services/login-throttle.ts).
 * One file per operation.
 */
import type { Api } from "../../../env";
import { registerLogin } from "./login";
import { registerLogout } from "./logout";
import { registerChangePassword } from "./password";

export const PUBLIC_AUTH_PATHS = ["/auth/login", "/auth/logout"];

export function registerAuth(api: Api): void {
	for (const register of [registerLogin, registerLogout, registerChangePassword]) register(api);
}
