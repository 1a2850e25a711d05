import Testing

@testable import MCPAgent

@Suite("Tool relevance: what a prompt implies")
struct ToolRelevanceVocabularyTests {
    struct PatternCase: Sendable, CustomTestStringConvertible {
        let prompt: String
        let implies: [String]
        let impliesNot: [String]
        var testDescription: String { prompt }
    }

    static let patternCases: [PatternCase] = [
        PatternCase(prompt: "2^32 - 1", implies: ["calculate"], impliesNot: ["time"]),
        PatternCase(prompt: "is it already friday in Auckland?", implies: ["time", "current"], impliesNot: []),
        PatternCase(prompt: "how long is the drive from Lyon to Geneva usually", implies: ["directions", "distance"], impliesNot: []),
        PatternCase(prompt: "block my calendar from Monday to Friday", implies: [], impliesNot: ["directions"]),
        PatternCase(prompt: "move it from March to May", implies: [], impliesNot: ["directions"]),
        PatternCase(prompt: "copy notes from drafts to archive", implies: [], impliesNot: ["directions"]),
        PatternCase(prompt: "how high above the sea is La Paz", implies: ["elevation"], impliesNot: []),
        PatternCase(prompt: "is it still morning in Lima", implies: ["time"], impliesNot: []),
        PatternCase(prompt: "already in bed, lock the front door", implies: [], impliesNot: ["time"]),
        PatternCase(prompt: "Who won the Ballon d'Or in 2023?", implies: ["web"], impliesNot: []),
        PatternCase(prompt: "what is the population of Montevideo these days", implies: ["web"], impliesNot: []),
        PatternCase(prompt: "what's on my plate this week?", implies: [], impliesNot: ["web"]),
        PatternCase(prompt: "when did we ship the last release", implies: [], impliesNot: ["web"]),
        PatternCase(prompt: "delete the old branch", implies: [], impliesNot: ["web"]),
        PatternCase(prompt: "what's 17% of 2,340", implies: ["calculate", "math"], impliesNot: []),
        PatternCase(prompt: "add 17 and 25", implies: ["calculate", "sum"], impliesNot: []),
        PatternCase(prompt: "reassign ENG-310 to Priya", implies: ["issue"], impliesNot: ["calculate"]),
        PatternCase(prompt: "what happened on 2026-12-01", implies: [], impliesNot: ["calculate", "issue"]),
        PatternCase(prompt: "the call starts at 16:00 CET", implies: ["time"], impliesNot: ["calculate"]),
        PatternCase(prompt: "remind me at 4pm", implies: ["time"], impliesNot: []),
        PatternCase(prompt: "show me config.yaml", implies: ["file"], impliesNot: ["media"]),
        PatternCase(prompt: "transcribe voice-memo.wav", implies: ["file", "audio", "media"], impliesNot: []),
        PatternCase(prompt: "what is in photo.JPG?", implies: ["file", "image"], impliesNot: []),
        PatternCase(prompt: "version 2.0 is out", implies: [], impliesNot: ["file"]),
        PatternCase(prompt: "SELECT name FROM users", implies: ["query", "sql"], impliesNot: []),
        PatternCase(prompt: "summarise https://swift.org/blog", implies: ["url", "fetch"], impliesNot: ["file"]),
        PatternCase(prompt: "invite lee@corp.com to the review", implies: ["email"], impliesNot: ["file"]),
        PatternCase(prompt: "go to news.ycombinator.com", implies: ["url", "web"], impliesNot: ["file"]),
        PatternCase(prompt: "open report.docx", implies: ["file"], impliesNot: ["url"]),
        PatternCase(prompt: "stick a :tada: on it", implies: ["emoji", "reaction"], impliesNot: ["time"]),
        PatternCase(prompt: "meet at 10:30: bring the slides", implies: ["time"], impliesNot: ["emoji"]),
        PatternCase(prompt: "what did config.yml look like at HEAD~2?", implies: ["commit", "revision", "file"], impliesNot: []),
        PatternCase(prompt: "show me 3f9c2ab", implies: ["commit"], impliesNot: ["calculate"]),
        PatternCase(prompt: "what changed in HEAD^", implies: ["commit", "revision"], impliesNot: []),
        PatternCase(prompt: "diff against main~3", implies: ["commit"], impliesNot: []),
        PatternCase(prompt: "open ~/notes2", implies: [], impliesNot: ["commit"]),
        PatternCase(prompt: "what is 2^32", implies: ["calculate"], impliesNot: ["commit"]),
        PatternCase(prompt: "the decade was a facade", implies: [], impliesNot: ["commit"]),
        PatternCase(prompt: "is there an index on orders.created_at", implies: ["column", "table"], impliesNot: ["file"]),
        PatternCase(prompt: "catch me up on #design", implies: ["channel", "message"], impliesNot: ["issue"]),
        PatternCase(prompt: "tell whoever reported #231 it's fixed", implies: ["issue"], impliesNot: ["channel"]),
        PatternCase(prompt: "open a ticket for the crash", implies: ["create"], impliesNot: []),
        PatternCase(prompt: "open the ticket for the crash", implies: [], impliesNot: ["create"]),
        PatternCase(prompt: "file a bug: the app crashes on rotate", implies: ["create"], impliesNot: []),
        PatternCase(prompt: "file the receipts under taxes", implies: [], impliesNot: ["create"]),
        PatternCase(prompt: "what's on my to-do list?", implies: ["todo", "task"], impliesNot: []),
        PatternCase(prompt: "put it on my to do list for friday", implies: ["task"], impliesNot: []),
        PatternCase(prompt: "I want to do it later", implies: [], impliesNot: ["task"]),
        PatternCase(prompt: "a lone # sign", implies: [], impliesNot: ["channel", "issue"]),
        PatternCase(prompt: "plain words only", implies: [], impliesNot: ["file", "calculate", "time", "issue", "url"]),
        PatternCase(prompt: "what is at -33.8568, 151.2153?", implies: ["coordinates", "location"], impliesNot: ["calculate"]),
        PatternCase(prompt: "trailhead is at 46.5197,7.9638", implies: ["latitude", "longitude"], impliesNot: []),
        PatternCase(prompt: "I need its lat/long", implies: ["coordinates"], impliesNot: []),
        PatternCase(prompt: "version 2.10 and 3.45 differ", implies: [], impliesNot: ["coordinates"]),
        PatternCase(prompt: "it costs 120.50, 99.95 was last year's", implies: [], impliesNot: ["coordinates"]),
        PatternCase(prompt: "open the second hit", implies: ["detail", "content"], impliesNot: []),
        PatternCase(prompt: "ok the third one, what's wrong with it", implies: ["detail"], impliesNot: []),
        PatternCase(prompt: "the first time I ran it", implies: [], impliesNot: ["detail"]),
        PatternCase(prompt: "rent 1350, bills 280. how much is left?", implies: ["calculate"], impliesNot: []),
        PatternCase(prompt: "how much disk is left on pod-2", implies: [], impliesNot: ["calculate"]),
        PatternCase(prompt: "sqrt(2)*pi to 5 decimals", implies: ["calculate", "expression"], impliesNot: []),
        PatternCase(prompt: "from now on anything from lee@corp.com skips the inbox", implies: ["filter", "rule"], impliesNot: []),
        PatternCase(prompt: "it is 5 hours from now", implies: [], impliesNot: ["filter"]),
        PatternCase(prompt: "write a reply but dont send it yet", implies: ["draft"], impliesNot: []),
        PatternCase(prompt: "reply without sending", implies: ["draft"], impliesNot: []),
        PatternCase(prompt: "send it now, not later", implies: [], impliesNot: ["draft"]),
        PatternCase(prompt: "how do you say 'where is the station' in Japanese?", implies: ["translate", "language"], impliesNot: []),
        PatternCase(prompt: "my colleague wrote '明日の会議は10時から' what does it mean", implies: ["translate"], impliesNot: []),
        PatternCase(
            prompt: "she wrote: 'Bonjour, ma commande n'est toujours pas arrivée' what does she want", implies: ["translate"],
            impliesNot: []),
        PatternCase(prompt: "lunch with José Müller at the café", implies: [], impliesNot: ["translate"]),
        PatternCase(prompt: "rent goes from 1850 to 2010, what % increase is that", implies: ["calculate"], impliesNot: []),
        PatternCase(prompt: "open %appdata% and look for it", implies: [], impliesNot: ["calculate"]),
        PatternCase(prompt: "which coins can you get prices for", implies: ["available", "list"], impliesNot: []),
        PatternCase(prompt: "what colours can I use for events?", implies: ["available"], impliesNot: []),
        PatternCase(prompt: "you can see which one is newer", implies: [], impliesNot: ["available"]),
        PatternCase(prompt: "which files will be in the next commit?", implies: ["staged", "status"], impliesNot: []),
        PatternCase(prompt: "show the next page of commits", implies: [], impliesNot: ["staged"]),
        PatternCase(prompt: "compare config/dev.yaml with prod.yaml", implies: ["file", "multiple", "read"], impliesNot: []),
        PatternCase(prompt: "what changed in notes.txt", implies: ["file"], impliesNot: ["multiple"]),
        PatternCase(prompt: "what meetings have I got tomorrow?", implies: ["list"], impliesNot: []),
        PatternCase(prompt: "which repos do I have access to", implies: ["list"], impliesNot: []),
        PatternCase(prompt: "I have a question about the invoice", implies: [], impliesNot: ["list", "search"]),
        PatternCase(prompt: "What notes do I have about Lisbon?", implies: ["list", "search", "find"], impliesNot: []),
        PatternCase(prompt: "any emails regarding Marta's visit", implies: ["search"], impliesNot: []),
        PatternCase(prompt: "tell me more about it", implies: [], impliesNot: ["search"]),
        PatternCase(prompt: "what about tomorrow", implies: [], impliesNot: ["search"]),
        PatternCase(prompt: "it takes about 5 minutes", implies: [], impliesNot: ["search"]),
        PatternCase(prompt: "give Marco's message a 👍", implies: ["emoji"], impliesNot: []),
        PatternCase(prompt: "rate it 5/5 #1", implies: [], impliesNot: ["emoji"]),
    ]

    @Test("The shape of a prompt's text implies terms", arguments: patternCases)
    func patterns(_ testCase: PatternCase) {
        let terms = Set(ToolRelevance.patternTerms(in: testCase.prompt))
        for term in testCase.implies { #expect(terms.contains(term), "\(term)") }
        for term in testCase.impliesNot { #expect(!terms.contains(term), "\(term)") }
    }

    @Test("A request word brings the terms tools use for it, at half weight, one way only")
    func implications() {
        let weights = Dictionary(
            ToolRelevance.queryTerms(in: "what's inside the folder").map { ($0.term, $0.weight) }, uniquingKeysWith: max)
        #expect(weights[ToolRelevance.stem("inside")] == 1)
        #expect(weights["read"] == 0.5)
        #expect(weights[ToolRelevance.stem("directory")] == 0.5)
        // `read` does not bring `inside` back.
        let reverse = Dictionary(ToolRelevance.queryTerms(in: "read").map { ($0.term, $0.weight) }, uniquingKeysWith: max)
        #expect(reverse[ToolRelevance.stem("inside")] == nil)
    }

    @Test(
        "Everyday words for places, pictures, money, records, wording, markets, meetings, the body, units and documents bring the words tools use",
        arguments: [
            ("a pharmacy open on sunday in Gent", ["local", "places"]),
            ("good bakery around here?", ["local", "search"]),
            ("shots of the northern lights for my wallpaper", ["image"]),
            ("talks I could watch on the train", ["video"]),
            ("bill the customer for the onboarding package", ["invoice"]),
            ("has she paid yet", []),
            ("what fields do we have on tickets", ["property"]),
            ("which automations are running", ["workflow"]),
            ("please give him the money back in full", ["refund"]),
            ("how much money is sitting in our account", ["balance"]),
            ("I want to sell a recording and charge people for it", ["product", "payment"]),
            ("create a new client named Ramón", ["customer"]),
            ("hop over to the release-2.1 branch", ["checkout"]),
            ("a tune I heard an hour ago, what was it", ["played", "recent"]),
            ("can u make this sound less rude", ["tone", "rewrite"]),
            ("reword it and simplify the intro", ["rephrase", "rewrite", "simple"]),
            ("plz remind me to buy batteries", ["reminder"]),
            ("jot down the garage code", ["note"]),
            ("text Jake that I'm late", ["message"]),
            ("what's tsla trading at", ["stock", "price"]),
            ("their earnings and margins last quarter", ["income", "revenue"]),
            ("which coins went up, dogecoin or eth?", ["crypto"]),
            ("is it gonna be windy", ["wind", "weather"]),
            ("what have I got on tomorrow", ["event"]),
            ("any storm warnings for the Keys?", ["alert"]),
            ("they are leaving, stop their plan", ["cancel"]),
            ("who is paying us monthly", ["subscription", "recurring"]),
            ("add these three leads", ["contact"]),
            ("can you dig him up", ["search", "find"]),
            ("I barely slept again", ["sleep"]),
            ("what has Tom bought from us before?", ["order", "purchase"]),
            ("is the linen tote in stock", ["inventory"]),
            ("what time is my call with Priya", ["meeting"]),
            ("who actually showed up yesterday", ["participant"]),
            ("actually kill it, nobody can make it", ["delete", "cancel"]),
            ("have I lost any weight since january", ["mass"]),
            ("did I meditate this week", ["mindful"]),
            ("my BP was 145/95", ["blood", "pressure"]),
            ("log 40 minutes of yoga", ["workout"]),
            ("flying to Tokyo, need a coat?", ["weather", "temperature"]),
            ("convert that to pounds", ["calculate"]),
            ("how many km is 26 miles", ["calculate"]),
            ("find that pdf of my lease", ["file"]),
            ("when did I last touch the budget spreadsheet?", ["file"]),
            ("has anyone acked it", ["acknowledge"]),
            ("any feedback or remarks on the draft?", ["comment", "review"]),
            ("swap the old key for the new one", ["replace", "edit"]),
            ("pull the subtitles off that clip", ["caption", "transcript", "video"]),
            ("a short documentary, not a vlog", ["video"]),
            ("just give me the gist", ["summary"]),
            ("catch me up on the channel", ["history", "recent"]),
            ("he's not admin now, take it away", ["remove", "delete"]),
            ("who's on the rotation", ["schedule"]),
            ("how many views does it have", ["statistic"]),
            ("what has she put out this month", ["publish", "upload"]),
            ("say congrats to the team", ["message", "comment"]),
            ("is there an outage?", ["incident", "alert"]),
            ("export the chart as a 2x png", ["download", "render", "image"]),
            ("show me the README of that repo", ["file", "content", "read"]),
            ("whats wrong with it", ["error", "status", "log"]),
            ("why does it keep dying? check what it spat out", ["crash", "output", "log"]),
            ("who are the maintainers and contributors", ["member", "user"]),
            ("we need a deploy token", ["access", "environment", "deployment"]),
            ("how different are they", ["diff"]),
            ("it's somewhere in Documents", ["search", "find"]),
            ("log that export problem", ["issue", "error"]),
            ("going offline, on vacation till friday", ["status"]),
            ("book 30 min with Jonas", ["create", "event"]),
            ("what were temps like, is it cold outside", ["temperature", "weather"]),
            ("run some js on the page", ["javascript", "script"]),
            ("what's left this sprint", ["cycle", "iteration"]),
            ("I missed the discussion", ["comment", "message"]),
            ("give me an overview of how src is organised", ["tree", "structure"]),
            ("how far has it drifted from main", ["diff"]),
            ("which folders are you able to get at", ["allowed", "access"]),
            ("what's live in production", ["environment", "deployment"]),
            ("sku text primary key, qty integer", ["table", "column"]),
            ("which step blew up", ["fail", "error"]),
            ("a box keeps popping up", ["dialog"]),
            ("reply to Marta there", ["comment"]),
            ("the pdf attached to her email", ["attachment"]),
            ("scratch the thing about me being vegetarian", ["memory", "knowledge", "observation"]),
        ])
    func everydayWords(_ prompt: String, _ implied: [String]) {
        let weights = Dictionary(ToolRelevance.queryTerms(in: prompt).map { ($0.term, $0.weight) }, uniquingKeysWith: max)
        for term in implied { #expect(weights[ToolRelevance.stem(term)] == 0.5, "\(term)") }
    }

    @Test(
        "Running after a verb of being is a state to list, not an action to run",
        arguments: [("which containers are running", false), ("is nginx still running?", false), ("run the migrations", true)])
    func runningIsAState(_ prompt: String, _ isAction: Bool) {
        let weights = Dictionary(ToolRelevance.queryTerms(in: prompt).map { ($0.term, $0.weight) }, uniquingKeysWith: max)
        #expect((weights["run"] == 1) == isAction)
        #expect((weights["status"] == 0.5) == !isAction)
    }

    @Test(
        "Forgetting after I, we, keep or not is something to remember; to forget a thing is to delete it",
        arguments: [
            ("I keep forgetting, my passport runs out in 2029", true), ("log it so we don't forget", true),
            ("forget what I said about sushi", false),
        ])
    func forgetting(_ prompt: String, _ isToRemember: Bool) {
        let weights = Dictionary(ToolRelevance.queryTerms(in: prompt).map { ($0.term, $0.weight) }, uniquingKeysWith: max)
        #expect(weights["memory"] == 0.5)
        #expect((weights[ToolRelevance.stem("remember")] == 0.5) == isToRemember)
        #expect((weights[ToolRelevance.stem("delete")] == 0.5) == !isToRemember)
    }

    @Test(
        "Stored after have or you asks to recall; to store a thing is to save it",
        arguments: [("what do you have stored about Project Falcon?", true), ("I stored the keys in the vault", false)])
    func storedIsRecalled(_ prompt: String, _ isRecall: Bool) {
        let weights = Dictionary(ToolRelevance.queryTerms(in: prompt).map { ($0.term, $0.weight) }, uniquingKeysWith: max)
        #expect((weights["memory"] == 0.5) == isRecall)
        #expect((weights[ToolRelevance.stem("store")] == 1) == !isRecall)
    }

    @Test("Bill the person is a name, not an invoice")
    func billTheName() {
        let weights = Dictionary(ToolRelevance.queryTerms(in: "send the notes to Bill").map { ($0.term, $0.weight) }, uniquingKeysWith: max)
        #expect(weights[ToolRelevance.stem("invoice")] == nil)
    }

    @Test(
        "A description's lead is its first sentence of prose: headings and list markers before it are skipped",
        arguments: [
            ("🎯 Purpose:\n  1. Retrieves a paginated list of objects.\n\n📦 Returns: the objects", "Retrieves a paginated list of objects."),
            ("## Usage\nCreates a customer in the billing system. Needs a name.", "Creates a customer in the billing system"),
            ("Reads a file. Use it for text.", "Reads a file"),
            ("- Lists the boards you can see\n- Sets one active", "Lists the boards you can see"),
            ("Search:", "Search:"),
            ("", ""),
        ])
    func leadSentence(_ description: String, _ lead: String) {
        #expect(ToolRelevance.leadSentence(of: description) == lead)
    }

    @Test("To switch to a branch is to check it out; to switch a setting is to change it")
    func switching() {
        let weights = Dictionary(
            ToolRelevance.queryTerms(in: "switch to the release branch").map { ($0.term, $0.weight) }, uniquingKeysWith: max)
        #expect(weights[ToolRelevance.stem("checkout")] == 0.5)
        #expect(weights[ToolRelevance.stem("change")] == 0.5)
    }

    @Test("A stop word that asks for something brings its terms, though it is no term itself")
    func stopWordImplications() {
        let whereTerms = Dictionary(ToolRelevance.queryTerms(in: "where did I put it").map { ($0.term, $0.weight) }, uniquingKeysWith: max)
        #expect(whereTerms[ToolRelevance.stem("search")] == 0.5)
        #expect(whereTerms[ToolRelevance.stem("where")] == nil)
        let whoTerms = Dictionary(ToolRelevance.queryTerms(in: "who changed it").map { ($0.term, $0.weight) }, uniquingKeysWith: max)
        #expect(whoTerms["log"] == 0.5)
        #expect(whoTerms["who"] == nil)
    }

    @Test("A capitalised word inside a sentence is a name, not the verb it spells")
    func names() {
        #expect(ToolRelevance.properNames(in: "what do you remember about Project Atlas and Mark") == ["project", "atlas", "mark"])
        #expect(ToolRelevance.properNames(in: "Mark the email as read. Star it too") == [])
        let terms = Dictionary(ToolRelevance.queryTerms(in: "a note for Mark").map { ($0.term, $0.weight) }, uniquingKeysWith: max)
        #expect(terms["mark"] == 1)
        #expect(terms["modify"] == nil)
    }

    @Test(
        "A capitalised word that starts a sentence is a name when an auxiliary follows it: commands never have one",
        arguments: [
            ("Mark is my manager, remember that", ["mark"]),
            ("Will doesn't work here any more", ["will"]),
            ("Mark it as read", []),
            ("Mark the email as read", []),
        ])
    func sentenceInitialNames(_ prompt: String, _ names: [String]) {
        #expect(ToolRelevance.properNames(in: prompt) == Set(names))
    }

    @Test("No request word shares its stem with a word of a synonym group, or with another request word")
    func vocabularyStems() {
        var seen: [String: String] = [:]
        for group in ToolRelevance.synonymGroups {
            for word in group { seen[ToolRelevance.stem(word)] = word }
        }
        for (word, _) in ToolRelevance.implications {
            let stem = ToolRelevance.stem(word)
            #expect(seen[stem] == nil, "\(word) and \(seen[stem] ?? "") share the stem \(stem)")
            seen[stem] = word
        }
        // `times` would make every question about the time an arithmetic one.
        let time = Dictionary(ToolRelevance.queryTerms(in: "what time is it in Tokyo").map { ($0.term, $0.weight) }, uniquingKeysWith: max)
        #expect(time[ToolRelevance.stem("calculate")] == nil)
    }

    @Test("A verb and its particle also make one term")
    func particles() {
        let terms = ToolRelevance.queryTerms(in: "check out the tag").map(\.term)
        #expect(terms.contains("checkout"))
        #expect(terms.contains("check"))
        #expect(ToolRelevance.queryTerms(in: "check off the milk").map(\.term).contains("checkoff"))
    }

    @Test("A verb with its particle brings what the two mean together, not what the verb alone implies")
    func particleVerbsMeanTogether() {
        let setUp = Dictionary(ToolRelevance.queryTerms(in: "set up a sync with Ana").map { ($0.term, $0.weight) }, uniquingKeysWith: max)
        #expect(setUp[ToolRelevance.stem("create")] == 0.5)
        #expect(setUp[ToolRelevance.stem("update")] == nil)
        let set = Dictionary(ToolRelevance.queryTerms(in: "set the volume to 20").map { ($0.term, $0.weight) }, uniquingKeysWith: max)
        #expect(set[ToolRelevance.stem("update")] == 0.5)
    }

    @Test(
        "Writing to someone is sending them a message; writing a file is not",
        arguments: [
            ("write to my landlord that the boiler died", true),
            ("write the summary into notes.txt", false),
        ])
    func writingTo(_ prompt: String, _ sends: Bool) {
        let terms = Set(ToolRelevance.queryTerms(in: prompt).map(\.term))
        #expect(terms.contains(ToolRelevance.stem("send")) == sends)
        #expect(terms.contains(ToolRelevance.stem("write")))
    }

    @Test(
        "A short object may stand between a verb and its particle, and 'any more' is 'anymore'",
        arguments: [
            ("add those up", "addup"),
            ("look it up for me", "lookup"),
            ("back them all up", nil),
            ("Mark doesn't manage me any more", "anymore"),
        ])
    func separatedParticles(_ prompt: String, _ joined: String?) {
        let terms = ToolRelevance.queryTerms(in: prompt).map(\.term)
        if let joined {
            #expect(terms.contains(ToolRelevance.stem(joined)))
        } else {
            // Two words between them: no longer one phrase.
            #expect(!terms.contains(ToolRelevance.stem("backup")))
        }
    }

    @Test(
        "A file-system path's words are where, not what: they count at half weight, and the path implies one",
        arguments: [
            ("find every .csv under ~/projects/reports", ["project", "report"]),
            ("list ./app and /var/backups", ["app", "var", "backup"]),
            ("what's in ../shared/notes", ["share", "note"]),
            ("tidy up this folder:\n~/projects/reports", ["project", "report"]),
            ("copy\t./app/config\tsomewhere safe", ["app", "config"]),
        ])
    func paths(_ prompt: String, _ folders: [String]) {
        let weights = Dictionary(ToolRelevance.queryTerms(in: prompt).map { ($0.term, $0.weight) }, uniquingKeysWith: max)
        for folder in folders { #expect(weights[ToolRelevance.stem(folder)] == 0.5, "\(folder)") }
        #expect(weights["path"] == 0.5)
    }

    @Test(
        "A prompt's paths are set apart from its other tokens, after any whitespace",
        arguments: [
            ("list ./app and /var/backups", ["list", "and"], ["./app", "/var/backups"]),
            ("line one\n~/notes/todo.md\tand more", ["line", "one", "and", "more"], ["~/notes/todo.md"]),
            ("open '../site/index.html' now", ["open", "now"], ["../site/index.html'"]),
            ("  no paths here  ", ["no", "paths", "here"], []),
        ])
    func pathsSeparated(_ prompt: String, _ text: [String], _ paths: [String]) {
        let separated = ToolRelevance.PromptText(prompt)
        #expect(separated.textTokens.map(String.init) == text)
        #expect(separated.paths == paths)
        #expect(separated.words == text.filter { $0.count > 1 })
    }

    @Test(
        "An appointment named by its time is an event, and moving something in time changes it",
        arguments: [
            ("cancel my 4pm today, I'm sick", ["event", "meeting"], true),
            ("what's the 10:30 with Marco about", ["event", "meeting"], true),
            ("remind me at 4pm", ["time"], false),
            ("push my 2pm with Marco to 4", ["update", "reschedule"], true),
            ("move the gym thing to saturday morning", ["update", "reschedule"], false),
            ("push the second one back 30 min", ["update", "reschedule"], false),
        ])
    func appointmentsByTime(_ prompt: String, _ expected: [String], _ isAppointment: Bool) {
        let terms = Set(ToolRelevance.patternTerms(in: prompt))
        for term in expected { #expect(terms.contains(term), "\(term)") }
        #expect(terms.contains("event") == isAppointment)
    }

    @Test(
        "When, asked of a file or path, is in its metadata",
        arguments: [
            ("when did config.yaml last get changed", true), ("when was /srv/data/export.parquet last touched", true),
            ("when is my dentist appointment", false), ("open config.yaml", false),
        ])
    func whenOfAFile(_ prompt: String, _ asksMetadata: Bool) {
        let terms = Set(ToolRelevance.patternTerms(in: prompt))
        #expect(terms.contains("info") == asksMetadata && terms.contains("metadata") == asksMetadata)
    }

    @Test(
        "A ranking of the top few is a query, and asking whether there is any is a search",
        arguments: [
            ("top 10 customers by total order value", ["query", "sort"]),
            ("is there any file with 'invoice' in the name", ["search", "find"]),
            ("are there any open PRs", ["search", "find"]),
        ])
    func topAndAny(_ prompt: String, _ expected: [String]) {
        let terms = Set(ToolRelevance.patternTerms(in: prompt))
        for term in expected { #expect(terms.contains(term), "\(term)") }
    }

    @Test(
        "A moving word that is no verb, or no time to move to, changes nothing",
        arguments: ["did I close my move ring yesterday", "push the fix"])
    func notMovedInTime(_ prompt: String) {
        #expect(!ToolRelevance.patternTerms(in: prompt).contains("reschedule"))
    }

    @Test(
        "A file name's words say what, not what to do: they count at half weight without what they would imply",
        arguments: [
            ("open design-notes.md and tell me what it says", "note", ["add", "comment"]),
            ("summarise \"remember-me.txt\", please", "remember", ["memory", "knowledge"]),
            ("is ~/scans/fix-list.pdf still there", "fix", ["edit", "update"]),
        ])
    func fileNameWords(_ prompt: String, _ word: String, _ notImplied: [String]) {
        let weights = Dictionary(ToolRelevance.queryTerms(in: prompt).map { ($0.term, $0.weight) }, uniquingKeysWith: max)
        #expect(weights[ToolRelevance.stem(word)] == 0.5)
        for term in notImplied { #expect(weights[ToolRelevance.stem(term)] == nil, "\(term)") }
        #expect(weights[ToolRelevance.stem("file")] == 0.5)
        #expect(!ToolRelevance.PromptText(prompt).words.contains(word) && !ToolRelevance.PromptText(prompt).words.contains(word + "s"))
    }

    @Test(
        "An owner/repository name, a fraction and a file name beside a folder are not paths",
        arguments: ["show the readme of sharkdp/bat", "what is 3/4 of 120", "compare config/dev.yaml with prod"])
    func notPaths(_ prompt: String) {
        #expect(ToolRelevance.PromptText(prompt).paths.isEmpty)
        #expect(!ToolRelevance.queryTerms(in: prompt).map(\.term).contains("path"))
    }

    @Test(
        "A word no tool has, one typing slip from a word a tool has, matches it at half weight",
        arguments: [
            ("add taks: renew insurance", "create_task", true),  // two letters swapped
            ("high priorty please", "set_priority", true),  // one left out
            ("reomve the old one", "remove_item", true),  // swapped inside a longer word
            ("high briority please", "set_priority", true),  // the first letter changed
            ("high prioritx please", "set_priority", true),  // the last letter changed
            ("xpriority please", "set_priority", true),  // one added in front
            ("that tack", "list_task", false),  // four letters, not a swap
            ("those logs", "read_blogs", false),  // a word the tools have is never corrected
        ])
    func misspellings(_ prompt: String, _ tool: String, _ matches: Bool) {
        let candidates = [
            ToolCandidate(name: tool, server: "a", description: "Does one thing.", tokens: 50),
            ToolCandidate(name: "get_weather", server: "b", description: "The weather at a place.", tokens: 50),
            ToolCandidate(name: "show_logs", server: "c", description: "A service's logs.", tokens: 50),
        ]
        let relevance = ToolRelevance(candidates, embedding: nil)
        let score = relevance.scores(for: prompt)[0]
        #expect((score > 0) == matches, "score \(score)")
    }

    @Test("A prompt in a verbose server's words does not let it fill the turn alone")
    func verboseServer() throws {
        let long = String(
            repeating: "It reads files, shows their content and history, and works with config files and templates. ", count: 12)
        let tools =
            (1...6).map {
                ToolCandidate(name: "hub_tool\($0)", server: "hub", description: "Manages project item \($0). " + long, tokens: 100)
            }
            + [
                ToolCandidate(
                    name: "read_text_file", server: "files", description: "Read the complete contents of a file as text.", tokens: 100)
            ]
        let selection = ToolSelector(maximumTools: 5, tokenBudget: 1600).select(tools, prompt: "Show me what's inside the config.yaml file")
        #expect(selection.selected.first?.name == "read_text_file")
    }
}
