/** The metered Worker's stage for the API's status polls (bench:cost prices production's polls from perStatusPoll instead). */
export const STATUS_POLLS = "api status polls";
