import Testing

/// A tool of the schema corpus: the server (the file's name without `.json`) and its name there.
struct CorpusToolReference: Hashable, Sendable, CustomStringConvertible {
    let server: String
    let tool: String
    var description: String { "\(server)/\(tool)" }

    init(_ server: String, _ tool: String) {
        self.server = server
        self.tool = tool
    }
}

/// A prompt as a user would type it, the corpus tool it needs, and the tools the conversation
/// used before it (most recent last).
struct SelectionPrompt: Sendable, CustomTestStringConvertible {
    let prompt: String
    let needs: CorpusToolReference
    let recentlyUsed: [CorpusToolReference]
    var testDescription: String { "\"\(prompt)\" → \(needs)" }

    init(_ prompt: String, _ server: String, _ tool: String, after recentlyUsed: [CorpusToolReference] = []) {
        self.prompt = prompt
        needs = CorpusToolReference(server, tool)
        self.recentlyUsed = recentlyUsed
    }
}

/// The fixed prompts of the tool selection evaluation (`ToolSelectionEvaluationTests`).
///
/// Written as users type; each names the one tool of `Tests/Fixtures/ToolSchemas` it needs. All but the
/// last group were written before the selector was tuned; the changes of subject were added
/// afterwards, to check that the recency boost does not crowd out the tool a new prompt
/// names. No prompt was changed to suit the selector. Tools whose name several servers share
/// (`get_weather`) are not targets, since nothing in a prompt could tell them apart.
enum SelectionPrompts {
    private static let time = "mcp-server-time"
    private static let git = "mcp-server-git"
    private static let fetch = "mcp-server-fetch"
    private static let github = "github-mcp-server.toolsnaps"
    private static let gitlab = "gitlab-mcp-server.individual-sample"
    private static let bytes = "mcp-bytesmith"
    private static let weather = "python-sdk.mcpserver.weather_structured"
    private static let structured = "python-sdk.snippets.structured_output"
    private static let basic = "python-sdk.snippets.basic_tool"
    private static let elicitation = "python-sdk.snippets.elicitation"
    private static let unicode = "python-sdk.mcpserver.unicode_example"
    private static let everything = "python-sdk.everything-server"
    private static let parameters = "python-sdk.mcpserver.parameter_descriptions"
    private static let shrimp = "python-sdk.mcpserver.complex_inputs"

    static let all: [SelectionPrompt] = [
        // Time.
        SelectionPrompt("what time is it in Tokyo right now?", time, "get_current_time"),
        SelectionPrompt("convert 3pm New York time to Berlin time", time, "convert_time"),
        SelectionPrompt("if it's 9:30 in London, what time is that in Sydney?", time, "convert_time"),

        // Git.
        SelectionPrompt("show me the diff of my staged changes", git, "git_diff_staged"),
        SelectionPrompt("what have I changed in the working directory that isn't staged yet?", git, "git_diff_unstaged"),
        SelectionPrompt("what's the status of my working tree?", git, "git_status"),
        SelectionPrompt("commit this with the message 'fix typo in readme'", git, "git_commit"),
        SelectionPrompt("stage README.md and main.swift", git, "git_add"),
        SelectionPrompt("unstage everything I staged", git, "git_reset"),
        SelectionPrompt("show me the last 10 commits in the log", git, "git_log"),
        SelectionPrompt("create a new branch called feature/login off main", git, "git_create_branch"),
        SelectionPrompt("switch to the develop branch", git, "git_checkout"),
        SelectionPrompt("list my local git branches", git, "git_branch"),
        SelectionPrompt("show me what commit a1b2c3d contains", git, "git_show"),
        SelectionPrompt("what are the differences between main and feature-x?", git, "git_diff"),

        // Fetch.
        SelectionPrompt("fetch https://example.com/article and give me the text as markdown", fetch, "fetch"),
        SelectionPrompt("read this web page for me: https://swift.org/blog", fetch, "fetch"),

        // GitHub.
        SelectionPrompt("approve pull request #42 in octocat/hello-world with a review", github, "create_pull_request_review"),
        SelectionPrompt("make a public gist out of this snippet", github, "create_gist"),
        SelectionPrompt("push these three files to my GitHub repo in a single commit", github, "push_files"),
        SelectionPrompt("re-run the failed GitHub Actions workflow run 123", github, "actions_run_trigger"),
        SelectionPrompt("search all of GitHub for code that calls swift_task_alloc", github, "search_code"),
        SelectionPrompt("add a comment on line 12 to my pending review", github, "add_comment_to_pending_review"),
        SelectionPrompt("set up a ruleset on the repo that blocks force pushes to main", github, "create_repository_ruleset"),
        SelectionPrompt(
            "set the repository's custom property team to platform", github, "create_or_update_repository_custom_properties"),

        // GitLab: 60 tools, many alike.
        SelectionPrompt("list the open issues in project 42", gitlab, "gitlab_issue_list"),
        SelectionPrompt("file a new issue in the backend project: the login button is broken", gitlab, "gitlab_issue_create"),
        SelectionPrompt("close issue 17 and add the label wontfix", gitlab, "gitlab_issue_update"),
        SelectionPrompt("show me all the comments on issue 17", gitlab, "gitlab_issue_note_list"),
        SelectionPrompt("list issues across every project I can see", gitlab, "gitlab_issue_list_all"),
        SelectionPrompt("list the merge requests in project 5", gitlab, "gitlab_mr_list"),
        SelectionPrompt("change the title of merge request 12 and assign it to me", gitlab, "gitlab_mr_update"),
        SelectionPrompt("list the notes on merge request 12", gitlab, "gitlab_mr_notes_list"),
        SelectionPrompt("start a discussion thread on line 40 of the merge request diff", gitlab, "gitlab_mr_discussion_create"),
        SelectionPrompt("run a new pipeline on the main branch", gitlab, "gitlab_pipeline_create"),
        SelectionPrompt("trigger a pipeline with my trigger token", gitlab, "gitlab_pipeline_trigger_run"),
        SelectionPrompt("list the jobs of pipeline 998", gitlab, "gitlab_job_list"),
        SelectionPrompt("play the manual deploy job", gitlab, "gitlab_job_play"),
        SelectionPrompt("list the branches of gitlab project 7", gitlab, "gitlab_branch_list"),
        SelectionPrompt("protect the release branches so only maintainers can push", gitlab, "gitlab_branch_protect"),
        SelectionPrompt("create a gitlab project called website", gitlab, "gitlab_project_create"),
        SelectionPrompt("who has forked project 7?", gitlab, "gitlab_project_list_forks"),
        SelectionPrompt("add a webhook to the project that fires on push events", gitlab, "gitlab_project_hook_add"),
        SelectionPrompt("create a new gitlab group for the data team", gitlab, "gitlab_group_create"),
        SelectionPrompt("who are the members of the platform group?", gitlab, "gitlab_group_members_list"),
        SelectionPrompt("list the subgroups of the acme group", gitlab, "gitlab_subgroups_list"),
        SelectionPrompt("list the milestones of project 3", gitlab, "gitlab_milestone_list"),
        SelectionPrompt("create a feature flag called new_checkout", gitlab, "gitlab_feature_flag_create"),
        SelectionPrompt("list every user on our GitLab instance", gitlab, "gitlab_list_users"),
        SelectionPrompt("save this shell script as a personal snippet", gitlab, "gitlab_snippet_create"),
        SelectionPrompt("mirror the project to github.com/acme/mirror", gitlab, "gitlab_add_project_mirror"),
        SelectionPrompt("list the access tokens of group 12", gitlab, "gitlab_group_access_token_list"),
        SelectionPrompt(
            "add asset links for the v1.2 binaries to the release, all at once", gitlab, "gitlab_release_link_create_batch"),
        SelectionPrompt("create a topic named machine-learning", gitlab, "gitlab_create_topic"),
        SelectionPrompt("create a work item for the onboarding epic", gitlab, "gitlab_create_work_item"),
        SelectionPrompt("list the discussions on commit 9f2e1c", gitlab, "gitlab_list_commit_discussions"),

        // Bytes, hashes and encodings.
        SelectionPrompt("convert 0xff to binary", bytes, "num_convert"),
        SelectionPrompt("what's the sha256 of the string hello world?", bytes, "hash"),
        SelectionPrompt("checksum the file /tmp/release.tar.gz", bytes, "hash_file"),
        SelectionPrompt("base64 encode the word hello", bytes, "encode"),
        SelectionPrompt("decode this base64: aGVsbG8=", bytes, "decode"),
        SelectionPrompt("generate a UUID for me", bytes, "id_generate"),
        SelectionPrompt("give me a random passphrase of six words", bytes, "random"),
        SelectionPrompt("normalize this text to NFC", bytes, "unicode_normalize"),
        SelectionPrompt("escape this string so I can put it in JSON", bytes, "string_escape"),
        SelectionPrompt("turn the unix timestamp 1700000000 into ISO 8601", bytes, "time_convert"),
        SelectionPrompt("compute an HMAC-SHA256 of the payload with the key secret", bytes, "hmac"),
        SelectionPrompt("hash my password with argon2 so I can store it", bytes, "password_hash"),
        SelectionPrompt("derive a key from this password with PBKDF2", bytes, "derive_key"),
        SelectionPrompt("show me the code points of this emoji string", bytes, "codepoints"),
        SelectionPrompt("convert this text from latin-1 to utf-8", bytes, "charset_transcode"),
        SelectionPrompt("swap 0x1234 to network byte order", bytes, "byte_order"),
        SelectionPrompt("make a data URI from this PNG", bytes, "data_uri"),
        SelectionPrompt("build an otpauth link for my 2FA secret", bytes, "otpauth_uri"),

        // Weather and other small servers.
        SelectionPrompt("give me a brief weather summary for Madrid", weather, "get_weather_summary"),
        SelectionPrompt("are there any active weather alerts for the Bay Area?", weather, "get_weather_alerts"),
        SelectionPrompt("weather statistics for Oslo over the past 30 days", weather, "get_weather_stats"),
        SelectionPrompt("compare the weather metrics of Paris, Rome and Vienna", weather, "get_weather_metrics"),
        SelectionPrompt("what are the coordinates of 1600 Pennsylvania Avenue?", structured, "get_location"),
        SelectionPrompt("look up the profile of user 42", structured, "get_user"),
        SelectionPrompt("which cities do you have?", structured, "list_cities"),
        SelectionPrompt("add 17 and 25", basic, "sum"),
        SelectionPrompt("book a table for four on Friday at 7pm", elicitation, "book_table"),
        SelectionPrompt("pay 25 dollars securely", elicitation, "secure_payment"),
        SelectionPrompt("connect my Dropbox account to this service", elicitation, "connect_service"),
        SelectionPrompt("what emoji categories are there?", unicode, "list_emoji_categories"),
        SelectionPrompt("say hello in different scripts", unicode, "multilingual_hello"),
        SelectionPrompt("greet Alice three times", parameters, "greet_user"),
        SelectionPrompt("what are the names of the shrimp in the tank?", shrimp, "name_shrimp"),
        SelectionPrompt("run the audio content test", everything, "test_audio_content"),
        SelectionPrompt("test a tool that reports progress", everything, "test_tool_with_progress"),

        // Follow-ups that need the conversation's recent tools.
        SelectionPrompt("and in Paris?", time, "get_current_time", after: [CorpusToolReference(time, "get_current_time")]),
        SelectionPrompt(
            "now do the same for ~/src/app", git, "git_status",
            after: [CorpusToolReference(git, "git_log"), CorpusToolReference(git, "git_status")]),
        SelectionPrompt(
            "what about Lisbon?", weather, "get_weather_summary", after: [CorpusToolReference(weather, "get_weather_summary")]),
        SelectionPrompt("now with blake2b instead", bytes, "hash", after: [CorpusToolReference(bytes, "hash")]),
        SelectionPrompt(
            "only the closed ones, please", gitlab, "gitlab_issue_list", after: [CorpusToolReference(gitlab, "gitlab_issue_list")]),
        SelectionPrompt(
            "do that again, but with hex", bytes, "decode",
            after: [CorpusToolReference(bytes, "encode"), CorpusToolReference(bytes, "decode")]),
        SelectionPrompt("and the next page too", fetch, "fetch", after: [CorpusToolReference(fetch, "fetch")]),
        SelectionPrompt(
            "show me the second page", gitlab, "gitlab_mr_list", after: [CorpusToolReference(gitlab, "gitlab_mr_list")]),
        SelectionPrompt(
            "make it six people instead", elicitation, "book_table", after: [CorpusToolReference(elicitation, "book_table")]),
        SelectionPrompt(
            "and to Tokyo time?", time, "convert_time",
            after: [CorpusToolReference(time, "convert_time"), CorpusToolReference(git, "git_log")]),
        SelectionPrompt(
            "yes, go ahead", gitlab, "gitlab_branch_protect",
            after: [CorpusToolReference(gitlab, "gitlab_branch_list"), CorpusToolReference(gitlab, "gitlab_branch_protect")]),

        // Changes of subject: the conversation's recent tools must not crowd out the one the prompt needs.
        SelectionPrompt(
            "list the milestones of project 3", gitlab, "gitlab_milestone_list",
            after: [CorpusToolReference(gitlab, "gitlab_mr_list")]),
        SelectionPrompt(
            "who are the members of the platform group?", gitlab, "gitlab_group_members_list",
            after: [CorpusToolReference(gitlab, "gitlab_issue_list")]),
        SelectionPrompt(
            "show me the diff of my staged changes", git, "git_diff_staged",
            after: [CorpusToolReference(time, "get_current_time")]),
        SelectionPrompt(
            "any weather alerts for Florida?", weather, "get_weather_alerts",
            after: [CorpusToolReference(git, "git_log"), CorpusToolReference(git, "git_status")]),
        SelectionPrompt(
            "create a feature flag called dark_mode", gitlab, "gitlab_feature_flag_create",
            after: [CorpusToolReference(gitlab, "gitlab_project_hook_add")]),
        SelectionPrompt(
            "create a public gist with my dotfiles", github, "create_gist",
            after: [CorpusToolReference(github, "create_repository_ruleset")]),
        SelectionPrompt(
            "generate a UUID", bytes, "id_generate",
            after: [CorpusToolReference(bytes, "hash"), CorpusToolReference(bytes, "hmac")]),
        SelectionPrompt(
            "list the access tokens of group 12", gitlab, "gitlab_group_access_token_list",
            after: [CorpusToolReference(gitlab, "gitlab_list_users")]),
        SelectionPrompt(
            "show the comments on issue 17", gitlab, "gitlab_issue_note_list",
            after: [CorpusToolReference(gitlab, "gitlab_mr_list_global")]),
    ]
}
