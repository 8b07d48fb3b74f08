package corpus

import (
	"sort"
	"strings"
)

// EnvProfile names the common dummy-credential set DummyEnv returns. A
// truth file records the profile's name, not its values; README.md lists it.
const EnvProfile = "dummy-v1"

// DataPlaceholder stands in an argument for the probe's throwaway data
// directory, so a truth file records the argument, not a temporary path.
const DataPlaceholder = "{data}"

// DummyEnv is the set of variables every server is started with: the
// credential names common servers refuse to start without, each set to an
// obviously fake value, and backends pointed at a closed loopback port, so a
// server that reaches out at start fails fast on this machine instead of
// hanging. No value is a real credential.
func DummyEnv() map[string]string {
	const tok = "dummy-attestari-probe"
	env := map[string]string{
		"NO_COLOR": "1",
	}
	for _, k := range []string{
		"GITHUB_TOKEN", "GITHUB_PERSONAL_ACCESS_TOKEN", "GH_TOKEN",
		"GITLAB_PERSONAL_ACCESS_TOKEN", "GITLAB_TOKEN",
		"BRAVE_API_KEY", "GOOGLE_MAPS_API_KEY", "GOOGLE_API_KEY", "GEMINI_API_KEY",
		"OPENAI_API_KEY", "ANTHROPIC_API_KEY", "PERPLEXITY_API_KEY", "TAVILY_API_KEY",
		"FIRECRAWL_API_KEY", "EXA_API_KEY", "SERPER_API_KEY", "JINA_API_KEY",
		"NOTION_TOKEN", "NOTION_API_KEY", "LINEAR_API_KEY", "STRIPE_SECRET_KEY",
		"SUPABASE_ACCESS_TOKEN", "SENTRY_ACCESS_TOKEN", "SENTRY_AUTH_TOKEN",
		"DATADOG_API_KEY", "DATADOG_APP_KEY", "DD_API_KEY", "DD_APP_KEY",
		"CIRCLECI_TOKEN", "AIRTABLE_API_KEY", "APIFY_TOKEN", "FIGMA_API_KEY",
		"FIGMA_ACCESS_TOKEN", "MAPBOX_ACCESS_TOKEN", "HUBSPOT_ACCESS_TOKEN",
		"PRIVATE_APP_ACCESS_TOKEN", "SHORTCUT_API_TOKEN", "LAUNCHDARKLY_API_KEY",
		"DT_ENVIRONMENT", "PINECONE_API_KEY", "POSTMAN_API_KEY", "REPLICATE_API_TOKEN",
		"CLOUDFLARE_API_TOKEN", "CHANNEL_ACCESS_TOKEN", "CODACY_ACCOUNT_TOKEN",
		"NEON_API_KEY", "BROWSERSTACK_USERNAME", "BROWSERSTACK_ACCESS_KEY",
		"BROWSERBASE_API_KEY", "BROWSERBASE_PROJECT_ID", "TRELLO_API_KEY", "TRELLO_TOKEN",
		"TODOIST_API_TOKEN", "VERCEL_API_TOKEN", "ASANA_ACCESS_TOKEN", "DISCORD_TOKEN",
		"DEEPL_API_KEY", "FR24_API_KEY", "TWILIO_ACCOUNT_SID", "TWILIO_API_KEY",
		"TWILIO_API_SECRET", "HEROKU_API_KEY", "AMAP_MAPS_API_KEY", "BAIDU_MAP_API_KEY",
		"ATLASSIAN_API_TOKEN", "ATLASSIAN_USER_EMAIL", "JIRA_API_TOKEN", "CONFLUENCE_API_TOKEN",
		"METABASE_API_KEY", "ELASTICSEARCH_API_KEY", "ES_API_KEY", "DISCOGS_PERSONAL_ACCESS_TOKEN",
		"ANILIST_TOKEN", "VARIFLIGHT_API_KEY", "BRIGHTDATA_API_TOKEN", "API_TOKEN",
		"ZAI_API_KEY", "Z_AI_API_KEY", "APP_ID", "APP_SECRET", "EVERART_API_KEY",
		"AZURE_DEVOPS_PAT", "AZURE_DEVOPS_ORG", "AZURE_DEVOPS_ORG_URL", "ADO_ORG",
		"INSTANT_APP_ADMIN_TOKEN", "MORPH_API_KEY", "CONTEXT7_API_KEY", "SLACK_TEAM_ID",
		"SLACK_CHANNEL_IDS", "N8N_API_KEY", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY",
		"CURRENTS_API_KEY", "SHOPIFY_ACCESS_TOKEN", "MONGODB_CONNECTION_STRING_DUMMY",
	} {
		env[k] = tok
	}
	env["SLACK_BOT_TOKEN"] = "xoxb-" + tok
	env["AWS_REGION"] = "us-east-1"
	env["ATLASSIAN_SITE_NAME"] = "attestari-probe"
	// Backends: a closed port on the loopback address, never another host.
	env["DATABASE_URL"] = "postgresql://probe:probe@127.0.0.1:9/probe"
	env["POSTGRES_CONNECTION_STRING"] = env["DATABASE_URL"]
	env["REDIS_URL"] = "redis://127.0.0.1:9"
	env["MYSQL_HOST"] = "127.0.0.1"
	env["MYSQL_PORT"] = "9"
	env["MYSQL_USER"] = "probe"
	env["MYSQL_PASS"] = "probe"
	env["MYSQL_PASSWORD"] = "probe"
	env["MYSQL_DB"] = "probe"
	env["MYSQL_DATABASE"] = "probe"
	env["MDB_MCP_CONNECTION_STRING"] = "mongodb://127.0.0.1:9/probe"
	env["MONGODB_URI"] = "mongodb://127.0.0.1:9/probe"
	env["ELASTICSEARCH_URL"] = "http://127.0.0.1:9"
	env["ES_URL"] = "http://127.0.0.1:9"
	env["SEARXNG_URL"] = "http://127.0.0.1:9"
	env["METABASE_URL"] = "http://127.0.0.1:9"
	env["N8N_API_URL"] = "http://127.0.0.1:9"
	env["ARGOCD_BASE_URL"] = "http://127.0.0.1:9"
	env["ARGOCD_API_TOKEN"] = tok
	env["JIRA_URL"] = "http://127.0.0.1:9"
	env["CONFLUENCE_URL"] = "http://127.0.0.1:9"
	env["GITLAB_API_URL"] = "http://127.0.0.1:9/api/v4"
	return env
}

// Setup is what one package needs beyond the common environment to start.
type Setup struct {
	Bin  string            // the bin to start, when the package's own choice is not the server
	Args []string          // DataPlaceholder is replaced by the data directory
	Env  map[string]string // added to DummyEnv, names recorded as extra_env; DataPlaceholder replaced too
	// Files are written into the data directory (into HOME when the path
	// starts with "~/") before the start, path to content: dummy credential
	// files a server insists on reading.
	Files map[string]string
	// URLElicitation makes the client declare URL-mode elicitation besides
	// form mode, as a client able to open a link for the user does: a server
	// may register a tool only for such a client. The probe still answers no
	// elicitation request. Recorded as extra_client_capabilities.
	URLElicitation bool
}

// CapURLElicitation is how a truth file records Setup.URLElicitation.
const CapURLElicitation = "elicitation.url"

// setups lists the arguments the obvious servers require. Each entry is
// taken from the package's own usage text; a server whose arguments are not
// obvious is started without any and its refusal recorded.
//
// The entries under "configured" go further: they switch on the tool sets a
// server's own README or --help documents as off by default, so the truth
// is what a user who enabled every such option sees. Each names where the
// package gates those tools. A mode that replaces the default tools instead
// of adding to them is left off, and so is anything a real user with the
// same configuration would not be shown.
var setups = map[string]Setup{
	"@modelcontextprotocol/server-filesystem": {Args: []string{DataPlaceholder}},
	"@agent-infra/mcp-server-filesystem":      {Args: []string{"--allowed-directories", DataPlaceholder}},
	"mcp-server-filesystem":                   {Args: []string{DataPlaceholder}},
	"@modelcontextprotocol/server-postgres":   {Args: []string{"postgresql://probe:probe@127.0.0.1:9/probe"}},
	"enhanced-postgres-mcp-server":            {Args: []string{"postgresql://probe:probe@127.0.0.1:9/probe"}},
	"@modelcontextprotocol/server-redis":      {Args: []string{"redis://127.0.0.1:9"}},
	"mcp-server-sqlite-npx":                   {Args: []string{DataPlaceholder + "/probe.sqlite"}},
	"mcp-obsidian":                            {Args: []string{DataPlaceholder}},
	"@bytebase/dbhub":                         {Args: []string{"--transport", "stdio", "--demo"}},
	"@stripe/mcp":                             {Args: []string{"--tools=all"}, Env: map[string]string{"STRIPE_SECRET_KEY": "sk_test_dummy"}},
	"@launchdarkly/mcp-server":                {Args: []string{"start", "--api-key", "api-dummy"}},
	"@gongrzhe/server-gmail-autoauth-mcp": {
		Files: map[string]string{"~/.gmail-mcp/gcp-oauth.keys.json": `{"installed":{"client_id":"dummy","client_secret":"dummy","redirect_uris":["http://127.0.0.1:9"]}}`},
	},
	"github-mcp-server":                 {Bin: "github-mcp-server-mcp"},
	"@adenot/mcp-google-search":         {Env: map[string]string{"GOOGLE_SEARCH_ENGINE_ID": "dummy-attestari-probe"}},
	"argocd-mcp":                        {Args: []string{"stdio"}},
	"@awesome-ai/elasticsearch-mcp":     {Env: map[string]string{"ES_HOST": "http://127.0.0.1:9"}},
	"@cloudflare/mcp-server-cloudflare": {Args: []string{"run", "0123456789abcdef0123456789abcdef"}},
	"@ergut/mcp-bigquery-server":        {Args: []string{"--project-id", "attestari-probe"}},
	"figma-developer-mcp":               {Args: []string{"--stdio"}},
	"figma-context-mcp":                 {Args: []string{"--stdio"}},
	"@instantdb/mcp":                    {Env: map[string]string{"INSTANT_ACCESS_TOKEN": "dummy-attestari-probe"}},
	"@larksuiteoapi/lark-mcp":           {Args: []string{"mcp", "-a", "cli_dummy", "-s", "dummy"}},
	"mcp-mongo-server":                  {Env: map[string]string{"MCP_MONGODB_URI": "mongodb://127.0.0.1:9/probe"}},
	"todoist-mcp":                       {Env: map[string]string{"API_KEY": "dummy-attestari-probe"}},
	"@twilio-alpha/mcp":                 {Args: []string{"ACdummy/SKdummy:dummy"}},
	"@cocal/google-calendar-mcp": {
		Env:   map[string]string{"GOOGLE_OAUTH_CREDENTIALS": DataPlaceholder + "/gcp-oauth.keys.json"},
		Files: map[string]string{"gcp-oauth.keys.json": `{"installed":{"client_id":"dummy","client_secret":"dummy","redirect_uris":["http://127.0.0.1:9"]}}`},
	},
	"mcp-google-calendar": {Files: map[string]string{"credentials.json": `{"installed":{"client_id":"dummy","client_secret":"dummy","redirect_uris":["http://127.0.0.1:9"]}}`}},
	"@modelcontextprotocol/server-gdrive": {
		Env:   map[string]string{"GDRIVE_CREDENTIALS_PATH": DataPlaceholder + "/gdrive-credentials.json"},
		Files: map[string]string{"gdrive-credentials.json": `{"access_token":"dummy-attestari-probe","token_type":"Bearer"}`},
	},

	// configured (see above).
	// server.js filters every addTool through GROUPS/TOOLS (README "Tool
	// Selection: Groups"); unset, only the five base tools register. Every
	// group id of the README's table, "custom" (reserved) excepted.
	"@brightdata/mcp": {Env: map[string]string{"GROUPS": "ecommerce,social,browser,business,finance,research,app_stores,travel,geo,code,advanced_scraping"}},
	// dist/utils/tool-filters.js: "essential" unless --all (README: "Load
	// all 80+ available tools").
	"@cognitionai/metabase-mcp-server": {Args: []string{"--all"}},
	// build/src/ToolHandler.js getToolStatusInfo disables (hides) a tool
	// whose category flag or condition flag is off: every off-by-default one
	// of build/src/config (category-options.js, mcp-options.js), the last two
	// hidden from --help but defined and described there. Not set: --slim,
	// which replaces the regular tools with three others.
	"chrome-devtools-mcp": {Args: []string{
		"--categoryExtensions", "--categoryPwa", "--categoryExperimentalWebmcp", "--categoryExperimentalThirdParty",
		"--memoryDebugging", "--experimentalVision", "--devtoolsComments", "--experimentalInteropTools",
	}},
	// dist/tools/trigger-url-elicitation.js registers its tool only for a
	// client declaring elicitation.url.
	"@modelcontextprotocol/server-everything": {URLElicitation: true},
}

// extAppsServers are the MCP Apps examples published under the official
// scope: they serve HTTP unless started with --stdio.
var extAppsServers = []string{
	"server-basic-", "server-budget-allocator", "server-cohort-heatmap", "server-customer-segmentation",
	"server-map", "server-pdf", "server-scenario-modeler", "server-shadertoy", "server-sheet-music",
	"server-system-monitor", "server-threejs", "server-transcript", "server-video-resource", "server-wiki-explorer",
}

// SetupFor returns the setup of a package.
func SetupFor(name string) Setup {
	if s, ok := setups[name]; ok {
		return s
	}
	if rest, ok := strings.CutPrefix(name, "@modelcontextprotocol/"); ok {
		for _, p := range extAppsServers {
			if strings.HasPrefix(rest, p) {
				return Setup{Args: []string{"--stdio"}}
			}
		}
	}
	return Setup{}
}

// EnvNames returns the sorted names of env.
func EnvNames(env map[string]string) []string {
	out := make([]string, 0, len(env))
	for k := range env {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
