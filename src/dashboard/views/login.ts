import { api, call, DashboardApiError, errorText } from "../api";
import { h } from "../dom";
import { loadWorkspaces, nav, show } from "../shell";

export function loginView(): void {
	nav.hidden = true;
	const message = h("p", { class: "error", role: "alert" });
	const email = h("input", { id: "email", type: "email", name: "email", autocomplete: "username", required: true });
	const password = h("input", {
		id: "password",
		type: "password",
		name: "password",
		autocomplete: "current-password",
		required: true,
	});
	const form = h(
		"form",
		{ class: "card", "aria-labelledby": "login-title" },
		h("h1", { id: "login-title", text: "Sign in" }),
		h("label", { for: "email", text: "Email" }),
		email,
		h("label", { for: "password", text: "Password" }),
		password,
		message,
		h("button", { type: "submit", text: "Sign in" }),
	);
	form.addEventListener("submit", async (event) => {
		event.preventDefault();
		message.textContent = "";
		try {
			await call(api.POST("/api/auth/login", { body: { email: email.value, password: password.value } }));
			await loadWorkspaces();
			location.hash = "#/videos";
		} catch (error) {
			message.textContent =
				error instanceof DashboardApiError && error.status === 401
					? "Wrong email or password."
					: errorText(error);
		}
	});
	show(form);
	email.focus();
}
