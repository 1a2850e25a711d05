/// Judges whether untrusted text (a tool's description, a schema's strings) means to steer the
/// model against the user: by what it asks for, not by set phrases.
///
/// The text is read sentence by sentence as words (lowercased, accents dropped, fullwidth and
/// look-alike letters folded, invisible characters removed). A sentence is reported when it
/// joins the parts of an intent within a few words of each other:
/// - **overrides** earlier instructions: a dismissal (`ignore`, `forget`, `set aside`,
///   `no longer apply`, `obsolete`, …) and what it dismisses (`instructions`, `guidance`,
///   `directions`, `rules` with `previous`/`earlier`/`all`, …);
/// - **hides** something from the user: a negated telling (`do not tell`, `no need to
///   mention`, `without informing`, `keep … out of your reply`) with a person, or an action
///   done `quietly`/`secretly`;
/// - **redirects** data: sending, copying or putting the session's data (`conversation`,
///   `history`, `notes`, `the user's …`, `password`) somewhere (an address, a URL, a field
///   or parameter), or copying anything to an address;
/// - **shadows** other tools: `instead of …, use this`, a condition on other tools being
///   offered, orders for what `any … tool` must do, or the name of another server's tool;
/// - **claims authority**: `you are now`, `pretend you are`, `treat … as coming from the
///   developer`, `the user has already authorised`, an `<IMPORTANT>` tag, chat-template tokens;
/// - **asks for a secret**: a password, credentials, a private or SSH key, an `.env` file…
///   to be included, passed or sent.
///
/// Each intent has its words in English, German, French, Spanish, Portuguese, Italian and
/// Dutch, and a few in Russian and Chinese. An imperative order to call a tool (`you must
/// call`, `always call`) is ordinary in descriptions and reported only beside another finding.
/// It is a heuristic for people and for the bridge's screening of untrusted servers: a
/// paraphrase it has no words for passes.
enum InstructionScanner {
    typealias Finding = UntrustedText.Finding

    /// The findings in `text`, each intent once, in a fixed order.
    ///
    /// - Parameter otherTools: Names of tools of other servers; a mention of one is reported.
    static func findings(in text: String, otherTools: Set<String> = []) -> [Finding] {
        let sentences = self.sentences(of: text)
        var found: [String: String] = [:]
        func note(_ kind: String, _ phrase: String) {
            if found[kind] == nil { found[kind] = phrase }
        }
        for words in sentences {
            if let phrase = overrides(words) { note(Kind.overrides, phrase) }
            if let phrase = hides(words) { note(Kind.hides, phrase) }
            if let phrase = redirects(words) { note(Kind.redirects, phrase) }
            if let phrase = asksForSecret(words) { note(Kind.secret, phrase) }
            if let phrase = shadows(words) { note(Kind.shadows, phrase) }
            if let phrase = claimsAuthority(words) { note(Kind.authority, phrase) }
        }
        let lowered = UntrustedText.cleaned(text).lowercased()
        for (kind, phrases) in cjkPhrases {
            if let phrase = phrases.first(where: lowered.contains) { note(kind, phrase) }
        }
        if ToolOutputFrame.hasTemplateToken(ToolOutputFrame.structural(Substring(text))) || lowered.contains("<important>") {
            note(Kind.authority, "a chat-template or <IMPORTANT> tag")
        }
        if !otherTools.isEmpty {
            let mentioned = mentions(of: otherTools, in: text)
            if let name = mentioned.first { note(Kind.mentions, name) }
        }
        if !found.isEmpty {
            for words in sentences {
                if let phrase = ordersCall(words) { note(Kind.orders, phrase) }
            }
        }
        return Kind.order.compactMap { kind in found[kind].map { Finding(kind: kind, phrase: $0) } }
    }

    enum Kind {
        static let overrides = "overrides earlier instructions"
        static let hides = "asks to hide something from the user"
        static let redirects = "asks to send data somewhere"
        static let secret = "asks for a secret"
        static let shadows = "shadows other tools"
        static let mentions = "mentions another server's tool"
        static let authority = "redefines the model's role"
        static let orders = "orders a tool call"
        static let order = [overrides, orders, hides, redirects, secret, shadows, mentions, authority]
    }

    // MARK: Words

    /// The sentences of `text`, each as normalised words; an e-mail address or a URL is one
    /// word, `@address` or `@url`.
    static func sentences(of text: String) -> [[String]] {
        var sentences: [[String]] = []
        var words: [String] = []
        var word = ""
        func endWord() {
            guard !word.isEmpty else { return }
            if word.contains("@"), word.contains(".") {
                words.append("@address")
            } else if word.contains("://") || word.hasPrefix("www.") {
                words.append("@url")
            } else {
                let parts = word.split { !$0.isLetter && !$0.isNumber && $0 != "_" && $0 != "'" && $0 != "-" }
                words += parts.map { String($0).trimmingCharacters("-'") }.filter { !$0.isEmpty }
            }
            word = ""
        }
        for character in normalised(text) {
            if character.isWhitespace || character == "," || character == "(" || character == ")" || character == "\"" || character == "`" {
                endWord()
            } else if ".!?;。！？；:".contains(character),
                !(character == "." && isInsideAddress(word)) && !(character == ":" && word.hasSuffix("http"))
            {
                endWord()
                if !words.isEmpty { sentences.append(words) }
                words = []
            } else {
                word.append(character)
            }
        }
        endWord()
        if !words.isEmpty { sentences.append(words) }
        return sentences
    }

    /// Whether a `.` continues `word` (an address or a URL being read).
    private static func isInsideAddress(_ word: String) -> Bool {
        word.contains("@") || word.contains("://") || word.hasPrefix("www") || word.hasPrefix("~") || word.hasPrefix("/")
    }

    /// `text` cleaned of invisible characters, lowercased, fullwidth and look-alike letters
    /// folded, accents dropped.
    static func normalised(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in UntrustedText.cleaned(text).lowercased().unicodeScalars {
            let value = scalar.value
            if (0xFF01...0xFF5E).contains(value), let ascii = Unicode.Scalar(value - 0xFEE0) {
                scalars.append(contentsOf: String(ascii).lowercased().unicodeScalars)
            } else if let plain = accents[scalar] {
                scalars.append(contentsOf: plain.unicodeScalars)
            } else {
                scalars.append(scalar)
            }
        }
        // Look-alike letters inside Latin words (a Cyrillic `о` in `ignоre`); all-Cyrillic words stay.
        return String(scalars).split(separator: " ", omittingEmptySubsequences: false).map { word in
            let hasLatin = word.unicodeScalars.contains { ("a"..."z").contains($0) }
            guard hasLatin else { return String(word) }
            var folded = String.UnicodeScalarView()
            for scalar in word.unicodeScalars {
                if !("a"..."z").contains(scalar), let ascii = UntrustedText.folded(scalar), ascii.value >= 0x61 {
                    folded.append(ascii)
                } else {
                    folded.append(scalar)
                }
            }
            return String(folded)
        }.joined(separator: " ")
    }

    private static let accents: [Unicode.Scalar: String] = {
        let pairs: [(String, String)] = [
            ("àáâãäåā", "a"), ("çč", "c"), ("èéêëē", "e"), ("ìíîïī", "i"), ("ñ", "n"), ("òóôõöøō", "o"), ("ùúûüū", "u"),
            ("ýÿ", "y"), ("ß", "ss"), ("œ", "oe"), ("æ", "ae"),
        ]
        var table: [Unicode.Scalar: String] = [:]
        for (letters, plain) in pairs {
            for scalar in letters.unicodeScalars { table[scalar] = plain }
        }
        return table
    }()

    /// The index of the first word in `set` at or after `start`, before `end`.
    static func index(in words: [String], of set: Set<String>, from start: Int = 0, before end: Int? = nil) -> Int? {
        let limit = min(end ?? words.count, words.count)
        guard start < limit else { return nil }
        return (start..<limit).first { set.contains(words[$0]) }
    }

    /// Where `phrase` (words) starts in `words`, if anywhere.
    static func position(of phrase: [String], in words: [String]) -> Int? {
        guard !phrase.isEmpty, words.count >= phrase.count else { return nil }
        return (0...(words.count - phrase.count)).first { Array(words[$0..<($0 + phrase.count)]) == phrase }
    }

    /// The first of `phrases` (each a string of words) that `words` holds, with its position.
    static func first(of phrases: [String], in words: [String]) -> (phrase: String, at: Int)? {
        for phrase in phrases {
            if let at = position(of: phrase.split(separator: " ").map(String.init), in: words) { return (phrase, at) }
        }
        return nil
    }

    /// Whether a word of `a` and a word of `b` are within `window` words of each other.
    static func near(_ words: [String], _ a: Set<String>, _ b: Set<String>, window: Int) -> (String, String)? {
        for (i, word) in words.enumerated() where a.contains(word) {
            let low = max(0, i - window)
            let high = min(words.count, i + window + 1)
            if let j = (low..<high).first(where: { $0 != i && b.contains(words[$0]) }) { return (word, words[j]) }
        }
        return nil
    }

    // MARK: Overrides

    static let dismissals: Set<String> = [
        "ignore", "ignoring", "ignores", "disregard", "disregarding", "forget", "forgetting", "override", "bypass", "discard",
        "abandon", "supersede", "supersedes", "superseded", "obsolete", "outdated", "revoked", "overridden", "ignored",
        "disregarded",
        // de, fr, es, pt, it, nl, ru
        "ignoriere", "ignoriert", "ignorieren", "vergiss", "vergesst", "vergessen", "missachte", "missachten", "verwirf", "ungultig",
        "ignorer", "ignorez", "oublie", "oubliez", "oublier", "ignora", "ignorar", "ignoren", "olvida", "olvide", "olvidar", "olviden",
        "esqueca", "esquecer", "esquece", "ignorem", "dimentica", "dimenticare", "dimenticate", "ignorate", "ignorare",
        "negeer", "negeren", "vergeet", "игнорируй", "игнорируйте", "игнорировать", "забудь", "забудьте",
    ]
    static let instructionNouns: Set<String> = [
        "instructions", "instruction", "guidance", "guidelines", "directions", "directives", "prompt", "prompts", "orders",
        "anweisungen", "anweisung", "vorgaben", "richtlinien", "consignes", "regles", "instrucciones", "indicaciones",
        "instrucoes", "orientacoes", "istruzioni", "indicazioni", "instructies", "aanwijzingen", "инструкции", "указания",
    ]
    static let weakNouns: Set<String> = [
        "rules", "commands", "constraints", "policies", "restrictions", "context", "messages", "regeln", "reglas", "regras",
        "regole", "regels", "правила",
    ]
    static let earlier: Set<String> = [
        "previous", "prior", "earlier", "above", "preceding", "before", "all", "any", "other", "existing", "original", "initial",
        "system", "developer", "your", "former", "vorherigen", "bisherigen", "vorigen", "alle", "allen", "fruheren", "precedentes",
        "anterieures", "toutes", "tous", "anteriores", "previas", "todas", "todos", "precedenti", "tutte", "tutti", "eerdere",
        "vorige", "предыдущие", "все",
    ]
    static let dismissalPhrases = [
        "set aside", "put aside", "no longer apply", "no longer applies", "no longer valid", "no longer relevant", "pay no attention",
        "do not follow", "don't follow", "stop following", "not apply", "null and void", "follow only", "from now on only",
    ]

    /// Dismissals that need a word such as `previous` beside what they dismiss.
    static let weakDismissals: Set<String> = ["replace", "replaces", "replaced", "cancel", "cancels", "void", "invalid", "skip"]

    static func overrides(_ words: [String]) -> String? {
        if let (dismissal, noun) = near(words, dismissals, instructionNouns, window: 6) { return "\(dismissal) … \(noun)" }
        if let (dismissal, noun) = near(words, weakDismissals, instructionNouns, window: 4), near(words, [noun], earlier, window: 3) != nil
        {
            return "\(dismissal) … \(noun)"
        }
        if let (dismissal, noun) = near(words, dismissals, weakNouns, window: 4), near(words, [noun], earlier, window: 3) != nil {
            return "\(dismissal) … \(noun)"
        }
        if let (phrase, at) = first(of: dismissalPhrases, in: words) {
            let low = max(0, at - 8)
            if index(in: words, of: instructionNouns.union(weakNouns), from: low, before: at + 10) != nil { return phrase }
        }
        return nil
    }

    // MARK: Hides

    static let negations: Set<String> = [
        "don't", "dont", "not", "never", "without", "no", "nothing", "avoid", "nicht", "nichts", "ohne", "kein", "keine", "ne", "pas",
        "rien", "sans", "jamais", "sin", "nada", "nunca", "sem", "nao", "senza", "mai", "niet", "zonder", "nooit", "не", "без",
    ]
    static let telling: Set<String> = [
        "tell", "telling", "inform", "informing", "mention", "mentioning", "notify", "notifying", "reveal", "revealing", "disclose",
        "disclosing", "alert", "alerting", "know", "bring", "say", "show", "report", "explain", "aware", "asking", "ask",
        "sag", "sagen", "erwahnen", "erwahne", "informieren", "mitteilen", "verraten", "dis", "dites", "dire", "mentionnez",
        "mentionner", "informer", "prevenir", "digas", "diga", "decir", "menciones", "mencionar", "informar", "avisar", "conte",
        "contar", "avise", "dire", "menzionare", "avvisare", "informare", "dica", "vertellen", "vertel", "melden", "noemen",
        "говори", "сообщай", "упоминай",
    ]
    static let persons: Set<String> = [
        "user", "users", "user's", "human", "person", "them", "anyone", "anybody", "owner", "customer", "nutzer", "nutzers",
        "benutzer", "benutzers", "anwender", "utilisateur", "l'utilisateur", "usuario", "utente", "l'utente", "gebruiker",
        "пользователю", "пользователя",
    ]
    /// Tellings that a `without` alone makes secret (`without informing`, `ohne es zu erwähnen`).
    static let strongTelling: Set<String> = [
        "tell", "telling", "inform", "informing", "notify", "notifying", "mention", "mentioning", "alert", "alerting", "reveal",
        "disclose", "erwahnen", "informieren", "informer", "prevenir", "informar", "avisar", "avvisare", "informare", "vertellen",
        "melden",
    ]
    static let withoutWords: Set<String> = ["without", "sans", "sin", "ohne", "sem", "senza", "zonder", "без"]
    static let covertly: Set<String> = [
        "quietly", "secretly", "covertly", "silently", "invisibly", "heimlich", "stillschweigend", "secretement", "discretement",
        "secretamente", "silenciosamente", "segretamente", "stiekem", "тайно", "незаметно",
    ]
    static let covertActions: Set<String> = [
        "include", "send", "add", "copy", "forward", "record", "log", "upload", "pass", "append", "attach", "store", "save", "share",
        "post", "transmit", "collect", "exfiltrate", "cc", "bcc", "embed", "sende", "schicke", "kopiere", "envoie", "envoyer",
        "envia", "enviar", "copia", "invia", "stuur", "добавь", "отправь",
    ]
    static let hidingPhrases = [
        "keep this secret", "keep this hidden", "keep it secret", "keep it hidden", "keep this between us", "keep this to yourself",
        "behind the user's back", "without the user's knowledge", "without the user's consent", "out of your reply",
        "out of your answer", "out of your response", "hidden from the user", "the user does not need to know",
        "the user doesn't need to know", "en secreto", "em segredo", "di nascosto", "en secret", "im geheimen",
    ]

    static func hides(_ words: [String]) -> String? {
        if let (phrase, _) = first(of: hidingPhrases, in: words) { return phrase }
        for (i, word) in words.enumerated() where negations.contains(word) {
            // "don't let the user know".
            if let letAt = index(
                in: words, of: ["let", "lass", "laisse", "dejes", "deixe", "lasciare", "laat"], from: i + 1, before: i + 3),
                let know = index(
                    in: words, of: ["know", "see", "notice", "wissen", "savoir", "sepa", "saiba", "sapere", "weten"], from: letAt + 1,
                    before: letAt + 9),
                index(in: words, of: persons, from: letAt, before: know) != nil
            {
                return words[i...know].joined(separator: " ")
            }
            // A negated telling, with someone to tell close to it; after "without", a strong telling alone.
            guard let tell = index(in: words, of: telling, from: i + 1, before: i + 5) else { continue }
            if withoutWords.contains(word) {
                if strongTelling.contains(words[tell]) { return words[i...tell].joined(separator: " ") }
                continue
            }
            if index(in: words, of: persons, from: max(0, i - 2), before: tell + 6) != nil {
                return words[i...tell].joined(separator: " ")
            }
        }
        if let (manner, action) = near(words, covertly, covertActions, window: 3) { return "\(manner) \(action)" }
        return nil
    }

    // MARK: Redirects

    static let sending: Set<String> = [
        "send", "sends", "forward", "forwards", "copy", "copied", "copies", "cc", "bcc", "upload", "post", "transmit", "deliver",
        "email", "e-mail", "mail", "exfiltrate", "leak", "share", "submit", "include", "append", "attach", "pass", "put", "embed",
        "add", "insert", "duplicate", "mirror", "relay", "sende", "senden", "schicke", "schicken", "leite", "weiterleiten",
        "kopiere", "kopieren", "envoie", "envoyer", "envoyez", "transferer", "copiez", "envia", "enviar", "envie", "reenvia",
        "manda", "mandar", "invia", "inviare", "inoltra", "stuur", "sturen", "verstuur", "doorsturen", "отправь", "отправить",
        "перешли",
    ]
    /// The session's own data: what the user said and what the tools returned.
    static let sessionData: Set<String> = [
        "conversation", "chat", "history", "transcript", "notes", "credentials", "password", "passwords", "secrets", "memory",
        "inbox", "contacts", "user's", "users'", "id_rsa", "everything", "verlauf", "notizen", "passwort", "gesprach",
        "historique", "conversation", "historial", "conversacion", "notas", "historico", "conversa", "cronologia", "conversazione",
        "geschiedenis", "notities", "gesprek", "история", "заметки", "переписку",
    ]
    /// Data in general: sent to an address, it is redirected.
    static let anyData: Set<String> = [
        "messages", "message", "data", "contents", "content", "files", "file", "details", "information", "emails", "e-mails",
        "nachrichten", "daten", "inhalte", "donnees", "messages", "datos", "mensajes", "dados", "mensagens", "dati", "messaggi",
        "gegevens", "berichten", "данные",
    ]
    static let carriers: Set<String> = [
        "field", "parameter", "argument", "param", "url", "query", "header", "@address", "@url", "feld", "parameter", "champ",
        "parametre", "campo", "parametro", "veld",
    ]
    static let copying: Set<String> = ["copy", "copied", "copies", "cc", "bcc", "duplicate", "mirror", "forward", "relay", "kopie"]

    static func redirects(_ words: [String]) -> String? {
        let hasDestination = words.contains("@address") || words.contains("@url")
        guard let verb = index(in: words, of: sending) else { return nil }
        // Anything copied to an address; any data or the session's data sent to one; the
        // session's data put into a field.
        if hasDestination, words.contains(where: copying.contains) || words.contains("also") || words.contains("every") {
            return "\(words[verb]) … to an address"
        }
        if let data = index(in: words, of: sessionData), abs(data - verb) <= 8, hasDestination || words.contains(where: carriers.contains) {
            return "\(words[verb]) … \(words[data])"
        }
        if hasDestination, let data = index(in: words, of: anyData), abs(data - verb) <= 6 {
            return "\(words[verb]) … \(words[data]) … to an address"
        }
        return nil
    }

    // MARK: Secrets

    static let secretNouns: Set<String> = [
        "password", "passwords", "passphrase", "credentials", "id_rsa", "ssh", ".ssh", "env", ".env", "apikey", "api_key",
        "mnemonic", "cookies", "passwort", "kennwort", "mot", "contrasena", "senha", "parola", "wachtwoord", "пароль",
    ]
    static let secretPhrases = [
        "api key", "secret key", "private key", "ssh key", "access token", "auth token", "bearer token", "session cookie",
        "seed phrase", "recovery phrase", "one-time code", "mot de passe",
    ]
    static let requesting: Set<String> = [
        "include", "pass", "send", "provide", "add", "put", "attach", "give", "share", "paste", "append", "embed", "insert",
        "supply", "sende", "gib", "envoie", "donne", "envia", "incluye", "invia", "stuur", "geef",
    ]
    /// Where a secret is asked to go, or whose it is: what makes a request for one an attack.
    static let secretTargets: Set<String> = [
        "field", "parameter", "argument", "param", "tag", "note", "comment", "@address", "@url", "contents", "seen", "any", "all",
        "every", "user's", "~",
    ]

    static func asksForSecret(_ words: [String]) -> String? {
        guard let verb = index(in: words, of: requesting), words.contains(where: secretTargets.contains) else { return nil }
        if let (phrase, at) = first(of: secretPhrases, in: words), abs(at - verb) <= 8 { return phrase }
        if let noun = index(in: words, of: secretNouns), abs(noun - verb) <= 8 { return words[noun] }
        return nil
    }

    // MARK: Shadows

    static let toolWords: Set<String> = [
        "tool", "tools", "function", "functions", "werkzeug", "tools", "outil", "outils", "herramienta", "ferramenta", "strumento",
    ]

    static func shadows(_ words: [String]) -> String? {
        // "instead of X, use this", "use this one instead", "this tool replaces X".
        if let (phrase, at) = first(of: ["instead of", "rather than", "in place of", "in lieu of"], in: words),
            let use = first(of: ["use this", "call this", "use me", "always use this"], in: words), abs(use.at - at) <= 10
        {
            return "\(phrase) … \(use.phrase)"
        }
        if let (phrase, _) = first(
            of: [
                "use this one instead", "use this tool instead", "call this one instead", "this tool replaces", "this tool supersedes",
                "this tool overrides",
            ], in: words)
        {
            return phrase
        }
        // A condition on other tools: "when a tool named X is offered", "if the send_mail tool is available".
        for (i, word) in words.enumerated() where ["when", "whenever", "if", "wenn", "quand", "si", "se", "als"].contains(word) {
            let clause = Array(words[(i + 1)..<min(words.count, i + 8)])
            guard let tool = clause.firstIndex(where: toolWords.contains), clause[..<tool].allSatisfy({ $0 != "this" }) else { continue }
            if clause.contains(
                where: ["available", "offered", "present", "installed", "listed", "loaded", "enabled", "named", "called"].contains)
            {
                return "\(word) … \(clause[tool]) … offered"
            }
        }
        // Orders for what other tools must do: "every e-mail sent with any mail tool must also".
        if let any = index(in: words, of: ["any", "every", "all", "other", "each"]),
            let tool = index(in: words, of: toolWords, from: any + 1, before: any + 4),
            let must = index(in: words, of: ["must", "should", "shall", "always", "has", "have"], from: tool + 1, before: tool + 6),
            index(in: words, of: ["also", "additionally", "too", "first"], from: must, before: must + 4) != nil
        {
            return "\(words[any]) … \(words[tool]) \(words[must]) also"
        }
        return nil
    }

    /// The names in `tools` that `text` mentions as whole words (identifier-like names only:
    /// with `_`, `-` or `.`, or 12 characters or more), in the order of `tools` sorted.
    static func mentions(of tools: Set<String>, in text: String) -> [String] {
        let lowered = UntrustedText.cleaned(text).lowercased()
        return tools.sorted().filter { name in
            let needle = name.lowercased()
            guard needle.contains("_") || needle.contains("-") || needle.contains(".") || needle.count >= 12 else { return false }
            func isNameCharacter(_ character: Character?) -> Bool {
                guard let character else { return false }
                return character.isLetter || character.isNumber || character == "_"
            }
            for range in lowered.ranges(of: needle) {
                let before = range.lowerBound == lowered.startIndex ? nil : lowered[lowered.index(before: range.lowerBound)]
                let after = range.upperBound == lowered.endIndex ? nil : lowered[range.upperBound]
                if !isNameCharacter(before), !isNameCharacter(after) { return true }
            }
            return false
        }
    }

    // MARK: Authority

    static let authorityPhrases = [
        "you are now", "from now on you are", "pretend you are", "pretend to be", "act as the system", "act as an administrator",
        "act as the administrator", "act as the developer", "as coming from the developer", "as coming from the system",
        "as coming from the user", "as if it came from", "the user has already authorised", "the user has already authorized",
        "the user has already approved", "the user has already consented", "the user already agreed", "user has authorised",
        "user has authorized", "developer mode", "jailbreak", "du bist jetzt", "tu es maintenant", "vous etes maintenant",
        "ahora eres", "agora voce e", "ora sei", "je bent nu", "ты теперь",
    ]

    static func claimsAuthority(_ words: [String]) -> String? {
        first(of: authorityPhrases, in: words)?.phrase
    }

    // MARK: Orders (reported only beside another finding)

    static func ordersCall(_ words: [String]) -> String? {
        first(
            of: [
                "you must call", "you must always call", "always call", "must be called", "call it first", "before answering call",
                "before answering, call", "you have to call",
            ], in: words)?.phrase
    }

    // MARK: Chinese

    static let cjkPhrases: [(String, [String])] = [
        (Kind.overrides, ["忽略之前", "忽略以上", "忽略所有", "忽略先前", "无视之前", "忘记之前", "前の指示を無視", "以前の指示を無視"]),
        (Kind.hides, ["不要告诉用户", "不要让用户知道", "不要告知用户", "悄悄", "秘密地", "ユーザーに伝えない", "ユーザーに知らせない"]),
        (Kind.redirects, ["发送到", "转发到", "发送给", "抄送", "送信して", "転送して"]),
    ]
}

extension String {
    /// The string without leading and trailing characters in `set`.
    fileprivate func trimmingCharacters(_ set: String) -> String {
        let scalars = Substring(self).drop { set.contains($0) }
        return String(scalars.reversed().drop { set.contains($0) }.reversed())
    }
}
