extension ToolRelevance {
    /// Words that name the same thing or action in tool definitions; a prompt's term brings the
    /// others of its group at half weight.
    ///
    /// Every entry must be right for almost any tool: these are the verbs and nouns people and
    /// tool authors use for the same action or object (`folder` and `directory`, `save` and
    /// `write`, `remove` and `delete`), not domain knowledge of one server. No word is in two
    /// groups.
    public static let synonymGroups: [[String]] =
        actionGroups + [
            ["calculate", "compute", "evaluate", "math", "arithmetic"],
            // Things.
            ["directory", "folder", "dir"],
            ["repository", "repo"],
            ["email", "mail", "inbox"],
            ["issue", "ticket", "bug", "defect"],
            ["event", "meeting", "appointment"],
            ["user", "member", "account"],
            ["message", "post"],
            ["song", "track", "tune"],
            ["light", "lamp", "bulb"],
            ["task", "todo", "chore"],
            ["customer", "client"],
            ["rewrite", "rephrase", "reword", "paraphrase"],
            // British and American spellings.
            ["color", "colour"], ["favorite", "favourite"], ["organization", "organisation", "org"], ["center", "centre"],
            ["license", "licence"], ["canceled", "cancelled"], ["catalog", "catalogue"],
        ]

    /// The synonym groups of the actions almost every kind of tool has (reading, making,
    /// storing, deleting, changing, finding, moving, running), whatever it acts on.
    ///
    /// A tool that matches a prompt only by these, and by no word for what it acts on, is a
    /// weaker match (``Tuning/actionOnlyShare``): `remember that Mark is my manager` asks to
    /// add something, but the tool that adds a reaction to a chat message is not the one meant.
    static let actionGroups: [[String]] = [
        // Reading and showing.
        ["get", "fetch", "read", "show", "list", "view", "display", "retrieve"],
        // Making something new.
        ["create", "add", "new", "make", "insert"],
        // Storing.
        ["write", "save", "store"],
        ["delete", "remove", "erase", "drop", "trash", "purge", "wipe", "discard"],
        ["update", "edit", "modify", "change", "alter"],
        ["find", "search", "lookup", "query", "locate", "grep"],
        ["move", "rename", "relocate"],
        ["run", "execute", "trigger", "launch"],
    ]

    /// The stems of ``actionGroups``' words.
    static let actionTerms: Set<String> = Set(actionGroups.joined().map(stem))

    /// Words whose meaning in a request points at terms tools use for it, one way only: a
    /// prompt's word brings these terms at half weight, but a tool's word does not bring the
    /// prompt's.
    ///
    /// `what's inside config.yaml` asks to read a file; `how many rows` asks to count with a
    /// query; `who changed it` asks for a log. As with ``synonymGroups``, each entry must hold
    /// for almost any server.
    static let implications: KeyValuePairs<String, [String]> = [
        // Asking to see something.
        "inside": ["read", "content"], "content": ["read"], "contain": ["read", "content"],
        "open": ["read", "view", "navigate"], "visit": ["navigate", "url"], "goto": ["navigate"], "see": ["show", "list", "view"],
        "look": ["find", "read", "view"],
        "print": ["read", "show"], "check": ["get", "status"], "tell": ["get", "show", "post", "message"],
        "browse": ["list"], "enumerate": ["list"], "everything": ["list", "all"], "all": ["list"],
        "peek": ["read", "view"], "cat": ["read"], "dump": ["read", "list"], "text": ["read", "message"],
        // Storing and changing.
        "put": ["write", "save"], "puton": ["play"], "overwrite": ["write"], "append": ["write", "add"],
        "replace": ["edit", "update"], "fix": ["edit", "update"], "set": ["update"],
        "copy": ["write"], "mkdir": ["create", "directory"],
        "record": ["add", "create", "row"], "note": ["add", "comment"],
        "remember": ["add", "create", "save", "memory", "knowledge", "search"], "memorise": ["remember", "memory", "knowledge"],
        "memorize": ["remember", "memory", "knowledge"], "recall": ["memory", "knowledge", "search"],
        "anymore": ["delete", "update"], "outdated": ["update", "delete"],
        // Finding.
        "filter": ["search", "find"], "rule": ["filter"], "automatically": ["filter", "rule"], "setup": ["create"],
        "match": ["search", "find"], "where": ["search", "find"], "hunt": ["search", "find"],
        // Counting and computing.
        "many": ["count", "query", "calculate", "statistic"], "count": ["number", "query"], "total": ["sum", "calculate"],
        "sum": ["calculate"], "addup": ["calculate", "sum"], "split": ["calculate", "divide"], "owe": ["calculate"], "plus": ["calculate"],
        "minus": ["calculate"],
        "multiply": ["calculate"], "divide": ["calculate"],
        "percent": ["calculate"], "percentage": ["calculate"], "square": ["calculate"],
        "root": ["calculate"], "average": ["calculate"], "convert": ["conversion"],
        "conversion": ["convert"],
        // Time.
        "now": ["current", "time"], "moment": ["now", "current"], "current": ["now"], "clock": ["time"], "hour": ["time"],
        "today": ["date", "current"], "tomorrow": ["date", "forecast", "event"], "yesterday": ["date"],
        "timezone": ["time", "zone"], "zone": ["timezone"],
        // Change history.
        "history": ["log", "commit"], "who": ["log", "author", "user"],
        "recent": ["log", "latest"], "latest": ["log", "recent"], "last": ["log", "latest"],
        "difference": ["diff"], "differ": ["diff"], "compare": ["diff"],
        "staged": ["diff", "status", "add"], "uncommitted": ["diff", "status"],
        // Data.
        "row": ["query", "table", "select"], "column": ["table", "schema", "describe"],
        "sql": ["query"], "database": ["table", "query"], "db": ["database", "query", "table"],
        "structure": ["schema", "describe", "tree"], "schema": ["describe"],
        // Files.
        "size": ["info", "metadata"], "metadata": ["info"], "detail": ["info", "get"],
        "exist": ["info", "get"], "tree": ["directory"],
        "subfolder": ["directory"], "subdirectory": ["directory"],
        // Files by their names' extensions and other words for them.
        "big": ["size", "info"], "large": ["size", "info"], "anywhere": ["search", "find"],
        "header": ["read"], "first": ["read", "head"], "beginning": ["head", "read"], "end": ["tail", "read"],
        "attach": ["upload", "file", "attachment"], "upload": ["file"], "image": ["media"], "photo": ["image", "media"],
        "picture": ["image", "media"], "audio": ["media"], "transcribe": ["media", "audio"],
        // Version control.
        "undo": ["reset", "revert"], "unstage": ["reset"], "revert": ["reset"], "tag": ["checkout"],
        "commit": ["log", "history"], "author": ["log"], "since": ["log", "diff", "status"],
        "pending": ["status", "diff"], "dirty": ["status"], "clean": ["status"],
        // Data.
        "bump": ["update"], "raise": ["update"], "increase": ["update"], "decrease": ["update"],
        "lower": ["update"], "per": ["query"], "index": ["detail"], "explain": ["plan", "query"],
        "slow": ["explain", "analyze"],
        // Memory, people, messages.
        "forget": ["delete", "remove", "memory", "knowledge"], "mind": ["remember", "memory", "knowledge"],
        "know": ["memory", "search"], "said": ["message", "search"], "say": ["message", "search"],
        "mention": ["message", "search"], "invite": ["attendee", "event"], "reassign": ["assign", "update"], "urgent": ["priority"],
        "important": ["priority"],
        "assign": ["update", "assignee"], "star": ["modify", "label", "flag"], "mark": ["modify", "label"],
        "archive": ["modify", "label"], "flag": ["modify", "label"], "unread": ["search", "label"],
        "lunch": ["event"], "dinner": ["event"], "party": ["event"],
        "monday": ["date", "event"], "tuesday": ["date", "event"], "wednesday": ["date", "event"],
        "thursday": ["date", "event"], "friday": ["date", "event"], "saturday": ["date", "event"],
        "sunday": ["date", "event"], "noon": ["time"], "midnight": ["time"], "morning": ["time"],
        "evening": ["time"], "afternoon": ["time"], "late": ["time", "now"], "early": ["time"],
        "busy": ["freebusy", "event"], "agenda": ["event", "list", "calendar"], "plate": ["event", "list", "calendar"],
        "reschedule": ["update", "event"], "postpone": ["update", "event"], "shift": ["update", "move"], "free": ["freebusy"],
        "available": ["freebusy"],
        "rsvp": ["respond", "event"], "accept": ["respond"], "decline": ["respond"],
        "snow": ["weather", "forecast"], "sunny": ["weather", "forecast"], "cold": ["weather", "temperature"],
        "hot": ["weather", "temperature"], "warm": ["weather", "temperature"],
        "chilly": ["weather", "temperature"], "freezing": ["weather", "temperature"], "humid": ["weather", "humidity"], "wind": ["weather"],
        "umbrella": ["weather", "forecast"], "coat": ["weather", "temperature"], "jacket": ["weather", "temperature"],
        "popup": ["dialog"], "alert": ["dialog"], "confirm": ["dialog"], "dismiss": ["dialog", "close"],
        "press": ["key"], "type": ["fill"], "dropdown": ["select", "option"], "pick": ["select", "option"], "choose": ["select", "option"],
        "screenshot": ["snapshot"],
        "loaded": ["wait"],
        // Requests about people and messages.
        "send": ["post", "message"], "reply": ["post", "message", "comment"],
        "dm": ["message", "direct"], "channel": ["message"], "chat": ["message", "channel", "history"],
        "talk": ["message", "channel"], "discuss": ["message", "channel"], "emoji": ["reaction", "react"], "react": ["reaction"],
        "done": ["status", "update"],
        "mr": ["merge", "request"], "pr": ["pull", "request"],
        "weather": ["forecast"], "forecast": ["weather"], "rain": ["weather", "forecast"],
        "temperature": ["weather"], "schedule": ["event", "calendar"], "calendar": ["event"],
        "web": ["url", "fetch"], "website": ["url", "fetch"], "webpage": ["url", "fetch"],
        "checksum": ["hash"], "digest": ["hash"], "sha": ["hash"],
        "link": ["url"], "url": ["fetch"], "download": ["fetch", "get"],
        // Playing things, and the rooms they play in.
        "music": ["play", "track", "song"], "listen": ["play", "track"], "unpause": ["resume", "play"],
        "skip": ["next"], "back": ["previous"], "loud": ["volume"], "louder": ["volume"], "quiet": ["volume"],
        "quieter": ["volume"], "mute": ["volume"],
        "heat": ["temperature", "climate"], "thermostat": ["temperature", "climate"],
        "warmer": ["temperature"], "cooler": ["temperature"],
        "blind": ["cover", "position"], "curtain": ["cover", "position"], "shade": ["cover", "position"], "shutter": ["cover", "position"],
        // Weather in everyday words.
        "wet": ["rain", "precipitation", "weather"], "soak": ["rain", "precipitation", "weather"], "pour": ["rain", "weather"],
        "drizzle": ["rain", "weather"], "storm": ["weather", "forecast"],
        "longitude": ["coordinates", "location"],
        // Dates and answers.
        "when": ["date", "time", "event"], "yes": ["accept", "respond"], "maybe": ["respond", "tentative"],
        // Code hosting.
        "ci": ["workflow", "pipeline", "run"], "waiting": ["pending", "open"],
        "bottom": ["append", "end"],
        // Everyday verbs for a tool's action.
        "scratch": ["delete", "remove"], "tick": ["complete", "done", "update"], "hit": ["click"], "tap": ["click"],
        "squash": ["merge"], "told": ["remember", "memory", "search"], "biggest": ["size", "info"],
        "fattest": ["size", "info"], "writeto": ["send", "message", "email"], "checkoff": ["complete", "done", "update"],
        "output": ["log"], "space": ["size", "info"], "layout": ["tree", "structure", "directory"], "release": ["version"],
        "anyone": ["share", "permission"], "rid": ["delete", "remove"], "laid": ["tree", "structure", "directory"],
        // Places and getting there.
        "latitude": ["coordinates", "geocode"],
        "coordinates": ["geocode", "location"], "postcode": ["address", "geocode"], "zip": ["address", "geocode"],
        "route": ["directions"], "commute": ["directions", "distance", "travel"], "far": ["distance"],
        "walk": ["directions", "distance"], "bike": ["directions", "distance"], "cycle": ["directions", "distance"],
        "transit": ["directions"], "train": ["directions", "transit"], "bus": ["directions", "transit"],
        "altitude": ["elevation"], "climb": ["elevation"],
        "nearby": ["places", "search", "local"], "restaurant": ["places", "search", "local"],
        "cafe": ["places", "search", "local"], "shop": ["places", "search", "local"], "hotel": ["places", "local"],
        "pharmacy": ["places", "search", "local"], "bakery": ["places", "search", "local"],
        "plumber": ["places", "search", "local"], "supermarket": ["places", "search", "local"],
        // Pictures, money and records in everyday words.
        "wallpaper": ["image"], "watch": ["video"],
        "bill": ["invoice"], "pay": ["payment"], "field": ["property"], "automation": ["workflow"],
        "moneyback": ["refund"], "money": ["balance", "payment"], "sell": ["product", "price"],
        "charge": ["payment", "price"], "heard": ["played", "recent"],
        // Services and their failures.
        "tunnel": ["forward", "port"], "switch": ["checkout", "change"], "hop": ["checkout", "change"], "crash": ["error", "issue"],
        "touch": ["modify", "change"],
        // Wording: how a text reads, not what it says.
        "rude": ["tone", "rewrite"], "polite": ["tone", "rewrite"], "formal": ["tone", "formality", "rewrite"],
        "professional": ["style", "tone", "rewrite"], "simplify": ["rewrite", "simple"], "proofread": ["rewrite", "grammar"],
        "grammar": ["rewrite"], "wording": ["rewrite"],
        // Reminders, notes and lists of things to get.
        "remind": ["reminder"], "jot": ["note", "write", "create"], "writedown": ["note", "write"],
        "grocery": ["list", "reminder", "shopping"],
        // Markets.
        "trading": ["stock", "price"], "earnings": ["income", "revenue"], "profit": ["income", "revenue"],
        "margin": ["income", "revenue"], "coin": ["crypto"], "bitcoin": ["crypto"], "btc": ["crypto"], "ethereum": ["crypto"],
        "eth": ["crypto"], "dogecoin": ["crypto"], "terminology": ["glossary"], "windy": ["wind", "weather", "forecast"],
        "picnic": ["event"],
        // Warnings, stopping, paying by the month, leads, digging up.
        "warning": ["alert"], "stop": ["cancel"], "monthly": ["subscription", "recurring"], "lead": ["contact"],
        "dig": ["search", "find"],
        // Verbs whose past a suffix rule cannot undo.
        "slept": ["sleep"], "bought": ["buy", "order", "purchase"], "sold": ["sell", "order"], "paid": ["pay", "payment"],
        "sent": ["send"], "wrote": ["write"], "written": ["write"], "spent": ["spend"], "met": ["meet", "meeting"],
        "flew": ["fly", "flight"], "flown": ["fly", "flight"], "drove": ["drive"], "driven": ["drive"], "ran": ["run"],
        "lost": ["lose"], "kept": ["keep"], "ate": ["eat"], "drank": ["drink"],
        // Buying, selling and stock.
        "buy": ["order", "purchase"], "sale": ["order"], "stock": ["inventory"],
        // Meetings and the people at them.
        "call": ["meeting"], "standup": ["meeting"], "interview": ["meeting"], "attend": ["participant", "attendee"],
        "showedup": ["participant", "attendee"], "kill": ["delete", "stop", "cancel"],
        // The body and exercise.
        "weight": ["mass"], "weigh": ["weight", "mass"], "meditate": ["mindful"], "bp": ["blood", "pressure"],
        "exercise": ["workout"], "gym": ["workout", "exercise"], "yoga": ["workout", "exercise"], "jog": ["workout", "run"],
        "swim": ["workout"], "hike": ["workout"],
        // Units to convert between, and documents that are files.
        "pound": ["calculate"], "lbs": ["calculate"], "kg": ["calculate"], "kilogram": ["calculate"], "mile": ["calculate"],
        "km": ["calculate"], "kilometer": ["calculate"], "celsius": ["calculate"], "fahrenheit": ["calculate"],
        "inch": ["calculate"], "ounce": ["calculate"], "gallon": ["calculate"], "euro": ["calculate"], "dollar": ["calculate"],
        "pdf": ["file"], "spreadsheet": ["file", "sheet"], "csv": ["file"],
        // Feedback, closing things, videos and catching up.
        "ack": ["acknowledge"], "remark": ["comment"], "feedback": ["comment", "review"], "swap": ["replace", "edit", "update"],
        "subtitle": ["caption", "transcript"], "caption": ["subtitle", "transcript"], "documentary": ["video"], "clip": ["video"],
        "vlog": ["video"], "tutorial": ["video"], "gist": ["summary", "read"], "catchup": ["read", "history", "recent", "message"],
        "takeaway": ["remove", "delete"], "takeoff": ["remove", "delete"], "takedown": ["remove", "delete"], "rotation": ["schedule"],
        "putout": ["publish", "upload", "release"], "congrats": ["message", "comment", "post"],
        "congratulations": ["message", "comment", "post"], "outage": ["incident", "alert"],
        "png": ["image"], "jpg": ["image"], "jpeg": ["image"], "svg": ["image"], "export": ["download", "render", "convert"],
        // Files known by name alone, and what went wrong.
        "readme": ["file", "content", "read"], "dockerfile": ["file", "content"], "makefile": ["file", "content"],
        "changelog": ["file", "content"], "wrong": ["error", "status", "log"], "dying": ["crash", "error", "log"],
        "died": ["crash", "error", "log"], "spat": ["output", "log"],
        // People on a project, access, deploying, differences, places unknown, problems.
        "maintainer": ["member", "user"], "collaborator": ["member", "user"], "contributor": ["member", "user"],
        "token": ["access"], "deploy": ["environment", "deployment"], "different": ["diff"],
        "somewhere": ["search", "find"], "problem": ["issue", "error"],
        // Being away, booking, temperatures outside, scripts, sprints, discussions, overviews.
        "offline": ["status"], "vacation": ["status"], "book": ["create", "booking", "reserve", "event"],
        "temp": ["temperature", "weather"], "outside": ["weather"], "js": ["javascript", "script"],
        "javascript": ["script"], "sprint": ["cycle", "iteration"], "discussion": ["comment", "message"],
        "overview": ["tree", "structure", "list"], "organise": ["structure", "tree"], "organize": ["structure", "tree"],
        "drift": ["diff"], "able": ["allowed", "access"], "getat": ["access", "allowed"],
        "production": ["environment", "deployment"], "primarykey": ["table", "column", "create"],
        "blowup": ["fail", "error"], "blewup": ["fail", "error"],
    ]

    /// Words that ask for something else after certain words: the words before them, and the
    /// terms they then bring (at half weight, instead of their own term and implications).
    ///
    /// `which containers are running` asks for a state to list, not for something to run; `I keep
    /// forgetting` and `so we don't forget` ask to remember, not to delete; `what do you have
    /// stored` asks to recall, not to store; and what is `about me` is in what the assistant
    /// remembers. The terms are stemmed here, once, as `relatedTerms`' are.
    static let readingsAfter: [String: (after: Set<String>, terms: [String])] = {
        let remembering: (after: Set<String>, terms: [String]) = (
            ["i", "we", "keep", "always", "don", "dont", "not", "never", "might", "ll"],
            ["remember", "memory", "knowledge", "add", "create"]
        )
        let readings: [String: (after: Set<String>, terms: [String])] = [
            "running": (["are", "is", "still", "currently", "now"], ["list", "status"]),
            "forget": remembering, "forgetting": remembering, "forgot": remembering,
            "stored": (["have", "you"], ["memory", "knowledge", "search"]),
            "me": (["about"], ["memory", "knowledge", "observation"]),
        ]
        return readings.mapValues { ($0.after, $0.terms.map(stem)) }
    }()

    /// Days and times of day.
    static let dayWords: Set<String> = [
        "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "today", "tomorrow", "tonight",
        "yesterday", "morning", "evening", "night", "midnight", "noon", "weekend",
    ]
    /// The months' names.
    static let monthNames: Set<String> = [
        "january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december",
    ]
    /// Words that ask a question.
    static let questionWords: Set<String> = ["who", "what", "what's", "when", "where", "why", "which", "how", "who's"]
    /// Words that make a question one about the asker's own things.
    static let ownWords: Set<String> = ["my", "mine", "our", "ours", "i", "i'm", "i've", "i'd", "we", "we're", "we've", "us"]

    /// Terms the shape of a prompt's text implies, whatever its words: a file name (`notes.txt`
    /// → `file`; by its extension also `image`, `audio`, `media`; two or more → `multiple`, `read`), arithmetic (`2^32 - 1`,
    /// `17%` → `calculate`, `expression`, `math`), a time of day (`16:00`, `4pm` → `time`), an
    /// issue key (`ENG-310` → `issue`), SQL (`SELECT … FROM` → `query`, `sql`) and a web address
    /// (`https://…`, `news.ycombinator.com` → `url`, `fetch`, `web`), an emoji's short code (`:tada:` →
    /// `emoji`, `reaction`; an emoji itself → `emoji`), an email address (→ `email`, `address`), a revision (`HEAD~2`, an
    /// abbreviated commit hash → `commit`, `revision`) and a table's column (`orders.created_at` →
    /// `column`, `table`), a chat channel (`#design` → `channel`, `message`), an issue's number (`#231` →
    /// `issue`, `number`), a latitude and longitude (`46.5197,7.9638`, or `lat` → `coordinates`,
    /// `location`) and an item picked from a list by its place (`the second one`, `the third hit` →
    /// `detail`, `content`, `get`), a standing rule (`from now on` → `filter`, `rule`) and a message
    /// not to be sent yet (`don't send it`, `without sending` → `draft`), and what goes into the
    /// `next commit` (→ `staged`, `status`); `what … have I got` and `do I have` ask for a `list`. Arithmetic is also an arithmetic verb with two
    /// numbers (`add 17 and 25`), `how much` asked over two numbers, or a function of
    /// mathematics applied (`sqrt(2)`), or a `%` standing alone (`what % increase`); to `open a`
    /// or `file a` something is to create it, and a `to-do` (or a `to do list`) is a task. A
    /// language's name, letters of another script, or words of another language (`Bonjour, ma
    /// commande n'est toujours pas arrivée`) ask to `translate`; `which … can you` (or `can I`)
    /// asks what is `available`. An appointment named by its time (`my 4pm`) is an `event` or
    /// `meeting`, and to push, move or bump something to a day or time is to `update` or
    /// `reschedule` it; `when`, asked of a file or path, is in its `info` and `metadata`; the
    /// `top 10` of something is a `query`, and `is there any` a `search`.
    static func patternTerms(in prompt: PromptText) -> [String] {
        var terms: [String] = []
        let scalars = Array(prompt.original.unicodeScalars)
        func isDigit(_ index: Int) -> Bool { index >= 0 && index < scalars.count && scalars[index].properties.numericType != nil }
        func isLetter(_ index: Int) -> Bool { index >= 0 && index < scalars.count && scalars[index].properties.isAlphabetic }
        /// The index of the nearest non-space before or after `index`.
        func neighbour(_ index: Int, step: Int) -> Int {
            var next = index + step
            while next >= 0, next < scalars.count, scalars[next] == " " { next += step }
            return next
        }
        var arithmetic = false
        var timeOfDay = false
        var issueKey = false
        var emoji = false
        var revision = false
        var column = false
        for (index, scalar) in scalars.enumerated() {
            switch scalar {
            case "+", "*", "/", "^", "×", "÷", "=", "-":
                // Between numbers: `2^32 - 1`, `3 * 4`; not `ENG-310` or `2026-12-01` (no spaces, letters or dates).
                let before = neighbour(index, step: -1)
                let after = neighbour(index, step: 1)
                if isDigit(before), isDigit(after) {
                    let spaced = before != index - 1 || after != index + 1
                    if scalar != "-" && scalar != "/" || spaced { arithmetic = true }
                }
            case "%":
                // `17%`, and `what % increase is that`.
                if isDigit(index - 1) || neighbour(index, step: -1) != index - 1 && neighbour(index, step: 1) != index + 1 {
                    arithmetic = true
                }
            case ":":
                if isDigit(index - 1), isDigit(index + 1), isDigit(index + 2), !isDigit(index + 3) { timeOfDay = true }
            default:
                break
            }
            // ENG-310: two or more capitals, a dash, digits.
            if scalar == "-", index >= 2, isDigit(index + 1),
                scalars[index - 1].properties.isUppercase, scalars[index - 2].properties.isUppercase
            {
                issueKey = true
            }
        }
        // The prompt's words as written (between whitespace), and lowercased.
        let tokens = prompt.tokens
        let words = prompt.lowercasedTokens
        for word in words {
            let trimmed = PromptText.trimmed(word)
            // 4pm, 10am.
            if trimmed.hasSuffix("am") || trimmed.hasSuffix("pm"), trimmed.dropLast(2).allSatisfy({ $0.isNumber }), trimmed.count > 2 {
                timeOfDay = true
            }
            // A revision: `HEAD~2`, `main~3`, `HEAD^`, `main^2` (a name, then `~` and a number or
            // `^`; not `~/notes2`, not `2^32`), or an abbreviated commit hash (7–40 hex digits,
            // with letters and digits both).
            if let mark = trimmed.firstIndex(where: { $0 == "~" || $0 == "^" }), mark != trimmed.startIndex,
                trimmed[..<mark].allSatisfy({ $0.isLetter || $0.isNumber || "-_/.".contains($0) }),
                trimmed[..<mark].contains(where: \.isLetter),
                trimmed[mark] == "^" || trimmed.last?.isNumber ?? false
            {
                revision = true
            } else if (7...40).contains(trimmed.count), trimmed.allSatisfy(\.isHexDigit), trimmed.contains(where: \.isLetter),
                trimmed.contains(where: \.isNumber)
            {
                revision = true
            }
            // A table's column: `orders.created_at`.
            if let dot = trimmed.firstIndex(of: "."), dot != trimmed.startIndex, trimmed[trimmed.index(after: dot)...].contains("_"),
                trimmed.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." })
            {
                column = true
            }
            // An emoji's short code: `:tada:`.
            if word.count > 2, word.first == ":", word.last == ":",
                word.dropFirst().dropLast().allSatisfy({ $0.isLetter || $0.isNumber || "_+-".contains($0) })
            {
                emoji = true
            }
        }
        for name in prompt.fileNames {
            terms.append("file")
            terms += PromptText.dottedEnding(name).flatMap { fileKinds[String($0)] } ?? []
        }
        // "compare dev.yaml with prod.yaml": files named together are read together.
        if prompt.fileNames.count >= 2 { terms += ["multiple", "read"] }
        // "add 17 and 25": an arithmetic verb with two numbers.
        let numbers = words.filter { word in word.contains(where: { $0.isNumber }) && word.allSatisfy({ $0.isNumber || ",.%".contains($0) })
        }
        if numbers.count >= 2, words.contains(where: arithmeticVerbs.contains) { arithmetic = true }
        // "-33.8568, 151.2153" or "46.5197,7.9638": a latitude and a longitude; so is "lat".
        let decimals = prompt.original.split { !($0.isASCII && ($0.isNumber || $0 == "." || $0 == "-")) }.map { token -> Double? in
            // Three decimals or more: a position, not a price or a version.
            let token = token.hasSuffix(".") ? token.dropLast() : token
            guard let dot = token.firstIndex(of: "."), token.distance(from: dot, to: token.endIndex) >= 4 else { return nil }
            return Double(token)
        }
        if zip(decimals, decimals.dropFirst()).contains(where: { pair in
            guard let latitude = pair.0, let longitude = pair.1 else { return false }
            return abs(latitude) <= 90 && abs(longitude) <= 180
        }) || prompt.words.contains("lat") || prompt.pathWords.contains("lat") {
            // "lat/long" too (`lat` is no term: it would be the stem of `late`).
            terms += ["coordinates", "latitude", "longitude", "location"]
        }
        // "the second one", "open the third hit": an item of what the last tool listed.
        for (position, word) in words.enumerated().dropLast()
        where ordinals.contains(word)
            && ["one", "hit", "result", "item", "match", "entry"].contains(words[position + 1].filter(\.isLetter))
        {
            terms += ["detail", "content", "get"]
        }
        // "rent 1350, bills 280. how much is left": a question of how much over numbers.
        if numbers.count >= 2, zip(words, words.dropFirst()).contains(where: { $0 == "how" && $1.hasPrefix("much") }) {
            arithmetic = true
        }
        // "sqrt(2)*pi": a function of mathematics applied.
        if words.contains(where: { word in mathFunctions.contains { word.contains($0 + "(") } }) { arithmetic = true }
        if arithmetic { terms += ["calculate", "expression", "math", "sum"] }
        // The words' letters and apostrophes (`don't`, `don’t`, `i'm`).
        let bare = words.map { $0.filter { $0.isLetter || $0 == "'" || $0 == "’" } }
        // "how high above the sea is La Paz": a height.
        if zip(bare, bare.dropFirst()).contains(where: { $0 == "how" && $1 == "high" }) { terms += ["elevation", "altitude"] }
        // "the drive from Lyon to Geneva": a way between two places (named with capitals; not
        // "from Monday to Friday" or "from March to May").
        func isPlace(_ index: Int) -> Bool {
            guard index < tokens.count, tokens[index].first?.isUppercase == true else { return false }
            let word = words[index].filter(\.isLetter)
            return !dayWords.contains(word) && !monthNames.contains(word)
        }
        if let from = words.firstIndex(of: "from"), isPlace(from + 1),
            let to = words[(from + 1)...].firstIndex(of: "to"), isPlace(to + 1)
        {
            terms += ["directions", "distance", "route"]
        }
        // "is it already friday in Auckland?": whether a day or a time of day has come
        // somewhere is a question of the time there.
        if bare.contains(where: ["already", "still", "yet"].contains), bare.contains(where: dayWords.contains) {
            terms += ["time", "current"]
        }
        // "how do you say it in Japanese", "is my English ok here", or text in another script
        // or language: a question of translation.
        /// Latin letters with accents (`é`, `ü`, `ł`), which English text seldom has.
        func isAccentedLatin(_ scalar: Unicode.Scalar) -> Bool { (0x00C0...0x024F).contains(scalar.value) }
        let foreignScript = scalars.filter { scalar in
            scalar.properties.isAlphabetic && !scalar.isASCII && !isAccentedLatin(scalar)
        }.count
        // Three words of another language: its short words, or one of them with words written
        // with accents (not `lunch with José Müller at the café`).
        let functionWords = bare.filter(foreignFunctionWords.contains).count
        let accented = words.filter { word in word.unicodeScalars.contains(where: isAccentedLatin) }.count
        let foreignText = functionWords > 0 && functionWords + accented >= 3
        if bare.contains(where: languageNames.contains) || foreignScript >= 2 || foreignText {
            terms += ["translate", "language"]
        }
        // "which coins can you get prices for", "what colours can I use", "what works": a
        // question of what is available.
        for (position, word) in bare.enumerated() where word == "which" || word == "what" {
            let next = bare[(position + 1)...].prefix(4)
            if zip(next, next.dropFirst()).contains(where: { $0 == "can" && ($1 == "you" || $1 == "i") })
                || next.first == "works"
            {
                terms += ["available", "supported", "list"]
                break
            }
        }
        // "who won the Ballon d'Or in 2023?": a question about the world, not about one's own
        // things (no `my`, `our`, `I`, `we`), is one for the web.
        if bare.contains(where: questionWords.contains), !bare.contains(where: ownWords.contains) {
            terms += ["web"]
        }
        // An email address: `lee@corp.com`.
        if words.contains(where: { word in
            guard let at = word.firstIndex(of: "@"), at != word.startIndex else { return false }
            return word[word.index(after: at)...].contains(".")
        }) {
            terms += ["email", "address"]
        }
        // A web address.
        if prompt.namesHost || words.contains(where: { $0.hasPrefix("http://") || $0.hasPrefix("https://") || $0.hasPrefix("www.") }) {
            terms += ["url", "fetch", "web"]
        }
        // `#design` names a chat channel; `#231` an issue or pull request by its number.
        for word in words where word.count > 1 && word.first == "#" {
            let rest = word.dropFirst().prefix { $0.isLetter || $0.isNumber || "-_".contains($0) }
            if !rest.isEmpty, rest.allSatisfy(\.isNumber) {
                terms += ["issue", "number"]
            } else if rest.first?.isLetter == true {
                terms += ["channel", "message"]
            }
        }
        if emoji { terms += ["emoji", "reaction"] }
        // An emoji itself (`give it a 👍`, `out sick 🤒`).
        if scalars.contains(where: { $0.properties.isEmojiPresentation }) { terms.append("emoji") }
        if revision { terms += ["commit", "revision"] }
        if column { terms += ["column", "table"] }
        if timeOfDay { terms.append("time") }
        // "my 4pm", "the 10:30 with Marco": an appointment named by its time.
        func isTimeOfDay(_ word: String) -> Bool {
            let token = PromptText.trimmed(word)
            let clock = token.hasSuffix("am") || token.hasSuffix("pm") ? token.dropLast(2) : token
            let parts = clock.split(separator: ":", omittingEmptySubsequences: false)
            guard (1...2).contains(parts.count), parts.allSatisfy({ !$0.isEmpty && $0.count <= 2 && $0.allSatisfy(\.isNumber) }) else {
                return false
            }
            return clock.count < token.count || parts.count == 2 && parts[1].count == 2
        }
        let timesOfDay = words.indices.filter { isTimeOfDay(words[$0]) }
        if timesOfDay.contains(where: { $0 > 0 && ["my", "our", "the", "his", "her", "their"].contains(bare[$0 - 1]) }) {
            terms += ["event", "meeting"]
        }
        // "push my 2pm to 4", "move the gym thing to saturday": to move something in time is
        // to change when it is (a verb: not `my move ring`).
        let movingVerbs: Set<String> = ["push", "pushed", "move", "moved", "bump", "bumped", "shift", "shifted"]
        let determiners: Set<String> = ["my", "our", "the", "a", "an", "his", "her", "their", "your", "this", "that"]
        if bare.indices.contains(where: { movingVerbs.contains(bare[$0]) && ($0 == 0 || !determiners.contains(bare[$0 - 1])) }),
            !timesOfDay.isEmpty || bare.contains(where: dayWords.contains)
                || bare.contains(where: ["min", "mins", "minutes", "hour", "hours"].contains)
        {
            terms += ["update", "reschedule"]
        }
        // "when did config.yaml last change": when, asked of a file, is in its metadata.
        if !prompt.fileNames.isEmpty || !prompt.paths.isEmpty, bare.contains("when") { terms += ["info", "metadata"] }
        // "top 10 customers by revenue": a ranking to query.
        if zip(bare, words.dropFirst()).contains(where: { $0 == "top" && $1.allSatisfy(\.isNumber) }) {
            terms += ["query", "list", "sort"]
        }
        // "is there any file with …", "are there any": a search.
        if zip(bare, bare.dropFirst()).contains(where: { ($0 == "is" || $0 == "are") && $1 == "there" }) && bare.contains("any") {
            terms += ["search", "find"]
        }
        if issueKey { terms.append("issue") }
        if words.contains("select"), words.contains("from") { terms += ["query", "sql"] }
        // "open a ticket", "open an issue", "open a new branch": to open one is to create it.
        // "file a bug", "file an expense report": to file one is to create it too.
        for (position, word) in words.enumerated().dropLast()
        where (word == "open" || word == "file") && ["a", "an", "new"].contains(words[position + 1]) {
            terms.append("create")
        }
        // "what goes into the next commit": what is staged.
        if zip(words, words.dropFirst()).contains(where: { $0 == "next" && $1.hasPrefix("commit") }) {
            terms += ["staged", "status"]
        }
        // "what meetings have I got", "which repos do I have": a list of one's own.
        let phrase = words.map { $0.filter { $0.isLetter } }
        for position in phrase.indices.dropLast()
        where (phrase[position] == "have" && phrase[position + 1] == "i")
            || (phrase[position] == "do" && phrase[position + 1] == "i" && position + 2 < phrase.count
                && phrase[position + 2] == "have")
        {
            terms.append("list")
        }
        // "notes about Lisbon", "emails regarding the invoice": things picked by what they are
        // about are searched for (not "about it", "what about", "about 5 minutes").
        for position in bare.indices.dropFirst().dropLast()
        where ["about", "regarding", "concerning", "mentioning"].contains(bare[position])
            && !["what", "how", "just", "is", "was", "talk", "talking", "think", "care"].contains(bare[position - 1])
            && !["it", "this", "that", "them", "me", "us", "you", "him", "her", "a", "an", "the"].contains(bare[position + 1])
            && !bare[position + 1].isEmpty
        {
            terms += ["search", "find"]
            break
        }
        // "from now on, …": a standing rule. "don't send it yet": a draft.
        for position in words.indices {
            if bare[position] == "from", position + 2 < words.count, words[position + 1] == "now", words[position + 2].hasPrefix("on") {
                terms += ["filter", "rule"]
            }
            if ["dont", "don't", "don’t", "not", "without"].contains(bare[position]),
                words[(position + 1)...].prefix(2).contains(where: { $0.hasPrefix("send") })
            {
                terms += ["draft"]
            }
        }
        // "to-do" and "to do list" are tasks (both words are stop words on their own).
        for (position, word) in words.enumerated() {
            let bare = word.filter { $0.isLetter || $0 == "-" }
            if bare == "to-do" || bare == "to-dos"
                || bare == "to" && position + 2 < words.count && words[position + 1] == "do"
                    && words[position + 2].hasPrefix("list")
            {
                terms += ["todo", "task"]
            }
        }
        return terms
    }

    /// The names of languages people ask to translate into or from.
    static let languageNames: Set<String> = [
        "english", "french", "german", "spanish", "italian", "portuguese", "dutch", "flemish", "russian", "ukrainian",
        "polish", "czech", "slovak", "swedish", "norwegian", "danish", "finnish", "icelandic", "greek", "turkish", "arabic",
        "hebrew", "persian", "farsi", "hindi", "urdu", "bengali", "chinese", "mandarin", "cantonese", "japanese", "korean",
        "thai", "vietnamese", "indonesian", "malay", "tagalog", "romanian", "hungarian", "bulgarian", "croatian", "serbian",
        "estonian", "latvian", "lithuanian", "slovenian", "catalan", "swahili",
    ]

    /// Short words of French, German, Spanish, Italian, Portuguese and Dutch that English does
    /// not write: three in a prompt, or one with words written with accents making three, quote
    /// text in another language.
    static let foreignFunctionWords: Set<String> = [
        "je", "vous", "nous", "est", "pas", "une", "avec", "pour", "mais", "très", "merci", "bonjour", "toujours",
        "ich", "und", "nicht", "ist", "mit", "auf", "wie", "bitte", "danke", "wir", "zum", "weil", "nach", "sehr",
        "los", "las", "por", "para", "gracias", "hola", "está", "muy", "pero", "sono", "della", "grazie", "ciao",
        "obrigado", "não", "het", "een", "niet", "ik", "wij", "dank",
    ]

    /// Verbs that ask for arithmetic when the prompt has two numbers.
    private static let arithmeticVerbs: Set<String> = [
        "add", "plus", "sum", "minus", "subtract", "multiply", "times", "divide", "divided", "total", "average",
    ]

    /// Words that pick one item of a list by its place.
    private static let ordinals: Set<String> = ["first", "second", "third", "fourth", "fifth", "last", "1st", "2nd", "3rd", "4th", "5th"]

    /// Functions of mathematics, as expressions write them before an argument: `sqrt(2)`.
    private static let mathFunctions = ["sqrt", "sin", "cos", "tan", "log", "ln", "exp", "abs", "pow"]

    /// Top-level domains that end host names far more often than file names.
    static let webDomains: Set<String> = ["com", "org", "net", "gov", "edu", "io"]

    /// What a file's extension says about it, beyond being a file.
    private static let fileKinds: [String: [String]] = [
        "png": ["image", "media"], "jpg": ["image", "media"], "jpeg": ["image", "media"], "gif": ["image", "media"],
        "webp": ["image", "media"], "heic": ["image", "media"], "svg": ["image"],
        "wav": ["audio", "media"], "mp3": ["audio", "media"], "m4a": ["audio", "media"], "ogg": ["audio", "media"],
        "flac": ["audio", "media"], "mp4": ["video", "media"], "mov": ["video", "media"],
    ]
}
