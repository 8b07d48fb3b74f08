package analyzer

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"
)

// AnthropicConfig configures the Messages API analyzer. BaseURL and APIKey
// come from ATTESTARI_ANTHROPIC_BASE_URL and ATTESTARI_ANTHROPIC_API_KEY (see
// FromEnv); the SDK's environment defaults are switched off so nothing else
// in the environment leaks in. When BaseURL is empty the SDK's own default
// endpoint applies.
type AnthropicConfig struct {
	APIKey         string
	BaseURL        string
	Model          string
	MaxTokens      int64         // default 8192
	Timeout        time.Duration // per attempt; default 180s
	MaxConcurrency int           // calls in flight at once; default 4
	Retry          RetryPolicy
	HTTPClient     *http.Client // default a client with no timeout of its own (the attempt's context bounds it)
}

// Anthropic is the Messages API analyzer: the answer is forced through one
// tool (tool_choice names report_findings) and the tool_use block's input
// is parsed strictly.
type Anthropic struct {
	cfg    AnthropicConfig
	client anthropic.Client
	sem    semaphore
}

// NewAnthropic builds the analyzer. Model must be set.
func NewAnthropic(cfg AnthropicConfig) (*Anthropic, error) {
	hc, err := sdkDefaults("anthropic", cfg.Model, &cfg.MaxTokens, &cfg.Timeout, cfg.HTTPClient)
	if err != nil {
		return nil, err
	}
	opts := []option.RequestOption{
		option.WithoutEnvironmentDefaults(),
		option.WithHTTPClient(hc),
		option.WithMaxRetries(0),
		option.WithAPIKey(cfg.APIKey),
	}
	if cfg.BaseURL != "" {
		opts = append(opts, option.WithBaseURL(cfg.BaseURL))
	}
	return &Anthropic{cfg: cfg, client: anthropic.NewClient(opts...), sem: newSemaphore(cfg.MaxConcurrency)}, nil
}

// ID is "anthropic:" + the model name.
func (a *Anthropic) ID() string { return "anthropic:" + a.cfg.Model }

func (a *Anthropic) params(req Request) anthropic.MessageNewParams {
	schema := AnswerSchema()
	tool := anthropic.ToolParam{
		Name:        ReportToolName,
		Description: anthropic.String("Report the findings and the per-entry routing-guidance counts for the evidence block."),
		InputSchema: anthropic.ToolInputSchemaParam{
			Properties: schema["properties"],
			Required:   []string{"findings", "entries"},
			ExtraFields: map[string]any{
				"additionalProperties": false,
			},
		},
	}
	return anthropic.MessageNewParams{
		Model:     anthropic.Model(a.cfg.Model),
		MaxTokens: a.cfg.MaxTokens,
		System:    []anthropic.TextBlockParam{{Text: string(req.SystemPrompt)}},
		Messages: []anthropic.MessageParam{
			anthropic.NewUserMessage(anthropic.NewTextBlock(string(req.Evidence))),
		},
		Tools:      []anthropic.ToolUnionParam{{OfTool: &tool}},
		ToolChoice: anthropic.ToolChoiceParamOfTool(ReportToolName),
	}
}

// Analyze sends one evidence block and parses the answer. Retries (429 with
// Retry-After, 5xx, 529 overloaded, a connection lost or a body cut short)
// follow cfg.Retry; a refusal, a max_tokens stop, a missing or repeated
// tool_use block, or input that does not parse exactly is returned as the
// matching failure class, with the usage spent so far.
func (a *Anthropic) Analyze(ctx context.Context, req Request) (Response, error) {
	resp := Response{Analyzer: a.ID(), Model: a.cfg.Model}
	if err := a.sem.acquire(ctx); err != nil {
		return resp, err
	}
	defer a.sem.release()

	params := a.params(req)
	msg, calls, err := sdkCall(ctx, a.cfg.Retry, a.cfg.Timeout, func(ctx context.Context) (*anthropic.Message, error) {
		return a.client.Messages.New(ctx, params)
	}, func(err error) (int, http.Header, string, bool) {
		var apiErr *anthropic.Error
		if !errors.As(err, &apiErr) {
			return 0, nil, "", false
		}
		return apiErr.StatusCode, responseHeader(apiErr.Response), string(apiErr.Type()), true
	})
	resp.Usage.Calls = calls
	if err != nil {
		return resp, fmt.Errorf("analyzer: anthropic: %w", err)
	}
	resp.Usage.InputTokens = msg.Usage.InputTokens
	resp.Usage.OutputTokens = msg.Usage.OutputTokens
	resp.StopReason = string(msg.StopReason)
	if msg.Model != "" {
		resp.Model = string(msg.Model)
	}

	switch msg.StopReason {
	case anthropic.StopReasonToolUse, anthropic.StopReasonEndTurn:
	case anthropic.StopReasonRefusal:
		return resp, fmt.Errorf("analyzer: anthropic: %w: stop_reason refusal", ErrRefused)
	case anthropic.StopReasonMaxTokens, anthropic.StopReasonModelContextWindowExceeded:
		return resp, fmt.Errorf("analyzer: anthropic: %w: stop_reason %s", ErrTruncated, msg.StopReason)
	default:
		return resp, fmt.Errorf("analyzer: anthropic: %w: stop_reason %q", ErrMalformed, truncate(string(msg.StopReason)))
	}
	var input []byte
	uses := 0
	for _, b := range msg.Content {
		if b.Type != "tool_use" {
			continue
		}
		uses++
		if b.Name != ReportToolName {
			return resp, fmt.Errorf("analyzer: anthropic: %w: tool_use of %q", ErrMalformed, truncate(b.Name))
		}
		input = b.Input
	}
	if uses != 1 {
		return resp, fmt.Errorf("analyzer: anthropic: %w: %d tool_use blocks, want 1", ErrMalformed, uses)
	}
	resp.Answer = input
	props, reports, err := ParseAnswer(input, req)
	if err != nil {
		return resp, fmt.Errorf("analyzer: anthropic: %w", err)
	}
	resp.Proposals, resp.Entries = props, reports
	return resp, nil
}
