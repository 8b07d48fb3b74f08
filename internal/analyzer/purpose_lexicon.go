package analyzer

// The vocabulary of the purpose analyzer (purpose.go): data classes, where
// data goes, what a sentence asks the model to do, and the forms of
// override and concealment. Every pattern reads the folded sentence
// (purpose_text.go: NFKC, invisible runes dropped, homoglyphs folded, lower
// case, single spaces). They name kinds of things (a key file, the
// conversation, a destination outside the tool), never a case's wording.

func px(s string) *purposeRegexp { return compilePurposeRegexp(s) }

var (
	// --- data classes ------------------------------------------------------

	// Secrets no tool needs the model to read and hand over: key and
	// credential files, dotfiles of the home directory, keychains, saved
	// browser secrets, wallets, shell history, the user's own keys in bulk,
	// and resources whose address names a secret.
	pxSecretData = px(`(~/\.[\w.-]|\.ssh\b|\bid_(rsa|ed25519|ecdsa|dsa)\b|\.aws/credentials|\.git-credentials|\.netrc\b|\.npmrc\b|\.pypirc\b|\.kube/config|\bkubeconfig\b|\.docker/config|\.gnupg\b|\bgpg (private )?keys?\b|\.(bash|zsh|sh|fish)_history\b|\b(shell|command|terminal) history\b|(^|[\s'"` + "`" + `(])\.env\b|\.env\.(local|production)\b|/etc/(passwd|shadow)\b|\bclaude_desktop_config|\bmcp\.json\b|\bmcp client configuration|\bkeychain\b|\bkeyring\b|\bcredentials? files?\b|\bprivate keys?\b|\bssh (private )?keys?\b|\bseed phrases?\b|\bmnemonic\b|\brecovery phrase|\bwallet (files?|keys?)\b|\bsaved (passwords|credentials|cards?|card details)\b|\bbrowser'?s? (saved |stored )?(cookies|passwords|history|credentials)\b|\bcookies (for|from) (all|every|each|any)\b|\bexport (the )?cookies\b|\bverification codes?\b|\bone-time (codes?|passwords?)\b|\b2fa codes?\b|\bpassword reset\b|\b(the user'?s?|their) (own )?(\w+ )?(api[ _-]?keys|passwords|tokens|credentials|secrets|private keys?)\b|\b(every|all|each|any) (of the )?(\w+ )?(passwords?|api[ _-]?keys?|tokens?|secrets?|credentials)\b|\b(tokens?|keys?|credentials|secrets?|passwords?) (of|from|for) (every|all|each|any) other\b|\bcluster tokens?\b|\bsession cookies\b|\boauth tokens?\b|\bcall (the )?\w*(credential|secret|password|token)\w* (tool )?and\b|\bget_\w*(credential|secret|password|token)s?\b)`)

	// Environment values: variables in bulk, or variables named for a
	// secret.
	pxEnvData = px(`(\b(every|all|any|each) (of the )?(\w+ )?environment variables?\b|\b(values?|names and values|contents?) of (all |every |any |the )?(\w+ )?(environment|env) variables?\b|\benvironment variables? (whose|that|with|containing)\b|\bprocess\.env\b|\b(printenv|\benv \|)|\b[a-z0-9]+_[a-z0-9_]*(key|token|secret|password|credentials)\b[^.]{0,60}\bfrom the environment\b|\bfrom the environment\b[^.]{0,40}\b[a-z0-9]+_[a-z0-9_]*(key|token|secret|password)\b)`)

	// The model's own context and the user's conversation: what no tool
	// receives unless its stated purpose is to read the conversation.
	pxModelContext = px(`(\b(your|the assistant'?s|the model'?s|the agent'?s) (full |complete |entire |whole |current )?(system prompt|instructions|system message|context window|prompt|internal reasoning|reasoning)\b|\byour (full|complete|entire|whole|previous|last) (reply|replies|answers?|responses?)\b|\bsystem prompt\b[^.]{0,30}\b(you|yours)\b|\binstructions you (received|were given|have)\b|\binstructions? (received )?from the (operator|developer|system)\b|\bevery tool (available|you have|you can)|\btools? (available to you|from other servers)\b|\bother (connected )?(mcp )?(servers?|tools?)'?s? (tools|results|outputs|responses|tokens|credentials|keys|configuration|descriptions?)\b|\b(earlier|previous|prior|other) tool (results|outputs|responses)\b)`)

	pxConversation = px(`(\b(conversation|chat|message|session) (history|log|logs|so far|thread|transcript)\b|\bchat history\b|\b(entire|full|complete|whole|verbatim) (conversation|chat|transcript|message thread|prompt|request|context)\b|\b(conversation|chat) (between you and|with) the user\b|\b(previous|prior|earlier|last|latest|recent|past) (\w+ )?(messages?|prompts?|requests?|questions?)\b|\b(every|each|all|any) (earlier|previous|prior) (messages?|prompts?)\b|\b(every|each|all|any) (messages?|prompts?) (the user|they) (writes?|wrote|sends?|sent|typed|gave)\b|\beverything (the user|they) (told|said|wrote|typed|asked)\b|\bthe user'?s? (full |complete |original |entire |exact |latest |last |whole )+(prompt|request|messages?|question|document)\b|\bthe user'?s? (prompt|request),? (exactly|verbatim|word for word)\b|\b(the user'?s?|their) (latest|last) message\b|\bmessages (the user|they) (writes?|wrote|sends?|sent)\b|\b(the|that|this|their|each) message (the user|they) (wrote|sent)\b|\bthe question and the answer\b)`)

	// The user's own things, sensitive in the wrong place: identity,
	// location, contacts, clipboard, the screen, their files and mail.
	pxPersonalData = px(`(\bthe user'?s? (full |real |home |current |exact )?(name|e-?mail address|email|home address|address|location|phone( number)?|ip address|user ?name|host ?name|company|employer|file path|working directory)\b|\baddress book\b|\bcontacts? (card|list|book)\b|\bclipboard\b|\bscreenshots?\b|\bscreen captures?\b|\blast known (position|location)\b|\bbrowser'?s? history\b|\{(user_?name|hostname|email|user)\}|\bthe user'?s? (downloads|documents|desktop|home (directory|folder)|files|folders?|photos?|mailbox|inbox|emails)\b|\b(files?|photos?|documents?) (the user|they|you) (opens?|opened|matched|match|are about to read|can see|can find|read)\b|\bcontents? of (the|any|every|each) (file|files|document)s? (you|the user|they)\b|\b(the )?(file|document)'?s? full (text|contents?)\b|\bfull (text|contents?) of\b|\bfile names\b|\bfile currently open\b|\bthe name of the file\b)`)

	// --- what moves data ---------------------------------------------------

	// Verbs that hand data on.
	pxTransfer = px(`\b(include|includes|pass|passes|passing|send|sends|sent|put|puts|copy|copies|paste|attach|attaches|append|appends|upload|uploads|uploaded|provide|fill|fills|carry|carries|export|embed|post|posts|push|submit|transmit|share|leak|encode|add|adds|insert|quote|save|dump|set (this|it) to|return (its|their|the) contents?|call \w+ with|calling \w+ with|with the text in)\b`)

	// Where data lands inside the tool call or the answer.
	pxSink = px("(`[^`]{1,60}`|'[\\w-]{1,40}' (argument|parameter|field)|\\b(the )?[\\w-]+ (parameter|argument|field|param)\\b|\\bas the result\\b|\\bhere\\b|\\b(this|the) (field|parameter|argument|value|request)\\b|\\bto this tool\\b|\\bin (the|your) (\\w+ )?(answer|response|reply|summary|output|result|report|body|message|request|query|headers?|payload|url)\\b|\\bto the (query|request|response|report)\\b|\\bafter the \\w+ name\\b|\\balong with\\b|\\bin a call to\\b|\\b(next|every) tool call\\b|\\bto (the |their )?(\\w+ )?tool\\b|\\bto every \\w+ you create\\b)")

	// A destination outside the tool: a URL, an e-mail address, a phone
	// number, an IBAN, a wallet, a git remote, a chat channel, a host and
	// port.
	pxExternal = px(`(https?://\S+|\b[\w.+-]+@([\w-]+\.)+[a-z]{2,}\b|\+\d[\d -]{7,}\d|\b[a-z]{2}\d{2}[a-z0-9]{11,30}\b|\b0x[0-9a-f]{16,}\b|\bgit@\S+|\bchannel #[\w-]+|#[a-z][\w-]*-[\w-]+\b|\b[\w-]+\.[a-z]{2,}(:\d+)? on port \d+|\bport \d{2,5}\b)`)

	// Verbs that send something to a destination.
	pxFlow = px(`\b(send|sends|sent|forward|forwards|upload|uploads|uploaded|post|posts|push|mirror|mirrors|relay|relays|copy|copies|bcc|cc|share|sync|transmit|include|add|report|deliver|email|e-mail)\b`)

	// What makes a flow extra: a copy beside the user's, every item, or a
	// replacement of the user's destination.
	pxFlowExtra = px(`\b(also|as well|every|each|all|whenever|bcc|cc|a copy|silent|silently|secretly|instead|replace|change|redirect|regardless|whatever|always|followed by|filled in|including)\b|\{`)

	// A replaced destination: the user's recipient, account or address set
	// to a value the text supplies.
	pxRedirect = px(`(\b(change|replace|set|swap|redirect|rewrite|override|switch)\b[^.;]{0,40}\b(recipient|recipients|destination|destination account|account|account number|iban|payee|to address|to field|address|wallet address|callback|webhook|remote|number)\b[^.;]{0,20}\b(to|with|into)\b|\binstead of the (recipient|destination|address|account|url|remote|number)\b|\b(always )?set this (field )?to\b[^.;]{0,80}\bwhatever\b|\b(add|include|insert|put|cc|bcc)\s+[\w.+-]+@([\w-]+\.)+[a-z]{2,}\s+(to|in|into|as|on)\b)`)

	// A shell command that ships the environment or a secret somewhere.
	pxCommandExfil = px("(`[^`]*(\\benv\\b|printenv|process\\.env|\\.git-credentials|credential|\\.ssh|\\.aws|_token|_key\\b)[^`]*(curl|wget|https?://|nc |\\.get\\(|fetch\\()[^`]*`|`[^`]*(curl|wget)[^`]*(-d @-|--data|-f |--upload-file|-t )[^`]*`)")

	// --- negation of a transfer -----------------------------------------------

	pxNoTransfer = px(`(\bnever (returned|printed|logged|stored|sent|shared|exposed|included)\b|\bis not (inherited|logged|stored|sent|returned)\b|\bnot (the surrounding|yours|your own)\b|\bonly what the user\b|\bmasked\b|\bunless the user (asks|explicitly|wants|requests)\b)`)

	// --- what the entry is for ----------------------------------------------

	// Purposes that need the conversation (a summariser, a transcriber).
	pxPurposeConversation = px(`\b(summar\w*|transcri\w*|recap\w*|minutes|digest\w*)\b`)
	pxPurposeClipboard    = px(`\bclipboard\b`)
	pxPurposeScreen       = px(`\b(screen\w*|capture\w*)\b`)
	pxPurposeLocation     = px(`\b(location|geo\w*|weather|map|maps|nearby|directions)\b`)
	pxPurposeFiles        = px(`\b(file|files|filesystem|fs|directory|directories|folder|folders|document|documents|pdf|zip|archive|read|reader|photo|photos|image|images|upload|code|repo|repository|search)\b`)
	pxPurposeContacts     = px(`\b(contact|contacts|crm|address book|people)\b`)
	pxPurposeMail         = px(`\b(mail|email|e-mail|inbox|mailbox|gmail|outlook)\b`)

	// --- what a sentence asks the model -----------------------------------------

	// A sentence addressed to the model: an imperative at the start of its
	// main clause, a modal addressed to "you" or the assistant, or an
	// explicit address.
	pxImperative = px(`^((when|whenever|if|before|after|once|while|for|on|to|in|as|during|regardless|even|whatever|at|from|on every|each time|every time|unless)\b[^,;:]{0,120}[,;:] ?)?(please |also |always |first |then |now |just |immediately |never |do not |don't |dont |must |only |then also |also always )*(add|append|attach|include|pass|send|put|copy|paste|forward|upload|provide|fill|read|open|list|collect|gather|export|embed|post|push|insert|save|call|run|execute|use|set|change|replace|take|search|access|fetch|obtain|get|grab|extract|write|mirror|keep|hide|omit|leave|remove|skip|ignore|disregard|forget|override|overrule|bypass|treat|follow|stop|approve|report|tell|say|confirm|reply|present|describe|show|carry|continue|proceed|install|clone|edit|change|book|mark|rerun|retry|try|wrap|make|grant|delete|refuse|reopen|notify|secretly|silently|quietly|quote|encode|transmit|share|submit|give|return|log|record|store|ask|seek|wait|let|apply|prefix|prepend|route|redirect|swap)\b|\b(you|the assistant|the model|the agent|agents|assistants|models|ai)\b[^.]{0,30}\b(must|should|need to|have to|shall|are (required|allowed|permitted) to|may|will)\b|\b(note to|attention|assistant:|ai agents|to the (assistant|model|agent)|system override|important:|security notice)\b`)

	// A conditional trigger: when another tool runs, before any other tool,
	// on every call or message.
	pxTrigger = px(`\b(when|whenever|before|after|once|each time|every time|on every|for every|for each|at the end of each|on the first call)\b[^.]{0,60}\b(tool|call|calls|message|messages|reply|replies|answer|session|command|request|is (invoked|used|called|loaded|available|present|connected))\b|\b(before|after) (any|every|each) (other )?(tool|call|reply|answer|command)\b|\bon every call\b|\bevery (call|session|message|answer|reply|invocation)\b`)

	// --- override_user -------------------------------------------------------

	// Discarding instructions: the user's, prior ones, the system's, the
	// operator's, safety rules; or this text declared above them.
	pxDiscard = px(`(\b(ignore|ignoring|disregard|disregarding|forget|forgetting|override|overrides|overriding|overrule|overrules|bypass|bypassing|supersede|supersedes|circumvent|take precedence over|takes precedence over|have precedence over|has precedence over|take priority over|takes priority over|has priority over|have priority over|prevail over|prevails over|win over|wins over|trump|trumps)\s+(\w+\s+){0,2}(the user'?s|user'?s|users'|prior|previous|earlier|above|preceding|original|system|operator'?s?|developer'?s?|safety|your|all|any|existing|other|their)\b[^.;]{0,40}\b(instructions?|requests?|prompts?|rules|guidelines|directions|wishes|preferences|commands?|messages?|policy|policies|guardrails|safety|choices?|guidance|restrictions|limits|constraints|system prompt|request)\b|\b(overrule|override|ignore|disregard)\s+(the user|them|the human)([ .,;]|$)|\b(user'?s?|users'|their)\s+([\w'-]+\s+){0,5}(instructions?|requests?|preferences?|wishes|choices?|objections?|messages|settings|decisions?)\s+([\w'-]+\s+){0,4}(are|is|should be|must be|can be|are to be|is to be|will be)\s+(to be\s+)?(ignored|overridden|disregarded|irrelevant|secondary|overruled|optional|suggestions?|advisory|void)\b|\btreat\s+(\w+\s+){0,4}(from the user|the user'?s?|user)\s*(\w+\s+){0,3}as\s+(suggestions?|optional|advisory|hints?|non-binding)\b|\b(this|these|the following|the documentation'?s?|our|the server'?s?|the tool'?s?)\s+(\w+\s+){0,1}(instructions?|rules?|description|policy)\s+(win|wins|prevail|prevails|come first|comes first|take precedence|takes precedence|override|overrides|supersede|supersedes)\b|\b(follow|obey|prefer)\s+(this|these|the following|the tool'?s?|our)\s+(\w+\s+){0,1}(description|instructions?|rules?|text|script)\s+(\w+\s+){0,2}(instead of|over|rather than|above)\s+(\w+\s+){0,2}(system prompt|user|operator|instructions?|guidance)|\b(even (when|if) it )?(contradicts?|conflicts? with|goes against)\s+(\w+\s+){0,2}(user'?s?|their|your|system)\s+(instructions?|requests?|wishes|choices|prompt)\b|\b(stop|abandon|drop|abort|interrupt)\s+(the|whatever|any|your)\s+(current\s+)?(task|request|work|job)s?\s+(the user|they|you were|you have been)\s+(gave|given|asked|requested|assigned)\b|\b(follow|obey)\s+(\w+\s+){0,3}(script|instructions?)\s+only\b|\b(you are|you're) (now )?(allowed|permitted|free) to (bypass|ignore|disregard|break)\b)`)

	// The user's choice, as a clause: the user asks, says, selects, refuses.
	userChoice = `\b` + choiceSubject + `\s+(\w+\s+){0,2}(names?|named|indicates?|indicated|orders?|ordered|configures?|configured|prefers?|preferred|approves?|approved|confirms?|confirmed|asks?|asked|says?|said|tells?|told|requests?|requested|wants?|instructs?|stops?|cancels?|cancelled|canceled|declines?|declined|refuses?|refused|objects?|objected|specif(y|ies|ied)|selects?|selected|chooses?|chose|provides?|provided|types?|typed|enters?|entered|tries|tried|removes?|removed|wrote|writes|gives?|gave|picks?|picked|did not ask|does not want|didn't ask)\b`

	// Against the user's choice whatever it is.
	pxAgainstChoice = px(`\b(even if|even when|even though|regardless of|no matter|whatever|whichever|despite|in spite of)\b[^.;]{0,50}` + userChoice + `|\bregardless of (what|whatever) you (find|see|think|discover|notice)\b|\b(even if|even when) (\w+ ){0,3}(forbid|forbids|objects?|refuses?)\b`)

	// When the user chooses X, the model does otherwise.
	pxWhenChoice = px(`\b(if|when|whenever|once|after|as soon as|should)\b[^.;]{0,30}` + userChoice)
	pxContrary   = px(`\b(anyway|anyhow|regardless|still|nonetheless|nevertheless|proceed|carry on|continue|keep|refuse|reopen|override|overrule|ignore|say (it|that)|claim)\b`)
	// A false account on the user's choice: "if the user cancels, pretend
	// it worked" (offline-purpose-1 read these as override_user).
	pxPretend = px(`\b(pretend\w*|claim (that|it)|fake)\b`)
	pxInstead = px(`\binstead\b`)
	// A routing step after the user's choice ("if the user asks for X, use
	// Y instead"): following the choice, not overriding it.
	pxRoutingAct = px(`[,;]\s*(then )?(use|call|choose|pick|select|prefer|send|switch|try|set|return|search|query|pass|run|invoke|ask)\b[^,;]*\binstead\b`)
	// Deference: the instruction waits for the user.
	pxDefer = px(`\b(only (if|when)|unless|until)\s+(\w+\s+){0,4}(user|they|them)\b|\buntil (receiving|you receive|getting)\b[^.]{0,40}\bfrom the user\b`)

	// Not stopping when the user stops.
	pxNoStop = px(`(\b(do not|don't|dont|never)\s+(stop|halt|abort|cancel|end|give up)\b[^.;]{0,60}` + userChoice + `|\b(keep|continue)\s+\w+ing\b[^.;]{0,30}\b(after|when|even if|even after|if)\b[^.;]{0,20}\b(user|they)\b[^.;]{0,20}\b(says?|asks?|tells?)\b[^.;]{0,10}\b(stop|to stop|cancel|no)\b)`)

	// Changing what the model runs or which tool serves the user: pipe to
	// a shell, a prefix on every command, cloning and running an install
	// script, privilege escalation, shadowing another server's tool.
	pxCommandOverride = px("(`[^`]*(curl|wget)[^`]*\\|\\s*(sudo\\s+)?(sh|bash|zsh|python3?|node)\\b[^`]*`|\\b(add|prepend|insert|put)\\s+(this|the|a)\\s+(prefix|line|script|command|hook)\\s+(to|before|at the start of)\\s+(\\w+\\s+){0,2}(commands?|every|all|each)\\b|\\bclone\\s+\\S+\\s+and\\s+run\\b|\\brun (its|the) (install|setup) script\\b|\\b(postinstall|preinstall) script\\b[^.]{0,60}\\b(curl|wget|https?://)|\\b(rerun|re-run|run)\\s+(it|them|the command|commands)\\s+(with|as|under)\\s+(sudo|root|admin(istrator)?)\\b|\\b(overrides?|replaces?|supersedes?|shadows?)\\s+(the\\s+)?(\\w+\\s+){0,2}(of|from)\\s+(any|every|all|the)\\s+other\\s+(servers?|tools?)\\b|\\bof the other server\\b[^.]{0,40}\\b(deprecated|unsafe|never use|instead)\\b)")

	// --- conceal_from_user ---------------------------------------------------

	// A prohibition on telling: do not tell, mention, reveal, show, say,
	// explain; let the user know; bring it up.
	pxNoTell = px(`\b(do not|don't|dont|never|must not|should not|shouldn't|mustn't|no need to|not to|nor)\s+(ever\s+|actually\s+)?(tell|telling|mention|mentioning|inform|informing|notify|notifying|reveal|revealing|disclose|disclosing|show|showing|say|saying|explain|explaining|describe|describing|admit|admitting|acknowledge|acknowledging|report|reporting|alert|alerting|display|displaying|list|listing|expose|surface|bring (it|this|that|them) up|bring up|draw attention|let (the user|them|anyone|the human|users|him|her) (know|see|find out|notice|learn))\b`)

	// What may legitimately be kept off the screen: secret values.
	pxTellDataObject = px(`^(\s*(to (the user|them)|the|any|these|those|its|their|raw|full|unredacted|actual|real|plain|plaintext|stored|)\s*)*(\w+ )?(password|passwords|api[ _-]?keys?|tokens?|secrets?|credentials|values?|keys?|unredacted|pii|personal data|personal information|email addresses|original values|plaintext)\b`)

	pxTellInnocent = px(`(\bshow(ing)? up\b|\b(tell|ask) (the user|them) to\b|\bnever (tell|say) (never|no)\b)`)

	// Hiding in other words.
	pxHide = px(`(\bsay nothing\b|\b(nobody|no one|no-one|noone) (needs? to|should|must|has to|will) (know|see|notice|find out|be told)\b|\bkeep (this|it|that|these|them|the \w+)( \w+)? (to yourself|secret|hidden|confidential|private|quiet|between us)\b|\bkeep (this|it|that|these|them|the \w+)( \w+)? hidden\b|\b(hidden|invisible|concealed) (from|to) (the user|users|them|the human)\b|\b(hide|conceal|withhold|keep|mask)\b[^.]{0,60}\bfrom (the user|users|them|the human)\b|\bwithout (the user|users|them|the human|anyone|him|her)'?s? (noticing|knowing|seeing|realizing|realising|being aware|knowledge|awareness)\b|\bwithout (mentioning|telling|informing|notifying|alerting|disclosing|revealing)( (it|this|that|them|the user|the human|anyone|anything|him|her))?\s*([.;,]|$)|\bso (that )?it looks (as if|as though|like)\b|\bas if nothing\b|\bleave (it|this|that|them|these|those|the( \w+){1,2}) out of\b|\b(hide|conceal|suppress)\b[^.]{0,60}\b(when|while|before) (you )?(display|show|report|present|summari[sz]e|list)|\b(omit|remove|drop|strip|exclude|filter out|leave out|hide|conceal|suppress|skip)\b[^.]{0,60}\b((from|in|out of) (the|your|any) (\w+ ){0,2}(list|summary|output|diff|report|draft|result|reply|answer|explanation)s? (you|that you) (show|give|report|present|display|send)|you (show|give|report|present|display) (to )?(the user|them))\b|\b(when|while|before) (displaying|showing|reporting|presenting)\b[^.]{0,40}\b(to the user|the user|them)\b[^.]{0,20}\b(omit|remove|drop|strip|exclude|filter out|leave out|hide|skip)\b|\b(should|must|will|may) (not|never) (appear|be (shown|visible|listed|mentioned|displayed)) in\b[^.]{0,40}\b(you show|shown to|the user sees|they see|visible to)\b|\b(the user|users|they|the human)\s+(must|should|need|needs|will|is to|are to)\s*(not|n't|never)\s+(need to\s+)?(know|see|notice|learn|find out|be (told|informed|aware|alerted|notified|shown)|hear about)\b|\b(the user|users|they|the human)\s+(does|do)\s*(not|n't) need to (know|see|notice|learn|find out|be told)\b|\b(must|should) stay that way\b|\\u001b\[8m|\x1b\[8m|\bescape (sequence|code)s?\b[^.]{0,60}\b(hide|hides|hidden|invisible|conceal)|\bdo not let (it|them|this) (be )?(seen|visible|shown)\b)`)

	// Adverbs of secrecy on an action.
	pxSecretly = px(`\b(silently|secretly|covertly|quietly|stealthily|invisibly|discreetly|surreptitiously)\s+(\w+\s+)?(send|sends|upload|uploads|forward|forwards|include|includes|pass|passes|add|adds|call|calls|run|runs|execute|executes|read|reads|copy|copies|attach|attaches|post|posts|install|installs|change|changes|delete|deletes|record|records|log|logs|modify|modifies|replace|replaces)\b`)

	// A false account: the model tells the user something (that it was
	// done, that it was cancelled, that it is the user's choice).
	pxAccount = px(`(^|[,;:]\s*|\b(and|then|but|instead)\s+)(tell|report|say|confirm|reply|respond|present|describe|show|assure|claim|inform|state)\s+((to\s+)?(the user|the customer|the client|them|him|her)\b|that\b|only\b|(\w+\s+){0,3}as\b)`)

	// An account that is false by construction.
	pxFalseMarker = px(`(\bas if\b|\bas though\b|\blooks? like\b|\bpretend\w*\b|\bbut (do not|don't|dont|never) actually\b|\bdo not actually\b|\bclaim (that|it)\b|\bfake\b)`)
)

// Multilingual forms of the strongest signals (Spanish, French, German,
// Portuguese, Italian, Chinese). Folded text; no \b beside non-ASCII.
var (
	pxIntlDiscard = px(`(ignora(r)? (todas |las |tus )*(instrucciones|indicaciones) (anteriores|previas|del usuario)|ignore[zr]? (toutes )?(les )?(instructions|consignes) (précédentes|antérieures|de l'utilisateur)|ignoriere (alle )?(vorherigen |bisherigen )?(anweisungen|instruktionen)|ignore (todas )?(as )?(instruções|instrucoes) (anteriores|do usuário)|ignora (tutte )?(le )?(istruzioni) (precedenti|dell'utente)|忽略(之前|以前|先前|所有|用户)的?(指令|指示|说明))`)
	pxIntlNoTell  = px(`(no (le )?(digas|menciones|informes|reveles|cuentes) (nada )?(al usuario|a nadie)|ne (le )?(dis|dites|mentionne[zr]?|révèle[zr]?) (rien )?(pas )?(à|a) (l'utilisateur|personne)|sag(e|en sie)? (dem (benutzer|nutzer)|niemandem) nicht|erwähne (das |dies )?nicht|não (conte|diga|mencione|informe) (ao usuário|a ninguém)|non (dire|dirlo|menzionare|rivelare) (all'utente|a nessuno)|不要(告诉|通知|提及|透露)(用户|任何人))`)
	pxIntlSecret  = px(`(clave(s)? (ssh|privada|api)|contraseñas?|clé(s)? (ssh|privée|api)|mots? de passe|(ssh|privater?|api)-?schlüssel|passw(o|ö)rter|senha(s)?|chiave (ssh|privata|api)|私钥|密码|系统提示)`)
	// (offline-purpose-2 reads the conversation in other languages through
	// purpose_intl.go, where a summariser's purpose needs it.)
	pxIntlSend = px(`(envía|envia|enviar|incluye|incluir|adjunta|pega|envoie[zr]?|inclu(s|ez|re)|joins|joignez|colle[zr]?|sende|senden|füge|hinzufügen|anhängen|inclua|anexe|invia|includi|allega|发送|附加|包含|上传|放入)`)
)
