import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
	{
		ignores: [
			"node_modules/",
			".wrangler/",
			".stack/",
			"demo-output/",
			"worker-configuration.d.ts",
			"migrations/",
			"bench-results/",
			"dist/",
			// The pinned yt-dlp (scripts/install-deps.sh): its wheel carries JavaScript of its own.
			".venv/",
		],
	},
	js.configs.recommended,
	...tseslint.configs.recommended,
	{
		rules: {
			"@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
			// Tests read JSON bodies of arbitrary shape.
			"@typescript-eslint/no-explicit-any": "off",
			"no-console": "off",
		},
	},
);
