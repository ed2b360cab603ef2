/** The sample talk (no imports, so the Workers-runtime tests can use it): a few strong moments (questions, numbers, contrast) among ordinary sentences. */
export const TALK_SCRIPT = [
	"Welcome back to the show.",
	"Today we are talking about sleep and how it shapes your work.",
	"Did you know that most people lose three hours of focus every single day?",
	"The reason is simple, but almost nobody talks about it.",
	"Your brain clears waste while you sleep, and that takes time.",
	"We looked at the research from the last twenty years.",
	"Here is the secret that changed everything for me.",
	"Stop checking your phone in the first hour after you wake up.",
	"It sounds small, but it is the biggest change you can make.",
	"Now let me tell you about the second idea.",
	"Light in the morning sets your clock for the whole day.",
	"Go outside for ten minutes before you start working.",
	"Why does this work so well for so many people?",
	"Because your body expects light at the same time every day.",
	"The worst mistake is sleeping late on the weekend.",
	"That one habit can undo a whole week of good sleep.",
	"So here is what I want you to try this week.",
	"Wake up at the same time every day, even on Sunday.",
	"Write down how you feel after seven days.",
	"Thank you for listening, and see you next time.",
];

